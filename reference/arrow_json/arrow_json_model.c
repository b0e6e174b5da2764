/* Small questions asked of a loaded fixture. */
#include "arrow_json.h"

const char* arrow_json_format(const struct arrow_json_type* type) {
  switch (type->kind) {
    case ARROW_JSON_UTF8:
      return "u";
    case ARROW_JSON_STRUCT:
      return "+s";
    case ARROW_JSON_INT:
      break;
  }
  switch (type->bit_width) {
    case 8:
      return type->is_signed ? "c" : "C";
    case 16:
      return type->is_signed ? "s" : "S";
    case 32:
      return type->is_signed ? "i" : "I";
    default:
      return type->is_signed ? "l" : "L";
  }
}

const struct arrow_json_column* arrow_json_dictionary_values(const struct arrow_json_file* file,
                                                             const struct arrow_json_field* field) {
  for (int64_t i = 0; i < file->n_dictionaries; i++) {
    if (file->dictionaries[i].id == field->dictionary_id) return &file->dictionaries[i].values;
  }
  return NULL;
}

static bool field_has_dictionary(const struct arrow_json_field* field) {
  if (field->is_dictionary) return true;
  for (int64_t i = 0; i < field->n_children; i++) {
    if (field_has_dictionary(&field->children[i])) return true;
  }
  return false;
}

bool arrow_json_has_dictionary(const struct arrow_json_file* file) {
  for (int64_t i = 0; i < file->n_fields; i++) {
    if (field_has_dictionary(&file->fields[i])) return true;
  }
  return false;
}

static bool column_has_nulls(const struct arrow_json_column* column) {
  for (int64_t i = 0; i < column->length; i++) {
    if (!column->validity[i]) return true;
  }
  for (int64_t i = 0; i < column->n_children; i++) {
    if (column_has_nulls(&column->children[i])) return true;
  }
  return false;
}

bool arrow_json_has_nulls(const struct arrow_json_file* file) {
  for (int64_t b = 0; b < file->n_batches; b++) {
    for (int64_t c = 0; c < file->n_fields; c++) {
      if (column_has_nulls(&file->batches[b].columns[c])) return true;
    }
  }
  return false;
}

int64_t arrow_json_first_int32_column(const struct arrow_json_file* file) {
  for (int64_t c = 0; c < file->n_fields; c++) {
    const struct arrow_json_field* field = &file->fields[c];
    if (field->is_dictionary || field->type.kind != ARROW_JSON_INT || field->type.bit_width != 32) {
      continue;
    }
    for (int64_t b = 0; b < file->n_batches; b++) {
      if (file->batches[b].columns[c].length > 0) return c;
    }
  }
  return -1;
}
