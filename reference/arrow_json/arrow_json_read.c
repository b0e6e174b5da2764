/* Reading integration JSON files into the model of arrow_json.h.
 * Every error names the file and the place in it, so that a malformed
 * fixture produces one line a person can act on. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrow_json.h"

struct reader {
  const char* path;
  char* err;
  size_t err_size;
};

static int fail(struct reader* r, const char* fmt, ...) {
  int n = snprintf(r->err, r->err_size, "%s: ", r->path);
  if (n < 0 || (size_t)n >= r->err_size) return -1;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(r->err + n, r->err_size - (size_t)n, fmt, ap);
  va_end(ap);
  return -1;
}

static char* read_whole_file(struct reader* r) {
  FILE* f = fopen(r->path, "rb");
  if (f == NULL) {
    fail(r, "cannot open fixture: %s", strerror(errno));
    return NULL;
  }
  char* text = NULL;
  size_t size = 0;
  size_t cap = 0;
  for (;;) {
    if (size + 4096 + 1 > cap) {
      cap = cap ? cap * 2 : 8192;
      char* grown = realloc(text, cap);
      if (grown == NULL) break;
      text = grown;
    }
    size_t got = fread(text + size, 1, cap - size - 1, f);
    size += got;
    if (got == 0) break;
  }
  int io_error = ferror(f);
  fclose(f);
  if (text == NULL || io_error) {
    free(text);
    fail(r, "cannot read fixture");
    return NULL;
  }
  text[size] = '\0';
  return text;
}

static int get_int64(struct reader* r, const cJSON* item, const char* where, int64_t* out) {
  if (cJSON_IsNumber(item)) {
    double d = item->valuedouble;
    if (d != (double)(int64_t)d) return fail(r, "%s: %g is not an integer", where, d);
    *out = (int64_t)d;
    return 0;
  }
  if (cJSON_IsString(item)) {
    /* 64-bit values are written as strings to keep their precision. */
    const char* s = item->valuestring;
    char* end = NULL;
    errno = 0;
    if (s[0] == '-') {
      long long v = strtoll(s, &end, 10);
      *out = (int64_t)v;
    } else {
      unsigned long long v = strtoull(s, &end, 10);
      *out = (int64_t)v; /* uint64 values keep their bit pattern */
    }
    if (errno != 0 || end == s || *end != '\0') {
      return fail(r, "%s: \"%s\" is not an integer", where, s);
    }
    return 0;
  }
  return fail(r, "%s: expected an integer", where);
}

static const cJSON* require(struct reader* r, const cJSON* object, const char* key,
                            const char* where) {
  const cJSON* item = cJSON_GetObjectItemCaseSensitive(object, key);
  if (item == NULL) fail(r, "%s: missing \"%s\"", where, key);
  return item;
}

static int read_type(struct reader* r, const cJSON* json, const char* where,
                     struct arrow_json_type* out) {
  const cJSON* name = cJSON_GetObjectItemCaseSensitive(json, "name");
  if (!cJSON_IsString(name)) return fail(r, "%s: type has no \"name\"", where);
  if (strcmp(name->valuestring, "int") == 0) {
    const cJSON* width = cJSON_GetObjectItemCaseSensitive(json, "bitWidth");
    const cJSON* is_signed = cJSON_GetObjectItemCaseSensitive(json, "isSigned");
    if (!cJSON_IsNumber(width) || !cJSON_IsBool(is_signed)) {
      return fail(r, "%s: int type needs \"bitWidth\" and \"isSigned\"", where);
    }
    int w = width->valueint;
    if (w != 8 && w != 16 && w != 32 && w != 64) {
      return fail(r, "%s: unsupported bitWidth %d", where, w);
    }
    out->kind = ARROW_JSON_INT;
    out->bit_width = w;
    out->is_signed = cJSON_IsTrue(is_signed);
  } else if (strcmp(name->valuestring, "utf8") == 0) {
    out->kind = ARROW_JSON_UTF8;
  } else if (strcmp(name->valuestring, "struct") == 0) {
    out->kind = ARROW_JSON_STRUCT;
  } else {
    return fail(r, "%s: type \"%s\" is not supported by this suite (int, utf8, struct)",
                where, name->valuestring);
  }
  return 0;
}

static int reject_metadata(struct reader* r, const cJSON* object, const char* where) {
  const cJSON* metadata = cJSON_GetObjectItemCaseSensitive(object, "metadata");
  if (metadata == NULL || cJSON_IsNull(metadata)) return 0;
  if (cJSON_IsArray(metadata) && cJSON_GetArraySize(metadata) == 0) return 0;
  return fail(r, "%s: custom metadata is not supported by this suite", where);
}

static void free_field(struct arrow_json_field* field) {
  for (int64_t i = 0; i < field->n_children; i++) free_field(&field->children[i]);
  free(field->children);
  free(field->name);
}

static int read_field(struct reader* r, const cJSON* json, const char* parent,
                      struct arrow_json_field* out) {
  memset(out, 0, sizeof(*out));
  char where[256];
  const cJSON* name = cJSON_GetObjectItemCaseSensitive(json, "name");
  if (!cJSON_IsString(name)) return fail(r, "%s: field without a \"name\"", parent);
  snprintf(where, sizeof(where), "%s.%s", parent, name->valuestring);
  out->name = strdup(name->valuestring);

  const cJSON* nullable = require(r, json, "nullable", where);
  if (nullable == NULL) return -1;
  if (!cJSON_IsBool(nullable)) return fail(r, "%s: \"nullable\" is not a boolean", where);
  out->nullable = cJSON_IsTrue(nullable);

  const cJSON* type = require(r, json, "type", where);
  if (type == NULL || read_type(r, type, where, &out->type) != 0) return -1;
  if (reject_metadata(r, json, where) != 0) return -1;

  const cJSON* children = require(r, json, "children", where);
  if (children == NULL) return -1;
  if (!cJSON_IsArray(children)) return fail(r, "%s: \"children\" is not an array", where);
  int n = cJSON_GetArraySize(children);
  if (out->type.kind != ARROW_JSON_STRUCT && n != 0) {
    return fail(r, "%s: only struct fields may have children", where);
  }
  out->n_children = n;
  out->children = calloc((size_t)n + 1, sizeof(struct arrow_json_field));
  for (int i = 0; i < n; i++) {
    if (read_field(r, cJSON_GetArrayItem(children, i), where, &out->children[i]) != 0) {
      return -1;
    }
  }

  const cJSON* dictionary = cJSON_GetObjectItemCaseSensitive(json, "dictionary");
  if (dictionary != NULL) {
    if (out->type.kind == ARROW_JSON_STRUCT) {
      return fail(r, "%s: dictionaries of struct values are not supported", where);
    }
    out->is_dictionary = true;
    const cJSON* id = require(r, dictionary, "id", where);
    const cJSON* index_type = require(r, dictionary, "indexType", where);
    if (id == NULL || index_type == NULL) return -1;
    if (get_int64(r, id, where, &out->dictionary_id) != 0) return -1;
    if (read_type(r, index_type, where, &out->index_type) != 0) return -1;
    if (out->index_type.kind != ARROW_JSON_INT) {
      return fail(r, "%s: dictionary indexType must be an int", where);
    }
    out->dictionary_ordered = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(dictionary, "isOrdered"));
  }
  return 0;
}

static void free_column(struct arrow_json_column* column) {
  for (int64_t i = 0; i < column->n_children; i++) free_column(&column->children[i]);
  free(column->children);
  free(column->validity);
  free(column->ints);
  free(column->offsets);
  free(column->bytes);
}

static const cJSON* require_array(struct reader* r, const cJSON* json, const char* key,
                                  int64_t expected, const char* where) {
  const cJSON* item = require(r, json, key, where);
  if (item == NULL) return NULL;
  if (!cJSON_IsArray(item)) {
    fail(r, "%s: \"%s\" is not an array", where, key);
    return NULL;
  }
  if (cJSON_GetArraySize(item) != expected) {
    fail(r, "%s: \"%s\" has %d entries, expected %" PRId64, where, key,
         cJSON_GetArraySize(item), expected);
    return NULL;
  }
  return item;
}

static int check_int_range(struct reader* r, const struct arrow_json_type* type, int64_t v,
                           const char* where) {
  if (type->bit_width == 64) return 0;
  int64_t lo = type->is_signed ? -(INT64_C(1) << (type->bit_width - 1)) : 0;
  int64_t hi = type->is_signed ? (INT64_C(1) << (type->bit_width - 1)) - 1
                               : (INT64_C(1) << type->bit_width) - 1;
  if (v < lo || v > hi) {
    return fail(r, "%s: value %" PRId64 " does not fit in %sint%d", where, v,
                type->is_signed ? "" : "u", type->bit_width);
  }
  return 0;
}

static int read_ints(struct reader* r, const cJSON* data, const struct arrow_json_type* type,
                     struct arrow_json_column* out, const char* where) {
  out->ints = calloc((size_t)out->length + 1, sizeof(int64_t));
  for (int64_t i = 0; i < out->length; i++) {
    if (get_int64(r, cJSON_GetArrayItem(data, (int)i), where, &out->ints[i]) != 0) return -1;
    if (check_int_range(r, type, out->ints[i], where) != 0) return -1;
  }
  return 0;
}

static int read_utf8(struct reader* r, const cJSON* json, const cJSON* data,
                     struct arrow_json_column* out, const char* where) {
  const cJSON* offsets = require_array(r, json, "OFFSET", out->length + 1, where);
  if (offsets == NULL) return -1;
  out->offsets = calloc((size_t)out->length + 1, sizeof(int32_t));
  int64_t total = 0;
  for (int64_t i = 0; i < out->length; i++) {
    const cJSON* value = cJSON_GetArrayItem(data, (int)i);
    if (!cJSON_IsString(value)) return fail(r, "%s: DATA[%" PRId64 "] is not a string", where, i);
    total += (int64_t)strlen(value->valuestring);
  }
  out->bytes = malloc((size_t)total + 1);
  out->n_bytes = total;
  int64_t position = 0;
  for (int64_t i = 0; i <= out->length; i++) {
    int64_t declared;
    if (get_int64(r, cJSON_GetArrayItem(offsets, (int)i), where, &declared) != 0) return -1;
    if (declared != position) {
      return fail(r, "%s: OFFSET[%" PRId64 "] is %" PRId64 " but the strings before it add up to %" PRId64,
                  where, i, declared, position);
    }
    out->offsets[i] = (int32_t)position;
    if (i == out->length) break;
    const char* s = cJSON_GetArrayItem(data, (int)i)->valuestring;
    size_t len = strlen(s);
    memcpy(out->bytes + position, s, len);
    position += (int64_t)len;
  }
  return 0;
}

/* `type` is the physical type of the column: the index type for a
 * dictionary-encoded field, its own type otherwise. */
static int read_column(struct reader* r, const cJSON* json, const struct arrow_json_field* field,
                       const struct arrow_json_type* type, const char* parent,
                       int64_t expected_length, struct arrow_json_column* out) {
  memset(out, 0, sizeof(*out));
  char where[256];
  snprintf(where, sizeof(where), "%s column '%s'", parent, field->name);
  if (!cJSON_IsObject(json)) return fail(r, "%s: not an object", where);
  const cJSON* count = require(r, json, "count", where);
  if (count == NULL || get_int64(r, count, where, &out->length) != 0) return -1;
  if (expected_length >= 0 && out->length != expected_length) {
    return fail(r, "%s: count %" PRId64 " differs from its parent's %" PRId64, where,
                out->length, expected_length);
  }
  const cJSON* validity = require_array(r, json, "VALIDITY", out->length, where);
  if (validity == NULL) return -1;
  out->validity = calloc((size_t)out->length + 1, 1);
  for (int64_t i = 0; i < out->length; i++) {
    int64_t bit;
    if (get_int64(r, cJSON_GetArrayItem(validity, (int)i), where, &bit) != 0) return -1;
    if (bit != 0 && bit != 1) return fail(r, "%s: VALIDITY entries must be 0 or 1", where);
    if (bit == 0 && !field->nullable) {
      return fail(r, "%s: null at index %" PRId64 " in a non-nullable field", where, i);
    }
    out->validity[i] = (uint8_t)bit;
  }

  if (type->kind == ARROW_JSON_STRUCT) {
    const cJSON* children = require_array(r, json, "children", field->n_children, where);
    if (children == NULL) return -1;
    out->n_children = field->n_children;
    out->children = calloc((size_t)field->n_children + 1, sizeof(struct arrow_json_column));
    for (int64_t i = 0; i < field->n_children; i++) {
      const struct arrow_json_field* child = &field->children[i];
      const struct arrow_json_type* child_type = child->is_dictionary ? &child->index_type : &child->type;
      if (read_column(r, cJSON_GetArrayItem(children, (int)i), child, child_type, where,
                      out->length, &out->children[i]) != 0) {
        return -1;
      }
    }
    return 0;
  }
  const cJSON* data = require_array(r, json, "DATA", out->length, where);
  if (data == NULL) return -1;
  if (type->kind == ARROW_JSON_INT) return read_ints(r, data, type, out, where);
  return read_utf8(r, json, data, out, where);
}

static const struct arrow_json_field* find_dictionary_field(const struct arrow_json_field* fields,
                                                            int64_t n, int64_t id) {
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
  if (!cJSON_IsArray(dictionaries)) return fail(r, "\"dictionaries\" is not an array");
  int n = cJSON_GetArraySize(dictionaries);
  out->dictionaries = calloc((size_t)n + 1, sizeof(struct arrow_json_dictionary));
  for (int i = 0; i < n; i++) {
    const cJSON* entry = cJSON_GetArrayItem(dictionaries, i);
    char where[64];
    snprintf(where, sizeof(where), "dictionaries[%d]", i);
    struct arrow_json_dictionary* dictionary = &out->dictionaries[i];
    out->n_dictionaries = i + 1;
    const cJSON* id = require(r, entry, "id", where);
    if (id == NULL || get_int64(r, id, where, &dictionary->id) != 0) return -1;
    const struct arrow_json_field* field =
        find_dictionary_field(out->fields, out->n_fields, dictionary->id);
    if (field == NULL) return fail(r, "%s: no field uses dictionary id %" PRId64, where, dictionary->id);
    const cJSON* data = require(r, entry, "data", where);
    if (data == NULL) return -1;
    /* Integration.rst draws "data" as a list while archery writes one
     * record batch object; accept both. */
    if (cJSON_IsArray(data)) data = cJSON_GetArrayItem(data, 0);
    const cJSON* columns = require_array(r, data, "columns", 1, where);
    if (columns == NULL) return -1;
    struct arrow_json_field values_field = *field;
    values_field.nullable = true;
    if (read_column(r, cJSON_GetArrayItem(columns, 0), &values_field, &field->type, where, -1,
                    &dictionary->values) != 0) {
      return -1;
    }
  }
  return 0;
}

static int check_indices(struct reader* r, const struct arrow_json_file* file,
                         const struct arrow_json_field* field,
                         const struct arrow_json_column* column, const char* where) {
  if (field->is_dictionary) {
    const struct arrow_json_column* values = arrow_json_dictionary_values(file, field);
    if (values == NULL) {
      return fail(r, "%s: field '%s' uses dictionary id %" PRId64 " which is not in \"dictionaries\"",
                  where, field->name, field->dictionary_id);
    }
    for (int64_t i = 0; i < column->length; i++) {
      if (column->validity[i] && (column->ints[i] < 0 || column->ints[i] >= values->length)) {
        return fail(r, "%s: field '%s' index %" PRId64 " is out of the dictionary's range", where,
                    field->name, column->ints[i]);
      }
    }
  }
  for (int64_t i = 0; i < field->n_children; i++) {
    if (check_indices(r, file, &field->children[i], &column->children[i], where) != 0) return -1;
  }
  return 0;
}

static int read_batches(struct reader* r, const cJSON* root, struct arrow_json_file* out) {
  const cJSON* batches = require(r, root, "batches", "file");
  if (batches == NULL) return -1;
  if (!cJSON_IsArray(batches)) return fail(r, "\"batches\" is not an array");
  int n = cJSON_GetArraySize(batches);
  out->batches = calloc((size_t)n + 1, sizeof(struct arrow_json_batch));
  for (int b = 0; b < n; b++) {
    char where[64];
    snprintf(where, sizeof(where), "batch %d", b);
    const cJSON* batch = cJSON_GetArrayItem(batches, b);
    struct arrow_json_batch* target = &out->batches[b];
    out->n_batches = b + 1;
    target->columns = calloc((size_t)out->n_fields + 1, sizeof(struct arrow_json_column));
    const cJSON* count = require(r, batch, "count", where);
    if (count == NULL || get_int64(r, count, where, &target->length) != 0) return -1;
    const cJSON* columns = require_array(r, batch, "columns", out->n_fields, where);
    if (columns == NULL) return -1;
    for (int64_t c = 0; c < out->n_fields; c++) {
      const struct arrow_json_field* field = &out->fields[c];
      const struct arrow_json_type* type = field->is_dictionary ? &field->index_type : &field->type;
      if (read_column(r, cJSON_GetArrayItem(columns, (int)c), field, type, where, target->length,
                      &target->columns[c]) != 0) {
        return -1;
      }
    }
  }
  return 0;
}

int arrow_json_read_file(const char* path, struct arrow_json_file* out, char* err,
                         size_t err_size) {
  struct reader r = {path, err, err_size};
  memset(out, 0, sizeof(*out));
  char* text = read_whole_file(&r);
  if (text == NULL) return -1;
  cJSON* root = cJSON_Parse(text);
  if (root == NULL) {
    /* The error pointer points into `text`: report before freeing it. */
    const char* near = cJSON_GetErrorPtr();
    fail(&r, "not valid JSON (near \"%.20s\")", near ? near : "");
    free(text);
    return -1;
  }
  free(text);

  int status = -1;
  const cJSON* schema = require(&r, root, "schema", "file");
  const cJSON* fields = schema ? require(&r, schema, "fields", "schema") : NULL;
  if (fields == NULL) goto done;
  if (!cJSON_IsArray(fields)) {
    fail(&r, "schema \"fields\" is not an array");
    goto done;
  }
  if (reject_metadata(&r, schema, "schema") != 0) goto done;
  out->n_fields = cJSON_GetArraySize(fields);
  out->fields = calloc((size_t)out->n_fields + 1, sizeof(struct arrow_json_field));
  for (int64_t i = 0; i < out->n_fields; i++) {
    if (read_field(&r, cJSON_GetArrayItem(fields, (int)i), "schema", &out->fields[i]) != 0) goto done;
  }
  if (read_dictionaries(&r, root, out) != 0 || read_batches(&r, root, out) != 0) goto done;
  for (int64_t b = 0; b < out->n_batches; b++) {
    for (int64_t c = 0; c < out->n_fields; c++) {
      char where[64];
      snprintf(where, sizeof(where), "batch %" PRId64, b);
      if (check_indices(&r, out, &out->fields[c], &out->batches[b].columns[c], where) != 0) goto done;
    }
  }
  status = 0;
done:
  cJSON_Delete(root);
  if (status != 0) arrow_json_file_free(out);
  return status;
}

void arrow_json_file_free(struct arrow_json_file* file) {
  for (int64_t b = 0; b < file->n_batches; b++) {
    for (int64_t c = 0; c < file->n_fields; c++) free_column(&file->batches[b].columns[c]);
    free(file->batches[b].columns);
  }
  for (int64_t d = 0; d < file->n_dictionaries; d++) free_column(&file->dictionaries[d].values);
  for (int64_t i = 0; i < file->n_fields; i++) free_field(&file->fields[i]);
  free(file->batches);
  free(file->dictionaries);
  free(file->fields);
  memset(file, 0, sizeof(*file));
}
