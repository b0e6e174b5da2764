/* Runs cases, each in a child process of its own, up to `jobs` at a time.
 * A child that crashes, aborts, trips a sanitizer or runs past its time
 * limit becomes that case's verdict; the run goes on. */
#ifndef ADC_RUNNER_H
#define ADC_RUNNER_H

#include "runner/session.h"
#include "support/error.h"

/* Fills results[i] for cases[i].  Returns 0, or -1 with the reason when the
 * harness itself could not go on (no pipe or process could be made). */
int adc_run_cases(const struct adc_session* session, const struct adc_case* cases, size_t n_cases,
                  struct adc_case_result* results, struct adc_error* error);

#endif /* ADC_RUNNER_H */
