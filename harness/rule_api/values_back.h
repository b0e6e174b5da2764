/* What a library that keeps its own model of the data gives back through
 * the round trip, compared with the fixture by value.
 *
 * A Python library imports the harness's export into its own model, and
 * the round trip asks it for the data back (round_trip.c).  What comes
 * back is the library's own representation (polars's string views,
 * DuckDB's decoded dictionaries, batches cut as it likes), so it is
 * compared as arrow_format/arrow_logical.h defines, each array read by the
 * schema the library gave: the types logically the fixture's, the names,
 * the values (CONFORMANCE.md, "Values, not representations"), and a
 * dictionary's ARROW_FLAG_DICTIONARY_ORDERED where the library kept the
 * column a dictionary (part of the dictionary's type: a consumer that reads
 * an ordered dictionary as unordered misreads it; CONFORMANCE.md, "What a
 * consumer accepts").  Other flags and metadata are not compared here: no
 * consumer rule judges them, and the library's exports have their producer
 * rules.
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

/* What the last comparison on the thread found, where it returned a
 * difference. */
enum adc_values_back_finding {
  /* The library's own stream failed (get_schema or get_next returned an
   * error): the library declining, not handing on other data. */
  ADC_BACK_LIBRARY_FAILED,
  /* Names or logical types other than the fixture's: the library's own
   * model (polars has no date64), a difference each peer documents. */
  ADC_BACK_OTHER_TYPES,
  /* The fixture's names and logical types, and a batch the columnar format
   * forbids: what the library's export made of the data. */
  ADC_BACK_INVALID,
  /* The fixture's names and logical types, valid batches, and other data:
   * values, or a dictionary's ordered flag. */
  ADC_BACK_OTHER_DATA,
  /* The suite's side failed (the fixture could not be read). */
  ADC_BACK_NOT_COMPARED,
};
enum adc_values_back_finding adc_values_back_last_finding(void);

#endif /* ADC_RULE_API_VALUES_BACK_H */
