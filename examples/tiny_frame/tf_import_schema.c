/* An ArrowSchema into tiny_frame's fields: only the types tiny_frame
 * has; anything else is refused by name. */
#include <stdlib.h>
#include <string.h>

#include "tf_error.h"
#include "tf_import.h"

static int32_t read_int32(const char* bytes) {
  int32_t value;
  memcpy(&value, bytes, sizeof(value));
  return value;
}

/* The size of Arrow's metadata encoding: an int32 count of pairs, then
 * for each an int32 length and the key's bytes, an int32 length and the
 * value's bytes (C Data Interface, "metadata").  -1 where a count is
 * negative. */
static int64_t metadata_size(const char* metadata) {
  int32_t pairs = read_int32(metadata);
  if (pairs < 0) return -1;
  int64_t size = 4;
  for (int32_t i = 0; i < 2 * pairs; i++) { /* a key, then its value */
    int32_t length = read_int32(metadata + size);
    if (length < 0) return -1;
    size += 4 + length;
  }
  return size;
}

int tf_field_from_schema(const struct ArrowSchema* schema, struct tf_field* out) {
  memset(out, 0, sizeof(*out));
  const char* name = schema->name != NULL ? schema->name : "";
  if (schema->format == NULL) return tf_fail("field '%s' has no format", name);
  const struct tf_type_info* type = tf_type_from_format(schema->format);
  if (type == NULL)
    return tf_fail("tiny_frame does not support format '%s' (field '%s')", schema->format, name);
  if (schema->dictionary != NULL) {
    return tf_fail("tiny_frame does not support dictionary-encoded fields (field '%s')", name);
  }
  int64_t expected_children = type->layout == TF_LAYOUT_STRUCT ? schema->n_children : 0;
  if (schema->n_children < 0 || schema->n_children != expected_children ||
      (schema->n_children > 0 && schema->children == NULL)) {
    return tf_fail("field '%s' (%s) has %lld children", name, type->name, (long long)schema->n_children);
  }
  out->type = type->type;
  out->nullable = (schema->flags & ARROW_FLAG_NULLABLE) != 0;
  if (schema->name != NULL &&
      (out->name = tf_copy_bytes(schema->name, (int64_t)strlen(schema->name))) == NULL) {
    return tf_fail("tiny_frame is out of memory");
  }
  if (schema->metadata != NULL) {
    out->metadata_size = metadata_size(schema->metadata);
    if (out->metadata_size < 0) return tf_fail("field '%s' has metadata with a negative length", name);
    if ((out->metadata = tf_copy_bytes(schema->metadata, out->metadata_size)) == NULL) {
      return tf_fail("tiny_frame is out of memory");
    }
  }
  if (schema->n_children > 0) {
    out->children = calloc((size_t)schema->n_children, sizeof(*out->children));
    if (out->children == NULL) return tf_fail("tiny_frame is out of memory");
    out->n_children = schema->n_children;
  }
  for (int64_t i = 0; i < schema->n_children; i++) {
    if (schema->children[i] == NULL) return tf_fail("field '%s' has a NULL child %lld", name, (long long)i);
    if (tf_field_from_schema(schema->children[i], &out->children[i]) != 0) return -1;
  }
  return 0;
}
