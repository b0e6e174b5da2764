/* What the devices of a run are, for the report's environment: each device
 * probed and described (model, driver and runtime versions) in a child
 * process of its own, as cases are, since the harness parent must never
 * load a GPU runtime (CUDA cannot survive a fork once initialised). */
#ifndef ADC_DEVICE_PROBE_H
#define ADC_DEVICE_PROBE_H

#include "runner/session.h"
#include "support/error.h"

/* Fills session->device_facts for every device of the run.  Returns 0, or
 * -1 with the reason when no process could be started. */
int adc_probe_devices(struct adc_session* session, struct adc_error* error);

#endif /* ADC_DEVICE_PROBE_H */
