/* An array's null_count against its validity bitmap: the rule both
 * comparisons (arrow_json_compare.c, arrow_logical_structure.c) apply to
 * every node before they read a row, written once. */
#ifndef ADC_ARROW_NULL_COUNT_H
#define ADC_ARROW_NULL_COUNT_H

#include <stddef.h>
#include <stdint.h>

#include "adc/arrow_c_abi.h"
#include "arrow_format/arrow_layout.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The nulls (clear bits) of `length` bits of `bitmap` from bit `offset`. */
int64_t arrow_bitmap_count_nulls(const uint8_t* bitmap, int64_t offset, int64_t length);

/* Whether `array`, of a type of `layout`, has the null_count its own
 * validity says: a null array's every row (spec, Columnar.rst: "Null
 * Layout"); none for unions and run-end encoded arrays, which have no
 * validity bitmap; with a NULL bitmap 0 (spec: the buffer "MAY be null
 * only ... if ArrowArray.null_count is 0"); else the bitmap's count over
 * [offset, offset + length).  -1 is accepted wherever a count is (spec:
 * "MAY be -1 if not yet computed").  0, or -1 with the reason written to
 * `why`.  Reads buffers[0] where the layout has a bitmap: the caller
 * checked that the array has its buffers. */
int arrow_null_count_check(enum arrow_layout_id layout, const struct ArrowArray* array, char* why,
                           size_t size);

#ifdef __cplusplus
}
#endif

#endif /* ADC_ARROW_NULL_COUNT_H */
