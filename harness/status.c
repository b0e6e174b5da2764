#include "status.h"

const char* adc_status_name(enum adc_status status) {
  static const char* const names[ADC_STATUS_COUNT] = {
      "pass", "fail", "crash", "timeout", "not_supported", "warning", "unresolved"};
  return status < ADC_STATUS_COUNT ? names[status] : "unknown";
}

int adc_status_fails_run(enum adc_status status) {
  return status == ADC_FAIL || status == ADC_CRASH || status == ADC_TIMEOUT;
}
