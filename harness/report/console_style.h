/* How the console spells and colours statuses.  Colour only on a terminal,
 * and never when NO_COLOR is set (https://no-color.org): a file or a pipe
 * gets plain text. */
#ifndef ADC_CONSOLE_STYLE_H
#define ADC_CONSOLE_STYLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "rule_api/status.h"

/* Whether text written to `out` may be coloured. */
bool adc_console_wants_colour(FILE* out);

/* "PASS", "FAIL", "N/S", ...: the short label of a status, seven columns at most. */
const char* adc_status_label(enum adc_status status);

/* The label of `status`, padded to `width` columns, coloured when `colour`. */
void adc_put_status_label(FILE* out, enum adc_status status, int width, bool colour);

/* `text` on one line: line breaks and other control characters become
 * spaces, and text past `max_bytes` is cut (at a character boundary) and
 * marked "...".  Messages of a case may run to 1400 bytes over lines. */
void adc_put_one_line(FILE* out, const char* text, size_t max_bytes);

/* Writes an ANSI colour (or the reset) when `colour`; nothing otherwise. */
void adc_put_colour(FILE* out, bool colour, const char* ansi);
#define ADC_ANSI_RED "\033[31m"
#define ADC_ANSI_GREEN "\033[32m"
#define ADC_ANSI_YELLOW "\033[33m"
#define ADC_ANSI_DIM "\033[2m"
#define ADC_ANSI_RESET "\033[0m"

#endif /* ADC_CONSOLE_STYLE_H */
