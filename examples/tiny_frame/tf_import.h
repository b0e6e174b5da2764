/* Adopting C structures into tiny_frame's own tables.
 *
 * Each function takes ownership of what it is handed: it moves the
 * structure into its own storage at once, marking the caller's copy
 * released (spec: "Moving an array"), and has released it when it
 * returns, whether it succeeded or not (adc/plugin_abi.h: "An Import
 * function takes ownership of what it is given and must have released it
 * when it returns").  The values are copied into buffers tiny_frame
 * allocates on the same device, so that nothing of the producer's is
 * kept.  Each returns a new table, or NULL with a message (tf_error.h). */
#ifndef TF_IMPORT_H
#define TF_IMPORT_H

#include "adc/arrow_c_abi.h"
#include "tf_table.h"

struct tf_table* tf_import_schema(struct ArrowSchema* schema);

/* `batch` is a struct array of `schema`'s fields, on the CPU. */
struct tf_table* tf_import_batch(struct ArrowSchema* schema, struct ArrowArray* batch);

/* The same on the batch's device; where its sync_event is set, waits on
 * it before any buffer is read. */
struct tf_table* tf_import_device_batch(struct ArrowSchema* schema, struct ArrowDeviceArray* batch);

/* Reads the whole stream: the schema, then every batch to the end. */
struct tf_table* tf_import_device_stream(struct ArrowDeviceArrayStream* stream);

/* ---- The parts, on structures the caller still owns ------------------- */

/* tf_import_schema.c: `schema`'s format, name, flags, metadata and
 * children into `out`.  0, or -1 with a message; `out` is then to be
 * freed with tf_field_free. */
int tf_field_from_schema(const struct ArrowSchema* schema, struct tf_field* out);

/* tf_import_column.c: rows `first_row` to `first_row + length` of `array`
 * (of type `field`) into `out`, in new buffers on `device`, its offset
 * applied.  0, or -1 with a message; `out` is then to be freed with
 * tf_column_free.  The buffers must be readable (synchronised). */
int tf_column_from_array(const struct ArrowArray* array, const struct tf_field* field, int64_t first_row,
                         int64_t length, struct tf_device device, struct tf_column* out);

#endif /* TF_IMPORT_H */
