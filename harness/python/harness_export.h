/* The object a Python consumer function is given: the structure the
 * harness handed to an Adopt entry point of the round trip (the consumer
 * feed's export, instrumented: python_consumer.c), exposed through the
 * Arrow PyCapsule Interface, so that a Python library imports it with its
 * own import path (pyarrow.record_batch(handover)) and the consumer rules
 * judge that import.
 *
 * One handover per Adopt, of one kind, with `kind` ("schema", "batch",
 * "device_batch", "device_stream"):
 *   schema:        __arrow_c_schema__ (the harness's schema), and
 *                  __arrow_c_stream__, the schema as a stream of no
 *                  batches (held_stream.h: for a library that
 *                  imports a schema only with data);
 *   batch:         __arrow_c_schema__ (the batch's), __arrow_c_array__;
 *   device_batch:  __arrow_c_schema__ (the batch's), __arrow_c_device_array__;
 *   device_stream: __arrow_c_device_stream__, and __arrow_c_stream__ where
 *                  the stream is on the CPU.
 * Only the method of the entry point's own form is there: a batch the
 * harness hands over as an ArrowDeviceArray is imported as one (a library
 * that prefers __arrow_c_array__ where both exist would otherwise never
 * import the device form).  The array and stream methods are the one way
 * to the harness's structure: the first call gives it out, and each later
 * one a fresh export of the same input, which the harness makes
 * (adc/export_again.h) and judges as it judges the first; it is an
 * ordinary object (shim_object.h), which the library may read as often as
 * it likes (a query engine binds, then scans).
 *
 * The structure is moved into a capsule of the interface's name as the
 * handover is made ("Create a PyCapsule"), whose destructor releases it if
 * no consumer moved it out ("Lifetime Semantics"); the schema half of a
 * pair is a copy of the schema the Adopt was given with the batch
 * (schema_copy.h), made for each call.  requested_schema and any other
 * keyword are accepted and not honoured ("Schema Requests": the callee may
 * return the same schema as for None). */
#ifndef ADC_HARNESS_EXPORT_H
#define ADC_HARNESS_EXPORT_H

#include "adc/arrow_c_abi.h"
#include "adc/export_again.h"
#include "python_api.h"

struct adc_handover;

/* What exports the input of the Import about to run again (the harness's
 * <prefix>_SetExportAgain), or NULL once it returned: a handover asked for
 * its structure a second time hands out what it exports. */
void adc_handover_offer_again(adc_export_again_function function, void* context);

/* A new handover over the structure given (an ArrowSchema, an
 * ArrowArray or ArrowDeviceArray with its schema, an ArrowDeviceArrayStream),
 * taking ownership of everything given whether it succeeds or not (moved
 * out, the original's release set NULL), or NULL with a Python exception
 * pending.  `*state` is what adc_handover_close takes.  The GIL must be
 * held. */
py_object* adc_handover_schema(struct ArrowSchema* schema, struct adc_handover** state);
py_object* adc_handover_batch(struct ArrowSchema* schema, struct ArrowArray* batch,
                              struct adc_handover** state);
py_object* adc_handover_device_batch(struct ArrowSchema* schema, struct ArrowDeviceArray* batch,
                                     struct adc_handover** state);
py_object* adc_handover_device_stream(struct ArrowDeviceArrayStream* stream, struct adc_handover** state);

/* Ends the handover as the library's held object is freed: a structure no method gave out
 * is released now, by its capsule's destructor, rather than whenever
 * Python's cycle collector frees the handover's class; later calls of its
 * methods raise.  Stream views (__arrow_c_stream__) released by then are
 * freed.  The GIL must be held. */
void adc_handover_close(struct adc_handover* state);

#endif /* ADC_HARNESS_EXPORT_H */
