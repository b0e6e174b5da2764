/* A C stream over what it holds: a schema, and at most one array.
 *
 * For a library that imports a schema or a batch only as a stream (a
 * query engine: DuckDB's from_arrow takes a stream, not a bare schema),
 * the shim hands the same data over as a stream: a consumer's schema
 * handover as a stream of no batches, a fixture's batch source as a stream
 * of that one batch.  What a stream hands out is "released independently"
 * (spec: "Result lifetimes"), as the structures handed over alone are, so
 * the rules on them judge their release alike.
 *
 * get_schema hands out the schema it holds the first time (moved: the
 * stream's release no longer releases it), and after that whatever `again`
 * exports; get_next hands out the array it holds the first time, then the
 * end of the stream (a released array) as often as asked; get_last_error
 * describes the last failure; release releases what was never handed out,
 * frees `again_context` with `free_context` (where not NULL) and the
 * stream's state. */
#ifndef ADC_HELD_STREAM_H
#define ADC_HELD_STREAM_H

#include "adc/arrow_c_abi.h"

/* Exports the schema again into `out`: NULL, or why it cannot be. */
typedef const char* (*adc_schema_again_function)(void* context, struct ArrowSchema* out);

/* Fills `stream` around `schema` and `array` (NULL: none), each moved in
 * (their release set NULL).  Returns 0, or -1 when out of memory (then
 * nothing is moved, and `again_context` is left to the caller). */
int adc_held_stream(struct ArrowSchema* schema, struct ArrowArray* array, adc_schema_again_function again,
                    void* again_context, void (*free_context)(void*), struct ArrowArrayStream* stream);

#endif /* ADC_HELD_STREAM_H */
