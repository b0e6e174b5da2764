/* tiny_frame's model of data: types, fields and columns.
 *
 * A column is always whole: its rows start at the first bit or element of
 * its buffers (it has no offset of its own), it knows its null count, and
 * a struct column's children have exactly its length.  Import brings
 * every Arrow array to that shape (tf_import.c), so that the rest of the
 * library never deals with offsets, slices or a null_count of -1. */
#ifndef TF_COLUMN_H
#define TF_COLUMN_H

#include <stdbool.h>
#include <stdint.h>

#include "tf_device.h"

/* The types tiny_frame has. */
enum tf_type {
  TF_BOOL,
  TF_INT8,
  TF_INT16,
  TF_INT32,
  TF_INT64,
  TF_UINT8,
  TF_UINT16,
  TF_UINT32,
  TF_UINT64,
  TF_FLOAT32,
  TF_FLOAT64,
  TF_STRING, /* UTF-8, int32 offsets */
  TF_BINARY, /* bytes, int32 offsets */
  TF_STRUCT,
};

/* How a type's values are laid out in its buffers. */
enum tf_layout {
  TF_LAYOUT_BITS,     /* one bit a value */
  TF_LAYOUT_FIXED,    /* `width` bytes a value */
  TF_LAYOUT_VARIABLE, /* int32 offsets, then the bytes */
  TF_LAYOUT_STRUCT,   /* no values: the children hold them */
};

struct tf_type_info {
  enum tf_type type;
  const char* format; /* its Arrow format string */
  const char* name;   /* for messages */
  enum tf_layout layout;
  int width; /* bytes a value, TF_LAYOUT_FIXED only */
};

/* The type whose Arrow format string is `format`; NULL where tiny_frame
 * has none. */
const struct tf_type_info* tf_type_from_format(const char* format);
const struct tf_type_info* tf_type_info(enum tf_type type);

/* What the schema says of a column: its name, type, nullability, the
 * Arrow metadata it carries (kept as the bytes it came as), and for a
 * struct its fields. */
struct tf_field {
  char* name; /* NULL where it had none */
  enum tf_type type;
  bool nullable;
  char* metadata; /* NULL, or `metadata_size` bytes of Arrow's metadata encoding */
  int64_t metadata_size;
  int64_t n_children;
  struct tf_field* children;
};

/* A NUL-terminated copy of `size` bytes (a field's name or metadata, which
 * may hold NULs), owned by the caller; NULL when out of memory. */
char* tf_copy_bytes(const char* bytes, int64_t size);

void tf_field_free(struct tf_field* field);

/* A column: `length` rows of one type.  `validity` is NULL where no row
 * is null (null_count 0); bit i of it is row i.  The buffers hold:
 *   bool:          values (bits)
 *   fixed width:   values
 *   string/binary: offsets (length + 1 int32, the first 0) and bytes
 *   struct:        nothing; `children` hold one column per field. */
struct tf_column {
  enum tf_type type;
  int64_t length;
  int64_t null_count;
  struct tf_buffer* validity;
  struct tf_buffer* offsets;
  struct tf_buffer* values;
  int64_t n_children;
  struct tf_column* children;
};

/* Drops the column's references to its buffers and frees its children. */
void tf_column_free(struct tf_column* column);

/* Bits, least significant first (the Arrow bitmap order). */
static inline bool tf_bit_get(const uint8_t* bits, int64_t i) {
  return (bits[i >> 3] >> (i & 7)) & 1;
}

static inline void tf_bit_set(uint8_t* bits, int64_t i) {
  bits[i >> 3] |= (uint8_t)(1u << (i & 7));
}

#endif /* TF_COLUMN_H */
