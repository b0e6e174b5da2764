/* An array's null_count against its validity (arrow_null_count.h). */
#include "arrow_format/arrow_null_count.h"

#include <inttypes.h>
#include <stdio.h>

int64_t arrow_bitmap_count_nulls(const uint8_t* bitmap, int64_t offset, int64_t length) {
  int64_t nulls = 0;
  int64_t i = offset, end = offset + length;
  for (; i < end && (i & 7) != 0; i++) nulls += !((bitmap[i >> 3] >> (i & 7)) & 1);
  for (; i + 8 <= end; i += 8) {
    unsigned byte = (uint8_t)~bitmap[i >> 3];
    for (; byte != 0; byte &= byte - 1) nulls++;
  }
  for (; i < end; i++) nulls += !((bitmap[i >> 3] >> (i & 7)) & 1);
  return nulls;
}

int arrow_null_count_check(enum arrow_layout_id layout, const struct ArrowArray* array, char* why,
                           size_t size) {
  if (layout == ARROW_LAYOUT_NULL) {
    if (array->null_count == -1 || array->null_count == array->length) return 0;
    snprintf(why, size, "null_count is %" PRId64 ", a null array of length %" PRId64 " has that many",
             array->null_count, array->length);
    return -1;
  }
  if (!arrow_layout_has_validity(layout)) {
    if (array->null_count == -1 || array->null_count == 0) return 0;
    snprintf(why, size, "null_count is %" PRId64 ", a %s array has no nulls of its own", array->null_count,
             arrow_layout_of(layout)->name);
    return -1;
  }
  const uint8_t* validity = array->buffers[0];
  if (validity == NULL) {
    if (array->null_count == 0) return 0;
    snprintf(why, size, "validity buffer is NULL while null_count is %" PRId64 " (only allowed when it is 0)",
             array->null_count);
    return -1;
  }
  if (array->null_count == -1) return 0;
  int64_t nulls = arrow_bitmap_count_nulls(validity, array->offset, array->length);
  if (array->null_count == nulls) return 0;
  snprintf(why, size, "null_count is %" PRId64 " but the validity bitmap has %" PRId64 " nulls",
           array->null_count, nulls);
  return -1;
}
