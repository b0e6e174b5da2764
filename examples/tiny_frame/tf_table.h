/* tiny_frame's table: what an Adopt makes and the harness holds.
 *
 * A table is a schema (a struct field whose children name and type the
 * columns) and zero or more batches, each a struct column of those
 * columns on one device.  What it was adopted from decides what it can
 * export (tf_round_trip.c): a schema alone, one batch, or a stream of
 * batches.
 *
 * The table is reference counted: its holder has one reference and each
 * exported stream another, so that a stream outlives
 * tiny_frame_RoundTrip_Free (spec: "Result lifetimes", "Stream
 * lifetime"). */
#ifndef TF_TABLE_H
#define TF_TABLE_H

#include <stdatomic.h>

#include "tf_column.h"
#include "tf_device.h"

enum tf_table_kind {
  TF_TABLE_SCHEMA, /* AdoptSchema: no batch */
  TF_TABLE_BATCH,  /* AdoptBatch, AdoptDeviceBatch: one batch */
  TF_TABLE_STREAM, /* AdoptDeviceStream: every batch of the stream */
};

struct tf_batch {
  struct tf_device device;
  struct tf_column root; /* a struct column, one child per field of the schema */
};

struct tf_table {
  atomic_int refs;
  enum tf_table_kind kind;
  struct tf_field schema;
  ArrowDeviceType device_type; /* a stream's: every batch is on a device of this type */
  int64_t n_batches;
  struct tf_batch* batches;
};

/* An empty table of `kind`, with one reference; NULL when out of memory. */
struct tf_table* tf_table_new(enum tf_table_kind kind);

/* Appends an empty batch on `device` and returns it; NULL when out of memory. */
struct tf_batch* tf_table_add_batch(struct tf_table* table, struct tf_device device);

struct tf_table* tf_table_ref(struct tf_table* table);

/* One reference fewer; the last frees the schema and the columns (their
 * buffers live on while an export holds them).  NULL is ignored. */
void tf_table_unref(struct tf_table* table);

#endif /* TF_TABLE_H */
