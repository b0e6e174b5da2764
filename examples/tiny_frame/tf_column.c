#include "tf_column.h"

#include <stdlib.h>
#include <string.h>

/* One row per type, with its format string as the C Data Interface
 * spells it. */
static const struct tf_type_info types[] = {
    {TF_BOOL, "b", "bool", TF_LAYOUT_BITS, 0},         {TF_INT8, "c", "int8", TF_LAYOUT_FIXED, 1},
    {TF_INT16, "s", "int16", TF_LAYOUT_FIXED, 2},      {TF_INT32, "i", "int32", TF_LAYOUT_FIXED, 4},
    {TF_INT64, "l", "int64", TF_LAYOUT_FIXED, 8},      {TF_UINT8, "C", "uint8", TF_LAYOUT_FIXED, 1},
    {TF_UINT16, "S", "uint16", TF_LAYOUT_FIXED, 2},    {TF_UINT32, "I", "uint32", TF_LAYOUT_FIXED, 4},
    {TF_UINT64, "L", "uint64", TF_LAYOUT_FIXED, 8},    {TF_FLOAT32, "f", "float32", TF_LAYOUT_FIXED, 4},
    {TF_FLOAT64, "g", "float64", TF_LAYOUT_FIXED, 8},  {TF_STRING, "u", "string", TF_LAYOUT_VARIABLE, 0},
    {TF_BINARY, "z", "binary", TF_LAYOUT_VARIABLE, 0}, {TF_STRUCT, "+s", "struct", TF_LAYOUT_STRUCT, 0},
};

#define N_TYPES (sizeof(types) / sizeof(types[0]))

const struct tf_type_info* tf_type_from_format(const char* format) {
  for (size_t i = 0; format != NULL && i < N_TYPES; i++) {
    if (strcmp(types[i].format, format) == 0) return &types[i];
  }
  return NULL;
}

const struct tf_type_info* tf_type_info(enum tf_type type) {
  return &types[type];
}

void tf_field_free(struct tf_field* field) {
  for (int64_t i = 0; i < field->n_children; i++) tf_field_free(&field->children[i]);
  free(field->children);
  free(field->name);
  free(field->metadata);
  memset(field, 0, sizeof(*field));
}

void tf_column_free(struct tf_column* column) {
  for (int64_t i = 0; i < column->n_children; i++) tf_column_free(&column->children[i]);
  free(column->children);
  tf_buffer_unref(column->validity);
  tf_buffer_unref(column->offsets);
  tf_buffer_unref(column->values);
  memset(column, 0, sizeof(*column));
}

char* tf_copy_bytes(const char* bytes, int64_t size) {
  char* copy = malloc((size_t)size + 1);
  if (copy == NULL) return NULL;
  memcpy(copy, bytes, (size_t)size);
  copy[size] = '\0';
  return copy;
}
