#include "wire/wire.h"

#include <string.h>
#include <unistd.h>

#include "support/utf8.h"

/* Written before a task runs, read by a signal handler: a plain word. */
static volatile uint64_t current_task;

void adc_wire_set_task(uint64_t task) {
  current_task = task;
}

/* Copies `message` into the record's, as UTF-8, cut to fit. */
static void put_message(struct adc_wire_record* record, const char* message) {
  size_t n = 0;
  size_t room = sizeof(record->message) - 1;
  while (message != NULL && message[n] != '\0' && n < room) {
    size_t rest = 0;
    while (rest < 4 && message[n + rest] != '\0') rest++;
    size_t length = adc_utf8_sequence_length(message + n, rest);
    if (length == 0 || n + length > room) {
      record->message[n++] = '?'; /* not UTF-8, or a character cut by the end */
      if (length > 0) break;
      continue;
    }
    memcpy(record->message + n, message + n, length);
    n += length;
  }
}

static void send_record(int fd, enum adc_wire_kind kind, enum adc_status status, const char* message) {
  struct adc_wire_record record;
  memset(&record, 0, sizeof(record));
  record.magic = ADC_WIRE_MAGIC;
  record.kind = (uint32_t)kind;
  record.task = current_task;
  record.status = (int32_t)status;
  put_message(&record, message);
  ssize_t written = write(fd, &record, sizeof(record));
  (void)written; /* nothing more a dying child can do */
}

void adc_wire_send(int fd, enum adc_status status, const char* message) {
  send_record(fd, ADC_WIRE_VERDICT, status, message);
}

void adc_wire_send_kind(int fd, enum adc_wire_kind kind, const char* message) {
  send_record(fd, kind, ADC_PASS, message);
}

bool adc_wire_accept(const void* received, size_t size, struct adc_wire_record* out) {
  if (size != sizeof(*out)) return false;
  memcpy(out, received, sizeof(*out));
  if (out->magic != ADC_WIRE_MAGIC) return false;
  if (out->kind < ADC_WIRE_VERDICT || out->kind > ADC_WIRE_LAST_KIND) return false;
  if (out->status < 0 || out->status >= ADC_STATUS_COUNT) return false;
  if (out->kind != ADC_WIRE_VERDICT && out->status != ADC_PASS) return false;
  size_t length = strnlen(out->message, sizeof(out->message));
  return length < sizeof(out->message) && adc_utf8_valid(out->message, length);
}
