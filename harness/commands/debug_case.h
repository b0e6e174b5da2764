/* --debug-case ID: one case run in the harness's own process, for a
 * debugger.  A run forks a process for the libraries' check, one per
 * device probe, one per case or prepared process, which a debugger
 * following forks loses track of; here the case's body runs in the
 * process the debugger started, once the sides are settled (their check
 * forks before), and nothing forks after it but what the case itself
 * does.  The library under test, and the device's runtime, are loaded
 * into this process: a run never does that (CUDA cannot survive a fork
 * once started), which is why this runs one case and forks nothing after.
 * No time limit, no report: the verdict is printed (README, "Debugging a
 * case"). */
#ifndef ADC_DEBUG_CASE_H
#define ADC_DEBUG_CASE_H

#include "runner/session.h"

/* Runs case `c` here and prints its verdict on standard output; returns
 * the exit status a run of that case alone would (0, 1 or 3). */
int adc_debug_case(const struct adc_session* session, const struct adc_case* c);

#endif /* ADC_DEBUG_CASE_H */
