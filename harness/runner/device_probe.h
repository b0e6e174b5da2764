/* What the devices of a run are: each device probed and described (model,
 * driver and runtime versions) in a child process of its own, as cases are,
 * since the harness parent must never load a GPU runtime (CUDA cannot
 * survive a fork once initialised).  The report's environment lists what
 * the probes found, and the runner settles every case of a device found
 * unavailable from it, without a process of its own (runner.h). */
#ifndef ADC_DEVICE_PROBE_H
#define ADC_DEVICE_PROBE_H

#include "runner/session.h"
#include "support/error.h"

/* Fills session->device_facts for every device of the run that one of the
 * `n_cases` planned `cases` runs on, the probes in parallel (up to the
 * session's jobs); the others stay unprobed.  Returns 0, or -1 with the
 * reason when no process could be started. */
int adc_probe_devices(struct adc_session* session, const struct adc_case* cases, size_t n_cases,
                      struct adc_error* error);

/* What the probe found of `device`, a device of the session; NULL when it
 * was not probed. */
const struct adc_device_facts* adc_probed_facts(const struct adc_session* session,
                                                const struct adc_device_target* device);

#endif /* ADC_DEVICE_PROBE_H */
