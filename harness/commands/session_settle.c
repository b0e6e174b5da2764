#include "commands/session_settle.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cli/install_layout.h"
#include "cli/library_sides.h"
#include "commands/wrapped_harness.h"
#include "rule_api/round_trip.h"
#include "runner/case_plan.h"
#include "runner/fixture_set.h"

/* Whether a sanitizer watches the harness's own processes (its asan and
 * tsan builds). */
static bool harness_sanitized(void) {
#if defined(ADC_SANITIZE_ADDRESS) || defined(ADC_SANITIZE_THREAD)
  return true;
#else
  return false;
#endif
}

/* Whether the harness runs under Valgrind however it was started
 * (ci/valgrind-reference.sh runs `valgrind adc-conform ...`, not
 * --valgrind): Valgrind preloads its own libraries into the client. */
static bool under_valgrind(void) {
  const char* preload = getenv("LD_PRELOAD");
  return preload != NULL && strstr(preload, "vgpreload") != NULL;
}

/* --isolation as it takes effect: auto is shared, but a process per case
 * under a memory checker or a sanitizer, whose report comes as a process
 * ends (or, for a race, whenever it shows) and must name one case. */
static enum adc_isolation effective_isolation(enum adc_isolation asked, bool wrapped) {
  if (asked != ADC_ISOLATION_AUTO) return asked;
  return wrapped || harness_sanitized() ? ADC_ISOLATION_CASE : ADC_ISOLATION_SHARED;
}

/* Adds `target` to the session's devices, once. */
static int add_device(struct adc_session* session, const struct adc_device_target* target,
                      struct adc_error* error) {
  for (size_t d = 0; d < session->n_devices; d++) {
    if (strcmp(session->devices[d].name, target->name) == 0)
      return adc_fail(error, "device '%s' is named twice in --device", target->name);
  }
  if (session->n_devices == ADC_MAX_DEVICES)
    return adc_fail(error, "--device names more than %d devices", ADC_MAX_DEVICES);
  session->devices[session->n_devices++] = *target;
  return 0;
}

/* --device: a comma-separated list of NAME, NAME:ID (a device id other
 * than the first) or all (every driver's first device). */
static int settle_devices(const char* list, struct adc_session* session, struct adc_error* error) {
  char copy[512];
  if (snprintf(copy, sizeof(copy), "%s", list) >= (int)sizeof(copy))
    return adc_fail(error, "--device is too long");
  char* rest = copy;
  for (char* item = strsep(&rest, ","); item != NULL; item = strsep(&rest, ",")) {
    if (strcmp(item, "all") == 0) {
      for (size_t d = 0; d < adc_device_count(); d++) {
        struct adc_device_target target = adc_device_target_of(adc_device_at(d));
        if (add_device(session, &target, error) != 0) return -1;
      }
      continue;
    }
    struct adc_device_target target;
    if (adc_device_target_parse(item, &target, error) != 0 || add_device(session, &target, error) != 0)
      return -1;
  }
  return 0;
}

int adc_settle_session(const struct adc_options* options, struct adc_session* session,
                       struct adc_error* error) {
  memset(session, 0, sizeof(*session));
  session->timeout_seconds = options->timeout_seconds;
  /* Memcheck runs code 10 to 50 times slower; a limit the user set stays. */
  session->timeout_scale = adc_harness_wrapper() == ADC_WRAPPED_BY_VALGRIND ? 10.0 : 1.0;
  session->harness_wrapper = adc_harness_wrapper_description();
  session->process_log_dir = adc_memcheck_log_dir();
  session->jobs = options->jobs;
  session->isolation = effective_isolation(options->isolation, session->harness_wrapper != NULL);
  session->processes_start_slowly =
      session->harness_wrapper != NULL || harness_sanitized() || under_valgrind();
  session->covering_fixtures = options->covering_fixtures;
  session->memory_limit_mib = (size_t)options->memory_limit_mib;
  session->device_option = options->device;
  if (settle_devices(options->device, session, error) != 0) return -1;
  char reference[PATH_MAX];
  adc_find_reference_library(reference, sizeof(reference));
  adc_round_trip_use_reference(reference);
  /* A library's load gets what a case of a rule without a limit of its own gets. */
  struct adc_load_limits load_limits = {adc_session_timeout(session, 0), session->memory_limit_mib};
  if (adc_settle_side("producer", options->producer, options->producer_prefix, options->prefix, reference,
                      &load_limits, NULL, &session->producer, error) != 0) {
    return -1;
  }
  if (adc_settle_side("consumer", options->consumer, options->consumer_prefix, options->prefix, reference,
                      &load_limits, &session->producer, &session->consumer, error) != 0) {
    return -1;
  }
  if (options->fixtures_dir != NULL) {
    snprintf(session->fixtures_dir, sizeof(session->fixtures_dir), "%s", options->fixtures_dir);
  } else {
    adc_find_fixtures_dir(session->fixtures_dir, sizeof(session->fixtures_dir));
  }
  return adc_load_fixtures(session, error);
}
