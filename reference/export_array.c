/* Exporting one batch of a fixture as an ArrowArray.
 *
 * The batch is a struct array whose children are the columns (spec: "Record
 * batches").  Each structure owns its buffers, children and dictionary
 * through `private_data` and frees them in its release callback (spec:
 * "Release callback semantics -- for producers").  No pointer in a structure
 * points into the structure itself, so a consumer may move it (spec: "Moving
 * an array").
 *
 * Buffers are built on the host and handed to the target device's upload
 * (reference_device.h); on the CPU that is the host buffer itself (spec:
 * "The values in the void** buffers (along with the buffers of any
 * children) are what is allocated on the device").  Every structure of one
 * export shares the device stream that fills its buffers, and the last
 * structure released closes it. */
#include <stdatomic.h>
#include <string.h>

#include "reference_core.h"
#include "reference_device.h"

#define MAX_BUFFERS 3

static const char out_of_memory[] = "out of memory";

/* The device and stream of one export, shared by all its structures. */
struct export_target {
  const struct ref_device* device;
  struct ref_stream* stream;
  atomic_int structures; /* structures not yet released, and the exporter while it builds */
};

/* What one structure owns, through its private_data. */
struct array_private {
  struct export_target* target;         /* shared; one of its `structures` */
  void* buffers[MAX_BUFFERS];           /* device memory; `buffers` points here */
  struct ArrowArray* child_structs;     /* the children themselves */
  struct ArrowArray** child_pointers;   /* `children` points here, each to one of child_structs */
  struct ArrowArray* dictionary_struct; /* `dictionary` points here */
};

/* The private data of one more structure of `target`'s export, zeroed; NULL
 * when out of memory. */
static struct array_private* new_payload(struct export_target* target) {
  struct array_private* payload = ref_calloc(1, sizeof(*payload));
  if (payload == NULL) return NULL;
  payload->target = target;
  atomic_fetch_add(&target->structures, 1);
  return payload;
}

/* A structure is gone: the last one closes the stream (which waits for any
 * work still queued on it). */
static void drop_target(struct export_target* target) {
  if (atomic_fetch_sub(&target->structures, 1) != 1) return;
  target->device->close_stream(target->stream);
  ref_free(target);
}

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
  struct export_target* target = payload->target;
  for (int i = 0; i < MAX_BUFFERS; i++) {
    if (payload->buffers[i] != NULL) target->device->free_buffer(target->stream, payload->buffers[i]);
  }
  ref_free(payload->child_structs);
  ref_free(payload->child_pointers);
  ref_free(payload->dictionary_struct);
  ref_free(payload);
  drop_target(target);
  /* spec: "The release callback MUST mark the structure as released, by
   * setting its release member to NULL." */
  array->release = NULL;
}

/* A zeroed host buffer of `size` bytes to fill (a valid pointer even for
 * 0 bytes, which place() frees), or NULL when out of memory. */
static void* new_host_buffer(size_t size) {
  return ref_calloc(1, size);
}

/* Hands the filled host buffer to the device as buffer `index` (spec:
 * "Memory management": only the buffers live on the device); NULL or a
 * message.  spec: buffers "MAY be null ... if the size in bytes of the
 * corresponding buffer would be 0". */
static const char* place(struct array_private* payload, int index, void* host, size_t size) {
  if (size == 0) {
    ref_free(host);
    return NULL;
  }
  struct export_target* target = payload->target;
  return target->device->upload(target->stream, host, size, &payload->buffers[index]);
}

/* The validity bitmap (spec: "null bitmap buffer"), left NULL when every row
 * is valid, which the spec allows when null_count is 0.  Sets `*null_count`;
 * NULL or a message. */
static const char* fill_validity(struct array_private* payload, const struct arrow_json_column* column,
                                 int64_t* null_count) {
  *null_count = 0;
  for (int64_t i = 0; i < column->length; i++) *null_count += !column->validity[i];
  if (*null_count == 0) return NULL;
  size_t size = (size_t)(column->length + 7) / 8;
  uint8_t* bitmap = new_host_buffer(size);
  if (bitmap == NULL) return out_of_memory;
  for (int64_t i = 0; i < column->length; i++) {
    if (column->validity[i]) bitmap[i / 8] |= (uint8_t)(1u << (i % 8));
  }
  return place(payload, 0, bitmap, size);
}

/* Fixed-width values, one per row (spec: Columnar format, "Fixed-size
 * Primitive Layout"); rows under a null hold 0.  NULL or a message. */
static const char* fill_ints(struct array_private* payload, const struct arrow_json_type* type,
                             const struct arrow_json_column* column) {
  size_t size = (size_t)column->length * (size_t)(type->bit_width / 8);
  void* data = new_host_buffer(size);
  if (data == NULL) return out_of_memory;
  for (int64_t i = 0; i < column->length; i++)
    arrow_json_store_int(data, type->bit_width, i, column->ints[i]);
  return place(payload, 1, data, size);
}

/* utf8: length + 1 int32 offsets, then the characters (spec: Columnar
 * format, "Variable-size Binary Layout").  NULL or a message. */
static const char* fill_utf8(struct array_private* payload, const struct arrow_json_column* column) {
  size_t offsets_size = (size_t)(column->length + 1) * sizeof(int32_t);
  void* offsets = new_host_buffer(offsets_size);
  if (offsets == NULL) return out_of_memory;
  memcpy(offsets, column->offsets, offsets_size);
  const char* error = place(payload, 1, offsets, offsets_size);
  if (error != NULL) return error;
  void* bytes = new_host_buffer((size_t)column->n_bytes);
  if (bytes == NULL) return out_of_memory;
  if (column->n_bytes > 0) memcpy(bytes, column->bytes, (size_t)column->n_bytes);
  return place(payload, 2, bytes, (size_t)column->n_bytes);
}

static const char* export_node(const struct arrow_json_file* file, struct export_target* target,
                               const struct arrow_json_field* field, const struct arrow_json_type* type,
                               const struct arrow_json_column* column, struct ArrowArray* out);

/* The `n` columns as children of `payload`'s structure; NULL or a message.
 * Every child pointer is set, to a zeroed structure, before the first child
 * is exported: should one fail, the parent's release walks zeroed children
 * (release NULL) and complete ones, never a NULL pointer. */
static const char* export_children(const struct arrow_json_file* file, struct array_private* payload,
                                   const struct arrow_json_field* fields,
                                   const struct arrow_json_column* columns, int64_t n) {
  if (n == 0) return NULL;
  struct ArrowArray* structs = ref_calloc((size_t)n, sizeof(struct ArrowArray));
  struct ArrowArray** pointers = ref_calloc((size_t)n, sizeof(struct ArrowArray*));
  if (structs == NULL || pointers == NULL) {
    ref_free(structs);
    ref_free(pointers);
    return out_of_memory;
  }
  for (int64_t i = 0; i < n; i++) pointers[i] = &structs[i];
  payload->child_structs = structs;
  payload->child_pointers = pointers;
  for (int64_t i = 0; i < n; i++) {
    const struct arrow_json_field* field = &fields[i];
    /* spec: a dictionary-encoded array holds the indices; the values are in
     * its dictionary. */
    const struct arrow_json_type* type = field->is_dictionary ? &field->index_type : &field->type;
    const char* error = export_node(file, payload->target, field, type, &columns[i], &structs[i]);
    if (error != NULL) return error;
  }
  return NULL;
}

/* Exports one column (or, with `field` NULL, a dictionary's values) into
 * `out`, zeroed by its parent; NULL or a message.  Once `out` is written, a
 * failure leaves it for the parent's release to free with the rest. */
static const char* export_node(const struct arrow_json_file* file, struct export_target* target,
                               const struct arrow_json_field* field, const struct arrow_json_type* type,
                               const struct arrow_json_column* column, struct ArrowArray* out) {
  struct array_private* payload = new_payload(target);
  if (payload == NULL) return out_of_memory;
  int64_t n_children = type->kind == ARROW_JSON_STRUCT ? field->n_children : 0;
  *out = (struct ArrowArray){
      .length = column->length,
      /* spec: offset "MUST be 0 or positive"; the buffers start at row 0 */
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
  /* spec: null_count "MAY be -1 if not yet computed"; the exact count costs
   * nothing here, and saves the consumer counting. */
  const char* error = fill_validity(payload, column, &out->null_count);
  if (error != NULL) return error;
  if (type->kind == ARROW_JSON_INT) error = fill_ints(payload, type, column);
  if (type->kind == ARROW_JSON_UTF8) error = fill_utf8(payload, column);
  if (type->kind == ARROW_JSON_STRUCT) {
    error = export_children(file, payload, field->children, column->children, n_children);
    out->children = payload->child_pointers;
  }
  if (error != NULL || field == NULL || !field->is_dictionary) return error;
  /* spec: "the ArrowArray.dictionary points to the dictionary values array" */
  payload->dictionary_struct = ref_calloc(1, sizeof(struct ArrowArray));
  if (payload->dictionary_struct == NULL) return out_of_memory;
  out->dictionary = payload->dictionary_struct;
  return export_node(file, target, NULL, &field->type, arrow_json_dictionary_values(file, field),
                     out->dictionary);
}

/* Batch `batch_index` with its buffers on `target`'s device. */
static const char* export_batch(const struct arrow_json_file* file, int64_t batch_index,
                                struct export_target* target, struct ArrowArray* out) {
  const struct arrow_json_batch* batch = &file->batches[batch_index];

  /* spec: "Record batches": a struct array with no validity buffer and one
   * child per column. */
  struct array_private* payload = new_payload(target);
  if (payload == NULL) return out_of_memory;
  struct ArrowArray array = {
      .length = batch->length,
      .null_count = 0,
      .n_buffers = 1,
      .n_children = file->n_fields,
      .buffers = (const void**)payload->buffers,
      .release = release_array,
      .private_data = payload,
  };
  const char* error = export_children(file, payload, file->fields, batch->columns, file->n_fields);
  array.children = payload->child_pointers;
  if (error != NULL) {
    array.release(&array); /* frees whatever part was built */
    return error;
  }
  *out = array;
  return NULL;
}

/* A target on `device_id` of `device`, with its stream open; NULL with the
 * reason in `*error`. */
static struct export_target* open_target(const struct ref_device* device, int64_t device_id,
                                         const char** error) {
  struct export_target* target = ref_calloc(1, sizeof(*target));
  if (target == NULL) {
    *error = out_of_memory;
    return NULL;
  }
  target->device = device;
  atomic_init(&target->structures, 1); /* the exporter's own hold, dropped once the export is done */
  *error = device->open_stream(device_id, &target->stream);
  if (*error != NULL) {
    ref_free(target);
    return NULL;
  }
  return target;
}

/* A plain ArrowArray is a batch on the CPU: the same export, through the
 * CPU device, whose buffers are the host buffers themselves. */
const char* ref_export_batch(const struct arrow_json_file* file, int64_t batch_index,
                             struct ArrowArray* out) {
  if (batch_index < 0 || batch_index >= file->n_batches) return "the fixture has no such batch";
  const char* error;
  struct export_target* target = open_target(&ref_device_cpu, -1, &error);
  if (target == NULL) return error;
  error = export_batch(file, batch_index, target, out);
  drop_target(target);
  return error;
}

const char* ref_export_device_batch(const struct arrow_json_file* file, int64_t batch_index,
                                    ArrowDeviceType device_type, int64_t device_id,
                                    struct ArrowDeviceArray* out) {
  if (batch_index < 0 || batch_index >= file->n_batches) return "the fixture has no such batch";
  const struct ref_device* device = ref_device_for(device_type);
  if (device == NULL) return "the reference producer does not serve this device type";
  const char* error;
  struct export_target* target = open_target(device, device_id, &error);
  if (target == NULL) return error;
  struct ArrowArray array;
  void* sync_event = NULL;
  error = export_batch(file, batch_index, target, &array);
  /* After the last upload, the device gives the event that covers them all
   * (spec: "If an event is provided, then the producer MUST ensure that the
   * exported data is available on the device before the event is
   * triggered"), or NULL where they are in place already. */
  if (error == NULL) {
    error = device->record_event(target->stream, &sync_event);
    if (error != NULL) array.release(&array);
  }
  drop_target(target); /* the export is done: its structures hold the target now */
  if (error != NULL) return error;
  /* spec: "These bytes MUST be zero'd out after initialization by the
   * producer"; a compound literal zeroes every member not named. */
  *out = (struct ArrowDeviceArray){
      .array = array,
      /* spec: "it is recommended to use a device_id of -1" on the CPU */
      .device_id = device_type == ARROW_DEVICE_CPU ? -1 : device_id,
      .device_type = device_type,
      .sync_event = sync_event,
  };
  return NULL;
}
