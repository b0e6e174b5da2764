#include "tf_table.h"

#include <stdlib.h>
#include <string.h>

#include "tf_error.h"

struct tf_table* tf_table_new(enum tf_table_kind kind) {
  struct tf_table* table = calloc(1, sizeof(*table));
  if (table == NULL) {
    tf_fail("tiny_frame is out of memory");
    return NULL;
  }
  atomic_init(&table->refs, 1);
  table->kind = kind;
  table->device_type = ARROW_DEVICE_CPU;
  return table;
}

struct tf_batch* tf_table_add_batch(struct tf_table* table, struct tf_device device) {
  struct tf_batch* batches = realloc(table->batches, (size_t)(table->n_batches + 1) * sizeof(*batches));
  if (batches == NULL) {
    tf_fail("tiny_frame is out of memory");
    return NULL;
  }
  table->batches = batches;
  struct tf_batch* batch = &batches[table->n_batches++];
  memset(batch, 0, sizeof(*batch));
  batch->device = device;
  return batch;
}

struct tf_table* tf_table_ref(struct tf_table* table) {
  atomic_fetch_add(&table->refs, 1);
  return table;
}

void tf_table_unref(struct tf_table* table) {
  if (table == NULL || atomic_fetch_sub(&table->refs, 1) != 1) return;
  for (int64_t i = 0; i < table->n_batches; i++) tf_column_free(&table->batches[i].root);
  free(table->batches);
  tf_field_free(&table->schema);
  free(table);
}
