/* What a case's process sends its parent: one fixed-size record, written
 * with a single write() so that it arrives whole (it is smaller than
 * PIPE_BUF), even from a signal handler.
 *
 * The parent trusts nothing in it: a record is accepted only when exactly
 * one arrived, it carries the magic number, its status is a status, and its
 * message is NUL-terminated UTF-8.  Anything else is the case's `crash`
 * ("the case sent a malformed verdict").  The channel is an open file
 * descriptor of the case's process, so a library that means harm could
 * still forge a well-formed passing record: certification assumes the
 * library under test is not malicious (CONFORMANCE.md). */
#ifndef ADC_WIRE_H
#define ADC_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rule_api/status.h"

#define ADC_WIRE_MAGIC 0x41444356u /* "ADCV" */

struct adc_wire_verdict {
  uint32_t magic;
  int32_t status; /* enum adc_status */
  char message[1016];
};

/* Sends a verdict; a message longer than the record holds is cut, and bytes
 * that are not UTF-8 are sent as '?'.  Async-signal-safe. */
void adc_wire_send(int fd, enum adc_status status, const char* message);

/* Whether the `size` bytes received are one well-formed record; if so,
 * copies it to `out`. */
bool adc_wire_accept(const void* received, size_t size, struct adc_wire_verdict* out);

#endif /* ADC_WIRE_H */
