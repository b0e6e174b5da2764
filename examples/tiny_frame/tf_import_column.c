/* An Arrow array into a tiny_frame column: the rows the column takes are
 * copied to the start of new buffers, so that the column has no offset.
 *
 * The array's offset counts items from the physical start of its buffers
 * (spec: "ArrowArray.offset"), the validity bitmap's as the values'.  A
 * struct's offset applies to its children as well: row i of a struct at
 * offset k is row k + i of each child, to which the child's own offset
 * adds. */
#include <stdlib.h>
#include <string.h>

#include "tf_error.h"
#include "tf_import.h"

/* Rows a column may have: its buffers' sizes must fit in an int64_t. */
#define TF_MAX_ROWS (INT64_MAX / 16)

/* An int32 of a buffer the producer may not have aligned. */
static int32_t read_int32(const void* buffer, int64_t index) {
  int32_t value;
  memcpy(&value, (const uint8_t*)buffer + index * 4, sizeof(value));
  return value;
}

static const char* name_of(const struct tf_field* field) {
  return field->name != NULL ? field->name : "";
}

/* The validity bitmap's rows, and the nulls counted from it: no bitmap
 * at all where no row is null.  A bitmap may be absent only where
 * null_count is 0 (spec: "The buffer pointers MAY be null only in two
 * situations"); one that is -1 (not computed) is taken as 0 then. */
static int import_validity(const struct ArrowArray* array, const struct tf_field* field, int64_t start,
                           int64_t length, struct tf_device device, struct tf_column* out) {
  const uint8_t* bits = array->buffers[0];
  out->null_count = 0;
  if (array->null_count == 0 || length == 0) return 0;
  if (bits == NULL) {
    if (array->null_count > 0) {
      return tf_fail("column '%s' has null_count %lld and no validity bitmap", name_of(field),
                     (long long)array->null_count);
    }
    return 0;
  }
  struct tf_buffer* validity = tf_buffer_new(device, (length + 7) / 8);
  if (validity == NULL) return -1;
  int64_t nulls = 0;
  for (int64_t i = 0; i < length; i++) {
    if (tf_bit_get(bits, start + i)) {
      tf_bit_set(validity->data, i);
    } else {
      nulls++;
    }
  }
  if (nulls == 0) {
    tf_buffer_unref(validity);
    return 0;
  }
  out->validity = validity;
  out->null_count = nulls;
  return 0;
}

static int import_bits(const struct ArrowArray* array, const struct tf_field* field, int64_t start,
                       int64_t length, struct tf_device device, struct tf_column* out) {
  const uint8_t* bits = array->buffers[1];
  if (length > 0 && bits == NULL) return tf_fail("column '%s' has no values buffer", name_of(field));
  if ((out->values = tf_buffer_new(device, (length + 7) / 8)) == NULL) return -1;
  for (int64_t i = 0; i < length; i++) {
    if (tf_bit_get(bits, start + i)) tf_bit_set(out->values->data, i);
  }
  return 0;
}

static int import_fixed(const struct ArrowArray* array, const struct tf_field* field, int64_t start,
                        int64_t length, struct tf_device device, struct tf_column* out) {
  const uint8_t* values = array->buffers[1];
  int width = tf_type_info(field->type)->width;
  if (length > 0 && values == NULL) return tf_fail("column '%s' has no values buffer", name_of(field));
  if ((out->values = tf_buffer_new(device, length * width)) == NULL) return -1;
  if (length > 0) memcpy(out->values->data, values + start * width, (size_t)(length * width));
  return 0;
}

/* Offsets and bytes: the rows' bytes, and their offsets rebased to 0. */
static int import_variable(const struct ArrowArray* array, const struct tf_field* field, int64_t start,
                           int64_t length, struct tf_device device, struct tf_column* out) {
  const void* offsets = array->buffers[1];
  const uint8_t* bytes = array->buffers[2];
  int32_t first = 0;
  int32_t last = 0;
  if (length > 0) {
    if (offsets == NULL) return tf_fail("column '%s' has no offsets buffer", name_of(field));
    first = read_int32(offsets, start);
    if (first < 0) return tf_fail("column '%s' has a negative offset", name_of(field));
    for (int64_t i = 0; i < length; i++) {
      if (read_int32(offsets, start + i + 1) < read_int32(offsets, start + i)) {
        return tf_fail("column '%s' has decreasing offsets at row %lld", name_of(field), (long long)i);
      }
    }
    last = read_int32(offsets, start + length);
    if (last > first && bytes == NULL) return tf_fail("column '%s' has no data buffer", name_of(field));
  }
  if ((out->offsets = tf_buffer_new(device, (length + 1) * 4)) == NULL) return -1;
  if ((out->values = tf_buffer_new(device, last - first)) == NULL) return -1;
  for (int64_t i = 0; length > 0 && i <= length; i++) {
    int32_t rebased = read_int32(offsets, start + i) - first;
    memcpy(out->offsets->data + i * 4, &rebased, sizeof(rebased));
  }
  if (last > first) memcpy(out->values->data, bytes + first, (size_t)(last - first));
  return 0;
}

static int import_children(const struct ArrowArray* array, const struct tf_field* field, int64_t start,
                           int64_t length, struct tf_device device, struct tf_column* out) {
  if (field->n_children == 0) return 0;
  out->children = calloc((size_t)field->n_children, sizeof(*out->children));
  if (out->children == NULL) return tf_fail("tiny_frame is out of memory");
  out->n_children = field->n_children;
  for (int64_t i = 0; i < field->n_children; i++) {
    const struct ArrowArray* child = array->children[i];
    if (child == NULL) return tf_fail("column '%s' has a NULL child %lld", name_of(field), (long long)i);
    /* The struct's row i is the child's row start + i. */
    if (tf_column_from_array(child, &field->children[i], start, length, device, &out->children[i]) != 0) {
      return -1;
    }
  }
  return 0;
}

int tf_column_from_array(const struct ArrowArray* array, const struct tf_field* field, int64_t first_row,
                         int64_t length, struct tf_device device, struct tf_column* out) {
  const struct tf_type_info* type = tf_type_info(field->type);
  static const int64_t buffers_of[] = {
      [TF_LAYOUT_BITS] = 2, [TF_LAYOUT_FIXED] = 2, [TF_LAYOUT_VARIABLE] = 3, [TF_LAYOUT_STRUCT] = 1};
  memset(out, 0, sizeof(*out));
  out->type = field->type;
  out->length = length;
  /* spec: "consumers SHOULD check for a NULL release callback" (a child
   * moved out of its parent is marked so). */
  if (array->release == NULL) return tf_fail("column '%s' is released", name_of(field));
  if (array->length < 0 || array->offset < 0 || array->length > TF_MAX_ROWS || array->offset > TF_MAX_ROWS) {
    return tf_fail("column '%s' has length %lld and offset %lld", name_of(field), (long long)array->length,
                   (long long)array->offset);
  }
  if (array->length - first_row < length) {
    return tf_fail("column '%s' has %lld rows; its parent reaches row %lld", name_of(field),
                   (long long)array->length, (long long)(first_row + length));
  }
  if (array->n_buffers != buffers_of[type->layout] || array->buffers == NULL) {
    return tf_fail("column '%s' (%s) has %lld buffers, not %lld", name_of(field), type->name,
                   (long long)array->n_buffers, (long long)buffers_of[type->layout]);
  }
  if (array->n_children != field->n_children || (array->n_children > 0 && array->children == NULL)) {
    return tf_fail("column '%s' has %lld children; its field has %lld", name_of(field),
                   (long long)array->n_children, (long long)field->n_children);
  }
  if (array->dictionary != NULL) return tf_fail("column '%s' has a dictionary", name_of(field));
  int64_t start = array->offset + first_row; /* the physical index of the column's first row */
  if (import_validity(array, field, start, length, device, out) != 0) return -1;
  switch (type->layout) {
    case TF_LAYOUT_BITS:
      return import_bits(array, field, start, length, device, out);
    case TF_LAYOUT_FIXED:
      return import_fixed(array, field, start, length, device, out);
    case TF_LAYOUT_VARIABLE:
      return import_variable(array, field, start, length, device, out);
    case TF_LAYOUT_STRUCT:
      return import_children(array, field, start, length, device, out);
  }
  return tf_fail("column '%s' has an unknown layout", name_of(field));
}
