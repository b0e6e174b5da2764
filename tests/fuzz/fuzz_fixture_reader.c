/* Fuzz target: the fixture reader (arrow_format/arrow_json_read.c).
 *
 * The input is read as the text of an integration JSON file.  Besides not
 * crashing, the reader must either fail with one line naming the text, or
 * return a model that keeps the promises the comparison and the rules rely
 * on: every column as long as its batch (or its parent), utf8 offsets that
 * start at 0, never decrease and end at the byte count, dictionary indices
 * inside their dictionary.  An error is one line of printable text, and
 * UTF-8 when the input is.  A broken promise aborts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrow_format/arrow_json.h"
#include "fuzz_target.h"
#include "support/utf8.h"

#define TEXT_NAME "fuzz-input"

static void require(int condition, const char* promise) {
  if (!condition) {
    fprintf(stderr, "fixture reader broke a promise: %s\n", promise);
    abort();
  }
}

static void check_column(const struct arrow_json_file* file, const struct arrow_json_field* field,
                         const struct arrow_json_column* column, int64_t expected_length) {
  const struct arrow_json_type* type = arrow_json_storage_type(field);
  require(expected_length < 0 || column->length == expected_length,
          "a column is as long as its batch or parent");
  require(column->length >= 0, "a column's length is not negative");
  require((column->validity != NULL) == arrow_layout_has_validity(type->layout),
          "a column has a validity entry per row exactly when its layout has a validity buffer");
  for (int64_t i = 0; column->validity != NULL && i < column->length; i++) {
    require(column->validity[i] <= 1, "validity entries are 0 or 1");
    require(field->nullable || column->validity[i], "a non-nullable field has no nulls");
  }
  require(column->n_buffers >= arrow_layout_buffer_count(type->layout, 0),
          "a column has the buffers its layout has");
  if (field->is_dictionary) {
    const struct arrow_json_column* values = arrow_json_dictionary_values(file, field);
    require(values != NULL, "a dictionary-encoded column has its dictionary");
    for (int64_t i = 0; i < column->length; i++) {
      int64_t index = arrow_json_load_int(column->buffers[1].bytes, type->bit_width, type->is_signed, i);
      require(!column->validity[i] || (index >= 0 && index < values->length),
              "dictionary indices are inside the dictionary");
    }
  } else if (type->layout == ARROW_LAYOUT_BINARY || type->layout == ARROW_LAYOUT_LARGE_BINARY) {
    int width = arrow_layout_of(type->layout)->offset_bytes * 8;
    const void* offsets = column->buffers[1].bytes;
    require(offsets != NULL && arrow_json_load_int(offsets, width, true, 0) == 0,
            "binary offsets start at 0");
    for (int64_t i = 0; i < column->length; i++) {
      require(
          arrow_json_load_int(offsets, width, true, i) <= arrow_json_load_int(offsets, width, true, i + 1),
          "binary offsets never decrease");
    }
    require(arrow_json_load_int(offsets, width, true, column->length) == column->buffers[2].size,
            "binary offsets end at the byte count");
  } else if (type->layout == ARROW_LAYOUT_FIXED_WIDTH) {
    require(column->buffers[1].size == column->length * type->value_bytes,
            "fixed-width values fill their rows");
  }
  int64_t children = arrow_layout_of(type->layout)->n_children;
  if (children < 0) children = field->n_children;
  if (field->is_dictionary) children = 0;
  require(column->n_children == children, "a column has a child per child field");
  bool same_length = type->layout == ARROW_LAYOUT_STRUCT || type->layout == ARROW_LAYOUT_SPARSE_UNION;
  for (int64_t i = 0; i < column->n_children; i++) {
    check_column(file, &field->children[i], &column->children[i], same_length ? column->length : -1);
  }
}

static void check_model(const struct arrow_json_file* file) {
  for (int64_t b = 0; b < file->n_batches; b++) {
    const struct arrow_json_batch* batch = &file->batches[b];
    for (int64_t c = 0; c < file->n_fields; c++) {
      check_column(file, &file->fields[c], &batch->columns[c], batch->length);
    }
  }
  /* The questions the rules' fixture filters ask. */
  (void)arrow_json_has_dictionary(file);
  (void)arrow_json_has_nulls(file);
  (void)arrow_json_has_values(file);
  int64_t column = arrow_json_first_int32_column(file);
  require(column >= -1 && column < file->n_fields, "the first int32 column is a column");
}

int LLVMFuzzerInitialize(int* argc, char*** argv) {
  (void)argc;
  (void)argv;
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  struct arrow_json_file file;
  char error[512];
  if (arrow_json_read_text(TEXT_NAME, (const char*)data, size, &file, error, sizeof(error)) != 0) {
    require(strncmp(error, TEXT_NAME ": ", strlen(TEXT_NAME ": ")) == 0, "an error names the text");
    for (const char* c = error; *c != '\0'; c++) {
      require((unsigned char)*c >= 0x20 && *c != 0x7F, "an error is one line of printable text");
    }
    /* What the reference producer hands back as its error message must be
     * UTF-8 (a rule checks it): it is, when the fixture is. */
    require(!adc_utf8_valid((const char*)data, size) || adc_utf8_valid(error, strlen(error)),
            "an error about UTF-8 text is UTF-8");
    return 0;
  }
  check_model(&file);
  arrow_json_file_free(&file);
  return 0;
}
