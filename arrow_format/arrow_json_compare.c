/* Comparing exported arrays with a fixture.
 *
 * The comparison is logical, as a consumer must read the data: it honours
 * `offset` at every level (spec: "ArrowArray.offset"), accepts a
 * null_count of -1 ("MAY be -1 if not yet computed"), ignores values under
 * nulls (of the row, and of a parent's row), and accepts a NULL validity
 * buffer only when null_count is 0 (spec: "The buffer pointers MAY be null
 * only in two situations").  Where two layouts of the same values are
 * both right it compares values: a view's bytes wherever its variadic
 * buffer holds them, a dense union's child row wherever its offset points,
 * a dictionary's value wherever its index points.  Floating-point values
 * are equal when their bits are, or when both are NaN.
 *
 * It runs in two passes: the structure of every node once (buffer and
 * child counts from the layout table, the null count, the dictionary),
 * then the rows the fixture has, each difference reported with its path,
 * e.g. "column 'b' > child 'c': value at row 3 is 7, fixture has 9". */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "arrow_format/arrow_binary_value.h"
#include "arrow_format/arrow_json_comparison.h"
#include "arrow_format/arrow_null_count.h"
#include "arrow_format/arrow_value_text.h"

/* Writes "<path>: <message>" into the comparison's error. */
static void write_difference(struct comparison* c, const char* fmt, va_list ap) {
  int n = snprintf(c->err, c->err_size, "%s%s", c->path, c->path[0] ? ": " : "");
  if (n < 0 || (size_t)n >= c->err_size) return;
  vsnprintf(c->err + n, c->err_size - (size_t)n, fmt, ap);
}

int comparison_differ(struct comparison* c, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  write_difference(c, fmt, ap);
  va_end(ap);
  return -1;
}

int comparison_layout_differ(struct comparison* c, enum arrow_json_difference what, const char* fmt, ...) {
  c->difference = what;
  va_list ap;
  va_start(ap, fmt);
  write_difference(c, fmt, ap);
  va_end(ap);
  return -1;
}

int comparison_result(const struct comparison* c, int status) {
  return status == 0 ? ARROW_JSON_SAME : (int)c->difference;
}

/* Appends `text` to the path, cut where the path is full. */
static size_t append(struct comparison* c, size_t at, const char* text) {
  size_t room = sizeof(c->path) - 1 - at;
  size_t length = strlen(text);
  if (length > room) length = room;
  memcpy(c->path + at, text, length);
  c->path[at + length] = '\0';
  return at + length;
}

/* Pushed for every list, struct child or run of every row compared: an
 * append rather than a format, which took a tenth of a CPU case's time. */
size_t comparison_push(struct comparison* c, const char* what, const char* name) {
  size_t before = strlen(c->path);
  size_t at = before ? append(c, before, " > ") : before;
  at = append(c, at, what);
  if (name != NULL) {
    at = append(c, at, " '");
    at = append(c, at, name);
    append(c, at, "'");
  }
  return before;
}

void comparison_pop(struct comparison* c, size_t mark) {
  c->path[mark] = '\0';
}

static bool bit_is_set(const void* bitmap, int64_t i) {
  return (((const uint8_t*)bitmap)[i >> 3] >> (i & 7)) & 1;
}

/* ---- structure ---- */

static int check_node(struct comparison* c, const struct arrow_json_field* field,
                      const struct arrow_json_type* type, const struct ArrowArray* array);

/* The field of each child of an array of `type` (a dictionary's values
 * are laid out as the field's value type, whose children are the field's). */
static const struct arrow_json_field* child_field(const struct arrow_json_field* field, int64_t i) {
  return &field->children[i];
}

static int check_null_count(struct comparison* c, const struct arrow_json_type* type,
                            const struct ArrowArray* array) {
  char why[200];
  if (arrow_null_count_check(type->layout, array, why, sizeof(why)) != 0)
    return comparison_differ(c, "%s", why);
  return 0;
}

static int check_children(struct comparison* c, const struct arrow_json_field* field,
                          const struct ArrowArray* array) {
  for (int64_t i = 0; i < array->n_children; i++) {
    const struct ArrowArray* child = array->children[i];
    if (child == NULL)
      return comparison_layout_differ(c, ARROW_JSON_DIFFERENT_COUNTS, "children[%" PRId64 "] is NULL", i);
    const struct arrow_json_field* child_as = child_field(field, i);
    size_t mark = comparison_push(c, "child", child_as->name);
    if (check_node(c, child_as, arrow_json_storage_type(child_as), child) != 0) return -1;
    comparison_pop(c, mark);
  }
  return 0;
}

/* The dictionary of a dictionary-encoded array: there exactly when the
 * field is dictionary-encoded, and well formed as the value type. */
static int check_dictionary(struct comparison* c, const struct arrow_json_field* field,
                            const struct arrow_json_type* type, const struct ArrowArray* array) {
  bool encoded = field->is_dictionary && type == &field->index_type;
  if (!encoded) {
    if (array->dictionary != NULL)
      return comparison_layout_differ(c, ARROW_JSON_DIFFERENT_DICTIONARY,
                                      "dictionary is set, fixture is not dictionary-encoded");
    return 0;
  }
  if (array->dictionary == NULL)
    return comparison_layout_differ(c, ARROW_JSON_DIFFERENT_DICTIONARY,
                                    "dictionary is NULL, fixture is dictionary-encoded");
  /* Read as the values' type, the indices' own buffers would be read past
   * their end: refused before any of it is read. */
  if (array->dictionary == array)
    return comparison_layout_differ(c, ARROW_JSON_DIFFERENT_DICTIONARY, "dictionary is the array itself");
  struct arrow_json_field values = *field;
  values.is_dictionary = false;
  size_t mark = comparison_push(c, "dictionary", NULL);
  if (check_node(c, &values, &field->type, array->dictionary) != 0) return -1;
  comparison_pop(c, mark);
  return 0;
}

static int check_node(struct comparison* c, const struct arrow_json_field* field,
                      const struct arrow_json_type* type, const struct ArrowArray* array) {
  if (array->release == NULL) return comparison_differ(c, "array is released (release is NULL)");
  if (array->offset < 0) return comparison_differ(c, "offset is negative (%" PRId64 ")", array->offset);
  if (array->length < 0) return comparison_differ(c, "length is negative (%" PRId64 ")", array->length);
  if (array->offset > INT64_MAX - array->length)
    return comparison_differ(c, "offset + length is past INT64_MAX");
  const struct arrow_layout* layout = arrow_layout_of(type->layout);
  int64_t n_variadic = 0;
  if (type->layout == ARROW_LAYOUT_BINARY_VIEW) {
    if (array->n_buffers < 3) {
      return comparison_layout_differ(c, ARROW_JSON_DIFFERENT_COUNTS,
                                      "n_buffers is %" PRId64 ", a binary view has at least 3 (views, sizes)",
                                      array->n_buffers);
    }
    n_variadic = array->n_buffers - 3;
  }
  int64_t n_buffers = arrow_layout_buffer_count(type->layout, n_variadic);
  if (array->n_buffers != n_buffers) {
    return comparison_layout_differ(c, ARROW_JSON_DIFFERENT_COUNTS,
                                    "n_buffers is %" PRId64 ", a %s array has %" PRId64, array->n_buffers,
                                    layout->name, n_buffers);
  }
  if (n_buffers > 0 && array->buffers == NULL)
    return comparison_layout_differ(c, ARROW_JSON_DIFFERENT_COUNTS, "buffers is NULL");
  int64_t n_children = layout->n_children >= 0 ? layout->n_children : field->n_children;
  if (field->is_dictionary && type == &field->index_type) n_children = 0;
  if (array->n_children != n_children) {
    return comparison_layout_differ(c, ARROW_JSON_DIFFERENT_COUNTS,
                                    "n_children is %" PRId64 ", fixture has %" PRId64, array->n_children,
                                    n_children);
  }
  if (n_children > 0 && array->children == NULL)
    return comparison_layout_differ(c, ARROW_JSON_DIFFERENT_COUNTS, "children is NULL");
  if (check_null_count(c, type, array) != 0) return -1;
  if (check_dictionary(c, field, type, array) != 0) return -1;
  if (n_children > 0) return check_children(c, field, array);
  return 0;
}

/* ---- rows ---- */

/* Rows `array_row` (logical, before its offset) and `model_row` onwards,
 * `n` of each, of a node both sides have. */
struct rows {
  const struct arrow_json_field* field;
  const struct arrow_json_type* type;
  const struct arrow_json_column* model;
  const struct ArrowArray* array;
};

static int compare_rows(struct comparison* c, const struct rows* node, int64_t model_row, int64_t array_row,
                        int64_t n);

static int describe(const struct arrow_json_type* type, const uint8_t* value, char* out, size_t size) {
  return arrow_value_text(type->row, type->value_bytes, type->bit_width, type->is_signed, value, out, size);
}

static bool is_nan(const struct arrow_json_type* type, const uint8_t* value) {
  return arrow_value_is_nan(type->row, type->value_bytes, value);
}

static int need_buffer(struct comparison* c, const struct ArrowArray* array, int64_t index,
                       const char* what) {
  if (array->buffers[index] != NULL) return 0;
  return comparison_differ(c, "%s buffer (buffers[%" PRId64 "]) is NULL", what, index);
}

static int compare_fixed(struct comparison* c, const struct rows* node, int64_t model_row, int64_t array_row,
                         int64_t i) {
  int width = node->type->value_bytes;
  const uint8_t* got =
      (const uint8_t*)node->array->buffers[1] + (node->array->offset + array_row + i) * width;
  const uint8_t* want = node->model->buffers[1].bytes + (model_row + i) * width;
  if (memcmp(got, want, (size_t)width) == 0 || (is_nan(node->type, got) && is_nan(node->type, want)))
    return 0;
  char got_text[80], want_text[80];
  describe(node->type, got, got_text, sizeof(got_text));
  describe(node->type, want, want_text, sizeof(want_text));
  return comparison_differ(c, "value at row %" PRId64 " is %s, fixture has %s", array_row + i, got_text,
                           want_text);
}

static int64_t read_offset(const void* buffer, int width, int64_t index) {
  return arrow_json_load_int(buffer, width * 8, true, index);
}

/* A value's bytes in a binary or binary view array: a pointer and size, or
 * a difference. */
static int array_bytes(struct comparison* c, const struct rows* node, int64_t array_row,
                       const uint8_t** bytes, int64_t* size) {
  const struct ArrowArray* array = node->array;
  struct arrow_binary_value value;
  switch (arrow_binary_value_at(node->type->layout, array, array->offset + array_row, &value)) {
    case ARROW_BINARY_OK:
      *bytes = value.bytes;
      *size = value.size;
      return 0;
    case ARROW_BINARY_NEGATIVE_OFFSET:
      return comparison_differ(c, "offset of row %" PRId64 " is negative (%" PRId64 ")", array_row,
                               value.first);
    case ARROW_BINARY_DECREASING:
      return comparison_differ(c, "offsets decrease at row %" PRId64, array_row);
    case ARROW_BINARY_NO_DATA:
      return need_buffer(c, array, value.buffer, value.buffer == 2 ? "data" : "variadic data");
    case ARROW_BINARY_NEGATIVE_SIZE:
      return comparison_differ(c, "view of row %" PRId64 " has a negative size", array_row);
    case ARROW_BINARY_NO_VARIADIC:
      return comparison_differ(c, "view of row %" PRId64 " names variadic buffer %d of %" PRId64, array_row,
                               (int)value.index, value.n_variadic);
    case ARROW_BINARY_NO_SIZES:
      return comparison_differ(c, "the variadic buffer sizes buffer is NULL");
    case ARROW_BINARY_PAST_VARIADIC:
      return comparison_differ(c,
                               "view of row %" PRId64 " reaches past variadic buffer %d (%" PRId64 " bytes)",
                               array_row, (int)value.index, value.buffer_size);
    case ARROW_BINARY_PREFIX:
      break;
  }
  return comparison_differ(
      c, "view of row %" PRId64 " has a prefix that differs from its value's first bytes", array_row);
}

/* The same from the model, which the reader checked. */
static void model_bytes(const struct rows* node, int64_t row, const uint8_t** bytes, int64_t* size) {
  const struct arrow_json_column* model = node->model;
  if (node->type->layout != ARROW_LAYOUT_BINARY_VIEW) {
    int width = arrow_layout_of(node->type->layout)->offset_bytes;
    int64_t start = read_offset(model->buffers[1].bytes, width, row);
    *size = read_offset(model->buffers[1].bytes, width, row + 1) - start;
    *bytes = model->buffers[2].bytes + start;
    return;
  }
  const uint8_t* view = model->buffers[1].bytes + 16 * row;
  int32_t size32, index, offset;
  memcpy(&size32, view, 4);
  *size = size32;
  if (size32 <= 12) {
    *bytes = view + 4;
    return;
  }
  memcpy(&index, view + 8, 4);
  memcpy(&offset, view + 12, 4);
  *bytes = model->buffers[2 + index].bytes + offset;
}

static int compare_binary(struct comparison* c, const struct rows* node, int64_t model_row,
                          int64_t array_row) {
  const uint8_t* got = NULL;
  const uint8_t* want = NULL;
  int64_t got_size = 0, want_size = 0;
  if (array_bytes(c, node, array_row, &got, &got_size) != 0) return -1;
  model_bytes(node, model_row, &want, &want_size);
  if (got_size == want_size && memcmp(got, want, (size_t)want_size) == 0) return 0;
  /* Printed as text: a binary value shows its bytes escaped by %.*s no
   * worse than a reader needs to see they differ. */
  return comparison_differ(c,
                           "value at row %" PRId64 " is \"%.*s\" (%" PRId64 " bytes), fixture has \"%.*s\"",
                           array_row, (int)(got_size > 64 ? 64 : got_size), (const char*)got, got_size,
                           (int)(want_size > 64 ? 64 : want_size), (const char*)want);
}

/* Child `index` of the node, as a node of its own. */
static struct rows child_rows(const struct rows* node, int64_t index) {
  const struct arrow_json_field* field = child_field(node->field, index);
  return (struct rows){field, arrow_json_storage_type(field), &node->model->children[index],
                       node->array->children[index]};
}

/* Child rows [start, start + n) of the array must exist (`parent_row`
 * reaches them; -1: the parent's whole offset + length does). */
static int check_child_range(struct comparison* c, const struct rows* child, int64_t start, int64_t n,
                             int64_t parent_row) {
  if (start < 0 || n < 0 || start > child->array->length - n) {
    if (parent_row < 0) {
      return comparison_differ(c, "length %" PRId64 " is shorter than the parent's offset + length",
                               child->array->length);
    }
    return comparison_differ(c,
                             "row %" PRId64 " reaches rows %" PRId64 " to %" PRId64 " of a child of %" PRId64,
                             parent_row, start, start + n - 1, child->array->length);
  }
  return 0;
}

static int compare_child_span(struct comparison* c, const struct rows* node, int64_t index,
                              int64_t model_start, int64_t array_start, int64_t n, int64_t parent_row) {
  struct rows child = child_rows(node, index);
  size_t mark = comparison_push(c, "child", child.field->name);
  if (check_child_range(c, &child, array_start, n, parent_row) != 0) return -1;
  if (compare_rows(c, &child, model_start, array_start, n) != 0) return -1;
  comparison_pop(c, mark);
  return 0;
}

static int compare_list(struct comparison* c, const struct rows* node, int64_t model_row, int64_t array_row) {
  const struct ArrowArray* array = node->array;
  int width = arrow_layout_of(node->type->layout)->offset_bytes;
  bool view =
      node->type->layout == ARROW_LAYOUT_LIST_VIEW || node->type->layout == ARROW_LAYOUT_LARGE_LIST_VIEW;
  int64_t p = array->offset + array_row;
  if (need_buffer(c, array, 1, "offsets") != 0 || (view && need_buffer(c, array, 2, "sizes") != 0)) return -1;
  int64_t start = read_offset(array->buffers[1], width, p);
  int64_t size =
      view ? read_offset(array->buffers[2], width, p) : read_offset(array->buffers[1], width, p + 1) - start;
  int64_t model_start = read_offset(node->model->buffers[1].bytes, width, model_row);
  int64_t model_size = view ? read_offset(node->model->buffers[2].bytes, width, model_row)
                            : read_offset(node->model->buffers[1].bytes, width, model_row + 1) - model_start;
  if (size != model_size) {
    return comparison_differ(c, "list at row %" PRId64 " has %" PRId64 " items, fixture has %" PRId64,
                             array_row, size, model_size);
  }
  return compare_child_span(c, node, 0, model_start, start, size, array_row);
}

static int compare_union(struct comparison* c, const struct rows* node, int64_t model_row,
                         int64_t array_row) {
  const struct ArrowArray* array = node->array;
  const struct arrow_json_type* type = node->type;
  int64_t p = array->offset + array_row;
  if (need_buffer(c, array, 0, "type ids") != 0) return -1;
  int8_t got = ((const int8_t*)array->buffers[0])[p];
  int8_t want = (int8_t)node->model->buffers[0].bytes[model_row];
  if (got != want) {
    return comparison_differ(c, "type id at row %" PRId64 " is %d, fixture has %d", array_row, got, want);
  }
  int64_t child = 0;
  while (type->type_ids[child] != want) child++;
  if (type->layout == ARROW_LAYOUT_SPARSE_UNION)
    return compare_child_span(c, node, child, model_row, p, 1, array_row);
  if (need_buffer(c, array, 1, "offsets") != 0) return -1;
  int64_t offset = ((const int32_t*)array->buffers[1])[p];
  int64_t model_offset = ((const int32_t*)node->model->buffers[1].bytes)[model_row];
  return compare_child_span(c, node, child, model_offset, offset, 1, array_row);
}

static int compare_run_end_encoded(struct comparison* c, const struct rows* node, int64_t model_row,
                                   int64_t array_row) {
  struct rows run_ends = child_rows(node, 0);
  int width = run_ends.type->bit_width;
  const struct ArrowArray* ends = run_ends.array;
  if (ends->length > 0 && ends->buffers[1] == NULL)
    return comparison_differ(c, "run_ends has no values buffer");
  int64_t p = node->array->offset + array_row;
  int64_t run = arrow_json_find_run(ends->buffers[1], width, ends->offset, ends->length, p);
  if (run < 0) {
    return comparison_differ(c, "row %" PRId64 " is past the last run end (%" PRId64 " runs)", array_row,
                             ends->length);
  }
  int64_t model_run =
      arrow_json_find_run(run_ends.model->buffers[1].bytes, width, 0, run_ends.model->length, model_row);
  return compare_child_span(c, node, 1, model_run, run, 1, array_row);
}

/* A dictionary-encoded row: the value its index points to. */
static int compare_dictionary_value(struct comparison* c, const struct rows* node, int64_t model_row,
                                    int64_t array_row) {
  const struct arrow_json_type* index_type = &node->field->index_type;
  if (need_buffer(c, node->array, 1, "indices") != 0) return -1;
  int64_t index = arrow_json_load_int(node->array->buffers[1], index_type->bit_width, index_type->is_signed,
                                      node->array->offset + array_row);
  int64_t model_index = arrow_json_load_int(node->model->buffers[1].bytes, index_type->bit_width,
                                            index_type->is_signed, model_row);
  const struct ArrowArray* dictionary = node->array->dictionary;
  if (index < 0 || index >= dictionary->length) {
    return comparison_differ(
        c, "index at row %" PRId64 " is %" PRId64 ", outside the dictionary's %" PRId64 " values", array_row,
        index, dictionary->length);
  }
  struct arrow_json_field values = *node->field;
  values.is_dictionary = false;
  struct rows value_node = {&values, &values.type, arrow_json_dictionary_values(c->file, node->field),
                            dictionary};
  size_t mark = comparison_push(c, "dictionary", NULL);
  if (compare_rows(c, &value_node, model_index, index, 1) != 0) return -1;
  comparison_pop(c, mark);
  return 0;
}

static int compare_valid_row(struct comparison* c, const struct rows* node, int64_t model_row,
                             int64_t array_row) {
  const struct ArrowArray* array = node->array;
  if (node->field->is_dictionary && node->type == &node->field->index_type) {
    return compare_dictionary_value(c, node, model_row, array_row);
  }
  switch (node->type->layout) {
    case ARROW_LAYOUT_NULL:
      return 0;
    case ARROW_LAYOUT_BOOL: {
      if (need_buffer(c, array, 1, "values") != 0) return -1;
      bool got = bit_is_set(array->buffers[1], array->offset + array_row);
      bool want = bit_is_set(node->model->buffers[1].bytes, model_row);
      if (got == want) return 0;
      return comparison_differ(c, "value at row %" PRId64 " is %s, fixture has %s", array_row,
                               got ? "true" : "false", want ? "true" : "false");
    }
    case ARROW_LAYOUT_FIXED_WIDTH:
      if (need_buffer(c, array, 1, "values") != 0) return -1;
      return compare_fixed(c, node, model_row, array_row, 0);
    case ARROW_LAYOUT_BINARY:
    case ARROW_LAYOUT_LARGE_BINARY:
    case ARROW_LAYOUT_BINARY_VIEW:
      if (need_buffer(c, array, 1, node->type->layout == ARROW_LAYOUT_BINARY_VIEW ? "views" : "offsets") !=
          0) {
        return -1;
      }
      return compare_binary(c, node, model_row, array_row);
    case ARROW_LAYOUT_LIST:
    case ARROW_LAYOUT_LARGE_LIST:
    case ARROW_LAYOUT_LIST_VIEW:
    case ARROW_LAYOUT_LARGE_LIST_VIEW:
    case ARROW_LAYOUT_MAP:
      return compare_list(c, node, model_row, array_row);
    case ARROW_LAYOUT_FIXED_SIZE_LIST: {
      int64_t size = node->type->list_size;
      return compare_child_span(c, node, 0, model_row * size, (array->offset + array_row) * size, size,
                                array_row);
    }
    case ARROW_LAYOUT_STRUCT:
      for (int64_t i = 0; i < node->field->n_children; i++) {
        if (compare_child_span(c, node, i, model_row, array->offset + array_row, 1, array_row) != 0)
          return -1;
      }
      return 0;
    case ARROW_LAYOUT_SPARSE_UNION:
    case ARROW_LAYOUT_DENSE_UNION:
      return compare_union(c, node, model_row, array_row);
    case ARROW_LAYOUT_RUN_END_ENCODED:
      return compare_run_end_encoded(c, node, model_row, array_row);
    case ARROW_LAYOUT_COUNT:
      break;
  }
  return comparison_differ(c, "unknown layout");
}

/* Fixed-width rows with no null on either side: one memcmp for the span,
 * the row-by-row comparison only to name the first difference. */
static bool same_fixed_span(const struct rows* node, int64_t model_row, int64_t array_row, int64_t n) {
  if (node->type->layout != ARROW_LAYOUT_FIXED_WIDTH ||
      (node->field->is_dictionary && node->type == &node->field->index_type)) {
    return false;
  }
  if (node->array->buffers[0] != NULL || node->model->null_count != 0 || node->array->buffers[1] == NULL)
    return false;
  int width = node->type->value_bytes;
  const uint8_t* got = (const uint8_t*)node->array->buffers[1] + (node->array->offset + array_row) * width;
  return memcmp(got, node->model->buffers[1].bytes + model_row * width, (size_t)(n * width)) == 0;
}

/* Binary rows with no null on either side whose offsets are the model's,
 * moved by one constant: the bytes they span compared in one memcmp.  Any
 * other case goes row by row (which names the difference). */
static bool same_binary_span(const struct rows* node, int64_t model_row, int64_t array_row, int64_t n) {
  enum arrow_layout_id layout = node->type->layout;
  if ((layout != ARROW_LAYOUT_BINARY && layout != ARROW_LAYOUT_LARGE_BINARY) ||
      (node->field->is_dictionary && node->type == &node->field->index_type)) {
    return false;
  }
  const struct ArrowArray* array = node->array;
  if (array->buffers[0] != NULL || node->model->null_count != 0 || array->buffers[1] == NULL) return false;
  int width = arrow_layout_of(layout)->offset_bytes;
  const uint8_t* got = (const uint8_t*)array->buffers[1] + (array->offset + array_row) * width;
  const uint8_t* want = node->model->buffers[1].bytes + model_row * width;
  int64_t shift = read_offset(got, width, 0) - read_offset(want, width, 0);
  if (read_offset(got, width, 0) < 0) return false;
  if (shift == 0) {
    if (memcmp(got, want, (size_t)((n + 1) * width)) != 0) return false;
  } else {
    for (int64_t i = 1; i <= n; i++) {
      if (read_offset(got, width, i) - read_offset(want, width, i) != shift) return false;
    }
  }
  int64_t start = read_offset(want, width, 0), end = read_offset(want, width, n);
  if (end == start) return true;
  if (array->buffers[2] == NULL) return false;
  return memcmp((const uint8_t*)array->buffers[2] + start + shift, node->model->buffers[2].bytes + start,
                (size_t)(end - start)) == 0;
}

static int compare_rows(struct comparison* c, const struct rows* node, int64_t model_row, int64_t array_row,
                        int64_t n) {
  if (n > 0 &&
      (same_fixed_span(node, model_row, array_row, n) || same_binary_span(node, model_row, array_row, n))) {
    return 0;
  }
  const struct ArrowArray* array = node->array;
  bool has_validity = arrow_layout_has_validity(node->type->layout);
  const void* validity = has_validity ? array->buffers[0] : NULL;
  for (int64_t i = 0; i < n; i++) {
    bool want = arrow_json_row_valid(node->model, model_row + i);
    if (node->type->layout == ARROW_LAYOUT_NULL) continue;
    bool got = validity == NULL || bit_is_set(validity, array->offset + array_row + i);
    if (has_validity && got != want) {
      return comparison_differ(c, "row %" PRId64 " is %s, fixture has it %s", array_row + i,
                               got ? "valid" : "null", want ? "valid" : "null");
    }
    if (want && compare_valid_row(c, node, model_row + i, array_row + i) != 0) return -1;
  }
  return 0;
}

/* ---- entry points ---- */

static int compare_node(struct comparison* c, const struct arrow_json_field* field,
                        const struct arrow_json_column* column, const struct ArrowArray* array) {
  const struct arrow_json_type* type = arrow_json_storage_type(field);
  if (array->release == NULL) return comparison_differ(c, "array is released (release is NULL)");
  if (array->length != column->length) {
    return comparison_differ(c, "length is %" PRId64 ", fixture has %" PRId64, array->length, column->length);
  }
  if (check_node(c, field, type, array) != 0) return -1;
  struct rows node = {field, type, column, array};
  return compare_rows(c, &node, 0, 0, column->length);
}

int arrow_json_compare_column(const struct arrow_json_file* file, const struct arrow_json_field* field,
                              const struct arrow_json_column* column, const struct ArrowArray* array,
                              char* err, size_t err_size) {
  struct comparison c = {file, err, err_size, "", ARROW_JSON_DIFFERENT_DATA};
  comparison_push(&c, "column", field->name);
  return comparison_result(&c, compare_node(&c, field, column, array));
}

int arrow_json_compare_values(const struct arrow_json_file* file, const struct arrow_json_field* field,
                              const struct ArrowArray* array, char* err, size_t err_size) {
  struct comparison c = {file, err, err_size, "", ARROW_JSON_DIFFERENT_DATA};
  struct arrow_json_field values = *field;
  values.is_dictionary = false;
  const struct arrow_json_column* column = arrow_json_dictionary_values(file, field);
  if (column == NULL) return comparison_differ(&c, "the fixture has no dictionary for this field");
  return comparison_result(&c, compare_node(&c, &values, column, array));
}

/* spec: "Record batches": a struct array with no nulls whose children are
 * the columns.  Its own members, then every column's layout, then the
 * columns' rows. */
static int compare_batch(struct comparison* c, const struct arrow_json_file* file, int64_t batch_index,
                         const struct ArrowArray* array) {
  if (batch_index < 0 || batch_index >= file->n_batches) {
    return comparison_differ(c, "the fixture has no batch %" PRId64, batch_index);
  }
  const struct arrow_json_batch* batch = &file->batches[batch_index];
  if (array->release == NULL) return comparison_differ(c, "batch is released (release is NULL)");
  if (array->length != batch->length) {
    return comparison_differ(c, "batch length is %" PRId64 ", fixture has %" PRId64, array->length,
                             batch->length);
  }
  if (array->offset < 0) return comparison_differ(c, "offset is negative (%" PRId64 ")", array->offset);
  if (array->n_buffers != 1) {
    return comparison_layout_differ(c, ARROW_JSON_DIFFERENT_COUNTS,
                                    "n_buffers is %" PRId64 ", a struct array has 1", array->n_buffers);
  }
  if (array->buffers == NULL)
    return comparison_layout_differ(c, ARROW_JSON_DIFFERENT_COUNTS, "buffers is NULL");
  if (array->n_children != file->n_fields) {
    return comparison_layout_differ(c, ARROW_JSON_DIFFERENT_COUNTS,
                                    "n_children is %" PRId64 ", fixture has %" PRId64, array->n_children,
                                    file->n_fields);
  }
  if (file->n_fields > 0 && array->children == NULL) {
    return comparison_layout_differ(c, ARROW_JSON_DIFFERENT_COUNTS, "children is NULL");
  }
  if (array->dictionary != NULL) {
    return comparison_layout_differ(c, ARROW_JSON_DIFFERENT_DICTIONARY, "a record batch has no dictionary");
  }
  for (int64_t i = 0; i < file->n_fields; i++) {
    const struct arrow_json_field* field = &file->fields[i];
    if (array->children[i] == NULL) {
      return comparison_layout_differ(c, ARROW_JSON_DIFFERENT_COUNTS, "children[%" PRId64 "] is NULL", i);
    }
    size_t mark = comparison_push(c, "column", field->name);
    if (check_node(c, field, arrow_json_storage_type(field), array->children[i]) != 0) return -1;
    comparison_pop(c, mark);
  }
  if (array->null_count > 0) {
    return comparison_differ(c, "a record batch has no nulls, null_count is %" PRId64, array->null_count);
  }
  for (int64_t i = 0; i < file->n_fields; i++) {
    const struct arrow_json_field* field = &file->fields[i];
    struct rows node = {field, arrow_json_storage_type(field), &batch->columns[i], array->children[i]};
    size_t mark = comparison_push(c, "column", field->name);
    /* The batch's offset applies to its columns, as a struct's to its
     * children. */
    if (check_child_range(c, &node, array->offset, array->length, -1) != 0) return -1;
    if (compare_rows(c, &node, 0, array->offset, batch->length) != 0) return -1;
    comparison_pop(c, mark);
  }
  return 0;
}

int arrow_json_compare_batch(const struct arrow_json_file* file, int64_t batch_index,
                             const struct ArrowArray* array, char* err, size_t err_size) {
  struct comparison c = {file, err, err_size, "", ARROW_JSON_DIFFERENT_DATA};
  return comparison_result(&c, compare_batch(&c, file, batch_index, array));
}
