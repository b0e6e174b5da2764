#include "rule_api/status.h"

#include <string.h>

static const char* const names[ADC_STATUS_COUNT] = {"pass",          "fail",    "crash",     "timeout",
                                                    "not_supported", "warning", "unresolved"};

const char* adc_status_name(enum adc_status status) {
  return (unsigned)status < ADC_STATUS_COUNT ? names[status] : "unknown";
}

bool adc_status_from_name(const char* name, enum adc_status* out) {
  for (int s = 0; s < ADC_STATUS_COUNT; s++) {
    if (strcmp(names[s], name) == 0) {
      *out = (enum adc_status)s;
      return true;
    }
  }
  return false;
}

bool adc_status_fails_run(enum adc_status status) {
  return status == ADC_FAIL || status == ADC_CRASH || status == ADC_TIMEOUT;
}

bool adc_status_found_nothing_wrong(enum adc_status status) {
  return status == ADC_PASS || status == ADC_NOT_SUPPORTED;
}

bool adc_status_is_judged(enum adc_status status) {
  return status != ADC_NOT_SUPPORTED && status != ADC_UNRESOLVED;
}
