/* Exporting tiny_frame's tables as C structures.
 *
 * Every structure exported is new, built from tiny_frame's own fields and
 * columns, with tiny_frame's release callbacks and private_data: no
 * pointer of the producer it once adopted from survives in it.  An
 * exported array holds a reference to each buffer it points to, and an
 * exported stream one to its table, so an export lives until its
 * consumer releases it, whatever becomes of the table (spec: "Release
 * callback semantics -- for producers").  No structure points into
 * itself, so a consumer may move any of them (spec: "Moving an array").
 *
 * Each function returns 0 with `out` filled, or -1 with a message
 * (tf_error.h) and `out` untouched. */
#ifndef TF_EXPORT_H
#define TF_EXPORT_H

#include "adc/arrow_c_abi.h"
#include "tf_table.h"

int tf_export_schema(const struct tf_field* field, struct ArrowSchema* out);

/* The column with offset 0 and its exact null_count. */
int tf_export_column(const struct tf_column* column, struct ArrowArray* out);

/* The batch on the device its buffers are on, data ready: sync_event
 * NULL (spec: "If the sync_event member is NULL, then it MUST be safe to
 * access the data without any synchronization"). */
int tf_export_device_batch(const struct tf_batch* batch, struct ArrowDeviceArray* out);

/* A stream over `table`'s batches (tf_export_stream.c); it holds a
 * reference to the table. */
int tf_export_device_stream(struct tf_table* table, struct ArrowDeviceArrayStream* out);

#endif /* TF_EXPORT_H */
