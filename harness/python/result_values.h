/* What a Python consumer gives back, compared with the fixture by value.
 *
 * A Python library imports the harness's export into its own model, and
 * the shim asks its result for the data back (python_consumer.c).  What
 * comes back is the library's own representation (polars's string views,
 * DuckDB's decoded dictionaries, batches cut as it likes), so it is
 * compared as arrow_format/arrow_logical.h defines, each array read by the
 * schema the result gave: the types logically the fixture's, the names,
 * the values.  Flags and metadata are not compared here: no consumer rule
 * judges them, and the library's exports have their producer rules.
 *
 * Each takes what it is given and releases it; returns NULL when the data
 * are the fixture's, else the first difference (kept until the next call
 * on the thread). */
#ifndef ADC_RESULT_VALUES_H
#define ADC_RESULT_VALUES_H

#include "adc/arrow_c_abi.h"

/* The schema alone. */
const char* adc_result_schema_differs(const char* json_path, struct ArrowSchema* schema);

/* Batch `num_batch`: the result's `schema` and `array` (a struct array on
 * the CPU). */
const char* adc_result_batch_differs(const char* json_path, int num_batch, struct ArrowSchema* schema,
                                     struct ArrowArray* array);

/* A device stream on the CPU: its schema, then every batch to its end,
 * their rows together compared with batch `num_batch`, or with every
 * batch of the fixture where it is -1. */
const char* adc_result_stream_differs(const char* json_path, int num_batch,
                                      struct ArrowDeviceArrayStream* stream);

#endif /* ADC_RESULT_VALUES_H */
