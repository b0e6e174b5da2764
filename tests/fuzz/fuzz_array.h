/* An ArrowArray tree decoded from the fuzzer's bytes, shaped after what the
 * fixture has at each place.
 *
 * The comparison (arrow_format/arrow_json.h) reads an array as
 * the fixture's type says, since an array carries no format; so each node
 * that the fixture has a type for is laid out as that type (a validity
 * bitmap, then int values of the fixture's width, utf8 offsets and bytes,
 * or nothing more for a struct), or as another kind, which has another
 * buffer count and so is refused before any buffer is read.  Each buffer
 * is allocated to exactly what the node's own offset + length (and, for
 * utf8 bytes, its largest offset) needs, so the tree is memory-safe, while
 * the bytes decide everything else: offset, length, null_count, buffer and
 * child counts, NULL buffers and children, a missing or extra dictionary,
 * and the contents, either the fixture's values (so that the comparison
 * goes deep) with an occasional corruption, or arbitrary ones (offsets
 * negative, decreasing, or beyond the bytes when the bytes reach that far).
 * Offsets and lengths that no allocation could cover (negative, huge) come
 * only with NULL buffers. */
#ifndef ADC_FUZZ_ARRAY_H
#define ADC_FUZZ_ARRAY_H

#include "arrow_format/arrow_json.h"
#include "fuzz_bytes.h"

/* A record batch shaped after batch `batch` of `file` (any batch number:
 * one the fixture lacks gives a batch of the fields without their rows). */
struct ArrowArray* fuzz_array_for_batch(struct fuzz_bytes* in, struct fuzz_arena* arena,
                                        const struct arrow_json_file* file, int64_t batch);
/* One column of `field`, shaped after `column`. */
struct ArrowArray* fuzz_array_for_column(struct fuzz_bytes* in, struct fuzz_arena* arena,
                                         const struct arrow_json_file* file,
                                         const struct arrow_json_field* field,
                                         const struct arrow_json_column* column);
/* Dictionary values of `type`, shaped after `values`. */
struct ArrowArray* fuzz_array_for_values(struct fuzz_bytes* in, struct fuzz_arena* arena,
                                         const struct arrow_json_type* type,
                                         const struct arrow_json_column* values);

#endif /* ADC_FUZZ_ARRAY_H */
