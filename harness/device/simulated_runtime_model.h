/* A model of a costly device runtime, for the simulated device, so that
 * what a GPU's runtime does to a run (issue "device runtimes at scale")
 * shows on a machine without one:
 *
 *   ADC_SIMULATED_START_SECONDS=S  a process's first open of the device
 *       costs S seconds, one process at a time across the machine, as
 *       CUDA's driver serialises context creation (0.2 to 0.4 s each on an
 *       H200, 2.4 s each with 16 at once);
 *   ADC_SIMULATED_CLIENT_LIMIT=N   at most N processes hold the device at
 *       once, as NVIDIA's MPS daemon's client limit; an open beyond it is
 *       refused, "busy" (ADC_DEVICE_BUSY), as MPS refuses;
 *   ADC_SIMULATED_RUNTIME_DIR=DIR  where the model keeps its lock files
 *       (the start's, one per client) and "starts", a byte per start
 *       paid; by default
 *       /tmp/adc-simulated-runtime-<uid>: every run of the machine shares
 *       it, as they would a GPU.
 *
 * Unset (the default), the simulated device costs nothing to open.  A
 * process pays the start and takes a client once, at its first open, and
 * keeps the client until it ends, as a process keeps its CUDA context; the
 * lock files are released by the kernel when it ends, however it ends. */
#ifndef ADC_SIMULATED_RUNTIME_MODEL_H
#define ADC_SIMULATED_RUNTIME_MODEL_H

#include <stdbool.h>
#include <stddef.h>

#include "support/error.h"

/* Whether the environment asks for the model (either variable set to
 * more than 0).  Reads only the environment. */
bool adc_simulated_model_on(void);

/* In a process opening the simulated device: the model's start, once per
 * process.  0; ADC_DEVICE_BUSY with the reason when the client limit is
 * reached; -1 with the reason when the model's files cannot be used. */
int adc_simulated_model_start(struct adc_error* error);

/* "start 0.2 s, one at a time; at most 4 clients", for the report's
 * description of the device; "" when the model is off. */
void adc_simulated_model_describe(char* text, size_t size);

#endif /* ADC_SIMULATED_RUNTIME_MODEL_H */
