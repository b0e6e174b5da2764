/* The verdict a case ends with. */
#ifndef ADC_STATUS_H
#define ADC_STATUS_H

#include <stdbool.h>

enum adc_status {
  ADC_PASS,
  ADC_FAIL,          /* a MUST was not met */
  ADC_CRASH,         /* the case died: signal, abort, sanitizer report */
  ADC_TIMEOUT,       /* the case ran past its time limit */
  ADC_NOT_SUPPORTED, /* the library lacks what the rule needs */
  ADC_WARNING,       /* a SHOULD was not met */
  ADC_UNRESOLVED,    /* something outside the rule kept it from running */
  ADC_STATUS_COUNT
};

const char* adc_status_name(enum adc_status status);
/* Whether this status on a MUST rule fails the run (exit code 1). */
bool adc_status_fails_run(enum adc_status status);

#endif /* ADC_STATUS_H */
