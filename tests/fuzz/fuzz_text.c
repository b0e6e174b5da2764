#include "fuzz_text.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Room for `more` bytes and a NUL; aborts when memory runs out (a fuzz
 * target has no way to go on without its input's text). */
static void reserve(struct fuzz_text* text, size_t more) {
  if (text->size + more + 1 <= text->capacity) return;
  size_t capacity = text->capacity ? text->capacity : 4096;
  while (capacity < text->size + more + 1) capacity *= 2;
  char* grown = realloc(text->bytes, capacity);
  if (grown == NULL) {
    fprintf(stderr, "fuzz_text: out of memory for %zu bytes\n", capacity);
    abort();
  }
  text->bytes = grown;
  text->capacity = capacity;
}

void fuzz_text_printf(struct fuzz_text* text, const char* format, ...) {
  va_list args;
  va_start(args, format);
  int needed = vsnprintf(NULL, 0, format, args);
  va_end(args);
  if (needed < 0) abort();
  reserve(text, (size_t)needed);
  va_start(args, format);
  vsnprintf(text->bytes + text->size, (size_t)needed + 1, format, args);
  va_end(args);
  text->size += (size_t)needed;
}

void fuzz_text_string(struct fuzz_text* text, const uint8_t* bytes, size_t size) {
  reserve(text, size * 6 + 2);
  char* out = text->bytes + text->size;
  *out++ = '"';
  for (size_t i = 0; i < size; i++) {
    uint8_t c = bytes[i];
    if (c == '"' || c == '\\') {
      *out++ = '\\';
      *out++ = (char)c;
    } else if (c == '\n') {
      *out++ = '\\';
      *out++ = 'n';
    } else if (c < 0x20) {
      out += sprintf(out, "\\u%04x", c);
    } else {
      *out++ = (char)c;
    }
  }
  *out++ = '"';
  *out = '\0';
  text->size = (size_t)(out - text->bytes);
}

void fuzz_text_hex(struct fuzz_text* text, const uint8_t* bytes, size_t size, int lower_case) {
  const char* digits = lower_case ? "0123456789abcdef" : "0123456789ABCDEF";
  reserve(text, size * 2 + 2);
  char* out = text->bytes + text->size;
  *out++ = '"';
  for (size_t i = 0; i < size; i++) {
    *out++ = digits[bytes[i] >> 4];
    *out++ = digits[bytes[i] & 15];
  }
  *out++ = '"';
  *out = '\0';
  text->size = (size_t)(out - text->bytes);
}

void fuzz_text_free(struct fuzz_text* text) {
  free(text->bytes);
  memset(text, 0, sizeof(*text));
}
