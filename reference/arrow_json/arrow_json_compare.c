/* Comparing exported Arrow structures with a fixture.
 *
 * The comparison is logical, as a consumer must read the data: it honours
 * `offset` (spec: "ArrowArray.offset"), accepts a null_count of -1 ("MAY be
 * -1 if not yet computed"), ignores values under nulls, and accepts a NULL
 * validity buffer only when null_count is 0 (spec: "The buffer pointers MAY
 * be null only in two situations").  Each difference is reported with its
 * path, e.g. "column 'b' > child 'c': value at row 3 is 7, fixture has 9". */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "arrow_json.h"

struct comparison {
  const struct arrow_json_file* file;
  char* err;
  size_t err_size;
  char path[256];
};

static int differ(struct comparison* c, const char* fmt, ...) {
  int n = snprintf(c->err, c->err_size, "%s%s", c->path, c->path[0] ? ": " : "");
  if (n < 0 || (size_t)n >= c->err_size) return -1;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(c->err + n, c->err_size - (size_t)n, fmt, ap);
  va_end(ap);
  return -1;
}

/* Appends "<sep>'name'" to the path for the duration of a nested compare. */
static size_t push_path(struct comparison* c, const char* what, const char* name) {
  size_t before = strlen(c->path);
  snprintf(c->path + before, sizeof(c->path) - before, "%s%s '%s'", before ? " > " : "", what,
           name ? name : "");
  return before;
}

/* ---- schemas ---- */

static int compare_schema_node(struct comparison* c, const struct arrow_json_field* field,
                               const struct ArrowSchema* schema);

static int compare_schema_children(struct comparison* c, const struct arrow_json_field* fields,
                                   int64_t n_fields, const struct ArrowSchema* schema) {
  if (schema->n_children != n_fields) {
    return differ(c, "n_children is %" PRId64 ", fixture has %" PRId64, schema->n_children, n_fields);
  }
  if (n_fields > 0 && schema->children == NULL) return differ(c, "children is NULL");
  for (int64_t i = 0; i < n_fields; i++) {
    const struct ArrowSchema* child = schema->children[i];
    if (child == NULL) return differ(c, "children[%" PRId64 "] is NULL", i);
    size_t mark = push_path(c, "field", fields[i].name);
    if (compare_schema_node(c, &fields[i], child) != 0) return -1;
    c->path[mark] = '\0';
  }
  return 0;
}

static int compare_schema_node(struct comparison* c, const struct arrow_json_field* field,
                               const struct ArrowSchema* schema) {
  if (schema->release == NULL) return differ(c, "schema is released (release is NULL)");
  const struct arrow_json_type* storage = field->is_dictionary ? &field->index_type : &field->type;
  const char* expected = arrow_json_format(storage);
  if (schema->format == NULL || strcmp(schema->format, expected) != 0) {
    return differ(c, "format is \"%s\", fixture has \"%s\"", schema->format ? schema->format : "(null)",
                  expected);
  }
  if (schema->name == NULL || strcmp(schema->name, field->name) != 0) {
    return differ(c, "name is \"%s\", fixture has \"%s\"", schema->name ? schema->name : "(null)",
                  field->name);
  }
  if (((schema->flags & ARROW_FLAG_NULLABLE) != 0) != field->nullable) {
    return differ(c, "ARROW_FLAG_NULLABLE is %s, fixture says nullable=%s",
                  (schema->flags & ARROW_FLAG_NULLABLE) ? "set" : "clear",
                  field->nullable ? "true" : "false");
  }
  if (schema->metadata != NULL) {
    /* Spec: "If omitted, this field MUST be NULL"; an empty map is still a
     * map, so only a zero pair count is tolerated. */
    int32_t pairs;
    memcpy(&pairs, schema->metadata, sizeof(pairs));
    if (pairs != 0) return differ(c, "metadata has %d pairs, fixture has none", (int)pairs);
  }
  if (field->is_dictionary) {
    if (schema->dictionary == NULL) return differ(c, "dictionary schema is NULL, fixture is dictionary-encoded");
    if (((schema->flags & ARROW_FLAG_DICTIONARY_ORDERED) != 0) != field->dictionary_ordered) {
      return differ(c, "ARROW_FLAG_DICTIONARY_ORDERED does not match isOrdered");
    }
    const char* values = arrow_json_format(&field->type);
    const struct ArrowSchema* dict = schema->dictionary;
    if (dict->format == NULL || strcmp(dict->format, values) != 0) {
      return differ(c, "dictionary format is \"%s\", fixture has \"%s\"",
                    dict->format ? dict->format : "(null)", values);
    }
    if (dict->n_children != 0) return differ(c, "dictionary schema has children");
  } else if (schema->dictionary != NULL) {
    return differ(c, "dictionary schema is set, fixture is not dictionary-encoded");
  }
  return compare_schema_children(c, field->children, field->n_children, schema);
}

int arrow_json_compare_schema(const struct arrow_json_file* file,
                              const struct ArrowSchema* schema, char* err, size_t err_size) {
  struct comparison c = {file, err, err_size, ""};
  if (schema->release == NULL) return differ(&c, "schema is released (release is NULL)");
  if (schema->format == NULL || strcmp(schema->format, "+s") != 0) {
    return differ(&c, "top-level format is \"%s\", a record batch is \"+s\"",
                  schema->format ? schema->format : "(null)");
  }
  return compare_schema_children(&c, file->fields, file->n_fields, schema);
}

/* ---- arrays ---- */

static bool bit_is_set(const void* bitmap, int64_t i) {
  return (((const uint8_t*)bitmap)[i >> 3] >> (i & 7)) & 1;
}

static int64_t read_int(const void* data, const struct arrow_json_type* type, int64_t i) {
  switch (type->bit_width) {
    case 8:
      return type->is_signed ? ((const int8_t*)data)[i] : ((const uint8_t*)data)[i];
    case 16:
      return type->is_signed ? ((const int16_t*)data)[i] : ((const uint16_t*)data)[i];
    case 32:
      return type->is_signed ? ((const int32_t*)data)[i] : (int64_t)((const uint32_t*)data)[i];
    default:
      return ((const int64_t*)data)[i];
  }
}

static int expect_shape(struct comparison* c, const struct ArrowArray* array, int64_t n_buffers,
                        int64_t n_children) {
  if (array->release == NULL) return differ(c, "array is released (release is NULL)");
  if (array->offset < 0) return differ(c, "offset is negative (%" PRId64 ")", array->offset);
  if (array->n_buffers != n_buffers) {
    return differ(c, "n_buffers is %" PRId64 ", the type has %" PRId64, array->n_buffers, n_buffers);
  }
  if (array->buffers == NULL) return differ(c, "buffers is NULL");
  if (array->n_children != n_children) {
    return differ(c, "n_children is %" PRId64 ", fixture has %" PRId64, array->n_children, n_children);
  }
  if (n_children > 0 && array->children == NULL) return differ(c, "children is NULL");
  return 0;
}

static int compare_validity(struct comparison* c, const struct ArrowArray* array,
                            const struct arrow_json_column* column) {
  const void* validity = array->buffers[0];
  int64_t nulls = 0;
  for (int64_t i = 0; i < column->length; i++) {
    bool valid = validity == NULL || bit_is_set(validity, array->offset + i);
    nulls += !valid;
    if (valid != (column->validity[i] != 0)) {
      return differ(c, "row %" PRId64 " is %s, fixture has it %s", i, valid ? "valid" : "null",
                    column->validity[i] ? "valid" : "null");
    }
  }
  if (validity == NULL && array->null_count != 0) {
    return differ(c, "validity buffer is NULL while null_count is %" PRId64 " (only allowed when it is 0)",
                  array->null_count);
  }
  if (array->null_count != -1 && array->null_count != nulls) {
    return differ(c, "null_count is %" PRId64 " but the validity bitmap has %" PRId64 " nulls",
                  array->null_count, nulls);
  }
  return 0;
}

static int compare_ints(struct comparison* c, const struct ArrowArray* array,
                        const struct arrow_json_column* column, const struct arrow_json_type* type) {
  if (expect_shape(c, array, 2, 0) != 0 || compare_validity(c, array, column) != 0) return -1;
  const void* data = array->buffers[1];
  if (data == NULL && column->length > 0) return differ(c, "data buffer is NULL");
  for (int64_t i = 0; i < column->length; i++) {
    if (!column->validity[i]) continue;
    int64_t got = read_int(data, type, array->offset + i);
    if (got != column->ints[i]) {
      return differ(c, "value at row %" PRId64 " is %" PRId64 ", fixture has %" PRId64, i, got,
                    column->ints[i]);
    }
  }
  return 0;
}

static int compare_utf8(struct comparison* c, const struct ArrowArray* array,
                        const struct arrow_json_column* column) {
  if (expect_shape(c, array, 3, 0) != 0 || compare_validity(c, array, column) != 0) return -1;
  const int32_t* offsets = array->buffers[1];
  const char* bytes = array->buffers[2];
  if (offsets == NULL && column->length > 0) return differ(c, "offsets buffer is NULL");
  for (int64_t i = 0; i < column->length; i++) {
    if (!column->validity[i]) continue;
    int32_t start = offsets[array->offset + i];
    int32_t end = offsets[array->offset + i + 1];
    int32_t want = column->offsets[i + 1] - column->offsets[i];
    if (end < start) return differ(c, "offsets decrease at row %" PRId64, i);
    if (end - start != want || (want > 0 && bytes == NULL) ||
        memcmp(bytes + start, column->bytes + column->offsets[i], (size_t)want) != 0) {
      return differ(c, "string at row %" PRId64 " is \"%.*s\", fixture has \"%.*s\"", i,
                    bytes ? (int)(end - start) : 0, bytes ? bytes + start : "", (int)want,
                    column->bytes + column->offsets[i]);
    }
  }
  return 0;
}

static int compare_values_node(struct comparison* c, const struct arrow_json_type* type,
                               const struct arrow_json_column* column,
                               const struct ArrowArray* array) {
  if (array->length != column->length) {
    return differ(c, "length is %" PRId64 ", fixture has %" PRId64, array->length, column->length);
  }
  if (type->kind == ARROW_JSON_UTF8) return compare_utf8(c, array, column);
  return compare_ints(c, array, column, type);
}

int arrow_json_compare_values(const struct arrow_json_type* type,
                              const struct arrow_json_column* column,
                              const struct ArrowArray* array, char* err, size_t err_size) {
  struct comparison c = {NULL, err, err_size, ""};
  return compare_values_node(&c, type, column, array);
}

/* A child of a sliced parent is read through a view carrying the parent's
 * offset and length; its own null_count then covers other rows, so the view
 * marks it unknown. */
static struct ArrowArray child_view(const struct ArrowArray* parent, const struct ArrowArray* child) {
  struct ArrowArray view = *child;
  if (parent->offset != 0 || child->length != parent->length) {
    view.offset += parent->offset;
    view.length = parent->length;
    if (view.null_count != 0) view.null_count = -1;
  }
  return view;
}

static int compare_node(struct comparison* c, const struct arrow_json_field* field,
                        const struct arrow_json_column* column, const struct ArrowArray* array);

/* A struct child sees its parent's rows shifted by the parent's offset. */
static int compare_struct(struct comparison* c, const struct arrow_json_field* field,
                          const struct arrow_json_column* column, const struct ArrowArray* array) {
  if (expect_shape(c, array, 1, field->n_children) != 0 || compare_validity(c, array, column) != 0) {
    return -1;
  }
  for (int64_t i = 0; i < field->n_children; i++) {
    const struct ArrowArray* child = array->children[i];
    if (child == NULL) return differ(c, "children[%" PRId64 "] is NULL", i);
    size_t mark = push_path(c, "child", field->children[i].name);
    if (child->length < array->offset + array->length) {
      return differ(c, "length %" PRId64 " is shorter than the parent's offset + length", child->length);
    }
    struct ArrowArray view = child_view(array, child);
    if (compare_node(c, &field->children[i], &column->children[i], &view) != 0) return -1;
    c->path[mark] = '\0';
  }
  return 0;
}

static int compare_node(struct comparison* c, const struct arrow_json_field* field,
                        const struct arrow_json_column* column, const struct ArrowArray* array) {
  if (array->release == NULL) return differ(c, "array is released (release is NULL)");
  if (array->length != column->length) {
    return differ(c, "length is %" PRId64 ", fixture has %" PRId64, array->length, column->length);
  }
  if (field->is_dictionary) {
    if (compare_ints(c, array, column, &field->index_type) != 0) return -1;
    if (array->dictionary == NULL) return differ(c, "dictionary is NULL, fixture is dictionary-encoded");
    const struct arrow_json_column* values = arrow_json_dictionary_values(c->file, field);
    size_t mark = strlen(c->path);
    snprintf(c->path + mark, sizeof(c->path) - mark, " > dictionary");
    if (compare_values_node(c, &field->type, values, array->dictionary) != 0) return -1;
    c->path[mark] = '\0';
    return 0;
  }
  if (array->dictionary != NULL) return differ(c, "dictionary is set, fixture is not dictionary-encoded");
  switch (field->type.kind) {
    case ARROW_JSON_INT:
      return compare_ints(c, array, column, &field->type);
    case ARROW_JSON_UTF8:
      return compare_utf8(c, array, column);
    case ARROW_JSON_STRUCT:
      return compare_struct(c, field, column, array);
  }
  return differ(c, "unknown type");
}

int arrow_json_compare_column(const struct arrow_json_file* file,
                              const struct arrow_json_field* field,
                              const struct arrow_json_column* column,
                              const struct ArrowArray* array, char* err, size_t err_size) {
  struct comparison c = {file, err, err_size, ""};
  push_path(&c, "column", field->name);
  return compare_node(&c, field, column, array);
}

int arrow_json_compare_batch(const struct arrow_json_file* file, int64_t batch_index,
                             const struct ArrowArray* array, char* err, size_t err_size) {
  struct comparison c = {file, err, err_size, ""};
  if (batch_index < 0 || batch_index >= file->n_batches) {
    return differ(&c, "the fixture has no batch %" PRId64, batch_index);
  }
  const struct arrow_json_batch* batch = &file->batches[batch_index];
  if (array->release == NULL) return differ(&c, "batch is released (release is NULL)");
  if (array->length != batch->length) {
    return differ(&c, "batch length is %" PRId64 ", fixture has %" PRId64, array->length, batch->length);
  }
  if (expect_shape(&c, array, 1, file->n_fields) != 0) return -1;
  if (array->null_count > 0) return differ(&c, "a record batch has no nulls, null_count is %" PRId64, array->null_count);
  for (int64_t i = 0; i < file->n_fields; i++) {
    const struct ArrowArray* child = array->children[i];
    if (child == NULL) return differ(&c, "children[%" PRId64 "] is NULL", i);
    size_t mark = push_path(&c, "column", file->fields[i].name);
    struct ArrowArray view = child_view(array, child);
    if (compare_node(&c, &file->fields[i], &batch->columns[i], &view) != 0) return -1;
    c.path[mark] = '\0';
  }
  return 0;
}
