/* Read-only views of the fixture model as the C Data Interface's
 * structures: an ArrowSchema of a file's schema and an ArrowArray of one of
 * its batches, pointing at the model's own names, formats and buffers (the
 * model is laid out as the C Data Interface exports it: arrow_json.h), so
 * that code that reads exported structures reads a fixture through the
 * same path.  The logical comparison (arrow_logical.h) reads both sides so.
 *
 * A view copies no buffer: the model must outlive it, and must not change
 * while it is read.  It is laid out as the reference producer exports the
 * same fixture (reference/export_schema.c, export_array.c): the batch a
 * "+s" struct of the columns, offset 0, the model's null counts, a
 * dictionary-encoded column's indices with its dictionary's values. */
#ifndef ADC_ARROW_JSON_VIEW_H
#define ADC_ARROW_JSON_VIEW_H

#include "arrow_format/arrow_json.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The file's schema, as ref_export_schema exports it (formats, names,
 * flags, metadata encoded as the spec's "ArrowSchema.metadata").  0 with
 * `out` the view, which the caller releases through out->release; -1 when
 * out of memory, `out` untouched.  Only the root's release frees: the
 * release callbacks of its children and dictionaries only mark them
 * released. */
int arrow_json_view_schema(const struct arrow_json_file* file, struct ArrowSchema* out);

/* Batch `batch` of the file, its buffers the model's.  0 with `out` the
 * view (released as above), -1 when there is no such batch or memory ran
 * out, `out` untouched. */
int arrow_json_view_batch(const struct arrow_json_file* file, int64_t batch, struct ArrowArray* out);

#ifdef __cplusplus
}
#endif

#endif /* ADC_ARROW_JSON_VIEW_H */
