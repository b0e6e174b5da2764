/* The program of docs/walkthrough.md: one int32 array and one dictionary
 * array travel from the reference producer to the reference consumer, and
 * each step prints what it sees and checks it.
 *
 *   walkthrough FIXTURES_DIR [--cuda]
 *
 * FIXTURES_DIR is fixtures/data.  The steps call the reference's core
 * functions (reference/reference_core.h), the same ones its plugin entry
 * points call (reference/reference_plugin.c).  --cuda adds the int32 array
 * on a CUDA device, through the reference's CUDA module; it needs a GPU.
 * Exit status: 0 when every check held, 1 otherwise. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "reference_core.h"

static int failures;

/* Prints one checked fact, and counts it when it does not hold. */
static void check(bool holds, const char* fact) {
  printf("    [%s] %s\n", holds ? "ok" : "MISMATCH", fact);
  if (!holds) failures++;
}

static void step(const char* title, const char* spec_clause) {
  printf("\n  %s\n    spec: \"%s\"\n", title, spec_clause);
}

/* Bit `i` of a validity bitmap: least significant bit first (Columnar
 * format, "Validity bitmaps"). */
static bool is_valid(const struct ArrowArray* array, int64_t i) {
  const uint8_t* bitmap = array->buffers[0];
  if (bitmap == NULL) return true; /* no bitmap: every row valid */
  int64_t bit = array->offset + i;
  return (bitmap[bit / 8] >> (bit % 8)) & 1;
}

static bool load(const char* fixtures_dir, const char* name, char* path, size_t size,
                 struct arrow_json_file* file) {
  char error[512];
  snprintf(path, size, "%s/%s", fixtures_dir, name);
  if (ref_load_fixture(path, file, error, sizeof(error)) != 0) {
    printf("  cannot load %s: %s\n", path, error);
    failures++;
    return false;
  }
  printf("  fixture %s\n", path);
  return true;
}

/* The steps every device array goes through on the CPU: its members, then
 * the consumer's side. */
static void check_cpu_device_array(const struct ArrowDeviceArray* batch) {
  step("The device array's own members",
       "For device types that do not have an intrinsic notion of a device identifier (e.g., "
       "ARROW_DEVICE_CPU), it is recommended to use a device_id of -1 as a convention.");
  printf("    spec: \"These bytes MUST be zero'd out after initialization by the producer\" (reserved)\n");
  printf("    device_type %d, device_id %" PRId64 ", sync_event %p, reserved {%" PRId64 ", %" PRId64
         ", %" PRId64 "}\n",
         (int)batch->device_type, batch->device_id, batch->sync_event, batch->reserved[0], batch->reserved[1],
         batch->reserved[2]);
  check(batch->device_type == ARROW_DEVICE_CPU, "device_type is ARROW_DEVICE_CPU");
  check(batch->device_id == -1, "device_id is -1");
  check(batch->sync_event == NULL, "sync_event is NULL: the CPU has no event type (\"N/A\")");
  check(batch->reserved[0] == 0 && batch->reserved[1] == 0 && batch->reserved[2] == 0, "reserved is zeroed");
}

/* The consumer moves the batch, then imports the moved copy: it compares it
 * with the fixture and releases it. */
static void consumer_moves_and_imports(const char* path, struct ArrowDeviceArray* batch) {
  step("The consumer moves the structure",
       "The consumer can *move* the ArrowDeviceArray structure by bitwise copying or shallow member-wise "
       "copying. Then it MUST mark the source structure released by setting the release member of the "
       "embedded ArrowArray structure to NULL, but *without* calling that release callback.");
  struct ArrowDeviceArray moved = *batch;
  batch->array.release = NULL;
  check(moved.array.release != NULL && batch->array.release == NULL,
        "the copy is live, the source is marked released (its release callback was not called)");

  step("The consumer imports, compares and releases (ref_import_device_batch)",
       "If the sync_event member is NULL, then it MUST be safe to access the data without any "
       "synchronization necessary on the part of the consumer");
  const char* error = ref_import_device_batch(path, 0, &moved);
  printf("    compared with the fixture: %s\n", error ? error : "equal");
  check(error == NULL, "the consumer found the batch equal to the fixture");
  check(moved.array.release == NULL,
        "the consumer released it: the release callback marked it released (release is NULL)");
}

static void consumer_imports_schema(const char* path, struct ArrowSchema* schema) {
  step("The consumer imports the schema (ref_import_schema)",
       "Consumers MUST call a base structure's release callback when they won't be using it anymore");
  const char* error = ref_import_schema(path, schema);
  check(error == NULL, "the consumer found the schema equal to the fixture's");
  check(schema->release == NULL, "the schema is released");
}

/* int32_nulls.json: one nullable int32 column, 9 rows, 2 of them null. */
static void walk_int32(const char* fixtures_dir) {
  printf("\n== An int32 array on the CPU ==\n");
  char path[4096];
  struct arrow_json_file file;
  if (!load(fixtures_dir, "int32_nulls.json", path, sizeof(path), &file)) return;
  int64_t bytes_before = ref_bytes_allocated();

  step("The producer exports the schema (ref_export_schema)",
       "a record batch can be trivially considered as an equivalent struct array");
  struct ArrowSchema schema;
  check(ref_export_schema(&file, &schema) == NULL, "exported");
  printf("    format \"%s\", %" PRId64 " child: \"%s\" format \"%s\", flags %" PRId64 "\n", schema.format,
         schema.n_children, schema.children[0]->name, schema.children[0]->format, schema.children[0]->flags);
  check(strcmp(schema.format, "+s") == 0, "the batch is a struct, \"+s\"");
  check(strcmp(schema.children[0]->format, "i") == 0, "the column is int32, \"i\"");
  check(schema.children[0]->flags == ARROW_FLAG_NULLABLE, "the column is nullable");

  step("The producer exports batch 0 on the CPU (ref_export_device_batch)",
       "The values in the void** buffers (along with the buffers of any children) are what is allocated "
       "on the device");
  struct ArrowDeviceArray batch;
  const char* error = ref_export_device_batch(&file, 0, ARROW_DEVICE_CPU, -1, &batch);
  check(error == NULL, "exported");
  if (error != NULL) {
    schema.release(&schema);
    arrow_json_file_free(&file);
    return;
  }
  const struct ArrowArray* column = batch.array.children[0];
  printf("    struct: length %" PRId64 ", %" PRId64 " child; column: length %" PRId64 ", null_count %" PRId64
         ", %" PRId64 " buffers\n",
         batch.array.length, batch.array.n_children, column->length, column->null_count, column->n_buffers);
  static const int32_t expected[9] = {1, 0, 3, -4, 0, INT32_MAX, INT32_MIN, 8, 9};
  static const bool expected_valid[9] = {1, 0, 1, 1, 0, 1, 1, 1, 1};
  const int32_t* values = column->buffers[1];
  bool same = column->length == 9 && column->n_buffers == 2;
  printf("    values:");
  for (int64_t i = 0; same && i < column->length; i++) {
    if (is_valid(column, i)) {
      printf(" %" PRId32, values[i]);
      same = same && expected_valid[i] && values[i] == expected[i];
    } else {
      printf(" null");
      same = same && !expected_valid[i];
    }
  }
  printf("\n");
  check(same,
        "buffers[0] (validity) and buffers[1] (values) hold 1 null 3 -4 null 2147483647 -2147483648 8 9");
  check(column->null_count == 2, "null_count is 2");
  check_cpu_device_array(&batch);

  consumer_moves_and_imports(path, &batch);
  consumer_imports_schema(path, &schema);
  check(ref_bytes_allocated() == bytes_before, "every byte the producer allocated is freed");
  arrow_json_file_free(&file);
}

/* Row `i` of a dictionary-encoded utf8 column: its index looked up in the
 * dictionary's offsets and characters; NULL for a null row. */
static void decode_utf8_row(const struct ArrowArray* column, int64_t i, char* out, size_t size) {
  const int8_t* indices = column->buffers[1];
  const struct ArrowArray* dictionary = column->dictionary;
  const int32_t* offsets = dictionary->buffers[1];
  const char* characters = dictionary->buffers[2];
  int8_t index = indices[column->offset + i];
  snprintf(out, size, "%.*s", (int)(offsets[index + 1] - offsets[index]), characters + offsets[index]);
}

/* dictionary.json: "colour", utf8 values behind int8 indices, and "code",
 * ordered int32 values behind int32 indices. */
static void walk_dictionary(const char* fixtures_dir) {
  printf("\n== A dictionary array on the CPU ==\n");
  char path[4096];
  struct arrow_json_file file;
  if (!load(fixtures_dir, "dictionary.json", path, sizeof(path), &file)) return;
  int64_t bytes_before = ref_bytes_allocated();

  step("The producer exports the schema (ref_export_schema)",
       "For dictionary-encoded arrays, the ArrowSchema.format string encodes the index type.");
  struct ArrowSchema schema;
  check(ref_export_schema(&file, &schema) == NULL, "exported");
  const struct ArrowSchema* colour = schema.children[0];
  const struct ArrowSchema* code = schema.children[1];
  printf(
      "    \"%s\": format \"%s\", dictionary format \"%s\"; \"%s\": format \"%s\", dictionary format \"%s\", "
      "flags %" PRId64 "\n",
      colour->name, colour->format, colour->dictionary->format, code->name, code->format,
      code->dictionary->format, code->flags);
  check(strcmp(colour->format, "c") == 0 && strcmp(colour->dictionary->format, "u") == 0,
        "colour: int8 indices (\"c\") into utf8 values (\"u\")");
  check(strcmp(code->format, "i") == 0 && strcmp(code->dictionary->format, "i") == 0,
        "code: int32 indices into int32 values");
  check((code->flags & ARROW_FLAG_DICTIONARY_ORDERED) != 0 &&
            (colour->flags & ARROW_FLAG_DICTIONARY_ORDERED) == 0,
        "ARROW_FLAG_DICTIONARY_ORDERED is set on code alone");

  step("The producer exports batch 0 on the CPU (ref_export_device_batch)",
       "the ArrowArray.dictionary points to the dictionary values array");
  struct ArrowDeviceArray batch;
  const char* error = ref_export_device_batch(&file, 0, ARROW_DEVICE_CPU, -1, &batch);
  check(error == NULL, "exported");
  if (error != NULL) {
    schema.release(&schema);
    arrow_json_file_free(&file);
    return;
  }
  const struct ArrowArray* column = batch.array.children[0];
  printf("    colour: length %" PRId64 ", null_count %" PRId64 ", dictionary length %" PRId64 "\n",
         column->length, column->null_count, column->dictionary->length);
  static const char* const expected[7] = {"red", "blue", NULL, "green", "green", "red", "blue"};
  bool same = column->length == 7 && column->dictionary != NULL && column->dictionary->length == 3;
  printf("    rows:");
  for (int64_t i = 0; same && i < column->length; i++) {
    if (!is_valid(column, i)) {
      printf(" null");
      same = same && expected[i] == NULL;
      continue;
    }
    char text[64];
    decode_utf8_row(column, i, text, sizeof(text));
    printf(" %s", text);
    same = same && expected[i] != NULL && strcmp(text, expected[i]) == 0;
  }
  printf("\n");
  check(same, "colour decodes through its dictionary to red blue null green green red blue");
  check(column->dictionary->n_buffers == 3 && column->dictionary->dictionary == NULL,
        "the dictionary is a plain utf8 array: validity, offsets, characters");
  check_cpu_device_array(&batch);

  consumer_moves_and_imports(path, &batch);
  consumer_imports_schema(path, &schema);
  check(ref_bytes_allocated() == bytes_before, "every byte the producer allocated is freed");
  arrow_json_file_free(&file);
}

/* The int32 array on CUDA device 0: the same calls with another device
 * type.  Only the members are printed: the buffers are device pointers,
 * which the CPU must not dereference. */
static void walk_cuda(const char* fixtures_dir) {
  printf("\n== The int32 array on CUDA (--cuda) ==\n");
  char path[4096];
  struct arrow_json_file file;
  if (!load(fixtures_dir, "int32_nulls.json", path, sizeof(path), &file)) return;

  step("The producer exports batch 0 on CUDA device 0 (ref_export_device_batch)",
       "If an event is provided, then the producer MUST ensure that the exported data is available on "
       "the device before the event is triggered");
  struct ArrowDeviceArray batch;
  const char* error = ref_export_device_batch(&file, 0, ARROW_DEVICE_CUDA, 0, &batch);
  arrow_json_file_free(&file);
  if (error != NULL) {
    printf("    the reference cannot export on CUDA here: %s\n", error);
    check(false, "exported on CUDA (needs the CUDA module and a GPU)");
    return;
  }
  printf("    device_type %d, device_id %" PRId64
         ", sync_event %p (a cudaEvent_t*), buffers[1] of the column %p\n",
         (int)batch.device_type, batch.device_id, batch.sync_event, batch.array.children[0]->buffers[1]);
  check(batch.device_type == ARROW_DEVICE_CUDA && batch.device_id == 0, "device_type CUDA, device_id 0");
  check(batch.sync_event != NULL, "sync_event is set: the copies to the device may still be running");

  step("The consumer waits on the event, copies to the host, compares and releases (ref_import_device_batch)",
       "If this is non-null then it MUST be used to call the appropriate sync method for the device (e.g. "
       "cudaStreamWaitEvent or hipStreamWaitEvent) before attempting to access the memory in the buffers");
  error = ref_import_device_batch(path, 0, &batch);
  printf("    compared with the fixture: %s\n", error ? error : "equal");
  check(error == NULL, "the consumer found the batch equal to the fixture");
  check(batch.array.release == NULL, "the consumer released it");
}

int main(int argc, char** argv) {
  bool cuda = argc == 3 && strcmp(argv[2], "--cuda") == 0;
  if (argc != 2 && !cuda) {
    fprintf(stderr, "usage: %s FIXTURES_DIR [--cuda]\n", argv[0]);
    return 2;
  }
  walk_int32(argv[1]);
  walk_dictionary(argv[1]);
  if (cuda) walk_cuda(argv[1]);
  printf("\n%s\n", failures == 0 ? "walkthrough: every check held" : "walkthrough: MISMATCH");
  if (failures != 0) printf("%d check(s) failed\n", failures);
  return failures == 0 ? 0 : 1;
}
