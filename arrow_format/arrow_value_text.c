/* A fixed-width value's text and NaN-ness (arrow_value_text.h). */
#include "arrow_format/arrow_value_text.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "arrow_format/arrow_json.h"

int arrow_value_text(const struct arrow_type_row* row, int value_bytes, int bit_width, bool is_signed,
                     const uint8_t* value, char* out, size_t size) {
  if (row != NULL && row->values == ARROW_VALUES_INT) {
    return snprintf(out, size, "%" PRId64, arrow_json_load_int(value, bit_width, is_signed, 0));
  }
  if (row != NULL && row->values == ARROW_VALUES_FLOAT && value_bytes != 2) {
    double number;
    if (value_bytes == 4) {
      float single;
      memcpy(&single, value, 4);
      number = single;
    } else {
      memcpy(&number, value, 8);
    }
    return snprintf(out, size, "%.9g", number);
  }
  int n = snprintf(out, size, "0x");
  for (int i = value_bytes - 1; i >= 0 && (size_t)n + 3 < size; i--)
    n += snprintf(out + n, size - n, "%02X", value[i]);
  return n;
}

bool arrow_value_is_nan(const struct arrow_type_row* row, int value_bytes, const uint8_t* value) {
  if (row == NULL || row->values != ARROW_VALUES_FLOAT) return false;
  if (value_bytes == 2) {
    uint16_t half;
    memcpy(&half, value, 2);
    return (half & 0x7C00) == 0x7C00 && (half & 0x03FF) != 0;
  }
  if (value_bytes == 4) {
    float single;
    memcpy(&single, value, 4);
    return isnan(single);
  }
  double number;
  memcpy(&number, value, 8);
  return isnan(number);
}
