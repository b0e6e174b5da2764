/* Fuzz target: round trips of random files of every type through what
 * every verdict rests on.  Each input draws a type tree from the type
 * table (fuzz_type_tree.h: every row of arrow_type_rows, nested to
 * FUZZ_TREE_MAX_DEPTH, dictionaries anywhere, inside lists and unions
 * among them) and writes it as integration JSON with random values
 * (fuzz_json_writer.h: nulls, empty and long batches, offsets, many
 * variadic buffers).  Then:
 *   - the reader (arrow_json_read_text) must take the file;
 *   - the reference producer's exports (ref_export_schema,
 *     ref_export_batch) and the consumer feed's, with its layouts (padding
 *     rows under an offset, null_count -1), must equal the model
 *     (arrow_json_compare_schema, arrow_json_compare_batch), directly as
 *     on the CPU and through the host mirror (arrow_json_mirror_batch) as
 *     on a GPU;
 *   - every export must be structurally valid (arrow_structure_check_batch:
 *     no family breached, nothing unreadable), on the array and its mirror;
 *   - the feed's export with one value altered must differ wherever the
 *     model has a value to alter, so that a comparison that sees nothing
 *     fails here;
 *   - the reference gives back every byte it allocated.
 * Anything else is a bug of one of them (or of the writer), reported with
 * the file's text and an abort().  FUZZ_ROUND_TRIP_PRINT=1 in the
 * environment prints every file written.
 *
 * Time: ci/run-all-tests.sh fuzzes it 60 s like every target (the fuzz
 * preset's test `fuzz_round_trip`), which adds 60 s to the test
 * command's 15 minutes (CONFORMANCE.md, "Fuzzing"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrow_format/arrow_json_mirror.h"
#include "arrow_format/arrow_structure.h"
#include "consumer_feed/consumer_feed.h"
#include "fuzz_json_writer.h"
#include "fuzz_target.h"
#include "reference_core.h"

static struct adc_device cpu;
/* A feed per input: a feed keeps a record of every export until it is
 * freed. */
static struct adc_feed* feed;
static const char* current_text; /* the file of the input running, for reports */

static void broken(const char* who, const char* what, const char* detail) {
  fprintf(stderr, "round trip broken: %s: %s: %s\n", who, what, detail);
  /* The file's start (FUZZ_ROUND_TRIP_PRINT=1 prints it whole). */
  if (current_text != NULL)
    fprintf(stderr, "--- the file ---\n%.4000s\n--- (4000 bytes at most) ---\n", current_text);
  abort();
}

int LLVMFuzzerInitialize(int* argc, char*** argv) {
  (void)argc;
  (void)argv;
  const struct adc_device_driver* driver = adc_device_find("cpu");
  struct adc_device_target target = adc_device_target_of(driver);
  struct adc_error error;
  if (driver == NULL || adc_device_open(&target, &cpu, &error) != 0)
    broken("setup", "the CPU device", "fails to open");
  return 0;
}

static int copy_in_memory(void* context, void* host, const void* source, size_t size) {
  (void)context;
  memcpy(host, source, size);
  return 0;
}

static void check_structure(const struct arrow_json_file* file, const struct ArrowArray* array,
                            const char* who) {
  struct arrow_structure_findings findings;
  arrow_structure_check_batch(file, array, &findings);
  if (findings.unreadable) broken(who, "structure unreadable", findings.unreadable_message);
  for (int f = 0; f < ARROW_STRUCTURE_FAMILY_COUNT; f++) {
    if (findings.found[f]) broken(who, arrow_structure_families[f].name, findings.message[f]);
  }
}

static void check_equal(const struct arrow_json_file* file, int64_t batch, const struct ArrowArray* array,
                        const char* who) {
  char difference[512];
  if (arrow_json_compare_batch(file, batch, array, difference, sizeof(difference)) != 0)
    broken(who, "differs from the model", difference);
}

/* An export of batch `batch`: equal to the model and structurally valid,
 * on the array and on its host mirror. */
static void check_batch(const struct arrow_json_file* file, int64_t batch, const struct ArrowArray* array,
                        const char* who) {
  check_equal(file, batch, array, who);
  check_structure(file, array, who);
  struct arrow_json_mirror mirror = {.copy = copy_in_memory};
  struct ArrowArray host;
  if (arrow_json_mirror_batch(&mirror, file, array, &host) != 0)
    broken(who, "mirror", "the host copy failed");
  char on_mirror[128];
  snprintf(on_mirror, sizeof(on_mirror), "%s, on the host mirror", who);
  check_equal(file, batch, &host, on_mirror);
  check_structure(file, &host, on_mirror);
  arrow_json_mirror_free(&mirror);
}

static void check_schema(const struct arrow_json_file* file) {
  char difference[512];
  struct ArrowSchema schema;
  const char* failure = ref_export_schema(file, &schema);
  if (failure != NULL) broken("reference", "ref_export_schema", failure);
  if (arrow_json_compare_schema(file, &schema, difference, sizeof(difference)) != 0)
    broken("reference", "the schema differs", difference);
  schema.release(&schema);
  struct adc_error error;
  if (adc_feed_export_schema(feed, file, &schema, &error) != 0)
    broken("feed", "export_schema", error.message);
  if (arrow_json_compare_schema(file, &schema, difference, sizeof(difference)) != 0)
    broken("feed", "the schema differs", difference);
  schema.release(&schema);
}

/* Whether batch `batch` has a value arrow_json_alter_one_value changes
 * (one in a row the comparison reads), tried on copies. */
static bool has_value_to_alter(const struct arrow_json_file* file, int64_t batch) {
  struct arrow_json_column* columns = calloc((size_t)file->n_fields + 1, sizeof(*columns));
  struct arrow_json_dictionary* dictionaries =
      calloc((size_t)file->n_dictionaries + 1, sizeof(*dictionaries));
  if (columns == NULL || dictionaries == NULL) abort();
  for (int64_t c = 0; c < file->n_fields; c++) {
    if (arrow_json_column_copy(&file->batches[batch].columns[c], &columns[c]) != 0) abort();
  }
  for (int64_t d = 0; d < file->n_dictionaries; d++) {
    dictionaries[d].id = file->dictionaries[d].id;
    if (arrow_json_column_copy(&file->dictionaries[d].values, &dictionaries[d].values) != 0) abort();
  }
  bool altered = arrow_json_alter_one_value(file, columns, dictionaries);
  for (int64_t c = 0; c < file->n_fields; c++) arrow_json_column_free(&columns[c]);
  for (int64_t d = 0; d < file->n_dictionaries; d++) arrow_json_column_free(&dictionaries[d].values);
  free(columns);
  free(dictionaries);
  return altered;
}

static struct ArrowArray feed_export(const struct arrow_json_file* file, int64_t batch,
                                     const struct adc_feed_layout* layout) {
  struct ArrowDeviceArray exported;
  struct adc_error error;
  if (adc_feed_export_batch(feed, file, batch, layout, &exported, &error) != 0)
    broken("feed", "export_batch", error.message);
  return exported.array;
}

static void check_batches(struct fuzz_bytes* in, const struct arrow_json_file* file) {
  for (int64_t b = 0; b < file->n_batches; b++) {
    struct ArrowArray array;
    const char* failure = ref_export_batch(file, b, &array);
    if (failure != NULL) broken("reference", "ref_export_batch", failure);
    check_batch(file, b, &array, "reference");
    array.release(&array);

    /* The feed's layouts, as consumer.offset.handled and
     * consumer.null_count.unknown_handled export them (an input that ran
     * out reads 3 rows of padding, as the rule pads, and null_count -1). */
    struct adc_feed_layout layout = {.offset_padding = (fuzz_byte(in) + 3) % 5,
                                     .unknown_null_count = fuzz_byte(in) % 2 == 0};
    array = feed_export(file, b, &layout);
    check_batch(file, b, &array, layout.offset_padding ? "feed, padded under an offset" : "feed");
    array.release(&array);

    struct adc_feed_layout altered = {.alter_one_value = true};
    array = feed_export(file, b, &altered);
    char difference[512];
    int result = arrow_json_compare_batch(file, b, &array, difference, sizeof(difference));
    array.release(&array);
    if (result == 0 && has_value_to_alter(file, b))
      broken("feed", "one value altered", "the comparison finds the batch equal");
  }
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  struct fuzz_bytes in = {data, size};
  struct fuzz_tree tree;
  fuzz_tree_draw(&in, &tree);
  struct fuzz_text text = {0};
  fuzz_json_write_file(&in, &tree, &text);
  current_text = text.bytes;
  if (getenv("FUZZ_ROUND_TRIP_PRINT") != NULL) fputs(text.bytes, stderr);

  struct arrow_json_file file;
  char error[512];
  if (arrow_json_read_text("round_trip", text.bytes, text.size, &file, error, sizeof(error)) != 0)
    broken("reader", "refuses the file written", error);
  feed = adc_feed_new(&cpu);
  if (feed == NULL) broken("setup", "the consumer feed", "out of memory");
  int64_t allocated = ref_bytes_allocated();
  check_schema(&file);
  check_batches(&in, &file);
  if (ref_bytes_allocated() != allocated) broken("reference", "allocations", "not every byte was given back");
  adc_feed_free(feed);

  arrow_json_file_free(&file);
  current_text = NULL;
  fuzz_text_free(&text);
  return 0;
}
