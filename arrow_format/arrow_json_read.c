/* Reading integration JSON files into the model of arrow_json.h.
 * Every error names the file and the place in it, so that a malformed
 * fixture produces one line a person can act on. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arrow_format/arrow_json_read_column.h"
#include "arrow_format/arrow_json_reader.h"

/* The file's bytes and a NUL after them.  With open() and read() rather
 * than stdio: a case's process reads its fixture a few times, and stdio's
 * buffer and code would be new memory to it each time. */
static char* read_whole_file(struct reader* r) {
  int fd = open(r->path, O_RDONLY | O_CLOEXEC);
  struct stat info;
  if (fd < 0 || fstat(fd, &info) != 0) {
    reader_fail(r, "cannot open fixture: %s", strerror(errno));
    if (fd >= 0) close(fd);
    return NULL;
  }
  /* Room for what fstat says, the NUL and one byte more, so that the read
   * that meets the end of file needs no bigger buffer; a file that grew in
   * between (or whose size fstat does not know) is read on. */
  size_t cap = info.st_size > 0 ? (size_t)info.st_size + 2 : 8192;
  size_t size = 0;
  char* text = malloc(cap);
  bool io_error = false;
  while (text != NULL) {
    if (size + 1 == cap) {
      char* grown = realloc(text, cap * 2);
      if (grown == NULL) free(text);
      text = grown;
      cap *= 2;
      continue;
    }
    ssize_t got = read(fd, text + size, cap - size - 1);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) {
      io_error = got < 0;
      break;
    }
    size += (size_t)got;
  }
  close(fd);
  if (text == NULL || io_error) {
    free(text);
    reader_fail(r, "cannot read fixture");
    return NULL;
  }
  text[size] = '\0';
  return text;
}

/* ---- types, through the type table (arrow_layout.h) ---- */

/* A parameter as the type table writes it: a number in decimal, a boolean
 * as true or false, a string in quotes; "" when it is something else. */
static void parameter_text(const cJSON* item, char* out, size_t size) {
  out[0] = '\0';
  if (cJSON_IsNumber(item)) snprintf(out, size, "%.17g", item->valuedouble);
  if (cJSON_IsBool(item)) snprintf(out, size, "%s", cJSON_IsTrue(item) ? "true" : "false");
  if (cJSON_IsString(item)) snprintf(out, size, "\"%s\"", item->valuestring);
}

static bool row_matches(const struct arrow_type_row* row, const cJSON* json) {
  for (int i = 0; i < 2 && row->match[i][0] != NULL; i++) {
    const cJSON* item = cJSON_GetObjectItemCaseSensitive(json, row->match[i][0]);
    char text[128];
    if (item != NULL) {
      parameter_text(item, text, sizeof(text));
    } else if (row->match_default[i] != NULL) {
      snprintf(text, sizeof(text), "%s", row->match_default[i]);
    } else {
      return false;
    }
    if (strcmp(text, row->match[i][1]) != 0) return false;
  }
  return true;
}

/* Appends the value of parameter `name` to `format` as a format string
 * writes it: integers in decimal, a list of them comma-separated, a string
 * as it is.  `optional` parameters may be absent (written as nothing). */
static int append_parameter(struct reader* r, const cJSON* json, const char* name, bool optional,
                            const char* where, char* format, size_t size) {
  const cJSON* item = cJSON_GetObjectItemCaseSensitive(json, name);
  size_t used = strlen(format);
  if (item == NULL || cJSON_IsNull(item)) {
    if (optional) return 0;
    return reader_fail(r, "%s: type \"%s\" needs \"%s\"", where,
                       cJSON_GetObjectItemCaseSensitive(json, "name")->valuestring, name);
  }
  if (cJSON_IsString(item)) {
    snprintf(format + used, size - used, "%s", item->valuestring);
  } else if (cJSON_IsArray(item)) {
    const cJSON* entry;
    const char* separator = "";
    cJSON_ArrayForEach(entry, item) {
      int64_t value;
      if (reader_int64(r, entry, where, &value) != 0) return -1;
      used = strlen(format);
      snprintf(format + used, size - used, "%s%" PRId64, separator, value);
      separator = ",";
    }
  } else {
    int64_t value;
    if (reader_int64(r, item, where, &value) != 0) return -1;
    snprintf(format + used, size - used, "%" PRId64, value);
  }
  return 0;
}

/* The row's format with its "{parameter}"s (and "{parameter?}"s, which
 * may be absent) filled in from `json`. */
static int fill_format(struct reader* r, const struct arrow_type_row* row, const cJSON* json,
                       const char* where, char* format, size_t size) {
  format[0] = '\0';
  for (const char* c = row->format; *c != '\0'; c++) {
    if (*c != '{') {
      size_t used = strlen(format);
      if (used + 1 < size) format[used] = *c, format[used + 1] = '\0';
      continue;
    }
    const char* end = strchr(c, '}');
    char name[64];
    size_t length = (size_t)(end - c - 1);
    bool optional = c[length] == '?';
    snprintf(name, sizeof(name), "%.*s", (int)(optional ? length - 1 : length), c + 1);
    if (append_parameter(r, json, name, optional, where, format, size) != 0) return -1;
    c = end;
  }
  return 0;
}

/* The integer parameter `name` of `json`, at least `minimum`. */
static int int_parameter(struct reader* r, const cJSON* json, const char* name, int64_t minimum,
                         const char* where, int64_t* out) {
  const cJSON* item = reader_require(r, json, name, where);
  if (item == NULL || reader_int64(r, item, where, out) != 0) return -1;
  if (*out < minimum)
    return reader_fail(r, "%s: \"%s\" is %" PRId64 ", below %" PRId64, where, name, *out, minimum);
  return 0;
}

/* The type's parameters that change its layout (widths, sizes, ids). */
static int read_parameters(struct reader* r, const cJSON* json, const char* where,
                           struct arrow_json_type* out) {
  int64_t value;
  if (out->row->value_bytes < 0) {
    if (int_parameter(r, json, "byteWidth", 1, where, &value) != 0) return -1;
    if (value > INT32_MAX) return reader_fail(r, "%s: byteWidth %" PRId64 " is too large", where, value);
    out->value_bytes = (int)value;
  }
  if (out->kind == ARROW_JSON_DECIMAL) {
    int64_t scale;
    if (int_parameter(r, json, "precision", 1, where, &value) != 0) return -1;
    if (int_parameter(r, json, "scale", INT32_MIN, where, &scale) != 0) return -1;
  }
  if (out->kind == ARROW_JSON_MAP) {
    const cJSON* sorted = cJSON_GetObjectItemCaseSensitive(json, "keysSorted");
    if (sorted != NULL && !cJSON_IsBool(sorted))
      return reader_fail(r, "%s: \"keysSorted\" is not a boolean", where);
    out->map_keys_sorted = cJSON_IsTrue(sorted);
  }
  if (out->kind == ARROW_JSON_FIXED_SIZE_LIST) {
    if (int_parameter(r, json, "listSize", 0, where, &out->list_size) != 0) return -1;
    if (out->list_size > INT32_MAX) return reader_fail(r, "%s: listSize is too large", where);
  }
  if (out->kind == ARROW_JSON_UNION) {
    const cJSON* ids = reader_require_array(r, json, "typeIds", -1, where);
    if (ids == NULL) return -1;
    out->n_type_ids = cJSON_GetArraySize(ids);
    out->type_ids = calloc((size_t)out->n_type_ids + 1, sizeof(int32_t));
    const cJSON* id = ids->child;
    for (int64_t i = 0; i < out->n_type_ids; i++, id = id->next) {
      if (reader_int64(r, id, where, &value) != 0) return -1;
      /* spec (Columnar.rst, "Union Layout"): type ids are 8-bit, 0 to 127. */
      if (value < 0 || value > 127)
        return reader_fail(r, "%s: union type id %" PRId64 " is not in 0..127", where, value);
      for (int64_t j = 0; j < i; j++) {
        if (out->type_ids[j] == value)
          return reader_fail(r, "%s: union type id %" PRId64 " appears twice", where, value);
      }
      out->type_ids[i] = (int32_t)value;
    }
  }
  return 0;
}

static void free_type(struct arrow_json_type* type) {
  free(type->format);
  free(type->type_ids);
}

static int read_type(struct reader* r, const cJSON* json, const char* where, struct arrow_json_type* out) {
  memset(out, 0, sizeof(*out));
  const cJSON* name = cJSON_GetObjectItemCaseSensitive(json, "name");
  if (!cJSON_IsString(name)) return reader_fail(r, "%s: type has no \"name\"", where);
  bool known_name = false;
  for (size_t i = 0; i < arrow_type_row_count; i++) {
    const struct arrow_type_row* row = &arrow_type_rows[i];
    if (strcmp(row->json_name, name->valuestring) != 0) continue;
    known_name = true;
    if (!row_matches(row, json)) continue;
    out->row = row;
    out->kind = row->kind;
    out->layout = row->layout;
    out->value_bytes = row->value_bytes;
    out->bit_width = row->bit_width;
    out->is_signed = row->is_signed;
    if (read_parameters(r, json, where, out) != 0) return -1;
    char format[1024];
    if (fill_format(r, row, json, where, format, sizeof(format)) != 0) return -1;
    out->format = strdup(format);
    return 0;
  }
  char* text = cJSON_PrintUnformatted(json);
  int status = known_name ? reader_fail(r, "%s: type %s has parameters this suite does not know", where, text)
                          : reader_fail(r, "%s: type \"%s\" is not a type of the integration JSON format",
                                        where, name->valuestring);
  cJSON_free(text);
  return status;
}

/* ---- metadata ---- */

static void free_metadata(struct arrow_json_metadata* metadata) {
  for (int64_t i = 0; i < metadata->n_pairs; i++) {
    free(metadata->pairs[i].key);
    free(metadata->pairs[i].value);
  }
  free(metadata->pairs);
  memset(metadata, 0, sizeof(*metadata));
}

/* "metadata": a list of {"key": ..., "value": ...} (absent, null or empty:
 * none). */
static int read_metadata(struct reader* r, const cJSON* object, const char* where,
                         struct arrow_json_metadata* out) {
  memset(out, 0, sizeof(*out));
  const cJSON* metadata = cJSON_GetObjectItemCaseSensitive(object, "metadata");
  if (metadata == NULL || cJSON_IsNull(metadata)) return 0;
  if (!cJSON_IsArray(metadata))
    return reader_fail(r, "%s: \"metadata\" is not a list of key/value pairs", where);
  out->pairs = calloc((size_t)cJSON_GetArraySize(metadata) + 1, sizeof(*out->pairs));
  const cJSON* pair;
  cJSON_ArrayForEach(pair, metadata) {
    const cJSON* key = cJSON_GetObjectItemCaseSensitive(pair, "key");
    const cJSON* value = cJSON_GetObjectItemCaseSensitive(pair, "value");
    if (!cJSON_IsString(key) || !cJSON_IsString(value)) {
      return reader_fail(r, "%s: a \"metadata\" entry needs a string \"key\" and a string \"value\"", where);
    }
    struct arrow_json_pair* out_pair = &out->pairs[out->n_pairs++];
    out_pair->key = strdup(key->valuestring);
    out_pair->value = strdup(value->valuestring);
    out_pair->key_size = strlen(key->valuestring);
    out_pair->value_size = strlen(value->valuestring);
  }
  return 0;
}

/* ---- fields ---- */

static void free_field(struct arrow_json_field* field) {
  for (int64_t i = 0; i < field->n_children; i++) free_field(&field->children[i]);
  free(field->children);
  free(field->name);
  free_type(&field->type);
  free_type(&field->index_type);
  free_metadata(&field->metadata);
}

/* The children a field of `type` must have: its layout's count, the union's
 * type ids; -1 for any number (struct). */
static int64_t children_required(const struct arrow_json_type* type) {
  if (type->kind == ARROW_JSON_UNION) return type->n_type_ids;
  return arrow_layout_of(type->layout)->n_children;
}

static int read_dictionary_encoding(struct reader* r, const cJSON* dictionary, const char* where,
                                    struct arrow_json_field* out) {
  out->is_dictionary = true;
  const cJSON* id = reader_require(r, dictionary, "id", where);
  const cJSON* index_type = id ? reader_require(r, dictionary, "indexType", where) : NULL;
  if (index_type == NULL) return -1;
  if (reader_int64(r, id, where, &out->dictionary_id) != 0) return -1;
  if (read_type(r, index_type, where, &out->index_type) != 0) return -1;
  /* spec (Columnar.rst, "Dictionary-encoded Layout"): the indices are
   * integers, signed or unsigned. */
  if (out->index_type.kind != ARROW_JSON_INT)
    return reader_fail(r, "%s: dictionary indexType must be an int", where);
  const cJSON* ordered = cJSON_GetObjectItemCaseSensitive(dictionary, "isOrdered");
  if (ordered != NULL && !cJSON_IsBool(ordered))
    return reader_fail(r, "%s: \"isOrdered\" is not a boolean", where);
  out->dictionary_ordered = cJSON_IsTrue(ordered);
  return 0;
}

static int read_field(struct reader* r, const cJSON* json, const char* parent, struct arrow_json_field* out) {
  memset(out, 0, sizeof(*out));
  char where[256];
  const cJSON* name = cJSON_GetObjectItemCaseSensitive(json, "name");
  if (!cJSON_IsString(name)) return reader_fail(r, "%s: field without a \"name\"", parent);
  snprintf(where, sizeof(where), "%s.%s", parent, name->valuestring);
  reader_drop_cut_character(where);
  out->name = strdup(name->valuestring);

  const cJSON* nullable = reader_require(r, json, "nullable", where);
  if (nullable == NULL) return -1;
  if (!cJSON_IsBool(nullable)) return reader_fail(r, "%s: \"nullable\" is not a boolean", where);
  out->nullable = cJSON_IsTrue(nullable);

  const cJSON* type = reader_require(r, json, "type", where);
  if (type == NULL || read_type(r, type, where, &out->type) != 0) return -1;
  if (read_metadata(r, json, where, &out->metadata) != 0) return -1;

  /* Archery leaves "children" out of some leaf fields: none, then. */
  const cJSON* children = cJSON_GetObjectItemCaseSensitive(json, "children");
  if (children != NULL && !cJSON_IsArray(children))
    return reader_fail(r, "%s: \"children\" is not an array", where);
  int n = children != NULL ? cJSON_GetArraySize(children) : 0;
  int64_t required = children_required(&out->type);
  if (required >= 0 && n != required) {
    return reader_fail(r, "%s: a %s field has %" PRId64 " children, this one %d", where,
                       out->type.row->json_name, required, n);
  }
  out->children = calloc((size_t)n + 1, sizeof(struct arrow_json_field));
  for (int i = 0; i < n; i++) {
    out->n_children = i + 1;
    if (read_field(r, cJSON_GetArrayItem(children, i), where, &out->children[i]) != 0) return -1;
  }
  if (out->type.kind == ARROW_JSON_RUN_END_ENCODED) {
    const struct arrow_json_type* run_ends = &out->children[0].type;
    /* spec (Integration.rst): run_ends is "either an int16, int32, or int64"
     * and non-nullable. */
    if (run_ends->kind != ARROW_JSON_INT || !run_ends->is_signed || run_ends->bit_width < 16 ||
        out->children[0].nullable || out->children[0].is_dictionary) {
      return reader_fail(r, "%s: run_ends must be a non-nullable int16, int32 or int64", where);
    }
  }
  if (out->type.kind == ARROW_JSON_MAP) {
    const struct arrow_json_field* entries = &out->children[0];
    if (entries->type.kind != ARROW_JSON_STRUCT || entries->n_children != 2 || entries->nullable) {
      return reader_fail(r, "%s: a map's child is a non-nullable struct of a key and a value", where);
    }
    if (entries->children[0].nullable) return reader_fail(r, "%s: a map's keys are not nullable", where);
  }

  const cJSON* dictionary = cJSON_GetObjectItemCaseSensitive(json, "dictionary");
  if (dictionary != NULL && read_dictionary_encoding(r, dictionary, where, out) != 0) return -1;
  return 0;
}

/* ---- batches and dictionaries ---- */

static const struct arrow_json_field* find_dictionary_field(const struct arrow_json_field* fields, int64_t n,
                                                            int64_t id) {
  for (int64_t i = 0; i < n; i++) {
    if (fields[i].is_dictionary && fields[i].dictionary_id == id) return &fields[i];
    const struct arrow_json_field* found =
        find_dictionary_field(fields[i].children, fields[i].n_children, id);
    if (found != NULL) return found;
  }
  return NULL;
}

static int read_dictionaries(struct reader* r, const cJSON* root, struct arrow_json_file* out) {
  const cJSON* dictionaries = cJSON_GetObjectItemCaseSensitive(root, "dictionaries");
  if (dictionaries == NULL) return 0;
  if (!cJSON_IsArray(dictionaries)) return reader_fail(r, "\"dictionaries\" is not an array");
  int n = cJSON_GetArraySize(dictionaries);
  out->dictionaries = calloc((size_t)n + 1, sizeof(struct arrow_json_dictionary));
  for (int i = 0; i < n; i++) {
    const cJSON* entry = cJSON_GetArrayItem(dictionaries, i);
    char where[64];
    snprintf(where, sizeof(where), "dictionaries[%d]", i);
    struct arrow_json_dictionary* dictionary = &out->dictionaries[i];
    out->n_dictionaries = i + 1;
    const cJSON* id = reader_require(r, entry, "id", where);
    if (id == NULL || reader_int64(r, id, where, &dictionary->id) != 0) return -1;
    for (int j = 0; j < i; j++) {
      if (out->dictionaries[j].id == dictionary->id) {
        return reader_fail(r, "%s: dictionary id %" PRId64 " appears twice", where, dictionary->id);
      }
    }
    const struct arrow_json_field* field = find_dictionary_field(out->fields, out->n_fields, dictionary->id);
    if (field == NULL)
      return reader_fail(r, "%s: no field uses dictionary id %" PRId64, where, dictionary->id);
    const cJSON* data = reader_require(r, entry, "data", where);
    if (data == NULL) return -1;
    /* Integration.rst draws "data" as a list while archery writes one
     * record batch object; accept both. */
    if (cJSON_IsArray(data)) data = cJSON_GetArrayItem(data, 0);
    const cJSON* columns = reader_require_array(r, data, "columns", 1, where);
    if (columns == NULL) return -1;
    /* The values, as a field of the value type (any value may be null). */
    struct arrow_json_field values_field = *field;
    values_field.nullable = true;
    values_field.is_dictionary = false;
    if (reader_column(r, cJSON_GetArrayItem(columns, 0), &values_field, &field->type, where, -1,
                      &dictionary->values) != 0) {
      return -1;
    }
  }
  return 0;
}

/* Checks the dictionary indices of `column` and of the columns below it
 * (of batch `batch`, or of a dictionary's values when negative). */
static int check_indices(struct reader* r, const struct arrow_json_file* file,
                         const struct arrow_json_field* field, const struct arrow_json_column* column,
                         int64_t batch) {
  if (field->is_dictionary) {
    const struct arrow_json_column* values = arrow_json_dictionary_values(file, field);
    if (values == NULL) {
      return reader_fail(
          r, "batch %" PRId64 ": field '%s' uses dictionary id %" PRId64 " which is not in \"dictionaries\"",
          batch, field->name, field->dictionary_id);
    }
    const struct arrow_json_type* index = &field->index_type;
    for (int64_t i = 0; i < column->length; i++) {
      if (!column->validity[i]) continue;
      int64_t at = arrow_json_load_int(column->buffers[1].bytes, index->bit_width, index->is_signed, i);
      if (at < 0 || at >= values->length) {
        return reader_fail(r,
                           "batch %" PRId64 ": field '%s' index %" PRId64 " is out of the dictionary's range",
                           batch, field->name, at);
      }
    }
  }
  for (int64_t i = 0; i < field->n_children && i < column->n_children; i++) {
    if (check_indices(r, file, &field->children[i], &column->children[i], batch) != 0) return -1;
  }
  return 0;
}

static int read_batches(struct reader* r, const cJSON* root, struct arrow_json_file* out) {
  const cJSON* batches = reader_require(r, root, "batches", "file");
  if (batches == NULL) return -1;
  if (!cJSON_IsArray(batches)) return reader_fail(r, "\"batches\" is not an array");
  int n = cJSON_GetArraySize(batches);
  out->batches = calloc((size_t)n + 1, sizeof(struct arrow_json_batch));
  const cJSON* batch = batches->child;
  for (int b = 0; b < n; b++, batch = batch->next) {
    char where[64];
    snprintf(where, sizeof(where), "batch %d", b);
    struct arrow_json_batch* target = &out->batches[b];
    out->n_batches = b + 1;
    target->columns = calloc((size_t)out->n_fields + 1, sizeof(struct arrow_json_column));
    const cJSON* count = reader_require(r, batch, "count", where);
    if (count == NULL || reader_int64(r, count, where, &target->length) != 0) return -1;
    /* reader_column takes a negative expected length for "any" (dictionaries). */
    if (target->length < 0) return reader_fail(r, "%s: count %" PRId64 " is negative", where, target->length);
    const cJSON* columns = reader_require_array(r, batch, "columns", out->n_fields, where);
    if (columns == NULL) return -1;
    const cJSON* column = columns->child;
    for (int64_t c = 0; c < out->n_fields; c++, column = column->next) {
      const struct arrow_json_field* field = &out->fields[c];
      if (reader_column(r, column, field, arrow_json_storage_type(field), where, target->length,
                        &target->columns[c]) != 0) {
        return -1;
      }
    }
  }
  return 0;
}

/* Parses the NUL-terminated `text` and reads it into `out`. */
static int read_parsed_text(struct reader* r, const char* text, struct arrow_json_file* out) {
  cJSON* root = cJSON_Parse(text);
  if (root == NULL) {
    /* The error pointer points into `text`, which the caller still holds. */
    const char* near = cJSON_GetErrorPtr();
    if (near == NULL) near = "";
    /* cJSON may stop inside a character: the quote starts at the next one. */
    for (int i = 0; i < 3 && reader_continues_character(*near); i++) near++;
    return reader_fail(r, "not valid JSON (near \"%.*s\")", reader_whole_characters(near, 20), near);
  }

  reader_keep_integer_literals(r, root, text);
  int status = -1;
  const cJSON* schema = reader_require(r, root, "schema", "file");
  const cJSON* fields = schema ? reader_require(r, schema, "fields", "schema") : NULL;
  if (fields == NULL) goto done;
  if (!cJSON_IsArray(fields)) {
    reader_fail(r, "schema \"fields\" is not an array");
    goto done;
  }
  if (read_metadata(r, schema, "schema", &out->metadata) != 0) goto done;
  out->fields = calloc((size_t)cJSON_GetArraySize(fields) + 1, sizeof(struct arrow_json_field));
  for (int64_t i = 0; i < cJSON_GetArraySize(fields); i++) {
    out->n_fields = i + 1;
    if (read_field(r, cJSON_GetArrayItem(fields, (int)i), "schema", &out->fields[i]) != 0) goto done;
  }
  if (read_dictionaries(r, root, out) != 0 || read_batches(r, root, out) != 0) goto done;
  for (int64_t d = 0; d < out->n_dictionaries; d++) {
    const struct arrow_json_field* field =
        find_dictionary_field(out->fields, out->n_fields, out->dictionaries[d].id);
    struct arrow_json_field values_field = *field;
    values_field.is_dictionary = false;
    if (check_indices(r, out, &values_field, &out->dictionaries[d].values, -1) != 0) goto done;
  }
  for (int64_t b = 0; b < out->n_batches; b++) {
    for (int64_t c = 0; c < out->n_fields; c++) {
      if (check_indices(r, out, &out->fields[c], &out->batches[b].columns[c], b) != 0) goto done;
    }
  }
  status = 0;
done:
  cJSON_Delete(root);
  free(r->literals);
  r->literals = NULL;
  r->n_literals = 0;
  return status;
}

int arrow_json_read_file(const char* path, struct arrow_json_file* out, char* err, size_t err_size) {
  struct reader r = {path, err, err_size, NULL, 0};
  memset(out, 0, sizeof(*out));
  char* text = read_whole_file(&r);
  if (text == NULL) return -1;
  int status = read_parsed_text(&r, text, out);
  free(text);
  if (status != 0) arrow_json_file_free(out);
  return status;
}

int arrow_json_read_text(const char* name, const char* text, size_t size, struct arrow_json_file* out,
                         char* err, size_t err_size) {
  struct reader r = {name, err, err_size, NULL, 0};
  memset(out, 0, sizeof(*out));
  /* cJSON reads up to a NUL: a copy that ends in one bounds it to `size`
   * bytes, as a file's contents are bounded. */
  char* copy = size < SIZE_MAX ? malloc(size + 1) : NULL;
  if (copy == NULL) return reader_fail(&r, "out of memory for a copy of the fixture");
  memcpy(copy, text, size);
  copy[size] = '\0';
  int status = read_parsed_text(&r, copy, out);
  free(copy);
  if (status != 0) arrow_json_file_free(out);
  return status;
}

void arrow_json_column_free(struct arrow_json_column* column) {
  for (int64_t i = 0; i < column->n_children; i++) arrow_json_column_free(&column->children[i]);
  free(column->children);
  free(column->validity);
  for (int64_t i = 0; i < column->n_buffers; i++) free(column->buffers[i].bytes);
  free(column->buffers);
  memset(column, 0, sizeof(*column));
}

void arrow_json_file_free(struct arrow_json_file* file) {
  for (int64_t b = 0; b < file->n_batches; b++) {
    for (int64_t c = 0; c < file->n_fields; c++) arrow_json_column_free(&file->batches[b].columns[c]);
    free(file->batches[b].columns);
  }
  for (int64_t d = 0; d < file->n_dictionaries; d++) arrow_json_column_free(&file->dictionaries[d].values);
  for (int64_t i = 0; i < file->n_fields; i++) free_field(&file->fields[i]);
  free_metadata(&file->metadata);
  free(file->batches);
  free(file->dictionaries);
  free(file->fields);
  memset(file, 0, sizeof(*file));
}
