/* UTF-8 checks for text that crosses a trust boundary: what a library under
 * test returns, what a case's process sends.  Both are async-signal-safe
 * (no allocation, no libc state). */
#ifndef ADC_SUPPORT_UTF8_H
#define ADC_SUPPORT_UTF8_H

#include <stdbool.h>
#include <stddef.h>

/* Whether the `size` bytes at `text` are well-formed UTF-8 (no overlong
 * forms, no surrogates, nothing past U+10FFFF). */
bool adc_utf8_valid(const char* text, size_t size);

/* The length of the well-formed UTF-8 sequence starting at text[0] (1 to
 * 4), or 0 when the bytes there are not one. */
size_t adc_utf8_sequence_length(const char* text, size_t size);

/* Replaces, in place, every byte of the NUL-terminated `text` that is not
 * part of a well-formed sequence by '?'. */
void adc_utf8_sanitize(char* text);

#endif /* ADC_SUPPORT_UTF8_H */
