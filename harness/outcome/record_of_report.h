/* The run record of JSON reports (report.schema.json): merge makes the
 * record of a whole run from its shards' reports, verify the record of a
 * bundle's report.  Neither takes a file's summary or verdict on trust:
 * the cases are counted and judged again as a run judges its own
 * (run_record.h).  The record points into the parsed reports, which must
 * outlive it. */
#ifndef ADC_RECORD_OF_REPORT_H
#define ADC_RECORD_OF_REPORT_H

#include <cjson/cJSON.h>
#include <stdbool.h>

#include "outcome/run_record.h"

/* Begins `record` (adc_run_record_begin; free it with
 * adc_run_record_free) for up to `capacity` cases of the run whose
 * report's "environment" is `environment`: the sides it tested and their
 * libraries, --device, the devices and the --expect file, pointed into;
 * and a copy of the environment, the record's.  `command_line`, a JSON
 * array, is taken over by the record (NULL: none).  Returns 0, or -1 when
 * out of memory. */
int adc_run_record_begin_for_report(struct adc_run_record* record, size_t capacity, const cJSON* environment,
                                    cJSON* command_line, struct adc_error* error);

/* Reads the case object `item` of a report into `out`, pointing into
 * `item`; false when its role, severity, status or expectation outcome is
 * missing or spelled otherwise than the schema says.  A missing ID reads
 * "(no id)", another missing text "". */
bool adc_case_record_of_json(const cJSON* item, struct adc_case_record* out);

/* The --expect entries of `entries` (a report's unmatched_expectations:
 * an array of {"glob", "line"}), pointed into, as the record's unmatched
 * ones.  Returns 0, or -1 when out of memory. */
int adc_run_record_take_unmatched(struct adc_run_record* record, const cJSON* entries,
                                  struct adc_error* error);

#endif /* ADC_RECORD_OF_REPORT_H */
