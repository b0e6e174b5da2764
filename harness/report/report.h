/* Reports of a run: the console table and the JSON file; and the rule
 * catalogue as --list-rules prints it. */
#ifndef ADC_REPORT_H
#define ADC_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "runner/session.h"
#include "support/error.h"

struct adc_summary {
  size_t counts[ADC_STATUS_COUNT];
  size_t failing_must_cases; /* MUST cases in fail, crash or timeout */
};

struct adc_summary adc_summarize(const struct adc_case* cases, const struct adc_task_result* results,
                                 size_t n);

void adc_print_console_report(FILE* out, const struct adc_session* session, const struct adc_case* cases,
                              const struct adc_task_result* results, size_t n, bool verbose);

/* Returns 0, or -1 with the reason. */
int adc_write_json_report(const char* path, const struct adc_session* session, const struct adc_case* cases,
                          const struct adc_task_result* results, size_t n, double wall_seconds,
                          struct adc_error* error);

/* How --list-rules prints the catalogue. */
enum adc_catalogue_format {
  ADC_CATALOGUE_IDS,     /* one rule ID per line */
  ADC_CATALOGUE_MARKDOWN /* the table of CONFORMANCE.md, one row per rule */
};
void adc_print_rule_catalogue(FILE* out, enum adc_catalogue_format format);

/* "producer" / "consumer", "MUST" / "SHOULD": as every report spells them. */
const char* adc_role_name(enum adc_role role);
const char* adc_severity_name(enum adc_severity severity);

#endif /* ADC_REPORT_H */
