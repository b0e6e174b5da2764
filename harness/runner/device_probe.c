#include "runner/device_probe.h"

#include <stdio.h>
#include <string.h>

#include "runner/task_runner.h"
#include "support/clock.h"
#include "wire/wire.h"

/* A probe's verdict carries its findings as four lines: the reason the
 * device is unavailable ("" when it is available), the model, the driver
 * version and the runtime version. */
#define FIELD_SEPARATOR '\n'

/* Long enough for a runtime that starts slowly; a hang is only a device
 * the report cannot describe. */
#define PROBE_TIMEOUT_SECONDS 30.0

/* A device that is there but refuses the probe (ADC_DEVICE_BUSY) is asked
 * again this many times, after pauses that double from the first. */
#define PROBE_REFUSALS_TOLERATED 5
#define PROBE_FIRST_PAUSE_SECONDS 0.1

/* Opens the device, asking again while it refuses; what open returned. */
static int open_for_probe(const struct adc_device_target* target, struct adc_device* device,
                          struct adc_error* error) {
  double pause = PROBE_FIRST_PAUSE_SECONDS;
  int opened = adc_device_open(target, device, error);
  for (int refusals = 1; opened == ADC_DEVICE_BUSY && refusals < PROBE_REFUSALS_TOLERATED; refusals++) {
    adc_device_close(device);
    adc_sleep_seconds(pause);
    pause *= 2;
    opened = adc_device_open(target, device, error);
  }
  return opened;
}

/* The probe opens the live device, in its own process as a case would,
 * describes it and closes it again.  A device that keeps refusing it is
 * there, busy: the probe's verdict is then unresolved, never
 * not_supported. */
static void probe_in_child(const void* argument, int verdict_fd) {
  const struct adc_device_target* target = argument;
  struct adc_error unavailable;
  memset(&unavailable, 0, sizeof(unavailable));
  struct adc_device device;
  int opened = open_for_probe(target, &device, &unavailable);
  bool available = opened == 0;
  struct adc_device_description description;
  memset(&description, 0, sizeof(description));
  adc_device_describe(&device, &description);
  adc_device_close(&device);
  char message[sizeof(((struct adc_wire_record*)0)->message)];
  snprintf(message, sizeof(message), "%.500s%c%.159s%c%.63s%c%.63s", available ? "" : unavailable.message,
           FIELD_SEPARATOR, description.model, FIELD_SEPARATOR, description.driver_version, FIELD_SEPARATOR,
           description.runtime_version);
  enum adc_status status = available ? ADC_PASS : ADC_NOT_SUPPORTED;
  adc_wire_send(verdict_fd, opened == ADC_DEVICE_BUSY ? ADC_UNRESOLVED : status, message);
}

/* Copies the next field of `*text` into `out` and steps past it. */
static void take_field(const char** text, char* out, size_t size) {
  size_t length = strcspn(*text, (const char[]){FIELD_SEPARATOR, '\0'});
  snprintf(out, size, "%.*s", (int)length, *text);
  *text += length + ((*text)[length] != '\0');
}

/* Whether one of the cases runs on `device`. */
static bool has_cases_on(const struct adc_device_target* device, const struct adc_case* cases,
                         size_t n_cases) {
  for (size_t i = 0; i < n_cases; i++) {
    if (cases[i].device == device) return true;
  }
  return false;
}

int adc_probe_devices(struct adc_session* session, const struct adc_case* cases, size_t n_cases,
                      struct adc_error* error) {
  struct adc_task tasks[ADC_MAX_DEVICES] = {{0}};
  struct adc_task_result results[ADC_MAX_DEVICES];
  size_t probed[ADC_MAX_DEVICES] = {0}; /* the device of each task */
  size_t n_tasks = 0;
  for (size_t d = 0; d < session->n_devices; d++) {
    memset(&session->device_facts[d], 0, sizeof(session->device_facts[d]));
    if (!has_cases_on(&session->devices[d], cases, n_cases)) continue;
    tasks[n_tasks] = (struct adc_task){
        .run = probe_in_child, .argument = &session->devices[d], .timeout_seconds = PROBE_TIMEOUT_SECONDS};
    probed[n_tasks++] = d;
  }
  struct adc_task_run run = {.jobs = session->jobs};
  if (adc_run_tasks(tasks, n_tasks, &run, results, error) != 0) return -1;
  for (size_t t = 0; t < n_tasks; t++) {
    const struct adc_task_result* result = &results[t];
    struct adc_device_facts* facts = &session->device_facts[probed[t]];
    facts->probed = true;
    facts->available = result->status == ADC_PASS;
    facts->refused = result->status == ADC_UNRESOLVED && result->message[0] != '\0' &&
                     strchr(result->message, FIELD_SEPARATOR) != NULL;
    if (!adc_status_found_nothing_wrong(result->status) && !facts->refused) {
      /* The probe itself crashed or hung: its message says how. */
      snprintf(facts->reason, sizeof(facts->reason), "probing the device: %.480s", result->message);
      continue;
    }
    const char* text = result->message;
    take_field(&text, facts->reason, sizeof(facts->reason));
    take_field(&text, facts->description.model, sizeof(facts->description.model));
    take_field(&text, facts->description.driver_version, sizeof(facts->description.driver_version));
    take_field(&text, facts->description.runtime_version, sizeof(facts->description.runtime_version));
  }
  return 0;
}

const struct adc_device_facts* adc_probed_facts(const struct adc_session* session,
                                                const struct adc_device_target* device) {
  for (size_t d = 0; d < session->n_devices; d++) {
    if (&session->devices[d] == device)
      return session->device_facts[d].probed ? &session->device_facts[d] : NULL;
  }
  return NULL;
}
