/* An ArrowArray tree of any layout, built from the fixture model's own
 * buffers (laid out by the layout table, arrow_format/
 * arrow_layout.c), then changed where the fuzzer's bytes say.
 *
 * Where fuzz_array.h decodes every byte of a tree of integers, strings and
 * structs, this one serves every type: it starts from a correct export
 * (padded rows before the column and `offset` past them, when the bytes
 * ask), then makes a few changes that keep every read in bounds: bits
 * flipped in validity, boolean, value, character, view and type-id
 * buffers, a null_count, a buffer count (not a view's) or a child count,
 * a NULL buffer or child,
 * a dictionary pointer dropped or added, a node marked released, a length
 * cut.  Offsets, list sizes and variadic buffer sizes are never changed:
 * they say how far the buffers reach, which the C Data Interface cannot
 * tell, so a wrong one would make any reader read out of bounds. */
#ifndef ADC_FUZZ_LAYOUT_ARRAY_H
#define ADC_FUZZ_LAYOUT_ARRAY_H

#include "arrow_format/arrow_json.h"
#include "fuzz_bytes.h"

/* Owns the padded copies the arrays point into; free with
 * fuzz_layout_free once the arrays are no longer read. */
struct fuzz_layout {
  struct fuzz_arena* arena;
  struct arrow_json_column* copies[64];
  int n_copies;
};

/* Batch `batch` of `file` (which must exist). */
struct ArrowArray* fuzz_layout_batch(struct fuzz_bytes* in, struct fuzz_layout* layout,
                                     const struct arrow_json_file* file, int64_t batch);
/* Column `column` of batch `batch` on its own. */
struct ArrowArray* fuzz_layout_column(struct fuzz_bytes* in, struct fuzz_layout* layout,
                                      const struct arrow_json_file* file, int64_t batch, int64_t column);
void fuzz_layout_free(struct fuzz_layout* layout);

#endif /* ADC_FUZZ_LAYOUT_ARRAY_H */
