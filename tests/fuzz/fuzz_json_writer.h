/* Writes a random integration JSON file (Integration.rst) of a type tree
 * (fuzz_type_tree.h): its schema, its dictionaries and 0 to 3 batches of
 * random lengths (empty, short, long), with nulls, every buffer the
 * layout has (arrow_layouts) filled as the format allows it: lists whose
 * offsets start past 0 and whose children have rows no list reaches,
 * list views that overlap, dense unions that skip and share child rows,
 * views over many variadic buffers (20 and more) sharing their bytes, runs
 * that end past the array.  The values are drawn from the input. */
#ifndef ADC_FUZZ_JSON_WRITER_H
#define ADC_FUZZ_JSON_WRITER_H

#include <stdbool.h>
#include <stdint.h>

#include "fuzz_bytes.h"
#include "fuzz_text.h"
#include "fuzz_type_tree.h"

/* Rows written over a whole file, at most (about): past it, lists are
 * empty, so that an input costs milliseconds. */
#define FUZZ_JSON_ROW_BUDGET 20000

struct fuzz_writer {
  struct fuzz_bytes* in;
  struct fuzz_text* text;
  int64_t budget; /* rows left to write (about) */
};

/* The whole file, appended to `text`. */
void fuzz_json_write_file(struct fuzz_bytes* in, const struct fuzz_tree* tree, struct fuzz_text* text);

/* One column (FieldData) of `node` of `length` rows; for a
 * dictionary-encoded node its indices, or its dictionary's values when
 * `dictionary_values` (any of which may be null). */
void fuzz_json_column(struct fuzz_writer* w, const struct fuzz_node* node, int64_t length,
                      bool dictionary_values);

#endif /* ADC_FUZZ_JSON_WRITER_H */
