/* One value of a binary or string array, of any of its layouts (offsets
 * into a data buffer, or views), read with every check its own buffers
 * allow: the one reader of exported binary values for both comparisons
 * (arrow_json_compare.c, arrow_logical_values.c), which word what it finds
 * each their own way. */
#ifndef ADC_ARROW_BINARY_VALUE_H
#define ADC_ARROW_BINARY_VALUE_H

#include <stdint.h>

#include "adc/arrow_c_abi.h"
#include "arrow_format/arrow_layout.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What reading a value found. */
enum arrow_binary_status {
  ARROW_BINARY_OK,
  ARROW_BINARY_NEGATIVE_OFFSET, /* `first` is below 0 */
  ARROW_BINARY_DECREASING,      /* `last` is below `first` */
  ARROW_BINARY_NEGATIVE_SIZE,   /* a view's `size` is below 0 */
  ARROW_BINARY_NO_VARIADIC,     /* a view's buffer `index` is not one of the `n_variadic` buffers */
  ARROW_BINARY_NO_SIZES,        /* the variadic buffers' sizes buffer is NULL */
  ARROW_BINARY_PAST_VARIADIC,   /* a view reaches past its buffer `index` of `buffer_size` bytes */
  ARROW_BINARY_NO_DATA,         /* the data buffer it reads, buffers[`buffer`], is NULL */
  ARROW_BINARY_PREFIX,          /* a view's prefix differs from its value's first bytes */
};

/* A value read, or what was found instead. */
struct arrow_binary_value {
  const uint8_t* bytes; /* `size` bytes (a valid pointer for 0) */
  int64_t size;
  int64_t first; /* offsets: where the value starts and ends */
  int64_t last;
  int32_t index; /* views: the variadic buffer named */
  int64_t n_variadic;
  int64_t buffer_size;
  int64_t buffer; /* the buffer found NULL */
};

/* Slot `slot` (the array's offset added) of `array`, a binary, large
 * binary or binary view array ("z", "u", "Z", "U", "vz", "vu") whose
 * buffer count is its layout's and whose offsets or views buffer is not
 * NULL (the caller checked both).  Offsets: not negative, not decreasing,
 * the data buffer there unless the value is empty (spec: a buffer of 0
 * bytes "MAY be null").  Views (Columnar.rst, "Variable-size Binary View
 * Layout"): a size not negative, inline up to 12 bytes; beyond, a buffer
 * index among the variadic buffers, an offset and size within that
 * buffer's size (CDataInterface.rst, "Binary view arrays": the last buffer
 * holds the variadic buffers' sizes), and a prefix equal to the first 4
 * bytes.  Fills `out`; returns what it found. */
enum arrow_binary_status arrow_binary_value_at(enum arrow_layout_id layout, const struct ArrowArray* array,
                                               int64_t slot, struct arrow_binary_value* out);

#ifdef __cplusplus
}
#endif

#endif /* ADC_ARROW_BINARY_VALUE_H */
