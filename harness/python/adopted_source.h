/* The object a Python factory is given: what the round trip's Adopt was
 * given (the fixture, exported by the reference on the CPU: harness/rule_api/
 * round_trip.c), exposed through the PyCapsule Interface, so that a Python
 * library under test imports it with its own import path
 * (pyarrow.record_batch(source)) and the harness then judges that
 * library's own export of what it imported (python_producer.c).
 *
 * One source per Adopt, of one kind:
 *   schema: __arrow_c_schema__ (the schema), and the stream's methods over
 *           its data, so that a library whose objects are made from data
 *           (a data frame, a relation) can make one: the schema judged is
 *           its object's (python_producer.c).  The data come from the
 *           harness's export again (below), as a data method's second
 *           call does: the fixture's stream, where the round trip made
 *           ExportSchemaFromJson (adc/export_again.h), or the batch of the
 *           Adopt whose library schema is asked for;
 *   batch:  __arrow_c_schema__, __arrow_c_array__ (the batch), and
 *           __arrow_c_stream__, a stream of that batch alone, for a
 *           library that imports data only as a stream (held_stream.h);
 *   stream: __arrow_c_schema__ (the stream's get_schema, read as the
 *           source is made), __arrow_c_stream__ and
 *           __arrow_c_device_stream__ (every batch, on the CPU).
 * Every method may be called as often as the library likes: the first call
 * of a data method gives out what the Adopt was given, and each later one
 * a fresh export of the same data, which the harness makes
 * (adc/export_again.h, adc_source_offer_again) and the library owns (and
 * must release); a schema is a copy each time (schema_copy.h).  Each has
 * `kind` ("schema", "batch", "stream"), and is an ordinary object
 * (shim_object.h).  Its capsules are made as the PyCapsule Interface's
 * "Create a PyCapsule" does: the structure allocated, the capsule made
 * around it, its destructor releasing what no consumer took (release not
 * NULL) and freeing it.  requested_schema is accepted and not honoured,
 * which the interface allows ("Schema Requests": the callee may return the
 * same schema as for None), but one with another number of fields than the
 * source's is refused with ValueError ("the callee should raise an
 * exception"). */
#ifndef ADC_ADOPTED_SOURCE_H
#define ADC_ADOPTED_SOURCE_H

#include <stdbool.h>

#include "adc/arrow_c_abi.h"
#include "adc/export_again.h"
#include "python_api.h"

enum adc_source_kind { ADC_SOURCE_SCHEMA, ADC_SOURCE_BATCH, ADC_SOURCE_STREAM };

/* What the export again gives for a schema's source: the fixture's device
 * stream on the CPU, or a batch as an ArrowArray or an ArrowDeviceArray
 * on the CPU. */
enum adc_source_data { ADC_DATA_AGAIN_STREAM, ADC_DATA_AGAIN_BATCH, ADC_DATA_AGAIN_DEVICE_BATCH };

/* What exports the current Adopt's input again (the harness's
 * <prefix>_SetExportAgain for the producer), or NULL once its made Export
 * returned: a source asked for its data a second time hands out what it
 * exports. */
void adc_source_offer_again(adc_export_again_function function, void* context);

struct adc_source;

/* New sources over what they are given, whose ownership each takes
 * whether it succeeds or not (moved: the original's release set NULL), or
 * NULL with a Python exception pending; `*state` is what adc_source_close
 * takes (valid while the source object lives).  `again_is_device_array`: the
 * harness's export again of the batch is an ArrowDeviceArray on the CPU
 * (the Adopt was AdoptDeviceBatch), whose array the source hands out.  A
 * stream's source reads its schema as it is made.  The GIL must be held. */
py_object* adc_source_of_schema(struct ArrowSchema* schema, enum adc_source_data data,
                                struct adc_source** state);
py_object* adc_source_of_batch(struct ArrowSchema* schema, struct ArrowArray* batch,
                               bool again_is_device_array, struct adc_source** state);
py_object* adc_source_of_stream(struct ArrowDeviceArrayStream* stream, struct adc_source** state);

/* Ends the source as the held object it was made for is freed: what it
 * holds and never gave out is released now (the source's class lives
 * until Python's cycle collector frees it, and the reference's bytes with
 * it: a leak the rules would see), and its methods raise after.  What it
 * gave out is the library's.  The GIL must be held. */
void adc_source_close(struct adc_source* source);

/* A capsule named "arrow_schema" holding a copy of `schema`, or NULL with
 * a Python exception pending.  The GIL must be held. */
py_object* adc_schema_capsule_copy(const struct ArrowSchema* schema);

#endif /* ADC_ADOPTED_SOURCE_H */
