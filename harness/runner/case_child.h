/* The child side of a case: load the library, check the rule's needs, run
 * the body, send the verdict.  Runs in the case's own process. */
#ifndef ADC_CASE_CHILD_H
#define ADC_CASE_CHILD_H

#include "runner/session.h"

/* Runs case `c` and sends its verdict to `verdict_fd`. */
void adc_run_case_in_child(const struct adc_session* session, const struct adc_case* c, int verdict_fd);

#endif /* ADC_CASE_CHILD_H */
