/* The object a Python factory is given: the fixture, exported by the
 * reference producer (linked into the shim, hidden) and exposed through the
 * PyCapsule Interface, so that a Python library under test imports it with
 * its own import path (pyarrow.record_batch(source)) and the harness then
 * judges that library's own export of what it imported.
 *
 * One source per entry point call, of one kind:
 *   schema: __arrow_c_schema__ (the fixture's schema), and the stream's
 *           methods, so that a library whose objects are made from data
 *           (a data frame, a relation) can make one: the schema judged is
 *           its object's (python_producer.c);
 *   batch:  __arrow_c_schema__, __arrow_c_array__ (batch num_batch), and
 *           __arrow_c_stream__, a stream of that batch alone, for a
 *           library that imports data only as a stream (held_stream.h);
 *   stream: __arrow_c_schema__, __arrow_c_stream__ and
 *           __arrow_c_device_stream__ (every batch, on the CPU).
 * Every method may be called as often as the library likes: each call
 * exports the fixture afresh, which the library owns (and must release).
 * Each also has `kind` ("schema", "batch", "stream") and `fixture` (the
 * JSON file's path), and is an ordinary object (shim_object.h).  Its
 * capsules are made as the PyCapsule Interface's "Create a PyCapsule"
 * does: the structure allocated, the capsule made around it, its
 * destructor releasing what no consumer took (release not NULL) and
 * freeing it.  requested_schema is accepted and not honoured, which the
 * interface allows ("Schema Requests": the callee may return the same
 * schema as for None), but one with another number of fields than the
 * fixture's is refused with ValueError ("the callee should raise an
 * exception"). */
#ifndef ADC_FIXTURE_SOURCE_H
#define ADC_FIXTURE_SOURCE_H

#include "python_api.h"

enum adc_source_kind { ADC_SOURCE_SCHEMA, ADC_SOURCE_BATCH, ADC_SOURCE_STREAM };

/* A new source object, or NULL with a Python exception pending.  The GIL
 * must be held. */
py_object* adc_fixture_source_new(enum adc_source_kind kind, const char* json_path, int num_batch);

/* A capsule named "arrow_schema" holding the fixture's schema, exported by
 * the reference producer, or NULL with a Python exception pending.  The GIL
 * must be held. */
py_object* adc_fixture_schema_capsule(const char* json_path);

#endif /* ADC_FIXTURE_SOURCE_H */
