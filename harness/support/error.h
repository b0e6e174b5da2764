/* One line of error text, filled by a function that fails and printed by
 * whoever decides what the failure means (for adc-conform's own errors,
 * main(): library code never prints nor exits). */
#ifndef ADC_SUPPORT_ERROR_H
#define ADC_SUPPORT_ERROR_H

struct adc_error {
  char message[1024];
};

/* Formats `message`; returns -1 so that a caller can `return adc_fail(...)`. */
int adc_fail(struct adc_error* error, const char* fmt, ...) __attribute__((format(printf, 2, 3)));

#endif /* ADC_SUPPORT_ERROR_H */
