/* Reading a column's data (Integration.rst, "FieldData") into the buffers
 * the C Data Interface exports for its layout (arrow_layout.h).  Every
 * value is checked against its type (an int8 of 300, a union type id the
 * type does not declare, an offset past the data), so that the model only
 * ever holds arrays a correct producer could export. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrow_format/arrow_json_read_column.h"

/* A zeroed block of `size` bytes (a valid pointer even for 0). */
static uint8_t* new_bytes(int64_t size) {
  return calloc((size_t)(size > 0 ? size : 1), 1);
}

static void set_buffer(struct arrow_json_column* out, int64_t index, uint8_t* bytes, int64_t size) {
  out->buffers[index].bytes = bytes;
  out->buffers[index].size = size;
}

/* ---- values ---- */

static int check_int_range(struct reader* r, int bit_width, bool is_signed, int64_t v, const char* where) {
  if (bit_width == 64) return 0;
  int64_t lo = is_signed ? -(INT64_C(1) << (bit_width - 1)) : 0;
  int64_t hi = is_signed ? (INT64_C(1) << (bit_width - 1)) - 1 : (INT64_C(1) << bit_width) - 1;
  if (v < lo || v > hi) {
    return reader_fail(r, "%s: value %" PRId64 " does not fit in %sint%d", where, v, is_signed ? "" : "u",
                       bit_width);
  }
  return 0;
}

/* IEEE 754 binary16 nearest to `value` (ties to even). */
static uint16_t half_from_double(double value) {
  uint16_t sign = signbit(value) ? 0x8000 : 0;
  double magnitude = fabs(value);
  if (isnan(value)) return 0x7E00;
  if (magnitude >= 65520.0) return sign | 0x7C00; /* rounds to infinity */
  int exponent;
  frexp(magnitude, &exponent);
  exponent -= 1; /* magnitude = 1.f * 2^exponent */
  if (magnitude == 0 || exponent < -14) {
    /* Subnormal: a count of 2^-24; 1024 of them is the smallest normal,
     * which the same bits spell. */
    return sign | (uint16_t)nearbyint(magnitude / 0x1p-24);
  }
  uint32_t mantissa = (uint32_t)nearbyint(magnitude / ldexp(1.0, exponent - 10));
  if (mantissa == 2048) {
    mantissa = 1024;
    exponent++;
  }
  if (exponent > 15) return sign | 0x7C00;
  return sign | (uint16_t)((exponent + 15) << 10) | (uint16_t)(mantissa - 1024);
}

static int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* How many of the first `most` bytes of `text` to quote in a message: cut
 * before a UTF-8 sequence the limit would split, so that the message of a
 * UTF-8 fixture is UTF-8 (the fuzzer found the 16th byte of a quote the
 * first of a two-byte sequence). */
static int quoted_length(const char* text, size_t most) {
  size_t n = strnlen(text, most);
  if (n == most) {
    while (n > 0 && ((unsigned char)text[n] & 0xC0) == 0x80) n--; /* text[n]: a continuation byte */
  }
  return (int)n;
}

/* The bytes a hexadecimal string spells, into `out` (room for strlen / 2);
 * their count, or -1. */
static int64_t decode_hex(struct reader* r, const char* text, uint8_t* out, const char* where) {
  size_t n = strlen(text);
  int quoted = quoted_length(text, 16);
  if (n % 2 != 0)
    return reader_fail(r, "%s: \"%.*s\" is not hexadecimal bytes (odd length)", where, quoted, text);
  for (size_t i = 0; i < n / 2; i++) {
    int high = hex_digit(text[2 * i]);
    int low = hex_digit(text[2 * i + 1]);
    if (high < 0 || low < 0) return reader_fail(r, "%s: \"%.*s\" is not hexadecimal", where, quoted, text);
    out[i] = (uint8_t)(high << 4 | low);
  }
  return (int64_t)(n / 2);
}

/* A binary or string value's bytes, as `encoding` writes them: a newly
 * allocated block and its size in `*size`; NULL after an error. */
static uint8_t* value_bytes(struct reader* r, const cJSON* item, enum arrow_value_encoding encoding,
                            const char* where, int64_t* size) {
  if (!cJSON_IsString(item)) {
    reader_fail(r, "%s: a %s value is a JSON string", where,
                encoding == ARROW_VALUES_HEX ? "binary" : "utf8");
    return NULL;
  }
  size_t length = strlen(item->valuestring);
  uint8_t* bytes = new_bytes((int64_t)length);
  if (encoding == ARROW_VALUES_STRING) {
    memcpy(bytes, item->valuestring, length);
    *size = (int64_t)length;
    return bytes;
  }
  *size = decode_hex(r, item->valuestring, bytes, where);
  if (*size < 0) {
    free(bytes);
    return NULL;
  }
  return bytes;
}

/* A decimal's unscaled integer, written in decimal, as `n_bytes` of little
 * endian two's complement. */
static int decode_decimal(struct reader* r, const cJSON* item, int n_bytes, const char* where, uint8_t* out) {
  char number[96];
  if (reader_integer_literal(r, item, number, sizeof(number))) {
    /* a number too long for a double, as written */
  } else if (cJSON_IsNumber(item)) {
    snprintf(number, sizeof(number), "%.0f", item->valuedouble);
  } else if (cJSON_IsString(item) && strlen(item->valuestring) < sizeof(number)) {
    snprintf(number, sizeof(number), "%s", item->valuestring);
  } else {
    return reader_fail(r, "%s: a decimal value is a string of digits", where);
  }
  const char* digit = number;
  bool negative = *digit == '-';
  if (*digit == '-' || *digit == '+') digit++;
  if (*digit == '\0') return reader_fail(r, "%s: \"%s\" is not a decimal integer", where, number);
  uint32_t limbs[8] = {0}; /* little-endian 32-bit words of the magnitude */
  int n_limbs = n_bytes / 4;
  bool nonzero = false;
  for (; *digit != '\0'; digit++) {
    if (*digit < '0' || *digit > '9')
      return reader_fail(r, "%s: \"%s\" is not a decimal integer", where, number);
    uint64_t carry = (uint64_t)(*digit - '0');
    nonzero = nonzero || carry != 0;
    for (int i = 0; i < n_limbs; i++) {
      uint64_t product = (uint64_t)limbs[i] * 10 + carry;
      limbs[i] = (uint32_t)product;
      carry = product >> 32;
    }
    if (carry != 0)
      return reader_fail(r, "%s: %s does not fit in a %d-bit decimal", where, number, n_bytes * 8);
  }
  if (negative) {
    uint64_t carry = 1;
    for (int i = 0; i < n_limbs; i++) {
      uint64_t sum = (uint64_t)(uint32_t)~limbs[i] + carry;
      limbs[i] = (uint32_t)sum;
      carry = sum >> 32;
    }
  }
  /* Two's complement of the width: the sign bit must say the sign (a
   * magnitude of 2^(w-1) fits negative only). */
  bool sign_bit = limbs[n_limbs - 1] >> 31 != 0;
  if (nonzero && sign_bit != negative) {
    return reader_fail(r, "%s: %s does not fit in a %d-bit decimal", where, number, n_bytes * 8);
  }
  for (int i = 0; i < n_limbs; i++) {
    for (int b = 0; b < 4; b++) out[i * 4 + b] = (uint8_t)(limbs[i] >> (8 * b));
  }
  return 0;
}

/* Reads the int member `key` of an interval's object.  A null row's object
 * may leave it out (0): Arrow C++'s JSON writer gives null intervals as {}
 * (json_internal.cc), and its reader reads no value of a null row. */
static int interval_part(struct reader* r, const cJSON* object, const char* key, int bit_width, bool is_null,
                         const char* where, uint8_t* out) {
  if (is_null && cJSON_GetObjectItemCaseSensitive(object, key) == NULL) {
    arrow_json_store_int(out, bit_width, 0, 0);
    return 0;
  }
  const cJSON* item = reader_require(r, object, key, where);
  int64_t value;
  if (item == NULL || reader_int64(r, item, where, &value) != 0) return -1;
  if (check_int_range(r, bit_width, true, value, where) != 0) return -1;
  arrow_json_store_int(out, bit_width, 0, value);
  return 0;
}

/* One fixed-width value of `type` at `out` (value_bytes bytes), of a null
 * row when `is_null`. */
static int decode_fixed(struct reader* r, const struct arrow_json_type* type, const cJSON* item, bool is_null,
                        const char* where, uint8_t* out) {
  int64_t integer;
  switch (type->row->values) {
    case ARROW_VALUES_INT:
      if (reader_int64(r, item, where, &integer) != 0) return -1;
      if (check_int_range(r, type->bit_width, type->is_signed, integer, where) != 0) return -1;
      arrow_json_store_int(out, type->bit_width, 0, integer);
      return 0;
    case ARROW_VALUES_FLOAT: {
      if (!cJSON_IsNumber(item)) return reader_fail(r, "%s: a floating-point value is a JSON number", where);
      /* The text rounds to a double (cJSON), then to the type: the same
       * two steps a reader built on a JSON library takes. */
      double value = item->valuedouble;
      if (type->value_bytes == 2) {
        uint16_t half = half_from_double(value);
        memcpy(out, &half, 2);
      } else if (type->value_bytes == 4) {
        float single = (float)value;
        memcpy(out, &single, 4);
      } else {
        memcpy(out, &value, 8);
      }
      return 0;
    }
    case ARROW_VALUES_DECIMAL:
      return decode_decimal(r, item, type->value_bytes, where, out);
    case ARROW_VALUES_DAY_TIME:
      if (!cJSON_IsObject(item)) return reader_fail(r, "%s: a DAY_TIME interval is an object", where);
      if (interval_part(r, item, "days", 32, is_null, where, out) != 0) return -1;
      return interval_part(r, item, "milliseconds", 32, is_null, where, out + 4);
    case ARROW_VALUES_MONTH_DAY_NANO:
      if (!cJSON_IsObject(item)) return reader_fail(r, "%s: a MONTH_DAY_NANO interval is an object", where);
      if (interval_part(r, item, "months", 32, is_null, where, out) != 0) return -1;
      if (interval_part(r, item, "days", 32, is_null, where, out + 4) != 0) return -1;
      return interval_part(r, item, "nanoseconds", 64, is_null, where, out + 8);
    case ARROW_VALUES_HEX: {
      int64_t size;
      uint8_t* bytes = value_bytes(r, item, ARROW_VALUES_HEX, where, &size);
      if (bytes == NULL) return -1;
      int status = 0;
      if (size != type->value_bytes) {
        status = reader_fail(r, "%s: a value of %" PRId64 " bytes in a fixedsizebinary of %d", where, size,
                             type->value_bytes);
      } else {
        memcpy(out, bytes, (size_t)size);
      }
      free(bytes);
      return status;
    }
    default:
      return reader_fail(r, "%s: this type has no fixed-width values", where);
  }
}

/* ---- buffers by layout ---- */

static int read_bools(struct reader* r, const cJSON* json, const char* where, struct arrow_json_column* out) {
  const cJSON* data = reader_require_array(r, json, "DATA", out->length, where);
  if (data == NULL) return -1;
  uint8_t* bits = new_bytes((out->length + 7) / 8);
  set_buffer(out, 1, bits, (out->length + 7) / 8);
  const cJSON* item = data->child;
  for (int64_t i = 0; i < out->length; i++, item = item->next) {
    /* Integration.rst says 1 and 0; archery writes true and false. */
    bool value;
    if (cJSON_IsBool(item)) {
      value = cJSON_IsTrue(item);
    } else if (cJSON_IsNumber(item) && (item->valuedouble == 0 || item->valuedouble == 1)) {
      value = item->valuedouble == 1;
    } else {
      return reader_fail(r, "%s: DATA[%" PRId64 "] is not a boolean", where, i);
    }
    if (value) bits[i / 8] |= (uint8_t)(1u << (i % 8));
  }
  return 0;
}

static int read_fixed(struct reader* r, const cJSON* json, const struct arrow_json_type* type,
                      const char* where, struct arrow_json_column* out) {
  const cJSON* data = reader_require_array(r, json, "DATA", out->length, where);
  if (data == NULL) return -1;
  int64_t size = out->length * type->value_bytes;
  uint8_t* values = new_bytes(size);
  set_buffer(out, 1, values, size);
  const cJSON* item = data->child;
  for (int64_t i = 0; i < out->length; i++, item = item->next) {
    bool is_null = out->validity != NULL && out->validity[i] == 0;
    if (decode_fixed(r, type, item, is_null, where, values + i * type->value_bytes) != 0) return -1;
  }
  return 0;
}

/* `count` offsets (32- or 64-bit, the latter written as strings) into a new
 * buffer set as buffer `index`; the first must not be negative and none
 * smaller than the one before when `increasing`. */
static int read_offsets(struct reader* r, const cJSON* json, const char* key, int64_t count, int offset_bytes,
                        bool increasing, const char* where, struct arrow_json_column* out, int64_t index) {
  const cJSON* offsets = reader_require_array(r, json, key, count, where);
  if (offsets == NULL) return -1;
  uint8_t* buffer = new_bytes(count * offset_bytes);
  set_buffer(out, index, buffer, count * offset_bytes);
  int64_t previous = 0;
  const cJSON* item = offsets->child;
  for (int64_t i = 0; i < count; i++, item = item->next) {
    int64_t value;
    if (reader_int64(r, item, where, &value) != 0) return -1;
    if (value < 0) return reader_fail(r, "%s: %s[%" PRId64 "] is negative", where, key, i);
    if (offset_bytes == 4 && value > INT32_MAX)
      return reader_fail(r, "%s: %s[%" PRId64 "] exceeds int32", where, key, i);
    if (increasing && i > 0 && value < previous)
      return reader_fail(r, "%s: %s decreases at %" PRId64, where, key, i);
    arrow_json_store_int(buffer, offset_bytes * 8, i, value);
    previous = value;
  }
  return 0;
}

/* Variable-size binary: OFFSET must be the running sum of the values. */
static int read_binary(struct reader* r, const cJSON* json, const struct arrow_json_type* type,
                       const char* where, struct arrow_json_column* out) {
  int offset_bytes = arrow_layout_of(type->layout)->offset_bytes;
  if (read_offsets(r, json, "OFFSET", out->length + 1, offset_bytes, true, where, out, 1) != 0) return -1;
  const cJSON* data = reader_require_array(r, json, "DATA", out->length, where);
  if (data == NULL) return -1;
  int64_t total = arrow_json_column_offset(out, 1, offset_bytes, out->length);
  if (arrow_json_column_offset(out, 1, offset_bytes, 0) != 0)
    return reader_fail(r, "%s: OFFSET[0] is not 0", where);
  uint8_t* bytes = new_bytes(total);
  set_buffer(out, 2, bytes, total);
  const cJSON* item = data->child;
  for (int64_t i = 0; i < out->length; i++, item = item->next) {
    int64_t size;
    uint8_t* value = value_bytes(r, item, type->row->values, where, &size);
    if (value == NULL) return -1;
    int64_t start = arrow_json_column_offset(out, 1, offset_bytes, i);
    int64_t end = arrow_json_column_offset(out, 1, offset_bytes, i + 1);
    if (end - start != size) {
      free(value);
      return reader_fail(r,
                         "%s: OFFSET[%" PRId64 "] is %" PRId64 " but the values before it add up to %" PRId64,
                         where, i + 1, end, start + size);
    }
    memcpy(bytes + start, value, (size_t)size);
    free(value);
  }
  return 0;
}

/* spec (Columnar.rst, "Variable-size Binary View Layout"): 16 bytes a view:
 * the size, then up to 12 bytes inline, or a 4-byte prefix, the buffer's
 * index and the offset in it. */
static int read_view(struct reader* r, const cJSON* view, const struct arrow_json_type* type,
                     const struct arrow_json_column* out, int64_t n_variadic, const char* where,
                     uint8_t* slot) {
  int64_t size;
  const cJSON* size_item = reader_require(r, view, "SIZE", where);
  if (size_item == NULL || reader_int64(r, size_item, where, &size) != 0) return -1;
  if (size < 0 || size > INT32_MAX)
    return reader_fail(r, "%s: view SIZE %" PRId64 " is out of range", where, size);
  int32_t size32 = (int32_t)size;
  memcpy(slot, &size32, 4);
  const cJSON* inlined = cJSON_GetObjectItemCaseSensitive(view, "INLINED");
  if (size <= 12) {
    if (inlined == NULL)
      return reader_fail(r, "%s: a view of %" PRId64 " bytes needs \"INLINED\"", where, size);
    int64_t got;
    uint8_t* bytes = value_bytes(r, inlined, type->row->values, where, &got);
    if (bytes == NULL) return -1;
    if (got == size) memcpy(slot + 4, bytes, (size_t)got);
    free(bytes);
    if (got != size)
      return reader_fail(r, "%s: INLINED has %" PRId64 " bytes, SIZE says %" PRId64, where, got, size);
    return 0;
  }
  const cJSON* prefix = reader_require(r, view, "PREFIX_HEX", where);
  const cJSON* index_item = prefix ? reader_require(r, view, "BUFFER_INDEX", where) : NULL;
  const cJSON* offset_item = index_item ? reader_require(r, view, "OFFSET", where) : NULL;
  int64_t index, offset;
  if (offset_item == NULL || reader_int64(r, index_item, where, &index) != 0 ||
      reader_int64(r, offset_item, where, &offset) != 0) {
    return -1;
  }
  if (index < 0 || index >= n_variadic) {
    return reader_fail(r, "%s: BUFFER_INDEX %" PRId64 " is not one of the %" PRId64 " variadic buffers",
                       where, index, n_variadic);
  }
  const struct arrow_json_buffer* buffer = &out->buffers[2 + index];
  if (offset < 0 || offset > buffer->size - size) {
    return reader_fail(r,
                       "%s: a view of %" PRId64 " bytes at OFFSET %" PRId64 " is past its buffer's %" PRId64,
                       where, size, offset, buffer->size);
  }
  uint8_t prefix_bytes[4];
  if (!cJSON_IsString(prefix) || strlen(prefix->valuestring) != 8 ||
      decode_hex(r, prefix->valuestring, prefix_bytes, where) != 4) {
    return reader_fail(r, "%s: PREFIX_HEX is not 4 hexadecimal bytes", where);
  }
  if (memcmp(prefix_bytes, buffer->bytes + offset, 4) != 0) {
    return reader_fail(r, "%s: PREFIX_HEX differs from the first bytes of the value", where);
  }
  int32_t index32 = (int32_t)index, offset32 = (int32_t)offset;
  memcpy(slot + 4, prefix_bytes, 4);
  memcpy(slot + 8, &index32, 4);
  memcpy(slot + 12, &offset32, 4);
  return 0;
}

static int read_binary_view(struct reader* r, const cJSON* json, const struct arrow_json_type* type,
                            const char* where, struct arrow_json_column* out) {
  const cJSON* variadic = reader_require_array(r, json, "VARIADIC_DATA_BUFFERS", -1, where);
  const cJSON* views = variadic ? reader_require_array(r, json, "VIEWS", out->length, where) : NULL;
  if (views == NULL) return -1;
  int64_t n_variadic = cJSON_GetArraySize(variadic);
  /* The buffers were counted without the variadic ones: count again. */
  struct arrow_json_buffer validity = out->buffers[0];
  free(out->buffers);
  out->n_buffers = arrow_layout_buffer_count(ARROW_LAYOUT_BINARY_VIEW, n_variadic);
  out->buffers = calloc((size_t)out->n_buffers, sizeof(*out->buffers));
  out->buffers[0] = validity;
  uint8_t* sizes = new_bytes(n_variadic * 8);
  set_buffer(out, out->n_buffers - 1, sizes, n_variadic * 8);
  const cJSON* item = variadic->child;
  for (int64_t i = 0; i < n_variadic; i++, item = item->next) {
    int64_t size;
    uint8_t* bytes = value_bytes(r, item, ARROW_VALUES_HEX, where, &size);
    if (bytes == NULL) return -1;
    set_buffer(out, 2 + i, bytes, size);
    memcpy(sizes + 8 * i, &size, 8);
  }
  uint8_t* slots = new_bytes(out->length * 16);
  set_buffer(out, 1, slots, out->length * 16);
  item = views->child;
  for (int64_t i = 0; i < out->length; i++, item = item->next) {
    if (!cJSON_IsObject(item)) return reader_fail(r, "%s: VIEWS[%" PRId64 "] is not an object", where, i);
    if (read_view(r, item, type, out, n_variadic, where, slots + 16 * i) != 0) return -1;
  }
  return 0;
}

/* The children of a column: each read as its field says, `length` rows
 * each (or any number when negative). */
static int read_children(struct reader* r, const cJSON* json, const struct arrow_json_field* field,
                         const char* where, int64_t length, struct arrow_json_column* out) {
  const cJSON* children = reader_require_array(r, json, "children", field->n_children, where);
  if (children == NULL) return -1;
  out->children = calloc((size_t)field->n_children + 1, sizeof(struct arrow_json_column));
  const cJSON* child_json = children->child;
  for (int64_t i = 0; i < field->n_children; i++, child_json = child_json->next) {
    const struct arrow_json_field* child = &field->children[i];
    out->n_children = i + 1;
    if (reader_column(r, child_json, child, arrow_json_storage_type(child), where, length,
                      &out->children[i]) != 0) {
      return -1;
    }
  }
  return 0;
}

static int read_list(struct reader* r, const cJSON* json, const struct arrow_json_field* field,
                     const struct arrow_json_type* type, const char* where, struct arrow_json_column* out) {
  int offset_bytes = arrow_layout_of(type->layout)->offset_bytes;
  bool view = type->layout == ARROW_LAYOUT_LIST_VIEW || type->layout == ARROW_LAYOUT_LARGE_LIST_VIEW;
  int64_t n_offsets = view ? out->length : out->length + 1;
  if (read_offsets(r, json, "OFFSET", n_offsets, offset_bytes, !view, where, out, 1) != 0) return -1;
  if (view && read_offsets(r, json, "SIZE", out->length, offset_bytes, false, where, out, 2) != 0) return -1;
  if (read_children(r, json, field, where, -1, out) != 0) return -1;
  int64_t child_length = out->children[0].length;
  for (int64_t i = 0; i < out->length; i++) {
    int64_t end = view ? arrow_json_column_offset(out, 1, offset_bytes, i) +
                             arrow_json_column_offset(out, 2, offset_bytes, i)
                       : arrow_json_column_offset(out, 1, offset_bytes, i + 1);
    if (end > child_length) {
      return reader_fail(r, "%s: row %" PRId64 " reaches row %" PRId64 " of a child of %" PRId64, where, i,
                         end, child_length);
    }
  }
  return 0;
}

static int read_union(struct reader* r, const cJSON* json, const struct arrow_json_field* field,
                      const struct arrow_json_type* type, const char* where, struct arrow_json_column* out) {
  const cJSON* ids = reader_require_array(r, json, "TYPE_ID", out->length, where);
  if (ids == NULL) return -1;
  int8_t* type_ids = (int8_t*)new_bytes(out->length);
  set_buffer(out, 0, (uint8_t*)type_ids, out->length);
  int64_t* child_of_row = calloc((size_t)out->length + 1, sizeof(int64_t));
  int status = 0;
  const cJSON* item = ids->child;
  for (int64_t i = 0; i < out->length && status == 0; i++, item = item->next) {
    int64_t id;
    status = reader_int64(r, item, where, &id);
    child_of_row[i] = -1;
    for (int64_t c = 0; status == 0 && c < type->n_type_ids; c++) {
      if (type->type_ids[c] == id) child_of_row[i] = c;
    }
    if (status == 0 && child_of_row[i] < 0) {
      status = reader_fail(r, "%s: TYPE_ID[%" PRId64 "] is %" PRId64 ", not one of the union's typeIds",
                           where, i, id);
    }
    type_ids[i] = (int8_t)id;
  }
  bool dense = type->layout == ARROW_LAYOUT_DENSE_UNION;
  if (status == 0 && dense) status = read_offsets(r, json, "OFFSET", out->length, 4, false, where, out, 1);
  if (status == 0) status = read_children(r, json, field, where, dense ? -1 : out->length, out);
  /* spec (Columnar.rst, "Dense Union"): "The respective offsets for each
   * child value array must be in order / increasing." */
  int64_t* last_offset = calloc((size_t)type->n_type_ids + 1, sizeof(int64_t));
  for (int64_t c = 0; c < type->n_type_ids; c++) last_offset[c] = -1;
  for (int64_t i = 0; status == 0 && dense && i < out->length; i++) {
    int64_t offset = arrow_json_column_offset(out, 1, 4, i);
    int64_t child = child_of_row[i];
    if (offset >= out->children[child].length) {
      status = reader_fail(r, "%s: OFFSET[%" PRId64 "] is past its child's rows", where, i);
    } else if (offset < last_offset[child]) {
      status = reader_fail(
          r, "%s: OFFSET[%" PRId64 "] goes back in its child (offsets per child must increase)", where, i);
    }
    last_offset[child] = offset;
  }
  free(last_offset);
  free(child_of_row);
  return status;
}

/* spec (Columnar.rst, "Run-End Encoded Layout"): run ends strictly
 * increasing and positive, as many as the values, the last covering the
 * array's length. */
static int read_run_end_encoded(struct reader* r, const cJSON* json, const struct arrow_json_field* field,
                                const char* where, struct arrow_json_column* out) {
  if (read_children(r, json, field, where, -1, out) != 0) return -1;
  const struct arrow_json_column* run_ends = &out->children[0];
  const struct arrow_json_type* run_end_type = &field->children[0].type;
  if (run_ends->length != out->children[1].length) {
    return reader_fail(r, "%s: %" PRId64 " run ends for %" PRId64 " values", where, run_ends->length,
                       out->children[1].length);
  }
  int64_t previous = 0;
  for (int64_t i = 0; i < run_ends->length; i++) {
    int64_t end = arrow_json_load_int(run_ends->buffers[1].bytes, run_end_type->bit_width, true, i);
    if (end <= previous)
      return reader_fail(r, "%s: run end %" PRId64 " is not above the one before", where, i);
    previous = end;
  }
  if (out->length > 0 && previous < out->length) {
    return reader_fail(r, "%s: the runs end at %" PRId64 ", before the column's %" PRId64 " rows", where,
                       previous, out->length);
  }
  return 0;
}

/* ---- validity ---- */

static int read_validity(struct reader* r, const cJSON* json, const struct arrow_json_field* field,
                         const struct arrow_json_type* type, const char* where,
                         struct arrow_json_column* out) {
  if (type->layout == ARROW_LAYOUT_NULL) {
    out->null_count = out->length; /* every row is null */
    return 0;
  }
  if (!arrow_layout_has_validity(type->layout)) return 0; /* unions and run-end encoded: their children's */
  const cJSON* validity = reader_require_array(r, json, "VALIDITY", out->length, where);
  if (validity == NULL) return -1;
  out->validity = new_bytes(out->length);
  const cJSON* entry = validity->child;
  for (int64_t i = 0; i < out->length; i++, entry = entry->next) {
    int64_t bit;
    if (reader_int64(r, entry, where, &bit) != 0) return -1;
    if (bit != 0 && bit != 1) return reader_fail(r, "%s: VALIDITY entries must be 0 or 1", where);
    if (bit == 0 && !field->nullable) {
      return reader_fail(r, "%s: null at index %" PRId64 " in a non-nullable field", where, i);
    }
    out->validity[i] = (uint8_t)bit;
    out->null_count += !bit;
  }
  /* spec: the validity buffer "MAY be null ... if ArrowArray.null_count is
   * 0": the model leaves it out then. */
  if (out->null_count == 0) return 0;
  uint8_t* bitmap = new_bytes((out->length + 7) / 8);
  for (int64_t i = 0; i < out->length; i++) {
    if (out->validity[i]) bitmap[i / 8] |= (uint8_t)(1u << (i % 8));
  }
  set_buffer(out, 0, bitmap, (out->length + 7) / 8);
  return 0;
}

int reader_column(struct reader* r, const cJSON* json, const struct arrow_json_field* field,
                  const struct arrow_json_type* type, const char* parent, int64_t expected_length,
                  struct arrow_json_column* out) {
  memset(out, 0, sizeof(*out));
  char where[256];
  snprintf(where, sizeof(where), "%s column '%s'", parent, field->name);
  reader_drop_cut_character(where);
  if (!cJSON_IsObject(json)) return reader_fail(r, "%s: not an object", where);
  const cJSON* count = reader_require(r, json, "count", where);
  if (count == NULL || reader_int64(r, count, where, &out->length) != 0) return -1;
  /* Counts stay within int32, as every offset of the C Data Interface's
   * 32-bit layouts must. */
  if (out->length < 0 || out->length > INT32_MAX) {
    return reader_fail(r, "%s: count %" PRId64 " is out of range", where, out->length);
  }
  if (expected_length >= 0 && out->length != expected_length) {
    return reader_fail(r, "%s: count %" PRId64 " differs from its parent's %" PRId64, where, out->length,
                       expected_length);
  }
  out->n_buffers = arrow_layout_buffer_count(type->layout, 0);
  out->buffers = calloc((size_t)out->n_buffers + 1, sizeof(*out->buffers));
  if (read_validity(r, json, field, type, where, out) != 0) return -1;
  switch (type->layout) {
    case ARROW_LAYOUT_NULL:
      return 0;
    case ARROW_LAYOUT_BOOL:
      return read_bools(r, json, where, out);
    case ARROW_LAYOUT_FIXED_WIDTH:
      return read_fixed(r, json, type, where, out);
    case ARROW_LAYOUT_BINARY:
    case ARROW_LAYOUT_LARGE_BINARY:
      return read_binary(r, json, type, where, out);
    case ARROW_LAYOUT_BINARY_VIEW:
      return read_binary_view(r, json, type, where, out);
    case ARROW_LAYOUT_LIST:
    case ARROW_LAYOUT_LARGE_LIST:
    case ARROW_LAYOUT_LIST_VIEW:
    case ARROW_LAYOUT_LARGE_LIST_VIEW:
    case ARROW_LAYOUT_MAP:
      return read_list(r, json, field, type, where, out);
    case ARROW_LAYOUT_FIXED_SIZE_LIST:
      return read_children(r, json, field, where, out->length * type->list_size, out);
    case ARROW_LAYOUT_STRUCT:
      return read_children(r, json, field, where, out->length, out);
    case ARROW_LAYOUT_SPARSE_UNION:
    case ARROW_LAYOUT_DENSE_UNION:
      return read_union(r, json, field, type, where, out);
    case ARROW_LAYOUT_RUN_END_ENCODED:
      return read_run_end_encoded(r, json, field, where, out);
    case ARROW_LAYOUT_COUNT:
      break;
  }
  return reader_fail(r, "%s: unknown layout", where);
}
