#include "wire/crash_record.h"

#include <string.h>

#include "wire/wire.h"

/* ---- Writing, in a signal handler: no stdio, no malloc ------------------ */

/* Text written into a buffer of fixed size that refuses what would not
 * fit whole. */
struct text {
  char* bytes;
  size_t used, size;
};

static bool put(struct text* text, const char* part, size_t length) {
  if (text->used + length >= text->size) return false;
  memcpy(text->bytes + text->used, part, length);
  text->used += length;
  text->bytes[text->used] = '\0';
  return true;
}

static size_t decimal_digits(char* out, uintptr_t value) {
  char reversed[24];
  size_t n = 0;
  do {
    reversed[n++] = (char)('0' + value % 10);
    value /= 10;
  } while (value > 0);
  for (size_t i = 0; i < n; i++) out[i] = reversed[n - 1 - i];
  return n;
}

static size_t hex_digits(char* out, uintptr_t value) {
  char reversed[24];
  size_t n = 0;
  do {
    reversed[n++] = "0123456789abcdef"[value % 16];
    value /= 16;
  } while (value > 0);
  out[0] = '0';
  out[1] = 'x';
  for (size_t i = 0; i < n; i++) out[2 + i] = reversed[n - 1 - i];
  return n + 2;
}

static void put_header(struct text* text, const struct adc_crash_record* record) {
  char line[96];
  size_t n = 0;
  memcpy(line, "signal ", 7);
  n += 7;
  n += decimal_digits(line + n, (uintptr_t)record->signal_number);
  memcpy(line + n, " code ", 6);
  n += 6;
  if (record->code < 0) line[n++] = '-';
  n += decimal_digits(line + n, (uintptr_t)(record->code < 0 ? -(intptr_t)record->code : record->code));
  memcpy(line + n, " address ", 9);
  n += 9;
  n += hex_digits(line + n, record->address);
  memcpy(line + n, record->handed_over ? " handed 1\n" : " handed 0\n", 10);
  n += 10;
  put(text, line, n);
}

/* One frame's line, whole or not at all. */
static bool put_frame(struct text* text, const struct adc_fault_frame* frame, const char* object_above) {
  char start[48];
  size_t n = 0;
  start[n++] = '#';
  n += decimal_digits(start + n, frame->depth);
  start[n++] = ' ';
  n += hex_digits(start + n, frame->offset);
  start[n++] = ' ';
  const char* object = frame->object[0] == '\0'                   ? "-"
                       : strcmp(frame->object, object_above) == 0 ? "\""
                                                                  : frame->object;
  size_t used = text->used;
  if (put(text, start, n) && put(text, object, strlen(object)) && put(text, "\n", 1)) return true;
  text->used = used;
  text->bytes[used] = '\0';
  return false;
}

void adc_crash_record_send(int fd, const struct adc_crash_record* record) {
  static char message[sizeof(((struct adc_wire_record*)0)->message)];
  struct text text = {message, 0, sizeof(message)};
  message[0] = '\0';
  put_header(&text, record);
  const char* object_above = "";
  for (size_t i = 0; i < record->n_frames && i < ADC_FAULT_FRAMES; i++) {
    if (!put_frame(&text, &record->frames[i], object_above)) break;
    object_above = record->frames[i].object[0] != '\0' ? record->frames[i].object : "";
  }
  adc_wire_send_kind(fd, ADC_WIRE_CRASH_SITE, message);
}

/* ---- Reading, in the parent: the text is the child's, trusted in nothing */

/* A number in `base` (10 or 16, "0x" first), with an optional '-' where
 * `sign`; false where there is none or it would overflow. */
static bool read_number(const char** at, int base, bool sign, intmax_t* value) {
  const char* p = *at;
  bool negative = sign && *p == '-';
  if (negative) p++;
  if (base == 16) {
    if (p[0] != '0' || p[1] != 'x') return false;
    p += 2;
  }
  uintmax_t magnitude = 0;
  const char* digits = p;
  for (;; p++) {
    int digit = *p >= '0' && *p <= '9' ? *p - '0' : base == 16 && *p >= 'a' && *p <= 'f' ? *p - 'a' + 10 : -1;
    if (digit < 0) break;
    if (magnitude > (UINTMAX_MAX - (uintmax_t)digit) / (uintmax_t)base || p - digits >= 20) return false;
    magnitude = magnitude * (uintmax_t)base + (uintmax_t)digit;
  }
  if (p == digits) return false;
  *at = p;
  *value = negative ? -(intmax_t)magnitude : (intmax_t)magnitude;
  return true;
}

static bool read_word(const char** at, const char* word) {
  size_t length = strlen(word);
  if (strncmp(*at, word, length) != 0) return false;
  *at += length;
  return true;
}

static bool read_header(const char** at, struct adc_crash_record* out) {
  intmax_t number, code, address, handed;
  if (!read_word(at, "signal ") || !read_number(at, 10, false, &number) || number <= 0 || number > 64 ||
      !read_word(at, " code ") || !read_number(at, 10, true, &code) || code < -1000 || code > 1000 ||
      !read_word(at, " address ") || !read_number(at, 16, false, &address) || !read_word(at, " handed ") ||
      !read_number(at, 10, false, &handed) || handed > 1 || !read_word(at, "\n")) {
    return false;
  }
  out->signal_number = (int)number;
  out->code = (int)code;
  out->address = (uintptr_t)address;
  out->handed_over = handed == 1;
  return true;
}

/* One frame's line; false where it is not one. */
static bool read_frame(const char** at, const char* object_above, struct adc_fault_frame* frame) {
  intmax_t depth, offset;
  if (!read_word(at, "#") || !read_number(at, 10, false, &depth) || depth > 1000 || !read_word(at, " ") ||
      !read_number(at, 16, false, &offset) || !read_word(at, " ")) {
    return false;
  }
  frame->depth = (unsigned)depth;
  const char* end = strchr(*at, '\n');
  if (end == NULL || end == *at || (size_t)(end - *at) >= sizeof(frame->object)) return false;
  size_t length = (size_t)(end - *at);
  frame->offset = (uintptr_t)offset;
  if (length == 1 && **at == '-') {
    frame->object[0] = '\0';
  } else if (length == 1 && **at == '"') {
    if (object_above[0] == '\0') return false;
    memmove(frame->object, object_above, strlen(object_above) + 1);
  } else {
    memcpy(frame->object, *at, length);
    frame->object[length] = '\0';
  }
  *at = end + 1;
  return true;
}

bool adc_crash_record_read(const char* message, struct adc_crash_record* out) {
  memset(out, 0, sizeof(*out));
  const char* at = message;
  if (!read_header(&at, out)) return false;
  const char* object_above = "";
  while (*at != '\0' && out->n_frames < ADC_FAULT_FRAMES) {
    struct adc_fault_frame* frame = &out->frames[out->n_frames];
    if (!read_frame(&at, object_above, frame)) return false;
    object_above = frame->object;
    out->n_frames++;
  }
  return *at == '\0';
}
