/* Text a library under test returns (an error message, a consumer's
 * verdict), read with a bound: it is the library's, so nothing about it is
 * assumed, neither a terminating NUL nor readable memory up to one nor
 * UTF-8 (the plugin ABI asks for NUL-terminated UTF-8). */
#ifndef ADC_LIBRARY_TEXT_H
#define ADC_LIBRARY_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/* Bytes read at most. */
#define ADC_LIBRARY_TEXT_LIMIT 4096

/* Copies the text at `text` into `out` (at least ADC_LIBRARY_TEXT_LIMIT +
 * 128 bytes keep every note), replacing bytes that are not UTF-8 by '?' and
 * saying so, and saying when no NUL came within the limit or the memory
 * became unreadable before one.  Returns `out`, or NULL for NULL. */
const char* adc_library_text(const char* text, char* out, size_t size);

/* The same, also telling whether the text was well formed: NUL-terminated
 * within the limit, in readable memory, UTF-8. */
const char* adc_library_text_checked(const char* text, char* out, size_t size, bool* well_formed);

#endif /* ADC_LIBRARY_TEXT_H */
