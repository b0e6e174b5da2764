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
/* The status spelled `name` (as adc_status_name spells it); false when no
 * status is. */
bool adc_status_from_name(const char* name, enum adc_status* out);
/* Whether this status on a MUST rule fails the run (exit code 1). */
bool adc_status_fails_run(enum adc_status status);
/* Whether the case judged the library: pass, fail, crash, timeout or
 * warning.  not_supported and unresolved judge nothing; the coverage of a
 * run is its judged cases over the cases it ran. */
bool adc_status_is_judged(enum adc_status status);
/* Whether the case found nothing wrong: pass, or not_supported (the
 * library declined, as the spec lets it).  Any other is run again where a
 * prepared process gave it. */
bool adc_status_found_nothing_wrong(enum adc_status status);

#endif /* ADC_STATUS_H */
