/* Random values of a type, written as Integration.rst spells them: the
 * way each is written follows the type table's value encoding
 * (arrow_value_encoding) and widths, never the type's name. */
#ifndef ADC_FUZZ_JSON_VALUES_H
#define ADC_FUZZ_JSON_VALUES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fuzz_bytes.h"
#include "fuzz_text.h"
#include "fuzz_type_tree.h"

/* An integer of `bit_width` bits, signed or not, drawn with its limits
 * often; its bits in a uint64 (sign-extended for signed ones). */
uint64_t fuzz_json_draw_int(struct fuzz_bytes* in, int bit_width, bool is_signed);
/* `value` as a JSON number or string (Integration.rst: 64-bit integers as
 * strings; a reader takes either for any width). */
void fuzz_json_int(struct fuzz_bytes* in, struct fuzz_text* text, uint64_t value, int bit_width,
                   bool is_signed);
/* One DATA entry of a fixed-width or boolean `node`, of a null row when
 * `is_null`. */
void fuzz_json_fixed_value(struct fuzz_bytes* in, struct fuzz_text* text, const struct fuzz_node* node,
                           bool is_null);
/* Draws the bytes of a binary (ARROW_VALUES_HEX) or utf8
 * (ARROW_VALUES_STRING: whole UTF-8 characters, quotes, backslashes and
 * control characters among them, never NUL) value of `min` to `max` bytes
 * into `out`; returns its size. */
size_t fuzz_json_draw_bytes(struct fuzz_bytes* in, enum arrow_value_encoding encoding, size_t min, size_t max,
                            uint8_t* out);
/* `size` bytes as the encoding spells them: hexadecimal or a string. */
void fuzz_json_bytes(struct fuzz_bytes* in, struct fuzz_text* text, enum arrow_value_encoding encoding,
                     const uint8_t* bytes, size_t size);

#endif /* ADC_FUZZ_JSON_VALUES_H */
