/* Random values of a type, spelled as Integration.rst writes them
 * (fuzz_json_values.h). */
#include "fuzz_json_values.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t fuzz_json_draw_int(struct fuzz_bytes* in, int bit_width, bool is_signed) {
  uint64_t mask = bit_width == 64 ? UINT64_MAX : (UINT64_C(1) << bit_width) - 1;
  uint64_t sign = UINT64_C(1) << (bit_width - 1);
  uint64_t bits;
  switch (fuzz_byte(in) % 8) {
    case 0: /* the smallest */
      bits = is_signed ? sign : 0;
      break;
    case 1: /* the largest */
      bits = is_signed ? sign - 1 : mask;
      break;
    case 2:
      bits = 0;
      break;
    case 3: /* a small one */
      bits = fuzz_byte(in) % 5;
      break;
    default:
      bits = fuzz_u64(in) & mask;
      break;
  }
  /* Signed: the value's two's complement on 64 bits. */
  if (is_signed && (bits & sign) != 0) bits |= ~mask;
  return bits;
}

void fuzz_json_int(struct fuzz_bytes* in, struct fuzz_text* text, uint64_t value, int bit_width,
                   bool is_signed) {
  bool as_string = (bit_width == 64) != (fuzz_byte(in) % 8 == 0);
  const char* quote = as_string ? "\"" : "";
  if (is_signed) {
    fuzz_text_printf(text, "%s%" PRId64 "%s", quote, (int64_t)value, quote);
  } else {
    fuzz_text_printf(text, "%s%" PRIu64 "%s", quote, value, quote);
  }
}

/* A finite double: a multiple of 1/4, a random bit pattern, a signed zero
 * or a value near the type's limits. */
static double draw_double(struct fuzz_bytes* in, int value_bytes) {
  uint64_t bits;
  double value;
  switch (fuzz_byte(in) % 4) {
    case 0:
      return (double)((int16_t)(fuzz_byte(in) | fuzz_byte(in) << 8)) / 4;
    case 1:
      bits = fuzz_u64(in);
      memcpy(&value, &bits, sizeof(value));
      return isfinite(value) ? value : 0.5;
    case 2:
      return fuzz_byte(in) % 2 ? -0.0 : 0.0;
    default: {
      double largest = value_bytes == 2   ? 65504.0
                       : value_bytes == 4 ? 3.4028234663852886e38
                                          : 1.7976931348623157e308;
      double share = (double)(fuzz_byte(in) + 1) / 256;
      return (fuzz_byte(in) % 2 ? -largest : largest) * share;
    }
  }
}

/* A decimal's unscaled integer: up to `precision` digits, as a string
 * (or a number when a double holds it). */
static void write_decimal(struct fuzz_bytes* in, struct fuzz_text* text, int precision) {
  char digits[80];
  int n = (int)fuzz_range(in, 0, precision);
  int at = 0;
  if (fuzz_byte(in) % 2 && n > 0) digits[at++] = '-';
  for (int i = 0; i < n; i++) digits[at++] = (char)('0' + fuzz_byte(in) % 10);
  if (n == 0) digits[at++] = '0';
  digits[at] = '\0';
  /* JSON numbers have no leading zeros. */
  bool leading_zero = n > 1 && digits[at - n] == '0';
  bool as_number = n <= 15 && !leading_zero && fuzz_byte(in) % 4 == 0;
  fuzz_text_printf(text, as_number ? "%s" : "\"%s\"", digits);
}

/* An interval's member of `bit_width` bits, as a JSON number or string. */
static void write_part(struct fuzz_bytes* in, struct fuzz_text* text, const char* key, int bit_width,
                       const char* separator) {
  fuzz_text_printf(text, "%s\"%s\": ", separator, key);
  fuzz_json_int(in, text, fuzz_json_draw_int(in, bit_width, true), bit_width, true);
}

void fuzz_json_fixed_value(struct fuzz_bytes* in, struct fuzz_text* text, const struct fuzz_node* node,
                           bool is_null) {
  const struct arrow_type_row* row = node->row;
  /* Arrow C++'s JSON writer gives a null interval as {} (the reader
   * takes it). */
  bool empty_object = is_null && fuzz_byte(in) % 2;
  switch (row->values) {
    case ARROW_VALUES_BOOL: {
      bool value = fuzz_byte(in) % 2;
      /* Integration.rst says 1 and 0; archery writes true and false. */
      bool as_word = fuzz_byte(in) % 4 != 0;
      fuzz_text_printf(text, "%s", as_word ? (value ? "true" : "false") : (value ? "1" : "0"));
      return;
    }
    case ARROW_VALUES_INT:
      fuzz_json_int(in, text, fuzz_json_draw_int(in, row->bit_width, row->is_signed), row->bit_width,
                    row->is_signed);
      return;
    case ARROW_VALUES_FLOAT:
      fuzz_text_printf(text, "%.17g", draw_double(in, node->value_bytes));
      return;
    case ARROW_VALUES_DECIMAL:
      write_decimal(in, text, node->precision);
      return;
    case ARROW_VALUES_DAY_TIME:
      if (empty_object) {
        fuzz_text_printf(text, "{}");
        return;
      }
      write_part(in, text, "days", 32, "{");
      write_part(in, text, "milliseconds", 32, ", ");
      fuzz_text_printf(text, "}");
      return;
    case ARROW_VALUES_MONTH_DAY_NANO:
      if (empty_object) {
        fuzz_text_printf(text, "{}");
        return;
      }
      write_part(in, text, "months", 32, "{");
      write_part(in, text, "days", 32, ", ");
      write_part(in, text, "nanoseconds", 64, ", ");
      fuzz_text_printf(text, "}");
      return;
    case ARROW_VALUES_HEX: {
      uint8_t bytes[64];
      size_t size = (size_t)node->value_bytes;
      if (size > sizeof(bytes)) abort();
      fuzz_fill(in, bytes, size);
      fuzz_json_bytes(in, text, ARROW_VALUES_HEX, bytes, size);
      return;
    }
    default:
      fprintf(stderr, "fuzz_json_values: the type table's \"%s\" has fixed-width values no writer spells\n",
              row->json_name);
      abort();
  }
}

/* One character of the palette, its UTF-8 bytes into `out`; its size. */
static size_t draw_character(struct fuzz_bytes* in, uint8_t* out) {
  static const char* const palette[] = {
      "\"", "\\", "\n", "\x01", "\xC3\xA9", "\xE2\x82\xAC", "\xE6\x97\xA5", "\xF0\x9F\x99\x82", "\x7F", " "};
  uint8_t pick = fuzz_byte(in);
  const char* character = pick % 32 < 10 ? palette[pick % 32] : NULL;
  if (character == NULL) {
    out[0] = (uint8_t)('a' + pick % 26);
    return 1;
  }
  size_t size = strlen(character);
  memcpy(out, character, size);
  return size;
}

size_t fuzz_json_draw_bytes(struct fuzz_bytes* in, enum arrow_value_encoding encoding, size_t min, size_t max,
                            uint8_t* out) {
  size_t target = (size_t)fuzz_range(in, (int64_t)min, (int64_t)max);
  if (encoding != ARROW_VALUES_STRING) {
    fuzz_fill(in, out, target);
    return target;
  }
  size_t size = 0;
  while (size < target) {
    uint8_t character[4];
    size_t length = draw_character(in, character);
    if (size + length > target) {
      character[0] = 'z';
      length = 1;
    }
    memcpy(out + size, character, length);
    size += length;
  }
  return size;
}

void fuzz_json_bytes(struct fuzz_bytes* in, struct fuzz_text* text, enum arrow_value_encoding encoding,
                     const uint8_t* bytes, size_t size) {
  if (encoding == ARROW_VALUES_STRING) {
    fuzz_text_string(text, bytes, size);
  } else {
    fuzz_text_hex(text, bytes, size, fuzz_byte(in) % 4 == 0);
  }
}
