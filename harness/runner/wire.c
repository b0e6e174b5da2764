#include "runner/wire.h"

#include <string.h>
#include <unistd.h>

#include "support/utf8.h"

void adc_wire_send(int fd, enum adc_status status, const char* message) {
  struct adc_wire_verdict verdict;
  memset(&verdict, 0, sizeof(verdict));
  verdict.magic = ADC_WIRE_MAGIC;
  verdict.status = (int32_t)status;
  size_t n = 0;
  size_t room = sizeof(verdict.message) - 1;
  while (message != NULL && message[n] != '\0' && n < room) {
    size_t rest = 0;
    while (rest < 4 && message[n + rest] != '\0') rest++;
    size_t length = adc_utf8_sequence_length(message + n, rest);
    if (length == 0 || n + length > room) {
      verdict.message[n++] = '?'; /* not UTF-8, or a character cut by the end */
      if (length > 0) break;
      continue;
    }
    memcpy(verdict.message + n, message + n, length);
    n += length;
  }
  ssize_t written = write(fd, &verdict, sizeof(verdict));
  (void)written; /* nothing more a dying child can do */
}

bool adc_wire_accept(const void* received, size_t size, struct adc_wire_verdict* out) {
  if (size != sizeof(*out)) return false;
  memcpy(out, received, sizeof(*out));
  if (out->magic != ADC_WIRE_MAGIC) return false;
  if (out->status < 0 || out->status >= ADC_STATUS_COUNT) return false;
  size_t length = strnlen(out->message, sizeof(out->message));
  return length < sizeof(out->message) && adc_utf8_valid(out->message, length);
}
