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

static const char out_of_memory[] = "out of memory";

/* The device and stream of one export, shared by all its structures. */
struct export_target {
  const struct ref_device* device;
  struct ref_stream* stream;
  atomic_int structures; /* structures not yet released, and the exporter while it builds */
};

/* What one structure owns, through its private_data. */
struct array_private {
  struct export_target* target; /* shared; one of its `structures` */
  int64_t n_buffers;
  void** buffers;                       /* device memory, as many as the layout has; `buffers` points here */
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
  for (int64_t i = 0; i < payload->n_buffers; i++) {
    if (payload->buffers[i] != NULL) target->device->free_buffer(target->stream, payload->buffers[i]);
  }
  ref_free(payload->buffers);
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

/* The model's buffers, as the layout table lays them out for the type
 * (spec: the buffer count and order are the type's, Columnar format), each
 * copied and placed on the device; NULL or a message. */
static const char* fill_buffers(struct array_private* payload, const struct arrow_json_column* column) {
  payload->buffers = ref_calloc((size_t)column->n_buffers + 1, sizeof(void*));
  if (payload->buffers == NULL) return out_of_memory;
  payload->n_buffers = column->n_buffers;
  for (int64_t i = 0; i < column->n_buffers; i++) {
    const struct arrow_json_buffer* buffer = &column->buffers[i];
    /* spec: the validity buffer "MAY be null ... if ArrowArray.null_count
     * is 0": the model has none then. */
    if (buffer->bytes == NULL) continue;
    void* host = new_host_buffer((size_t)buffer->size);
    if (host == NULL) return out_of_memory;
    if (buffer->size > 0) memcpy(host, buffer->bytes, (size_t)buffer->size);
    const char* error = place(payload, (int)i, host, (size_t)buffer->size);
    if (error != NULL) return error;
  }
  return NULL;
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
    const char* error =
        export_node(file, payload->target, field, arrow_json_storage_type(field), &columns[i], &structs[i]);
    if (error != NULL) return error;
  }
  return NULL;
}

/* Exports one column (or, with `type` a dictionary-encoded field's value
 * type, its dictionary's values) into `out`, zeroed by its parent; NULL or
 * a message.  Once `out` is written, a failure leaves it for the parent's
 * release to free with the rest. */
static const char* export_node(const struct arrow_json_file* file, struct export_target* target,
                               const struct arrow_json_field* field, const struct arrow_json_type* type,
                               const struct arrow_json_column* column, struct ArrowArray* out) {
  struct array_private* payload = new_payload(target);
  if (payload == NULL) return out_of_memory;
  bool indices = field->is_dictionary && type == &field->index_type;
  int64_t n_children = indices ? 0 : column->n_children;
  *out = (struct ArrowArray){
      .length = column->length,
      /* spec: offset "MUST be 0 or positive"; the buffers start at row 0 */
      .offset = 0,
      /* spec: null_count "MAY be -1 if not yet computed"; the exact count
       * costs nothing here, and saves the consumer counting. */
      .null_count = column->null_count,
      .n_buffers = column->n_buffers,
      .n_children = n_children,
      .release = release_array,
      .private_data = payload,
  };
  const char* error = fill_buffers(payload, column);
  out->buffers = (const void**)payload->buffers;
  if (error != NULL) return error;
  if (n_children > 0) {
    error = export_children(file, payload, field->children, column->children, n_children);
    out->children = payload->child_pointers;
    if (error != NULL) return error;
  }
  if (!indices) return NULL;
  /* spec: "the ArrowArray.dictionary points to the dictionary values array" */
  payload->dictionary_struct = ref_calloc(1, sizeof(struct ArrowArray));
  if (payload->dictionary_struct == NULL) return out_of_memory;
  out->dictionary = payload->dictionary_struct;
  return export_node(file, target, field, &field->type, arrow_json_dictionary_values(file, field),
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
  /* Its one buffer, the validity bitmap, is NULL: no row is null. */
  payload->buffers = ref_calloc(1, sizeof(void*));
  if (payload->buffers == NULL) {
    ref_free(payload);
    drop_target(target);
    return out_of_memory;
  }
  payload->n_buffers = 1;
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
