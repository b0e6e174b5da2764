/* Everything a run works from, settled from its options: the libraries
 * (loaded once each in a throw-away process), the devices, the fixtures,
 * how cases are isolated and limited.  The main command's, and the matrix's
 * for the options its pairs share. */
#ifndef ADC_SESSION_SETTLE_H
#define ADC_SESSION_SETTLE_H

#include "cli/options.h"
#include "runner/session.h"
#include "support/error.h"

/* Fills `session` from `options` (the fixtures loaded: adc_free_fixtures).
 * Returns 0, or -1 with the reason. */
int adc_settle_session(const struct adc_options* options, struct adc_session* session,
                       struct adc_error* error);

#endif /* ADC_SESSION_SETTLE_H */
