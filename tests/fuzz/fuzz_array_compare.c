/* Fuzz target: the comparison of a producer's ArrowSchema and ArrowArray
 * with a fixture (arrow_format/arrow_json_compare.c), directly as
 * on the CPU and through a host mirror as on a GPU
 * (arrow_json_mirror.c), which are what every producer rule's verdict
 * rests on (harness/rule_api/fixture_compare.c).
 *
 * Every fixture of fixtures/data is loaded once.  The first byte of an
 * input picks the fixture, the second what is compared, as the rules
 * compare: the schema; a whole batch; one column moved out of its batch;
 * a dictionary's values moved out of its column.  The rest is decoded into
 * a memory-safe structure shaped after the fixture (fuzz_schema.h,
 * fuzz_array.h).  Besides not crashing, the comparison must
 *   - leave a NUL-terminated difference whenever it reports one, and
 *   - give the same answer on the mirror as on the array itself, since a
 *     producer's verdict must not depend on where its data live.
 * The logical comparison (arrow_format/arrow_logical.h) reads the same
 * schemas and batches, a batch by the fixture's own schema (a view of it):
 * it must not crash either, must end its difference, and must find equal
 * every batch the exact comparison finds equal (the same values in the
 * same representation are logically equal), but for one rule of its own:
 * a record batch's null_count is 0 or -1 and its validity bitmap, where
 * it has one, all set (spec, "Record batches"), where the exact
 * comparison reads a positive null_count alone. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrow_format/arrow_json_mirror.h"
#include "arrow_format/arrow_json_view.h"
#include "arrow_format/arrow_logical.h"
#include "fuzz_array.h"
#include "fuzz_layout_array.h"
#include "fuzz_schema.h"
#include "fuzz_target.h"

#define MAX_FIXTURES 64

static struct arrow_json_file fixtures[MAX_FIXTURES];
static struct ArrowSchema fixture_schemas[MAX_FIXTURES]; /* views, for the logical comparison */
static size_t n_fixtures;

static void require(int condition, const char* promise) {
  if (!condition) {
    fprintf(stderr, "comparison broke a promise: %s\n", promise);
    abort();
  }
}

static int by_name(const void* a, const void* b) {
  return strcmp(*(char* const*)a, *(char* const*)b);
}

/* Whether the array builder (fuzz_array.c) lays out `field`: it builds
 * integers, utf8 and structs of them, dictionary-encoded or not. */
static bool builder_lays_out(const struct arrow_json_field* field) {
  enum arrow_json_kind kind = field->type.kind;
  if (kind != ARROW_JSON_INT && kind != ARROW_JSON_UTF8 && kind != ARROW_JSON_STRUCT) return false;
  for (int64_t i = 0; i < field->n_children; i++) {
    if (!builder_lays_out(&field->children[i])) return false;
  }
  return true;
}

static bool builder_lays_out_file(const struct arrow_json_file* file) {
  for (int64_t i = 0; i < file->n_fields; i++) {
    if (!builder_lays_out(&file->fields[i])) return false;
  }
  return true;
}

/* The fixtures of one folder, in name order, appended to `fixtures`. */
static void load_folder(const char* folder) {
  DIR* dir = opendir(folder);
  require(dir != NULL, "the fixtures folder opens");
  char* names[MAX_FIXTURES];
  size_t n = 0;
  for (struct dirent* entry; (entry = readdir(dir)) != NULL && n < MAX_FIXTURES;) {
    size_t length = strlen(entry->d_name);
    if (length > 5 && strcmp(entry->d_name + length - 5, ".json") == 0) names[n++] = strdup(entry->d_name);
  }
  closedir(dir);
  qsort(names, n, sizeof(names[0]), by_name);
  for (size_t i = 0; i < n && n_fixtures < MAX_FIXTURES; i++) {
    char path[4096];
    char error[512];
    snprintf(path, sizeof(path), "%s/%s", folder, names[i]);
    if (arrow_json_read_file(path, &fixtures[n_fixtures], error, sizeof(error)) != 0) {
      fprintf(stderr, "%s\n", error);
      abort();
    }
    n_fixtures++;
  }
  for (size_t i = 0; i < n; i++) free(names[i]);
}

/* The hand-written fixtures, then the generated ones, each folder in name
 * order, so that an input means the same fixture on every machine (and
 * the committed inputs, written for the hand-written ones, keep theirs). */
int LLVMFuzzerInitialize(int* argc, char*** argv) {
  (void)argc;
  (void)argv;
  load_folder(ADC_FIXTURES_DIR);
  load_folder(ADC_GENERATED_FIXTURES_DIR);
  require(n_fixtures > 0, "there is a fixture");
  for (size_t i = 0; i < n_fixtures; i++)
    require(arrow_json_view_schema(&fixtures[i], &fixture_schemas[i]) == 0, "a fixture's schema has a view");
  return 0;
}

static int copy_in_memory(void* context, void* host, const void* source, size_t size) {
  (void)context;
  memcpy(host, source, size);
  return 0;
}

/* Fills `difference` with a byte that is not NUL, so that a report that
 * forgot to end it shows. */
static void unwritten(char* difference, size_t size) {
  memset(difference, 'x', size);
}

static void check_difference(int result, const char* difference, size_t size) {
  if (result != 0) require(memchr(difference, '\0', size) != NULL, "a difference is NUL-terminated");
}

enum what { SCHEMA, BATCH, COLUMN, DICTIONARY_VALUES, WHAT_COUNT };

/* The fixture's own schema, as a view. */
static const struct ArrowSchema* schema_of(const struct arrow_json_file* file) {
  return &fixture_schemas[file - fixtures];
}

/* The logical comparison of a batch the exact one judged (`exact`): no
 * crash, an ended difference, and equal where the exact one is. */
static void compare_logically(const struct arrow_json_file* file, int64_t batch,
                              const struct ArrowArray* array, int exact) {
  if (batch < 0 || batch >= file->n_batches) return;
  char difference[512];
  unwritten(difference, sizeof(difference));
  const struct ArrowArray* batches[] = {array};
  int result =
      arrow_logical_compare_batches(file, batch, schema_of(file), batches, 1, difference, sizeof(difference));
  check_difference(result, difference, sizeof(difference));
  if (exact == 0 && result != 0 && strstr(difference, "a record batch has no nulls") == NULL) {
    fprintf(stderr, "logically: %s\n", difference);
    require(0, "what the exact comparison finds equal is logically equal");
  }
}

/* What the rules compare, on the array and on its mirror. */
static void compare(const struct arrow_json_file* file, enum what what, int64_t batch, int64_t column,
                    const struct ArrowArray* array) {
  char direct[512];
  char mirrored[512];
  const struct arrow_json_field* field = what == BATCH ? NULL : &file->fields[column];
  struct arrow_json_mirror mirror = {.copy = copy_in_memory};
  struct ArrowArray host;
  int result = 0;
  int host_result = 0;
  int copied = 0;
  unwritten(direct, sizeof(direct));
  unwritten(mirrored, sizeof(mirrored));
  switch (what) {
    case BATCH:
      result = arrow_json_compare_batch(file, batch, array, direct, sizeof(direct));
      compare_logically(file, batch, array, result);
      copied = arrow_json_mirror_batch(&mirror, file, array, &host);
      if (copied == 0) host_result = arrow_json_compare_batch(file, batch, &host, mirrored, sizeof(mirrored));
      break;
    case COLUMN: {
      const struct arrow_json_column* expected = &file->batches[batch].columns[column];
      result = arrow_json_compare_column(file, field, expected, array, direct, sizeof(direct));
      copied = arrow_json_mirror_column(&mirror, field, array, &host);
      if (copied == 0) {
        host_result = arrow_json_compare_column(file, field, expected, &host, mirrored, sizeof(mirrored));
      }
      break;
    }
    case DICTIONARY_VALUES: {
      result = arrow_json_compare_values(file, field, array, direct, sizeof(direct));
      copied = arrow_json_mirror_values(&mirror, field, array, &host);
      if (copied == 0)
        host_result = arrow_json_compare_values(file, field, &host, mirrored, sizeof(mirrored));
      break;
    }
    default:
      break;
  }
  require(copied == 0, "copying memory to the host cannot fail");
  check_difference(result, direct, sizeof(direct));
  check_difference(host_result, mirrored, sizeof(mirrored));
  if ((result == 0) != (host_result == 0)) {
    fprintf(stderr, "on the array: %s\non the mirror: %s\n", result ? direct : "equal",
            host_result ? mirrored : "equal");
    require(0, "the mirror gives the array's answer");
  }
  arrow_json_mirror_free(&mirror);
}

/* The first top-level dictionary-encoded column with its values, or -1. */
static int64_t dictionary_column(const struct arrow_json_file* file, int64_t from) {
  for (int64_t i = 0; i < file->n_fields; i++) {
    int64_t c = (from + i) % file->n_fields;
    if (file->fields[c].is_dictionary && arrow_json_dictionary_values(file, &file->fields[c]) != NULL)
      return c;
  }
  return -1;
}

/* A fixture of a type fuzz_array.c does not lay out: a tree built from the
 * model's own buffers with a few changes (fuzz_layout_array.h), a batch or
 * one column. */
static void compare_any_layout(struct fuzz_bytes* in, struct fuzz_arena* arena,
                               const struct arrow_json_file* file) {
  if (file->n_batches == 0 || file->n_fields == 0) return;
  struct fuzz_layout layout = {.arena = arena};
  int64_t batch = fuzz_range(in, 0, file->n_batches - 1);
  if (fuzz_byte(in) % 2) {
    compare(file, BATCH, batch, -1, fuzz_layout_batch(in, &layout, file, batch));
  } else {
    int64_t column = fuzz_range(in, 0, file->n_fields - 1);
    compare(file, COLUMN, batch, column, fuzz_layout_column(in, &layout, file, batch, column));
  }
  fuzz_layout_free(&layout);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  struct fuzz_bytes in = {data, size};
  const struct arrow_json_file* file = &fixtures[fuzz_byte(&in) % n_fixtures];
  struct fuzz_arena arena = {0};
  if (!builder_lays_out_file(file)) {
    compare_any_layout(&in, &arena, file);
    fuzz_arena_free(&arena);
    return 0;
  }
  enum what what = (enum what)(fuzz_byte(&in) % WHAT_COUNT);

  if (what == SCHEMA) {
    struct ArrowSchema* schema = fuzz_schema_for_file(&in, &arena, file);
    char difference[512];
    unwritten(difference, sizeof(difference));
    check_difference(arrow_json_compare_schema(file, schema, difference, sizeof(difference)), difference,
                     sizeof(difference));
    unwritten(difference, sizeof(difference));
    check_difference(arrow_logical_compare_schema(file, schema, difference, sizeof(difference)), difference,
                     sizeof(difference));
    unwritten(difference, sizeof(difference));
    arrow_logical_describe_changes(file, schema, difference, sizeof(difference));
    check_difference(-1, difference, sizeof(difference)); /* its text is ended, changes or difference */
  } else if (what == BATCH) {
    /* One batch past each end too: the rules never ask for those, the
     * comparison must still refuse them. */
    int64_t batch = fuzz_range(&in, 0, file->n_batches + 1);
    if (batch > file->n_batches) batch = -1;
    compare(file, BATCH, batch, -1, fuzz_array_for_batch(&in, &arena, file, batch));
  } else if (what == COLUMN && file->n_batches > 0 && file->n_fields > 0) {
    int64_t batch = fuzz_range(&in, 0, file->n_batches - 1);
    int64_t column = fuzz_range(&in, 0, file->n_fields - 1);
    const struct arrow_json_field* field = &file->fields[column];
    compare(file, COLUMN, batch, column,
            fuzz_array_for_column(&in, &arena, file, field, &file->batches[batch].columns[column]));
  } else if (what == DICTIONARY_VALUES && file->n_fields > 0) {
    int64_t column = dictionary_column(file, fuzz_range(&in, 0, file->n_fields - 1));
    if (column >= 0) {
      const struct arrow_json_field* field = &file->fields[column];
      const struct arrow_json_column* values = arrow_json_dictionary_values(file, field);
      compare(file, DICTIONARY_VALUES, -1, column, fuzz_array_for_values(&in, &arena, &field->type, values));
    }
  }
  fuzz_arena_free(&arena);
  return 0;
}
