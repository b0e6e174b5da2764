#include "cli/library_sides.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/elf_symbols.h"
#include "cli/python_side.h"
#include "runner/preflight.h"

#define REFERENCE_PREFIX "adc_reference"

static int guess_prefix(const char* role, struct adc_side* side, struct adc_error* error) {
  char prefixes[512];
  char reason[256];
  int found = adc_elf_find_prefixes(side->path, prefixes, sizeof(prefixes), reason, sizeof(reason));
  if (found < 0) return adc_fail(error, "cannot load %s library '%s': %s", role, side->path, reason);
  if (found == 0) {
    return adc_fail(error,
                    "%s library '%s' exports no <prefix>_CDataIntegration_* or <prefix>_CDeviceIntegration_* "
                    "entry point (if its names differ, give --prefix)",
                    role, side->path);
  }
  if (found > 1) {
    return adc_fail(
        error, "%s library '%s' exports entry points under several prefixes (%s); choose one with --prefix",
        role, side->path, prefixes);
  }
  snprintf(side->prefix, sizeof(side->prefix), "%.127s", prefixes);
  return 0;
}

int adc_settle_side(const char* role, const char* given, const char* side_prefix, const char* shared_prefix,
                    const char* reference_path, const struct adc_load_limits* limits,
                    const struct adc_side* other, struct adc_side* side, struct adc_error* error) {
  side->tested = given != NULL;
  if (given == NULL || strcmp(given, "reference") == 0) {
    side->is_reference = true;
    snprintf(side->path, sizeof(side->path), "%s", reference_path);
    /* --prefix is the prefix of the library under test: `--producer LIB
     * --consumer reference --prefix nanoarrow` keeps the reference's own. */
    snprintf(side->prefix, sizeof(side->prefix), "%s", side_prefix ? side_prefix : REFERENCE_PREFIX);
  } else if (adc_is_python_side(given)) {
    /* The shim is the library; --prefix names a library's own prefix, which
     * the shim's is not the user's to choose. */
    if (adc_settle_python_side(role, given, side->path, sizeof(side->path), error) != 0) return -1;
    snprintf(side->prefix, sizeof(side->prefix), "%s",
             strcmp(role, "consumer") == 0 ? ADC_PYTHON_SHIM_CONSUMER_PREFIX : ADC_PYTHON_SHIM_PREFIX);
    side->is_python = true;
  } else {
    const char* prefix = side_prefix ? side_prefix : shared_prefix;
    if (realpath(given, side->path) == NULL) {
      return adc_fail(error, "cannot load %s library '%s': no such file", role, given);
    }
    if (prefix != NULL) {
      snprintf(side->prefix, sizeof(side->prefix), "%s", prefix);
    } else if (guess_prefix(role, side, error) != 0) {
      return -1;
    }
  }
  if (!side->tested) return 0;
  /* One library tested as both producer and consumer is loaded once: a
   * library whose loading is slow (a GPU runtime starting) costs it once. */
  if (other != NULL && other->tested && strcmp(other->path, side->path) == 0 &&
      strcmp(other->prefix, side->prefix) == 0) {
    side->load_misbehaved = other->load_misbehaved;
    side->load_verdict = other->load_verdict;
    side->forked_after_load = other->forked_after_load;
    return 0;
  }
  struct adc_error reason;
  struct adc_task_result verdict;
  int found =
      adc_preflight_library(side->path, side->prefix, limits, &side->forked_after_load, &verdict, &reason);
  if (found == ADC_LOAD_MISBEHAVED) {
    side->load_misbehaved = true;
    side->load_verdict = verdict;
    snprintf(side->load_verdict.message, sizeof(side->load_verdict.message), "loading the library: %.1300s",
             verdict.message);
    return 0;
  }
  if (found < 0 && limits->memory_limit_mib > 0) {
    return adc_fail(error, "cannot load %s library '%s' within --memory-limit %zu MiB: %s", role, side->path,
                    limits->memory_limit_mib, reason.message);
  }
  if (found < 0) return adc_fail(error, "cannot load %s library '%s': %s", role, side->path, reason.message);
  if (found == 0) {
    return adc_fail(error, "%s library '%s' exports no entry point with prefix '%s' (wrong --prefix?)", role,
                    side->path, side->prefix);
  }
  return 0;
}
