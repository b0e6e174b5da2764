#include "rule_api/status.h"

const char* adc_status_name(enum adc_status status) {
  static const char* const names[ADC_STATUS_COUNT] = {"pass",          "fail",    "crash",     "timeout",
                                                      "not_supported", "warning", "unresolved"};
  return (unsigned)status < ADC_STATUS_COUNT ? names[status] : "unknown";
}

bool adc_status_fails_run(enum adc_status status) {
  return status == ADC_FAIL || status == ADC_CRASH || status == ADC_TIMEOUT;
}
