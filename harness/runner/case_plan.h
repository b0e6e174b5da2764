/* Which cases a run has: every rule for a side named on the command line,
 * on the run's device, for every fixture it applies to, kept by --filter. */
#ifndef ADC_CASE_PLAN_H
#define ADC_CASE_PLAN_H

#include "runner/session.h"

/* Returns the number of cases, written to a new array in `*cases` (free it). */
size_t adc_plan_cases(const struct adc_session* session, const char* const* filters, int n_filters,
                      struct adc_case** cases);

/* A case's time limit: --timeout when given, else its rule's own, else the default. */
double adc_case_timeout(const struct adc_session* session, const struct adc_case* c);

#endif /* ADC_CASE_PLAN_H */
