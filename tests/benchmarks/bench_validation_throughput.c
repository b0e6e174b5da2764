/* Benchmark, not a test: the harness's validation throughput.  For every
 * device this machine can use, a 10^7-row int32 column (generated here) is
 * placed on the device and compared with its fixture model the way a rule
 * compares data (adc_compare_batch: a host copy off the CPU, then the
 * fixture model's comparison); beside it, the floor for the same bytes: a
 * plain memcmp on the CPU, a copy to the host elsewhere.  Prints figures,
 * never fails on a slow machine. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device/device.h"
#include "rule_api/fixture_compare.h"
#include "support/clock.h"

#define ROWS 10000000LL
#define ROUNDS 3

/* The type table's int32 row. */
static const struct arrow_type_row* int32_row(void) {
  for (size_t i = 0; i < arrow_type_row_count; i++) {
    const struct arrow_type_row* row = &arrow_type_rows[i];
    if (row->kind == ARROW_JSON_INT && row->bit_width == 32 && row->is_signed) return row;
  }
  exit(EXIT_FAILURE);
}

/* One int32 column of ROWS rows, every row valid, as the fixture model
 * holds it (its values buffer laid out as exported). */
static void make_fixture(struct arrow_json_file* file, int32_t* values) {
  static struct arrow_json_field field = {.name = "values"};
  static struct arrow_json_buffer buffers[2];
  static struct arrow_json_column column;
  static struct arrow_json_batch batch;
  const struct arrow_type_row* row = int32_row();
  field.type = (struct arrow_json_type){.row = row,
                                        .kind = row->kind,
                                        .layout = row->layout,
                                        .value_bytes = row->value_bytes,
                                        .bit_width = row->bit_width,
                                        .is_signed = row->is_signed};
  column.length = ROWS;
  column.validity = malloc(ROWS);
  int32_t* model_values = malloc(ROWS * sizeof(int32_t));
  if (column.validity == NULL || model_values == NULL) exit(EXIT_FAILURE);
  memset(column.validity, 1, ROWS);
  for (int64_t i = 0; i < ROWS; i++) {
    values[i] = (int32_t)(i * 2654435761u);
    model_values[i] = values[i];
  }
  buffers[1] = (struct arrow_json_buffer){(uint8_t*)model_values, ROWS * (int64_t)sizeof(int32_t)};
  column.n_buffers = 2;
  column.buffers = buffers;
  batch = (struct arrow_json_batch){.length = ROWS, .columns = &column};
  *file = (struct arrow_json_file){.n_fields = 1, .fields = &field, .n_batches = 1, .batches = &batch};
}

/* The arrays below are the benchmark's own: released by nobody. */
static void not_released(struct ArrowArray* array) {
  (void)array;
}

/* A batch of one column, as a producer exports it: a struct array with no
 * buffers of its own but its (absent) validity. */
struct one_column_batch {
  struct ArrowArray* children[1];
  const void* buffers[1];
  struct ArrowArray batch;
};

static void one_column_batch_init(struct one_column_batch* b, struct ArrowArray* column) {
  b->children[0] = column;
  b->buffers[0] = NULL;
  b->batch = (struct ArrowArray){.length = column->length,
                                 .n_buffers = 1,
                                 .n_children = 1,
                                 .buffers = b->buffers,
                                 .children = b->children,
                                 .release = not_released};
}

static double best_of(double times[ROUNDS]) {
  double best = times[0];
  for (int i = 1; i < ROUNDS; i++) best = times[i] < best ? times[i] : best;
  return best;
}

static void bench_device(const struct adc_device* device, const struct arrow_json_file* file,
                         const int32_t* values) {
  const size_t bytes = ROWS * sizeof(int32_t);
  struct adc_error error;
  void* data = adc_device_allocate(device, bytes, false, &error);
  if (data == NULL || adc_device_copy_from_host(device, data, values, bytes, &error) != 0) {
    printf("benchmark: validation throughput on %s: skipped (%s)\n", device->driver->name, error.message);
    return;
  }
  const void* column_buffers[2] = {NULL, data};
  struct ArrowArray column = {
      .length = ROWS, .n_buffers = 2, .buffers = column_buffers, .release = not_released};
  struct one_column_batch wrapped;
  one_column_batch_init(&wrapped, &column);
  struct adc_case_context ctx = {.rule = adc_rule_at(0), .device = device, .fixture = file};

  int32_t* host = malloc(bytes);
  int32_t* same = malloc(bytes);
  if (host == NULL || same == NULL) exit(EXIT_FAILURE);
  memcpy(same, values, bytes);
  double compare_times[ROUNDS];
  double floor_times[ROUNDS];
  volatile int sink = 0;
  for (int round = 0; round < ROUNDS; round++) {
    char difference[256];
    double start = adc_now_seconds();
    if (adc_compare_batch(&ctx, 0, &wrapped.batch, difference, sizeof(difference)) != 0) {
      printf("benchmark: validation on %s found a difference: %s\n", device->driver->name, difference);
      exit(EXIT_FAILURE);
    }
    compare_times[round] = adc_now_seconds() - start;
    start = adc_now_seconds();
    if (adc_device_reads_in_place(device->driver)) {
      sink += memcmp(data, same, bytes);
    } else {
      adc_device_copy_to_host(device, host, data, bytes, &error);
    }
    floor_times[round] = adc_now_seconds() - start;
  }
  double compare = best_of(compare_times);
  double floor = best_of(floor_times);
  printf(
      "benchmark: validation throughput on %s, %lld int32 rows (%.0f MB): harness %.0f MB/s, %s %.0f MB/s "
      "(%.1fx slower; harness at %.0f %% of it, target >= 50 %% on the CPU)\n",
      device->driver->name, ROWS, bytes / 1e6, bytes / compare / 1e6,
      adc_device_reads_in_place(device->driver) ? "memcmp" : "copy to host", bytes / floor / 1e6,
      compare / floor, 100 * floor / compare);
  free(host);
  free(same);
  adc_device_free(device, data, bytes, false);
}

#define STRING_ROWS 1000000LL

/* The type table's row of `kind` (the first). */
static const struct arrow_type_row* row_of(enum arrow_json_kind kind) {
  for (size_t i = 0; i < arrow_type_row_count; i++) {
    if (arrow_type_rows[i].kind == kind) return &arrow_type_rows[i];
  }
  exit(EXIT_FAILURE);
}

/* A 10^6-row utf8 column (strings of 0 to 20 letters, every row valid),
 * compared as a rule compares it, against memcmp of its offsets and bytes. */
static void bench_utf8_on_cpu(void) {
  int32_t* offsets = malloc((STRING_ROWS + 1) * sizeof(int32_t));
  if (offsets == NULL) exit(EXIT_FAILURE);
  offsets[0] = 0;
  for (int64_t i = 0; i < STRING_ROWS; i++) offsets[i + 1] = offsets[i] + (int32_t)((i * 7919) % 21);
  int64_t n_bytes = offsets[STRING_ROWS];
  char* text = malloc((size_t)n_bytes);
  if (text == NULL) exit(EXIT_FAILURE);
  for (int64_t i = 0; i < n_bytes; i++) text[i] = (char)('a' + (i * 31) % 26);
  /* The model's own copies, as the reader would hold them. */
  static struct arrow_json_buffer buffers[3];
  buffers[1] = (struct arrow_json_buffer){malloc((STRING_ROWS + 1) * sizeof(int32_t)),
                                          (STRING_ROWS + 1) * (int64_t)sizeof(int32_t)};
  buffers[2] = (struct arrow_json_buffer){malloc((size_t)n_bytes), n_bytes};
  uint8_t* validity = malloc(STRING_ROWS);
  if (buffers[1].bytes == NULL || buffers[2].bytes == NULL || validity == NULL) exit(EXIT_FAILURE);
  memcpy(buffers[1].bytes, offsets, (size_t)buffers[1].size);
  memcpy(buffers[2].bytes, text, (size_t)n_bytes);
  memset(validity, 1, STRING_ROWS);
  static struct arrow_json_field field = {.name = "text"};
  const struct arrow_type_row* row = row_of(ARROW_JSON_UTF8);
  field.type = (struct arrow_json_type){.row = row, .kind = row->kind, .layout = row->layout};
  static struct arrow_json_column column;
  column = (struct arrow_json_column){
      .length = STRING_ROWS, .validity = validity, .n_buffers = 3, .buffers = buffers};
  static struct arrow_json_batch batch_model;
  batch_model = (struct arrow_json_batch){.length = STRING_ROWS, .columns = &column};
  struct arrow_json_file file = {.n_fields = 1, .fields = &field, .n_batches = 1, .batches = &batch_model};

  const void* column_buffers[3] = {NULL, offsets, text};
  struct ArrowArray array = {
      .length = STRING_ROWS, .n_buffers = 3, .buffers = column_buffers, .release = not_released};
  struct one_column_batch wrapped;
  one_column_batch_init(&wrapped, &array);
  double compare_times[ROUNDS], floor_times[ROUNDS];
  volatile int sink = 0;
  for (int round = 0; round < ROUNDS; round++) {
    char difference[256];
    double start = adc_now_seconds();
    if (arrow_json_compare_batch(&file, 0, &wrapped.batch, difference, sizeof(difference)) != 0) {
      printf("benchmark: utf8 validation found a difference: %s\n", difference);
      exit(EXIT_FAILURE);
    }
    compare_times[round] = adc_now_seconds() - start;
    start = adc_now_seconds();
    sink += memcmp(offsets, buffers[1].bytes, (size_t)buffers[1].size);
    sink += memcmp(text, buffers[2].bytes, (size_t)n_bytes);
    floor_times[round] = adc_now_seconds() - start;
  }
  double bytes = (double)buffers[1].size + (double)n_bytes;
  double compare = best_of(compare_times), floor = best_of(floor_times);
  printf(
      "benchmark: validation throughput on cpu, %lld utf8 rows (%.0f MB of offsets and bytes): harness %.0f "
      "MB/s, memcmp %.0f MB/s (harness at %.0f %% of memcmp, target >= 50 %%)\n",
      STRING_ROWS, bytes / 1e6, bytes / compare / 1e6, bytes / floor / 1e6, 100 * floor / compare);
  free(offsets);
  free(text);
  free(buffers[1].bytes);
  free(buffers[2].bytes);
  free(validity);
}

int main(void) {
  int32_t* values = malloc(ROWS * sizeof(int32_t));
  if (values == NULL) return EXIT_FAILURE;
  struct arrow_json_file file;
  make_fixture(&file, values);
  for (size_t i = 0; i < adc_device_count(); i++) {
    struct adc_device_target target = adc_device_target_of(adc_device_at(i));
    struct adc_device device;
    struct adc_error error;
    if (adc_device_open(&target, &device, &error) != 0) {
      printf("benchmark: validation throughput on %s: not run (%s)\n", target.driver->name, error.message);
    } else {
      bench_device(&device, &file, values);
    }
    adc_device_close(&device);
  }
  bench_utf8_on_cpu();
  free(values);
  return EXIT_SUCCESS;
}
