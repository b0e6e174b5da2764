/* The "environment" of a run's JSON report: what ran it, on what, with
 * which libraries, devices (as their probes found them) and limits. */
#ifndef ADC_RUN_ENVIRONMENT_H
#define ADC_RUN_ENVIRONMENT_H

#include <cjson/cJSON.h>

#include "runner/session.h"

/* A new object (the caller owns it) for `session`, whose run took
 * `wall_seconds`; stamped with the time of the call. */
cJSON* adc_run_environment_json(const struct adc_session* session, double wall_seconds);

#endif /* ADC_RUN_ENVIRONMENT_H */
