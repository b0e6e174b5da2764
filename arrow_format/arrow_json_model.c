/* Small questions asked of a loaded fixture, and what the schema exporters
 * share (format, flags, metadata). */
#include <string.h>

#include "arrow_format/arrow_json.h"

const char* arrow_json_format(const struct arrow_json_type* type) {
  return type->format != NULL ? type->format : (type->row != NULL ? type->row->format : "");
}

const struct arrow_json_type* arrow_json_storage_type(const struct arrow_json_field* field) {
  return field->is_dictionary ? &field->index_type : &field->type;
}

int64_t arrow_json_field_flags(const struct arrow_json_field* field) {
  /* spec: ARROW_FLAG_NULLABLE: "whether this field is semantically nullable
   * (regardless of whether it actually has null values)" */
  int64_t flags = field->nullable ? ARROW_FLAG_NULLABLE : 0;
  /* spec: ARROW_FLAG_DICTIONARY_ORDERED: "for dictionary-encoded types,
   * whether the ordering of dictionary indices is semantically meaningful" */
  if (field->is_dictionary && field->dictionary_ordered) flags |= ARROW_FLAG_DICTIONARY_ORDERED;
  /* spec: ARROW_FLAG_MAP_KEYS_SORTED: "for map types, whether all the keys
   * within each map value are sorted"; the JSON's keysSorted says it. */
  if (field->type.kind == ARROW_JSON_MAP && field->type.map_keys_sorted) flags |= ARROW_FLAG_MAP_KEYS_SORTED;
  return flags;
}

size_t arrow_json_metadata_size(const struct arrow_json_metadata* metadata) {
  if (metadata->n_pairs == 0) return 0;
  size_t size = sizeof(int32_t);
  for (int64_t i = 0; i < metadata->n_pairs; i++) {
    size += 2 * sizeof(int32_t) + metadata->pairs[i].key_size + metadata->pairs[i].value_size;
  }
  return size;
}

static uint8_t* put_int32(uint8_t* out, size_t value) {
  int32_t value32 = (int32_t)value;
  memcpy(out, &value32, sizeof(value32));
  return out + sizeof(value32);
}

void arrow_json_metadata_encode(const struct arrow_json_metadata* metadata, void* out) {
  uint8_t* at = put_int32(out, (size_t)metadata->n_pairs);
  for (int64_t i = 0; i < metadata->n_pairs; i++) {
    const struct arrow_json_pair* pair = &metadata->pairs[i];
    at = put_int32(at, pair->key_size);
    memcpy(at, pair->key, pair->key_size);
    at = put_int32(at + pair->key_size, pair->value_size);
    memcpy(at, pair->value, pair->value_size);
    at += pair->value_size;
  }
}

void arrow_json_store_int(void* data, int bit_width, int64_t index, int64_t value) {
  switch (bit_width) {
    case 8:
      ((int8_t*)data)[index] = (int8_t)value;
      break;
    case 16:
      ((int16_t*)data)[index] = (int16_t)value;
      break;
    case 32:
      ((int32_t*)data)[index] = (int32_t)value;
      break;
    default:
      ((int64_t*)data)[index] = value;
      break;
  }
}

int64_t arrow_json_load_int(const void* data, int bit_width, bool is_signed, int64_t index) {
  switch (bit_width) {
    case 8:
      return is_signed ? ((const int8_t*)data)[index] : ((const uint8_t*)data)[index];
    case 16:
      return is_signed ? ((const int16_t*)data)[index] : ((const uint16_t*)data)[index];
    case 32:
      return is_signed ? ((const int32_t*)data)[index] : (int64_t)((const uint32_t*)data)[index];
    default:
      return ((const int64_t*)data)[index];
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

/* Whether a row of `column`, or of its children, is valid (`valid`) or
 * null.  A layout without a validity buffer has no row of its own to ask
 * (null: every row null; unions and run-end encoded: their children say). */
static bool column_has_row(const struct arrow_json_column* column, bool valid) {
  if (column->validity == NULL && column->null_count == column->length && column->length > 0 && !valid)
    return true;
  for (int64_t i = 0; column->validity != NULL && i < column->length; i++) {
    if ((column->validity[i] != 0) == valid) return true;
  }
  for (int64_t i = 0; i < column->n_children; i++) {
    if (column_has_row(&column->children[i], valid)) return true;
  }
  return false;
}

static bool file_has_row(const struct arrow_json_file* file, bool valid) {
  for (int64_t b = 0; b < file->n_batches; b++) {
    for (int64_t c = 0; c < file->n_fields; c++) {
      if (column_has_row(&file->batches[b].columns[c], valid)) return true;
    }
  }
  return false;
}

bool arrow_json_has_nulls(const struct arrow_json_file* file) {
  return file_has_row(file, false);
}

bool arrow_json_has_values(const struct arrow_json_file* file) {
  return file_has_row(file, true);
}

bool arrow_json_has_rows(const struct arrow_json_file* file) {
  for (int64_t b = 0; b < file->n_batches; b++) {
    if (file->n_fields > 0 && file->batches[b].length > 0) return true;
  }
  return false;
}

int64_t arrow_json_first_int32_column(const struct arrow_json_file* file) {
  for (int64_t c = 0; c < file->n_fields; c++) {
    const struct arrow_json_field* field = &file->fields[c];
    if (field->is_dictionary || field->type.kind != ARROW_JSON_INT || field->type.bit_width != 32 ||
        !field->type.is_signed) {
      continue;
    }
    for (int64_t b = 0; b < file->n_batches; b++) {
      if (file->batches[b].columns[c].length > 0) return c;
    }
  }
  return -1;
}

int64_t arrow_json_find_run(const void* run_ends, int bit_width, int64_t first, int64_t count,
                            int64_t position) {
  int64_t low = 0, high = count;
  while (low < high) {
    int64_t middle = low + (high - low) / 2;
    if (arrow_json_load_int(run_ends, bit_width, true, first + middle) > position) {
      high = middle;
    } else {
      low = middle + 1;
    }
  }
  return low < count ? low : -1;
}

bool arrow_json_row_valid(const struct arrow_json_column* column, int64_t row) {
  return column->validity == NULL || column->validity[row] != 0;
}

int64_t arrow_json_column_offset(const struct arrow_json_column* column, int64_t buffer, int offset_bytes,
                                 int64_t index) {
  return arrow_json_load_int(column->buffers[buffer].bytes, offset_bytes * 8, true, index);
}
