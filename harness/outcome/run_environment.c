#include "outcome/run_environment.h"

#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include "runner/case_plan.h"
#include "runner/runner.h"
#include "support/version.h"

static cJSON* side_json(const struct adc_side* side) {
  cJSON* object = cJSON_CreateObject();
  cJSON_AddBoolToObject(object, "tested", side->tested);
  cJSON_AddStringToObject(object, "path", side->path);
  cJSON_AddStringToObject(object, "prefix", side->prefix);
  cJSON_AddBoolToObject(object, "is_reference", side->is_reference);
  return object;
}

/* What the device is, as its probe in a child process found (see
 * runner/device_probe.h); a device not probed has only its name and ABI
 * values. */
static cJSON* device_json(const struct adc_session* session, const struct adc_device_target* device,
                          const struct adc_device_facts* facts) {
  cJSON* object = cJSON_CreateObject();
  cJSON_AddStringToObject(object, "name", device->name);
  cJSON_AddBoolToObject(object, "shared_processes", adc_cases_share_processes(session, device));
  cJSON_AddNumberToObject(object, "arrow_device_type", (double)device->driver->kind->arrow_type);
  cJSON_AddNumberToObject(object, "device_id", (double)device->device_id);
  if (device->driver->kind->event_type != NULL)
    cJSON_AddStringToObject(object, "event_type", device->driver->kind->event_type);
  if (!facts->probed) return object;
  cJSON_AddBoolToObject(object, "available", facts->available);
  if (facts->refused) cJSON_AddBoolToObject(object, "refused", true);
  if (!facts->available) cJSON_AddStringToObject(object, "unavailable_reason", facts->reason);
  const struct adc_device_description* description = &facts->description;
  if (description->model[0]) cJSON_AddStringToObject(object, "model", description->model);
  if (description->driver_version[0])
    cJSON_AddStringToObject(object, "driver_version", description->driver_version);
  if (description->runtime_version[0]) {
    cJSON_AddStringToObject(object, "runtime_version", description->runtime_version);
  }
  return object;
}

/* The distribution's own name for itself, from os-release(5); NULL when
 * there is none. */
static cJSON* os_pretty_name(void) {
  FILE* f = fopen("/etc/os-release", "r");
  if (f == NULL) return NULL;
  char line[512];
  cJSON* name = NULL;
  while (name == NULL && fgets(line, sizeof(line), f) != NULL) {
    if (strncmp(line, "PRETTY_NAME=", 12) != 0) continue;
    char* value = line + 12;
    value[strcspn(value, "\n")] = '\0';
    size_t length = strlen(value);
    if (length >= 2 && value[0] == '"' && value[length - 1] == '"') {
      value[length - 1] = '\0';
      value++;
    }
    name = cJSON_CreateString(value);
  }
  fclose(f);
  return name;
}

static cJSON* os_json(void) {
  cJSON* os = cJSON_CreateObject();
  struct utsname host;
  if (uname(&host) == 0) {
    cJSON_AddStringToObject(os, "sysname", host.sysname);
    cJSON_AddStringToObject(os, "release", host.release);
    cJSON_AddStringToObject(os, "version", host.version);
    cJSON_AddStringToObject(os, "machine", host.machine);
  }
  cJSON* pretty = os_pretty_name();
  if (pretty != NULL) cJSON_AddItemToObject(os, "pretty_name", pretty);
  return os;
}

static const char* sanitizers(void) {
#if defined(__SANITIZE_ADDRESS__) || defined(ADC_SANITIZE_ADDRESS)
  return "address,undefined";
#else
  return "none";
#endif
}

cJSON* adc_run_environment_json(const struct adc_session* session, double wall_seconds) {
  cJSON* env = cJSON_CreateObject();
  cJSON_AddStringToObject(env, "harness", "adc-conform " ADC_VERSION);
  cJSON_AddItemToObject(env, "producer", side_json(&session->producer));
  cJSON_AddItemToObject(env, "consumer", side_json(&session->consumer));
  cJSON_AddStringToObject(env, "device", session->device_option);
  cJSON* devices = cJSON_AddArrayToObject(env, "devices");
  for (size_t d = 0; d < session->n_devices; d++) {
    cJSON_AddItemToArray(devices, device_json(session, &session->devices[d], &session->device_facts[d]));
  }
  cJSON_AddStringToObject(env, "fixtures_dir", session->fixtures_dir);
  if (session->expectations != NULL)
    cJSON_AddStringToObject(env, "expectations", session->expectations->path);
  /* --timeout, or the limit of cases whose rule sets none */
  cJSON_AddNumberToObject(env, "timeout_seconds", adc_session_timeout(session, 0));
  cJSON_AddNumberToObject(env, "jobs", session->jobs);
  cJSON_AddStringToObject(env, "isolation", adc_isolation_name(session->isolation));
  cJSON_AddNumberToObject(env, "wall_seconds", wall_seconds);
  cJSON_AddStringToObject(env, "harness_sanitizers", sanitizers());
  if (session->harness_wrapper != NULL)
    cJSON_AddStringToObject(env, "harness_wrapper", session->harness_wrapper);
  cJSON_AddStringToObject(env, "compiler", ADC_COMPILER);
  cJSON_AddItemToObject(env, "os", os_json());
  struct utsname host;
  if (uname(&host) == 0) {
    cJSON_AddStringToObject(env, "host", host.nodename);
    cJSON_AddStringToObject(env, "kernel", host.release);
    cJSON_AddStringToObject(env, "machine", host.machine);
  }
  char stamp[32];
  time_t now = time(NULL);
  strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
  cJSON_AddStringToObject(env, "time_utc", stamp);
  return env;
}
