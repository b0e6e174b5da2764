/* Exporting one batch of a fixture as an ArrowArray.
 *
 * The batch is a struct array whose children are the columns (spec: "Record
 * batches").  Each structure owns its buffers, children and dictionary
 * through `private_data` and frees them in its release callback (spec:
 * "Release callback semantics -- for producers").  No pointer in a structure
 * points into the structure itself, so a consumer may move it (spec: "Moving
 * an array"). */
#include <string.h>

#include "reference_core.h"

#define MAX_BUFFERS 3

struct array_private {
  void* buffers[MAX_BUFFERS];
  struct ArrowArray* child_structs;
  struct ArrowArray** child_pointers;
  struct ArrowArray* dictionary_struct;
};

static void release_array(struct ArrowArray* array) {
  struct array_private* payload = array->private_data;
  /* spec: "The release callback MUST walk all children structures
   * (including the optional dictionary) and call their own release
   * callbacks."  A child the consumer moved out is already marked released
   * (spec: "Moving child arrays") and is left to its new owner. */
  for (int64_t i = 0; array->children != NULL && i < array->n_children; i++) {
    struct ArrowArray* child = array->children[i];
    if (child->release != NULL) child->release(child);
  }
  if (array->dictionary != NULL && array->dictionary->release != NULL) {
    array->dictionary->release(array->dictionary);
  }
  /* spec: "The release callback MUST free any data area directly owned by
   * the structure (such as the buffers and children members)." */
  for (int i = 0; i < MAX_BUFFERS; i++) ref_free(payload->buffers[i]);
  ref_free(payload->child_structs);
  ref_free(payload->child_pointers);
  ref_free(payload->dictionary_struct);
  ref_free(payload);
  /* spec: "The release callback MUST mark the structure as released, by
   * setting its release member to NULL." */
  array->release = NULL;
}

/* A zeroed buffer of `size` bytes, owned by `payload`.  spec: buffers "MAY be
 * null ... if the size in bytes of the corresponding buffer would be 0". */
static int new_buffer(struct array_private* payload, int index, size_t size, void** out) {
  *out = NULL;
  if (size == 0) return 0;
  payload->buffers[index] = ref_calloc(1, size);
  *out = payload->buffers[index];
  return *out == NULL ? -1 : 0;
}

/* The validity bitmap (spec: "null bitmap buffer"), left NULL when every row
 * is valid, which the spec allows when null_count is 0.  Returns the null
 * count, or -1. */
static int64_t fill_validity(struct array_private* payload, const struct arrow_json_column* column) {
  int64_t nulls = 0;
  for (int64_t i = 0; i < column->length; i++) nulls += !column->validity[i];
  if (nulls == 0) return 0;
  uint8_t* bitmap;
  if (new_buffer(payload, 0, (size_t)(column->length + 7) / 8, (void**)&bitmap) != 0) return -1;
  for (int64_t i = 0; i < column->length; i++) {
    if (column->validity[i]) bitmap[i / 8] |= (uint8_t)(1u << (i % 8));
  }
  return nulls;
}

/* Fixed-width values, one per row (spec: Columnar format, "Fixed-size
 * Primitive Layout"); rows under a null hold 0. */
static int fill_ints(struct array_private* payload, const struct arrow_json_type* type,
                     const struct arrow_json_column* column) {
  void* data;
  if (new_buffer(payload, 1, (size_t)column->length * (size_t)(type->bit_width / 8), &data) != 0) return -1;
  for (int64_t i = 0; i < column->length; i++)
    arrow_json_store_int(data, type->bit_width, i, column->ints[i]);
  return 0;
}

/* utf8: length + 1 int32 offsets, then the characters (spec: Columnar
 * format, "Variable-size Binary Layout"). */
static int fill_utf8(struct array_private* payload, const struct arrow_json_column* column) {
  void* offsets;
  void* bytes;
  size_t offsets_size = (size_t)(column->length + 1) * sizeof(int32_t);
  if (new_buffer(payload, 1, offsets_size, &offsets) != 0) return -1;
  memcpy(offsets, column->offsets, offsets_size);
  if (new_buffer(payload, 2, (size_t)column->n_bytes, &bytes) != 0) return -1;
  if (column->n_bytes > 0) memcpy(bytes, column->bytes, (size_t)column->n_bytes);
  return 0;
}

static int export_node(const struct arrow_json_file* file, const struct arrow_json_field* field,
                       const struct arrow_json_type* type, const struct arrow_json_column* column,
                       struct ArrowArray* out);

static int export_children(const struct arrow_json_file* file, struct array_private* payload,
                           const struct arrow_json_field* fields, const struct arrow_json_column* columns,
                           int64_t n) {
  if (n == 0) return 0;
  payload->child_structs = ref_calloc((size_t)n, sizeof(struct ArrowArray));
  payload->child_pointers = ref_calloc((size_t)n, sizeof(struct ArrowArray*));
  if (payload->child_structs == NULL || payload->child_pointers == NULL) return -1;
  for (int64_t i = 0; i < n; i++) {
    const struct arrow_json_field* field = &fields[i];
    /* spec: a dictionary-encoded array holds the indices; the values are in
     * its dictionary. */
    const struct arrow_json_type* type = field->is_dictionary ? &field->index_type : &field->type;
    payload->child_pointers[i] = &payload->child_structs[i];
    if (export_node(file, field, type, &columns[i], &payload->child_structs[i]) != 0) return -1;
  }
  return 0;
}

/* Exports one column (or, with `field` NULL, a dictionary's values). */
static int export_node(const struct arrow_json_file* file, const struct arrow_json_field* field,
                       const struct arrow_json_type* type, const struct arrow_json_column* column,
                       struct ArrowArray* out) {
  struct array_private* payload = ref_calloc(1, sizeof(*payload));
  if (payload == NULL) return -1;
  int64_t n_children = type->kind == ARROW_JSON_STRUCT ? field->n_children : 0;
  *out = (struct ArrowArray){
      .length = column->length,
      .offset = 0,
      /* spec: the buffer count is the type's (Columnar format): validity and
       * values for integers, validity, offsets and characters for utf8,
       * validity alone for a struct. */
      .n_buffers = type->kind == ARROW_JSON_UTF8     ? 3
                   : type->kind == ARROW_JSON_STRUCT ? 1
                                                     : 2,
      .n_children = n_children,
      .buffers = (const void**)payload->buffers,
      .release = release_array,
      .private_data = payload,
  };
  out->null_count = fill_validity(payload, column);
  if (out->null_count < 0) return -1;
  int status = 0;
  if (type->kind == ARROW_JSON_INT) status = fill_ints(payload, type, column);
  if (type->kind == ARROW_JSON_UTF8) status = fill_utf8(payload, column);
  if (type->kind == ARROW_JSON_STRUCT) {
    status = export_children(file, payload, field->children, column->children, n_children);
    out->children = payload->child_pointers;
  }
  if (status != 0 || field == NULL || !field->is_dictionary) return status;
  /* spec: "the ArrowArray.dictionary points to the dictionary values array" */
  payload->dictionary_struct = ref_calloc(1, sizeof(struct ArrowArray));
  if (payload->dictionary_struct == NULL) return -1;
  out->dictionary = payload->dictionary_struct;
  return export_node(file, NULL, &field->type, arrow_json_dictionary_values(file, field), out->dictionary);
}

const char* ref_export_batch(const struct arrow_json_file* file, int64_t batch_index,
                             struct ArrowArray* out) {
  if (batch_index < 0 || batch_index >= file->n_batches) return "the fixture has no such batch";
  const struct arrow_json_batch* batch = &file->batches[batch_index];

  /* spec: "Record batches": a struct array with no validity buffer and one
   * child per column. */
  struct array_private* payload = ref_calloc(1, sizeof(*payload));
  if (payload == NULL) return "out of memory";
  struct ArrowArray array = {
      .length = batch->length,
      .null_count = 0,
      .n_buffers = 1,
      .n_children = file->n_fields,
      .buffers = (const void**)payload->buffers,
      .release = release_array,
      .private_data = payload,
  };
  int status = export_children(file, payload, file->fields, batch->columns, file->n_fields);
  array.children = payload->child_pointers;
  if (status != 0) {
    array.release(&array);
    return "out of memory";
  }
  *out = array;
  return NULL;
}

const char* ref_export_device_batch(const struct arrow_json_file* file, int64_t batch_index,
                                    ArrowDeviceType device_type, int64_t device_id,
                                    struct ArrowDeviceArray* out) {
  (void)device_id;
  if (device_type != ARROW_DEVICE_CPU) return "the reference producer only exports to ARROW_DEVICE_CPU";
  struct ArrowArray array;
  const char* error = ref_export_batch(file, batch_index, &array);
  if (error != NULL) return error;
  /* spec: "These bytes MUST be zero'd out after initialization by the
   * producer"; a compound literal zeroes every member not named. */
  *out = (struct ArrowDeviceArray){
      .array = array,
      .device_id = -1, /* spec: "it is recommended to use a device_id of -1" */
      .device_type = ARROW_DEVICE_CPU,
      .sync_event = NULL, /* the CPU has no event type */
  };
  return NULL;
}
