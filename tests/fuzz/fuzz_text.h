/* A growing text, for the JSON the round-trip target writes: appended to
 * with printf formats and with JSON strings, escaped as RFC 8259 asks. */
#ifndef ADC_FUZZ_TEXT_H
#define ADC_FUZZ_TEXT_H

#include <stddef.h>
#include <stdint.h>

struct fuzz_text {
  char* bytes; /* NUL-terminated; NULL while empty */
  size_t size;
  size_t capacity;
};

void fuzz_text_printf(struct fuzz_text* text, const char* format, ...) __attribute__((format(printf, 2, 3)));
/* `size` bytes of UTF-8 as a JSON string, quotes included: the quote, the
 * backslash and the control characters escaped, the rest as it is. */
void fuzz_text_string(struct fuzz_text* text, const uint8_t* bytes, size_t size);
/* `size` bytes as a JSON string of hexadecimal digits (Integration.rst:
 * binary values "as hexadecimal strings"), upper or lower case. */
void fuzz_text_hex(struct fuzz_text* text, const uint8_t* bytes, size_t size, int lower_case);
void fuzz_text_free(struct fuzz_text* text);

#endif /* ADC_FUZZ_TEXT_H */
