/* Benchmark, not a test: the logical comparison (arrow_format/arrow_logical.h)
 * beside the exact one (arrow_json_compare_batch) on 10^6-row columns,
 * generated here: int32 without nulls and with one null in 16 (the
 * export's bytes under the nulls the fixture's, then others), and utf8
 * with one null in 16, every other string longer than a view holds inline.
 * Each export is the reference producer's (a copy of the fixture's
 * buffers), read by both comparisons; then the logical comparison alone of
 * the same rows exported otherwise: cut into 8192-row batches (each
 * column sliced, as arrow-rs slices a batch: its offset, its length, its
 * null_count -1), and the strings as string views.  Best of ROUNDS
 * each, in milliseconds and rows per second.  Prints figures, never fails
 * on a slow machine. */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrow_format/arrow_logical.h"
#include "reference_core.h"
#include "support/clock.h"

#define ROWS 1000000
#define SLICE 8192
#define ROUNDS 5

/* A growing text. */
struct text {
  char* bytes;
  size_t size;
  size_t capacity;
};

static void put(struct text* t, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void put(struct text* t, const char* fmt, ...) {
  for (;;) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(t->bytes + t->size, t->capacity - t->size, fmt, ap);
    va_end(ap);
    if (n >= 0 && (size_t)n < t->capacity - t->size) {
      t->size += (size_t)n;
      return;
    }
    t->capacity = t->capacity ? 2 * t->capacity : 1 << 20;
    t->bytes = realloc(t->bytes, t->capacity);
    if (t->bytes == NULL) exit(EXIT_FAILURE);
  }
}

static bool is_null(int64_t row, bool nulls) {
  return nulls && row % 16 == 5;
}

/* Row `row`'s string: short, or longer than 12 bytes every other row. */
static int string_of(int64_t row, char* out, size_t size) {
  return row % 2 ? snprintf(out, size, "s%lld", (long long)row)
                 : snprintf(out, size, "a longer value %lld", (long long)row);
}

static void open_file(struct text* t, const char* type) {
  put(t, "{\"schema\":{\"fields\":[{\"name\":\"c\",\"nullable\":true,\"type\":%s,\"children\":[]}]},", type);
  put(t, "\"batches\":[{\"count\":%d,\"columns\":[{\"name\":\"c\",\"count\":%d,\"VALIDITY\":[", ROWS, ROWS);
}

static void validity(struct text* t, bool nulls) {
  for (int64_t i = 0; i < ROWS; i++) put(t, "%s%d", i ? "," : "", is_null(i, nulls) ? 0 : 1);
  put(t, "]");
}

static struct arrow_json_file read_text(struct text* t) {
  struct arrow_json_file file;
  char err[512];
  if (arrow_json_read_text("bench", t->bytes, t->size, &file, err, sizeof(err)) != 0) {
    fprintf(stderr, "%s\n", err);
    exit(EXIT_FAILURE);
  }
  free(t->bytes);
  *t = (struct text){0};
  return file;
}

static struct arrow_json_file int32_file(bool nulls) {
  struct text t = {0};
  open_file(&t, "{\"name\":\"int\",\"isSigned\":true,\"bitWidth\":32}");
  validity(&t, nulls);
  put(&t, ",\"DATA\":[");
  for (int64_t i = 0; i < ROWS; i++)
    put(&t, "%s%d", i ? "," : "", is_null(i, nulls) ? 0 : (int)(i * 7919 % 100003));
  put(&t, "]}]}]}");
  return read_text(&t);
}

static struct arrow_json_file utf8_file(void) {
  struct text t = {0};
  open_file(&t, "{\"name\":\"utf8\"}");
  validity(&t, true);
  put(&t, ",\"OFFSET\":[0");
  char value[64];
  int64_t offset = 0;
  for (int64_t i = 0; i < ROWS; i++) {
    if (!is_null(i, true)) offset += string_of(i, value, sizeof(value));
    put(&t, ",%lld", (long long)offset);
  }
  put(&t, "],\"DATA\":[");
  for (int64_t i = 0; i < ROWS; i++) {
    if (!is_null(i, true)) string_of(i, value, sizeof(value));
    put(&t, "%s\"%s\"", i ? "," : "", is_null(i, true) ? "" : value);
  }
  put(&t, "]}]}]}");
  return read_text(&t);
}

/* The same strings as string views: the long ones in one variadic buffer. */
static struct arrow_json_file utf8_view_file(void) {
  struct text t = {0};
  open_file(&t, "{\"name\":\"utf8view\"}");
  validity(&t, true);
  put(&t, ",\"VIEWS\":[");
  char value[64];
  int64_t offset = 0;
  for (int64_t i = 0; i < ROWS; i++) {
    int size = is_null(i, true) ? 0 : string_of(i, value, sizeof(value));
    if (size <= 12) {
      put(&t, "%s{\"SIZE\":%d,\"INLINED\":\"%s\"}", i ? "," : "", size, size ? value : "");
      continue;
    }
    put(&t, "%s{\"SIZE\":%d,\"PREFIX_HEX\":\"%02X%02X%02X%02X\",\"BUFFER_INDEX\":0,\"OFFSET\":%lld}",
        i ? "," : "", size, value[0], value[1], value[2], value[3], (long long)offset);
    offset += size;
  }
  put(&t, "],\"VARIADIC_DATA_BUFFERS\":[\"");
  for (int64_t i = 0; i < ROWS; i++) {
    int size = is_null(i, true) ? 0 : string_of(i, value, sizeof(value));
    for (int b = 0; size > 12 && b < size; b++) put(&t, "%02X", (unsigned char)value[b]);
  }
  put(&t, "\"]}]}]}");
  return read_text(&t);
}

/* The file's schema and batch, as the reference exports them. */
struct export {
  struct ArrowSchema schema;
  struct ArrowArray batch;
};

static struct export export_of(const struct arrow_json_file* file) {
  struct export e;
  if (ref_export_schema(file, &e.schema) != NULL || ref_export_batch(file, 0, &e.batch) != NULL)
    exit(EXIT_FAILURE);
  return e;
}

static void export_free(struct export* e) {
  e->schema.release(&e->schema);
  e->batch.release(&e->batch);
}

static void print_best(const char* what, const double* seconds) {
  double best = seconds[0];
  for (int i = 1; i < ROUNDS; i++) best = seconds[i] < best ? seconds[i] : best;
  printf("  %-58s %8.2f ms  %7.1f Mrows/s\n", what, best * 1e3, ROWS / best / 1e6);
}

static void time_exact(const char* what, const struct arrow_json_file* file, const struct export* e) {
  double seconds[ROUNDS];
  char err[512];
  for (int r = 0; r < ROUNDS; r++) {
    double start = adc_now_seconds();
    if (arrow_json_compare_batch(file, 0, &e->batch, err, sizeof(err)) != 0) {
      fprintf(stderr, "%s: %s\n", what, err);
      exit(EXIT_FAILURE);
    }
    seconds[r] = adc_now_seconds() - start;
  }
  print_best(what, seconds);
}

static void time_logical(const char* what, const struct arrow_json_file* file,
                         const struct ArrowSchema* schema, const struct ArrowArray* const* batches,
                         int64_t n) {
  double seconds[ROUNDS];
  char err[512];
  for (int r = 0; r < ROUNDS; r++) {
    double start = adc_now_seconds();
    if (arrow_logical_compare_batches(file, -1, schema, batches, n, err, sizeof(err)) != 0) {
      fprintf(stderr, "%s: %s\n", what, err);
      exit(EXIT_FAILURE);
    }
    seconds[r] = adc_now_seconds() - start;
  }
  print_best(what, seconds);
}

/* The batch cut into SLICE-row record batches, its column sliced in each
 * (the same buffers, an offset and a length of its own, the null count
 * left to compute where there is a validity bitmap). */
static void time_sliced(const char* what, const struct arrow_json_file* file, const struct export* e) {
  int64_t n = (ROWS + SLICE - 1) / SLICE;
  struct ArrowArray* batches = calloc((size_t)n, sizeof(struct ArrowArray));
  struct ArrowArray* columns = calloc((size_t)n, sizeof(struct ArrowArray));
  struct ArrowArray** children = calloc((size_t)n, sizeof(struct ArrowArray*));
  const struct ArrowArray** pointers = calloc((size_t)n, sizeof(struct ArrowArray*));
  if (batches == NULL || columns == NULL || children == NULL || pointers == NULL) exit(EXIT_FAILURE);
  for (int64_t k = 0; k < n; k++) {
    int64_t length = ROWS - k * SLICE < SLICE ? ROWS - k * SLICE : SLICE;
    columns[k] = *e->batch.children[0];
    columns[k].offset = k * SLICE;
    columns[k].length = length;
    columns[k].null_count = columns[k].buffers[0] != NULL ? -1 : 0; /* not counted again */
    children[k] = &columns[k];
    batches[k] = e->batch;
    batches[k].length = length;
    batches[k].children = &children[k];
    pointers[k] = &batches[k];
  }
  time_logical(what, file, &e->schema, pointers, n);
  free(batches);
  free(columns);
  free(children);
  free(pointers);
}

/* `under_nulls`: the export's int32 values under its nulls changed, as a
 * library with a model of its own leaves them (no longer the fixture's
 * bytes, so every row is looked at). */
static void bench_same(const char* name, const struct arrow_json_file* file, bool under_nulls) {
  struct export e = export_of(file);
  int32_t* values = (int32_t*)e.batch.children[0]->buffers[1];
  for (int64_t i = 0; under_nulls && i < ROWS; i++) {
    if (is_null(i, true)) values[i] = -1;
  }
  const struct ArrowArray* batches[] = {&e.batch};
  char what[128];
  printf("%s:\n", name);
  snprintf(what, sizeof(what), "exact (arrow_json_compare_batch)");
  time_exact(what, file, &e);
  snprintf(what, sizeof(what), "logical, one batch");
  time_logical(what, file, &e.schema, batches, 1);
  snprintf(what, sizeof(what), "logical, %d-row batches", SLICE);
  time_sliced(what, file, &e);
  export_free(&e);
}

int main(void) {
  printf("bench_logical_compare: %d rows, best of %d\n", ROWS, ROUNDS);
  struct arrow_json_file ints = int32_file(false);
  bench_same("int32, no nulls", &ints, false);
  arrow_json_file_free(&ints);
  struct arrow_json_file nullable = int32_file(true);
  bench_same("int32, 1 null in 16", &nullable, false);
  bench_same("int32, 1 null in 16, other bytes under the nulls", &nullable, true);
  arrow_json_file_free(&nullable);
  struct arrow_json_file strings = utf8_file();
  bench_same("utf8, 1 null in 16, half the strings over 12 bytes", &strings, false);
  struct arrow_json_file views = utf8_view_file();
  struct export e = export_of(&views);
  const struct ArrowArray* batches[] = {&e.batch};
  printf("utf8 fixture, exported as string views (vu):\n");
  time_logical("logical, one batch", &strings, &e.schema, batches, 1);
  time_sliced("logical, 8192-row batches", &strings, &e);
  export_free(&e);
  arrow_json_file_free(&views);
  arrow_json_file_free(&strings);
  return 0;
}
