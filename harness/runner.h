/* Runs cases, each in a child process of its own, up to `jobs` at a time.
 * A child that crashes, aborts, trips a sanitizer or runs past the timeout
 * becomes that case's verdict; the run goes on. */
#ifndef ADC_RUNNER_H
#define ADC_RUNNER_H

#include "session.h"

void adc_run_cases(const struct adc_session* session, const struct adc_case* cases, size_t n_cases,
                   struct adc_case_result* results);

#endif /* ADC_RUNNER_H */
