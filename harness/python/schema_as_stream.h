/* A schema handed over as a C stream of no batches, for a consumer that
 * imports a schema only with its data (a query engine: DuckDB's from_arrow
 * takes a stream, not a bare schema).  The PyCapsule Interface has no
 * other way to hand such a library a schema, and the stream's schema is
 * "released independently" (spec: "Result lifetimes") as a schema handed
 * over alone is: the consumer rules on schemas judge its release as they
 * judge any import of the schema.
 *
 * get_schema hands out the schema the stream holds the first time (moved:
 * the stream's release no longer releases it), and after that whatever
 * `again` exports (the handover's fresh export: the same schema, from the
 * harness); get_next gives the end of the stream (a released array) at
 * once; get_last_error describes the last failure; release releases the
 * schema if it was never handed out and frees the stream's state. */
#ifndef ADC_SCHEMA_AS_STREAM_H
#define ADC_SCHEMA_AS_STREAM_H

#include "adc/arrow_c_abi.h"

/* Exports the schema again into `out`: NULL, or why it cannot be. */
typedef const char* (*adc_schema_again_function)(struct ArrowSchema* out);

/* Fills `stream` around `schema` (moved in: its release is set NULL).
 * Returns 0, or -1 when out of memory (the schema then left as it was). */
int adc_schema_as_stream(struct ArrowSchema* schema, adc_schema_again_function again,
                         struct ArrowArrayStream* stream);

#endif /* ADC_SCHEMA_AS_STREAM_H */
