/* Reports of a run: the console table and the JSON file. */
#ifndef ADC_REPORT_H
#define ADC_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "session.h"

struct adc_summary {
  size_t counts[ADC_STATUS_COUNT];
  size_t failing_must_cases; /* MUST cases in fail, crash or timeout */
};

struct adc_summary adc_summarize(const struct adc_case* cases, const struct adc_case_result* results, size_t n);

void adc_print_console_report(FILE* out, const struct adc_session* session, const struct adc_case* cases,
                              const struct adc_case_result* results, size_t n, bool verbose);

/* Returns 0, or -1 after printing one error line. */
int adc_write_json_report(const char* path, const struct adc_session* session, const struct adc_case* cases,
                          const struct adc_case_result* results, size_t n, double wall_seconds);

#endif /* ADC_REPORT_H */
