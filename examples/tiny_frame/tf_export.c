/* Schemas and arrays out of tiny_frame's fields and columns. */
#include "tf_export.h"

#include <stdlib.h>
#include <string.h>

#include "tf_error.h"

/* ---- schemas ------------------------------------------------------------ */

/* What an exported ArrowSchema owns, through its private_data. */
struct schema_private {
  char* name;
  char* metadata;
  struct ArrowSchema* child_structs;   /* the children themselves */
  struct ArrowSchema** child_pointers; /* `children` points here */
};

static void release_schema(struct ArrowSchema* schema) {
  struct schema_private* private_data = schema->private_data;
  /* spec: "The release callback MUST walk all children structures
   * (including the optional dictionary) and call their own release
   * callbacks."  A child the consumer moved out is marked released and
   * left to its new owner. */
  for (int64_t i = 0; i < schema->n_children; i++) {
    struct ArrowSchema* child = schema->children[i];
    if (child->release != NULL) child->release(child);
  }
  free(private_data->name);
  free(private_data->metadata);
  free(private_data->child_structs);
  free(private_data->child_pointers);
  free(private_data);
  /* spec: "The release callback MUST mark the structure as released, by
   * setting its release member to NULL." */
  schema->release = NULL;
}

/* Builds into `out` (which the caller may release on failure: every
 * structure gets its release callback before anything else). */
static int build_schema(const struct tf_field* field, struct ArrowSchema* out) {
  memset(out, 0, sizeof(*out));
  struct schema_private* private_data = calloc(1, sizeof(*private_data));
  if (private_data == NULL) return tf_fail("tiny_frame is out of memory");
  out->format = tf_type_info(field->type)->format; /* a string literal: lives forever */
  out->flags = field->nullable ? ARROW_FLAG_NULLABLE : 0;
  out->private_data = private_data;
  out->release = release_schema;
  if (field->name != NULL) {
    if ((private_data->name = tf_copy_bytes(field->name, (int64_t)strlen(field->name))) == NULL) {
      return tf_fail("tiny_frame is out of memory");
    }
    out->name = private_data->name;
  }
  if (field->metadata != NULL) {
    if ((private_data->metadata = tf_copy_bytes(field->metadata, field->metadata_size)) == NULL) {
      return tf_fail("tiny_frame is out of memory");
    }
    out->metadata = private_data->metadata;
  }
  if (field->n_children == 0) return 0;
  private_data->child_structs = calloc((size_t)field->n_children, sizeof(struct ArrowSchema));
  private_data->child_pointers = calloc((size_t)field->n_children, sizeof(struct ArrowSchema*));
  if (private_data->child_structs == NULL || private_data->child_pointers == NULL) {
    return tf_fail("tiny_frame is out of memory");
  }
  for (int64_t i = 0; i < field->n_children; i++) {
    private_data->child_pointers[i] = &private_data->child_structs[i]; /* released until built */
  }
  out->n_children = field->n_children;
  out->children = private_data->child_pointers;
  for (int64_t i = 0; i < field->n_children; i++) {
    if (build_schema(&field->children[i], out->children[i]) != 0) return -1;
  }
  return 0;
}

int tf_export_schema(const struct tf_field* field, struct ArrowSchema* out) {
  struct ArrowSchema schema;
  if (build_schema(field, &schema) != 0) {
    if (schema.release != NULL) schema.release(&schema);
    return -1;
  }
  *out = schema; /* moved to the consumer's structure */
  return 0;
}

/* ---- arrays ------------------------------------------------------------- */

#define MAX_BUFFERS 3

/* What an exported ArrowArray owns, through its private_data. */
struct array_private {
  struct tf_buffer* references[MAX_BUFFERS]; /* one reference to each buffer exported */
  const void* pointers[MAX_BUFFERS];         /* `buffers` points here */
  struct ArrowArray* child_structs;
  struct ArrowArray** child_pointers;
};

static void release_array(struct ArrowArray* array) {
  struct array_private* private_data = array->private_data;
  for (int64_t i = 0; i < array->n_children; i++) {
    struct ArrowArray* child = array->children[i];
    if (child->release != NULL) child->release(child);
  }
  for (int i = 0; i < MAX_BUFFERS; i++) tf_buffer_unref(private_data->references[i]);
  free(private_data->child_structs);
  free(private_data->child_pointers);
  free(private_data);
  array->release = NULL;
}

/* Points buffer `index` of the export at `buffer` (NULL: absent) and
 * keeps a reference to it. */
static void share_buffer(struct array_private* private_data, int index, struct tf_buffer* buffer) {
  if (buffer == NULL) return;
  private_data->references[index] = tf_buffer_ref(buffer);
  private_data->pointers[index] = buffer->data;
}

static int build_array(const struct tf_column* column, struct ArrowArray* out) {
  memset(out, 0, sizeof(*out));
  struct array_private* private_data = calloc(1, sizeof(*private_data));
  if (private_data == NULL) return tf_fail("tiny_frame is out of memory");
  out->length = column->length;
  out->null_count = column->null_count;
  out->offset = 0;
  out->buffers = private_data->pointers;
  out->private_data = private_data;
  out->release = release_array;
  /* The layouts of the columnar format: a validity bitmap first, then
   * the values (bool, fixed width), offsets and bytes (string, binary),
   * or nothing more (struct). */
  share_buffer(private_data, 0, column->validity);
  switch (tf_type_info(column->type)->layout) {
    case TF_LAYOUT_BITS:
    case TF_LAYOUT_FIXED:
      out->n_buffers = 2;
      share_buffer(private_data, 1, column->values);
      break;
    case TF_LAYOUT_VARIABLE:
      out->n_buffers = 3;
      share_buffer(private_data, 1, column->offsets);
      share_buffer(private_data, 2, column->values);
      break;
    case TF_LAYOUT_STRUCT:
      out->n_buffers = 1;
      break;
  }
  if (column->n_children == 0) return 0;
  private_data->child_structs = calloc((size_t)column->n_children, sizeof(struct ArrowArray));
  private_data->child_pointers = calloc((size_t)column->n_children, sizeof(struct ArrowArray*));
  if (private_data->child_structs == NULL || private_data->child_pointers == NULL) {
    return tf_fail("tiny_frame is out of memory");
  }
  for (int64_t i = 0; i < column->n_children; i++) {
    private_data->child_pointers[i] = &private_data->child_structs[i];
  }
  out->n_children = column->n_children;
  out->children = private_data->child_pointers;
  for (int64_t i = 0; i < column->n_children; i++) {
    if (build_array(&column->children[i], out->children[i]) != 0) return -1;
  }
  return 0;
}

int tf_export_column(const struct tf_column* column, struct ArrowArray* out) {
  struct ArrowArray array;
  if (build_array(column, &array) != 0) {
    if (array.release != NULL) array.release(&array);
    return -1;
  }
  *out = array;
  return 0;
}

int tf_export_device_batch(const struct tf_batch* batch, struct ArrowDeviceArray* out) {
  struct ArrowDeviceArray device_array;
  /* spec: "These bytes MUST be zero'd out after initialization by the
   * producer" (reserved), and sync_event NULL: the data are ready. */
  memset(&device_array, 0, sizeof(device_array));
  if (tf_export_column(&batch->root, &device_array.array) != 0) return -1;
  device_array.device_type = batch->device.type;
  device_array.device_id = batch->device.id;
  *out = device_array;
  return 0;
}
