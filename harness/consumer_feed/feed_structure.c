/* The feed's structurally invalid batches (break_structure): a copy of the
 * fixture model whose batch breaks one family of the columnar format's
 * invariants (arrow_structure_break), every valid row still reading the
 * fixture's values, exported as the feed exports any batch. */
#include <stdlib.h>

#include "consumer_feed/feed_structure.h"

void feed_broken_file_free(struct arrow_json_file* broken, int64_t batch) {
  if (broken->batches != NULL) {
    struct arrow_json_batch* copied = &broken->batches[batch];
    for (int64_t i = 0; copied->columns != NULL && i < broken->n_fields; i++)
      arrow_json_column_free(&copied->columns[i]);
    free(copied->columns);
  }
  for (int64_t i = 0; broken->dictionaries != NULL && i < broken->n_dictionaries; i++)
    arrow_json_column_free(&broken->dictionaries[i].values);
  free(broken->dictionaries);
  free(broken->batches);
  *broken = (struct arrow_json_file){0};
}

/* `file` with batch `batch` and the dictionaries deep-copied, the rest
 * (fields, other batches) shared; 0, or -1 when out of memory (`out` then
 * freed). */
static int copy_batch(const struct arrow_json_file* file, int64_t batch, struct arrow_json_file* out) {
  *out = *file;
  out->batches = calloc((size_t)file->n_batches, sizeof(*out->batches));
  out->dictionaries = calloc((size_t)file->n_dictionaries + 1, sizeof(*out->dictionaries));
  struct arrow_json_column* columns = calloc((size_t)file->n_fields + 1, sizeof(*columns));
  if (out->batches == NULL || out->dictionaries == NULL || columns == NULL) {
    free(columns);
    feed_broken_file_free(out, batch);
    return -1;
  }
  for (int64_t b = 0; b < file->n_batches; b++) out->batches[b] = file->batches[b];
  out->batches[batch].columns = columns;
  int status = 0;
  for (int64_t i = 0; i < file->n_fields && status == 0; i++)
    status = arrow_json_column_copy(&file->batches[batch].columns[i], &columns[i]);
  for (int64_t i = 0; i < file->n_dictionaries && status == 0; i++) {
    out->dictionaries[i].id = file->dictionaries[i].id;
    status = arrow_json_column_copy(&file->dictionaries[i].values, &out->dictionaries[i].values);
  }
  if (status != 0) feed_broken_file_free(out, batch);
  return status;
}

int feed_broken_file(const struct arrow_json_file* file, int64_t batch, enum arrow_structure_family family,
                     struct arrow_json_file* out) {
  if (copy_batch(file, batch, out) != 0) return -1;
  if (arrow_structure_break(out, batch, family)) return 1;
  feed_broken_file_free(out, batch);
  return 0;
}

bool adc_feed_structure_breakable(const struct arrow_json_file* file, int64_t batch,
                                  enum arrow_structure_family family) {
  struct arrow_json_file broken;
  if (feed_broken_file(file, batch, family, &broken) != 1) return false;
  feed_broken_file_free(&broken, batch);
  return true;
}
