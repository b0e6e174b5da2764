/* What a case's child process sends its parent: one fixed-size record,
 * written with a single write() so that it arrives whole (it is smaller than
 * PIPE_BUF), even from a signal handler. */
#ifndef ADC_WIRE_H
#define ADC_WIRE_H

#include <stdint.h>

#include "rule_api/status.h"

struct adc_wire_verdict {
  int32_t status; /* enum adc_status */
  char message[1020];
};

/* Async-signal-safe. */
void adc_wire_send(int fd, enum adc_status status, const char* message);

#endif /* ADC_WIRE_H */
