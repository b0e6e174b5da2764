/* One fixed-width value as the comparisons read it: its text in a message
 * and whether it is a NaN.  Shared by the exact comparison
 * (arrow_json_compare.c) and the logical one (arrow_logical_values.c), so
 * that both print and judge a value alike. */
#ifndef ADC_ARROW_VALUE_TEXT_H
#define ADC_ARROW_VALUE_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arrow_format/arrow_layout.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The value of `value_bytes` bytes at `value`, of a type of `row` (NULL:
 * unknown): an integer in decimal, a single or double in %.9g, anything
 * else as hexadecimal, most significant byte first ("0x00FF").  Writes it
 * to `out`; returns what snprintf returns. */
int arrow_value_text(const struct arrow_type_row* row, int value_bytes, int bit_width, bool is_signed,
                     const uint8_t* value, char* out, size_t size);

/* Whether the value is a floating-point NaN (half, single or double); false
 * for any other type.  The comparisons take two NaNs as equal whatever
 * their payload bits. */
bool arrow_value_is_nan(const struct arrow_type_row* row, int value_bytes, const uint8_t* value);

#ifdef __cplusplus
}
#endif

#endif /* ADC_ARROW_VALUE_TEXT_H */
