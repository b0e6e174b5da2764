/* The default body of the console report (report_console.c prints the
 * summary under it): one line per rule.  With --verbose the body is one
 * line per case instead (adc_print_console_cases, report.h). */
#ifndef ADC_CONSOLE_PARTS_H
#define ADC_CONSOLE_PARTS_H

#include <stdbool.h>
#include <stdio.h>

#include "outcome/run_record.h"

/* Every rule that did not pass every case, one line each (its worst
 * status, severity, counts per status, its most telling message), a line
 * counting the rules that did, and a line per unavailable device. */
void adc_console_put_rules(FILE* out, const struct adc_run_record* record, bool colour);

#endif /* ADC_CONSOLE_PARTS_H */
