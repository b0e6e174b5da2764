/* Runs the cases of a session on the task runner (task_runner.h): the
 * cases of one library on one device share prepared processes, under
 * --isolation shared (auto's default), each case in a process of its own
 * under --isolation case.  Cases of a library whose loading crashed or
 * hung get that verdict without running, cases of a device its probe
 * found unavailable (device_probe.h) end not_supported with the probe's
 * reason, and those of a device that refused the probe every time end
 * unresolved, all without running. */
#ifndef ADC_RUNNER_H
#define ADC_RUNNER_H

#include <stdbool.h>

#include "runner/session.h"
#include "support/error.h"

/* Called in the parent as each case ends (its result is final). */
typedef void (*adc_case_observer)(const struct adc_case* c, const struct adc_task_result* result,
                                  void* context);

/* Whether the cases of `device` share prepared processes
 * (runner/task_runner.h) under the session's --isolation. */
bool adc_cases_share_processes(const struct adc_session* session, const struct adc_device_target* device);

/* "auto", "case", "shared": --isolation's value. */
const char* adc_isolation_name(enum adc_isolation isolation);

/* Fills results[i] for cases[i] (free them with adc_task_results_free,
 * runner/task_runner.h).  Returns 0, or -1 with the reason when the
 * harness itself could not go on. */
int adc_run_cases(const struct adc_session* session, const struct adc_case* cases, size_t n_cases,
                  struct adc_task_result* results, adc_case_observer observer, void* context,
                  struct adc_error* error);

#endif /* ADC_RUNNER_H */
