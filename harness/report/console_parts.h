/* The two bodies of the console report (report_console.c prints the
 * summary under either): one line per rule, the default, and one line per
 * case, with --verbose. */
#ifndef ADC_CONSOLE_PARTS_H
#define ADC_CONSOLE_PARTS_H

#include <stdbool.h>
#include <stdio.h>

#include "runner/session.h"

/* Every rule that did not pass every case, one line each (its worst
 * status, severity, counts per status, its most telling message), a line
 * counting the rules that did, and a line per unavailable device. */
void adc_console_put_rules(FILE* out, const struct adc_session* session, const struct adc_case* cases,
                           const struct adc_task_result* results, size_t n, bool colour);

/* Every case, grouped by device and rule, with its message. */
void adc_console_put_cases(FILE* out, const struct adc_session* session, const struct adc_case* cases,
                           const struct adc_task_result* results, size_t n, bool colour);

#endif /* ADC_CONSOLE_PARTS_H */
