/* One exported binary value, read and checked (arrow_binary_value.h). */
#include "arrow_format/arrow_binary_value.h"

#include <string.h>

#include "arrow_format/arrow_json.h"

static enum arrow_binary_status offset_value(enum arrow_layout_id layout, const struct ArrowArray* array,
                                             int64_t slot, struct arrow_binary_value* out) {
  int bits = arrow_layout_of(layout)->offset_bytes * 8;
  out->first = arrow_json_load_int(array->buffers[1], bits, true, slot);
  out->last = arrow_json_load_int(array->buffers[1], bits, true, slot + 1);
  /* A negative offset points before the bytes: neither compared nor printed. */
  if (out->first < 0) return ARROW_BINARY_NEGATIVE_OFFSET;
  if (out->last < out->first) return ARROW_BINARY_DECREASING;
  out->size = out->last - out->first;
  if (out->size == 0) {
    out->bytes = (const uint8_t*)"";
    return ARROW_BINARY_OK;
  }
  out->buffer = 2;
  if (array->buffers[2] == NULL) return ARROW_BINARY_NO_DATA;
  out->bytes = (const uint8_t*)array->buffers[2] + out->first;
  return ARROW_BINARY_OK;
}

/* spec (Columnar.rst, "Variable-size Binary View Layout"): the size, then
 * up to 12 bytes inline, or a 4-byte prefix, the buffer index and the
 * offset in that buffer. */
static enum arrow_binary_status view_value(const struct ArrowArray* array, int64_t slot,
                                           struct arrow_binary_value* out) {
  const uint8_t* view = (const uint8_t*)array->buffers[1] + 16 * slot;
  int32_t size, offset;
  memcpy(&size, view, 4);
  out->size = size;
  if (size < 0) return ARROW_BINARY_NEGATIVE_SIZE;
  if (size <= 12) {
    out->bytes = view + 4;
    return ARROW_BINARY_OK;
  }
  memcpy(&out->index, view + 8, 4);
  memcpy(&offset, view + 12, 4);
  out->n_variadic = array->n_buffers - 3;
  if (out->index < 0 || out->index >= out->n_variadic) return ARROW_BINARY_NO_VARIADIC;
  const int64_t* sizes = array->buffers[array->n_buffers - 1];
  if (sizes == NULL) return ARROW_BINARY_NO_SIZES;
  out->buffer_size = sizes[out->index];
  if (offset < 0 || offset > out->buffer_size - size) return ARROW_BINARY_PAST_VARIADIC;
  out->buffer = 2 + out->index;
  if (array->buffers[out->buffer] == NULL) return ARROW_BINARY_NO_DATA;
  out->bytes = (const uint8_t*)array->buffers[out->buffer] + offset;
  return memcmp(out->bytes, view + 4, 4) == 0 ? ARROW_BINARY_OK : ARROW_BINARY_PREFIX;
}

enum arrow_binary_status arrow_binary_value_at(enum arrow_layout_id layout, const struct ArrowArray* array,
                                               int64_t slot, struct arrow_binary_value* out) {
  memset(out, 0, sizeof(*out));
  if (layout == ARROW_LAYOUT_BINARY_VIEW) return view_value(array, slot, out);
  return offset_value(layout, array, slot, out);
}
