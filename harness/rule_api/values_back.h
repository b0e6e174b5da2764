/* What a library that keeps its own model of the data gives back through
 * the round trip, compared with the fixture by value.
 *
 * A Python library imports the harness's export into its own model, and
 * the round trip asks it for the data back (round_trip.c).  What comes
 * back is the library's own representation (polars's string views,
 * DuckDB's decoded dictionaries, batches cut as it likes), so it is
 * compared as arrow_format/arrow_logical.h defines, each array read by the
 * schema the library gave: the types logically the fixture's, the names,
 * the values (CONFORMANCE.md, "Values, not representations").  Flags and
 * metadata are not compared here: no consumer rule judges them, and the
 * library's exports have their producer rules.
 *
 * Each takes what it is given and releases it; returns NULL when the data
 * are the fixture's, else the first difference (kept until the next call
 * on the thread). */
#ifndef ADC_RULE_API_VALUES_BACK_H
#define ADC_RULE_API_VALUES_BACK_H

#include "adc/arrow_c_abi.h"

/* The schema alone. */
const char* adc_values_back_schema_differs(const char* json_path, struct ArrowSchema* schema);

/* A device stream on the CPU: its schema, then every batch to its end,
 * their rows together compared with batch `num_batch`, or with every
 * batch of the fixture where it is -1. */
const char* adc_values_back_stream_differs(const char* json_path, int num_batch,
                                           struct ArrowDeviceArrayStream* stream);

#endif /* ADC_RULE_API_VALUES_BACK_H */
