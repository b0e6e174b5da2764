/* A host copy of an exported array whose buffers live where the CPU cannot
 * read them in place (GPU memory), laid out as a fixture says, so that the
 * comparisons of arrow_json.h can read it.  The harness and the reference
 * consumer both use it, each with its own way of copying.
 *
 * The structures are copied as they are (they live in CPU memory, spec:
 * "Memory management"); each buffer the fixture's type says the array has
 * is brought over with `copy`, sized from the array's own offset and
 * length.  Members that do not match the type (a wrong buffer or child
 * count, a NULL pointer) are copied as they are and their buffers left out,
 * so that the comparison reports them rather than the copy guessing a
 * size. */
#ifndef ARROW_JSON_MIRROR_H
#define ARROW_JSON_MIRROR_H

#include <stdbool.h>
#include <stddef.h>

#include "arrow_format/arrow_json.h"

/* Copies `size` bytes at `source` to `host`; 0, or -1 with the reason kept
 * in `context`. */
typedef int (*arrow_json_copy_fn)(void* context, void* host, const void* source, size_t size);

/* Owns every block of one or more mirrors.  Set `copy` and `context`, the
 * rest zeroed. */
struct arrow_json_mirror {
  arrow_json_copy_fn copy;
  void* context;
  bool out_of_memory; /* why the last call failed, when `copy` did not */
  void** blocks;
  size_t n_blocks;
  size_t capacity;
};

/* Each fills `host` with a copy of `source`, laid out as a record batch of
 * the file's fields, one column of `field`, or the dictionary values of
 * the dictionary-encoded `field`.  Returns 0, or -1 (out_of_memory, or the copy's reason in its
 * context).  `host` is valid until arrow_json_mirror_free; its release
 * member only tells whether the source was released and must never be
 * called. */
int arrow_json_mirror_batch(struct arrow_json_mirror* mirror, const struct arrow_json_file* file,
                            const struct ArrowArray* source, struct ArrowArray* host);
int arrow_json_mirror_column(struct arrow_json_mirror* mirror, const struct arrow_json_field* field,
                             const struct ArrowArray* source, struct ArrowArray* host);
int arrow_json_mirror_values(struct arrow_json_mirror* mirror, const struct arrow_json_field* field,
                             const struct ArrowArray* source, struct ArrowArray* host);
void arrow_json_mirror_free(struct arrow_json_mirror* mirror);

#endif /* ARROW_JSON_MIRROR_H */
