/* Exporting one batch of a fixture as an ArrowArray.
 *
 * The batch is a struct array whose children are the columns (spec: "Record
 * batches").  Each structure owns its buffers through `private_data` and
 * frees them in its release callback, which walks children and dictionary
 * first (spec: "Release callback semantics -- for producers").  No pointer
 * in a structure points into the structure itself, so the consumer may move
 * it (spec: "Moving an array").
 *
 * The export options of reference_core.h shape the output for consumer
 * tests; with all of them off this is a plain, conforming export. */
#include <string.h>
#include <sys/mman.h>

#include "release_log.h"

#define MAX_BUFFERS 3

struct array_private {
  void* buffers[MAX_BUFFERS];
  size_t mapped_size[MAX_BUFFERS]; /* non-zero: on pages of their own */
  struct ArrowArray* child_structs;
  struct ArrowArray** child_pointers;
  struct ArrowArray* dictionary_struct;
};

struct export_state {
  const struct arrow_json_file* file;
  const struct ref_export_options* options;
  bool corruption_pending;
};

static void free_array_payload(struct ArrowArray* array, struct array_private* payload) {
  for (int64_t i = 0; i < array->n_children; i++) {
    struct ArrowArray* child = array->children[i];
    if (child->release != NULL) child->release(child);
  }
  if (array->dictionary != NULL && array->dictionary->release != NULL) {
    array->dictionary->release(array->dictionary);
  }
  for (int i = 0; i < MAX_BUFFERS; i++) {
    if (payload->mapped_size[i] != 0) {
      ref_free_pages(payload->buffers[i], payload->mapped_size[i]);
    } else {
      ref_free(payload->buffers[i]);
    }
  }
  ref_free(payload->child_structs);
  ref_free(payload->child_pointers);
  ref_free(payload->dictionary_struct);
  ref_free(payload);
}

static void release_array(struct ArrowArray* array) {
  free_array_payload(array, array->private_data);
  array->release = NULL;
}

static void release_tracked_array(struct ArrowArray* array) {
  struct ref_release_record* record = array->private_data;
  struct array_private* payload = ref_release_record_enter(record, array);
  if (payload != NULL) free_array_payload(array, payload);
  ref_release_record_leave(record);
  array->release = NULL;
}

static void* new_buffer(struct export_state* state, struct array_private* payload, int index,
                        size_t size) {
  /* spec: buffers "MAY be null ... if the size in bytes of the corresponding
   * buffer would be 0". */
  if (size == 0) return NULL;
  if (state->options->read_only_buffers) {
    payload->buffers[index] = ref_alloc_pages(size, &payload->mapped_size[index]);
  } else {
    payload->buffers[index] = ref_alloc(size);
  }
  if (payload->buffers[index] != NULL) memset(payload->buffers[index], 0, size);
  return payload->buffers[index];
}

/* Once filled, buffers of a read-only export are sealed and listed in the log
 * so the harness can tell a consumer's write apart from any other fault. */
static void seal_buffers(struct export_state* state, struct array_private* payload) {
  for (int i = 0; i < MAX_BUFFERS; i++) {
    if (payload->mapped_size[i] == 0) continue;
    mprotect(payload->buffers[i], payload->mapped_size[i], PROT_READ);
    if (state->options->log != NULL) {
      ref_release_log_add_region(state->options->log, payload->buffers[i], payload->mapped_size[i]);
    }
  }
}

/* The validity bitmap (spec: "null bitmap buffer"), or NULL when every row is
 * valid, which the spec allows when null_count is 0. */
static int64_t fill_validity(struct export_state* state, struct array_private* payload,
                             const struct arrow_json_column* column, int64_t padding) {
  int64_t nulls = 0;
  for (int64_t i = 0; i < column->length; i++) nulls += !column->validity[i];
  if (nulls == 0) return 0;
  uint8_t* bitmap = new_buffer(state, payload, 0, (size_t)((padding + column->length + 7) / 8));
  for (int64_t i = 0; i < padding + column->length; i++) {
    bool valid = i < padding || column->validity[i - padding];
    if (valid) bitmap[i / 8] |= (uint8_t)(1u << (i % 8));
  }
  return nulls;
}

static void store_int(void* data, int bit_width, int64_t index, int64_t value) {
  switch (bit_width) {
    case 8: ((int8_t*)data)[index] = (int8_t)value; break;
    case 16: ((int16_t*)data)[index] = (int16_t)value; break;
    case 32: ((int32_t*)data)[index] = (int32_t)value; break;
    default: ((int64_t*)data)[index] = value; break;
  }
}

static void fill_ints(struct export_state* state, struct array_private* payload,
                      const struct arrow_json_type* type, const struct arrow_json_column* column,
                      int64_t padding) {
  int width = type->bit_width / 8;
  void* data = new_buffer(state, payload, 1, (size_t)((padding + column->length) * width));
  /* Padding rows hold a value no fixture uses, so a consumer that ignores
   * `offset` reads visibly wrong data. */
  for (int64_t i = 0; i < padding; i++) store_int(data, type->bit_width, i, 0x5A5A5A5A);
  for (int64_t i = 0; i < column->length; i++) {
    int64_t value = column->ints[i];
    if (state->corruption_pending && column->validity[i]) {
      value += 1;
      state->corruption_pending = false;
    }
    store_int(data, type->bit_width, padding + i, value);
  }
}

static void fill_utf8(struct export_state* state, struct array_private* payload,
                      const struct arrow_json_column* column) {
  int32_t* offsets = new_buffer(state, payload, 1, (size_t)(column->length + 1) * sizeof(int32_t));
  memcpy(offsets, column->offsets, (size_t)(column->length + 1) * sizeof(int32_t));
  char* bytes = new_buffer(state, payload, 2, (size_t)column->n_bytes);
  if (column->n_bytes > 0) memcpy(bytes, column->bytes, (size_t)column->n_bytes);
  if (state->corruption_pending) {
    for (int64_t i = 0; i < column->length; i++) {
      if (column->validity[i] && offsets[i + 1] > offsets[i]) {
        bytes[offsets[i]] ^= 0x20; /* flips the case of a letter */
        state->corruption_pending = false;
        break;
      }
    }
  }
}

static int export_node(struct export_state* state, const struct arrow_json_field* field,
                       const struct arrow_json_type* type, const struct arrow_json_column* column,
                       int64_t padding, struct ArrowArray* out,
                       struct ref_release_record* parent);

static int export_children(struct export_state* state, struct array_private* payload,
                           const struct arrow_json_field* fields,
                           const struct arrow_json_column* columns, int64_t n,
                           bool pad_int32_columns, struct ref_release_record* record) {
  if (n == 0) return 0;
  payload->child_structs = ref_calloc((size_t)n, sizeof(struct ArrowArray));
  payload->child_pointers = ref_calloc((size_t)n, sizeof(struct ArrowArray*));
  if (payload->child_structs == NULL || payload->child_pointers == NULL) return -1;
  for (int64_t i = 0; i < n; i++) {
    const struct arrow_json_field* field = &fields[i];
    const struct arrow_json_type* type = field->is_dictionary ? &field->index_type : &field->type;
    bool int32 = !field->is_dictionary && type->kind == ARROW_JSON_INT && type->bit_width == 32;
    int64_t padding = pad_int32_columns && int32 ? state->options->offset_padding : 0;
    payload->child_pointers[i] = &payload->child_structs[i];
    if (export_node(state, field, type, &columns[i], padding, &payload->child_structs[i], record) != 0) {
      return -1;
    }
  }
  return 0;
}

static int export_node(struct export_state* state, const struct arrow_json_field* field,
                       const struct arrow_json_type* type, const struct arrow_json_column* column,
                       int64_t padding, struct ArrowArray* out,
                       struct ref_release_record* parent) {
  struct array_private* payload = ref_calloc(1, sizeof(*payload));
  if (payload == NULL) return -1;
  int64_t n_children = type->kind == ARROW_JSON_STRUCT ? field->n_children : 0;
  *out = (struct ArrowArray){
      .length = column->length,
      .offset = padding,
      .n_buffers = type->kind == ARROW_JSON_UTF8 ? 3 : type->kind == ARROW_JSON_STRUCT ? 1 : 2,
      .n_children = n_children,
      .buffers = (const void**)payload->buffers,
      .release = release_array,
      .private_data = payload,
  };
  struct ref_release_record* record = NULL;
  if (state->options->log != NULL) {
    record = ref_release_log_add(state->options->log, payload, out, parent);
    out->private_data = record;
    out->release = release_tracked_array;
  }
  out->null_count = fill_validity(state, payload, column, padding);
  if (payload->buffers[0] != NULL && state->options->unknown_null_count) out->null_count = -1;

  if (type->kind == ARROW_JSON_INT) {
    /* A corrupted dictionary index could point outside the dictionary: alter
     * values, never indices. */
    bool pending = state->corruption_pending;
    bool is_index = field != NULL && field->is_dictionary;
    if (is_index) state->corruption_pending = false;
    fill_ints(state, payload, type, column, padding);
    if (is_index) state->corruption_pending = pending;
  }
  if (type->kind == ARROW_JSON_UTF8) fill_utf8(state, payload, column);
  if (type->kind == ARROW_JSON_STRUCT) {
    if (export_children(state, payload, field->children, column->children, n_children, false, record) != 0) {
      return -1;
    }
    out->children = payload->child_pointers;
  }
  seal_buffers(state, payload);

  if (field != NULL && field->is_dictionary) {
    /* spec: "the ArrowArray.dictionary points to the dictionary values array" */
    payload->dictionary_struct = ref_calloc(1, sizeof(struct ArrowArray));
    if (payload->dictionary_struct == NULL) return -1;
    struct arrow_json_field values_field = *field;
    values_field.is_dictionary = false;
    values_field.n_children = 0;
    if (export_node(state, &values_field, &field->type, arrow_json_dictionary_values(state->file, field),
                    0, payload->dictionary_struct, record) != 0) {
      return -1;
    }
    out->dictionary = payload->dictionary_struct;
  }
  return 0;
}

const char* ref_export_batch(const struct arrow_json_file* file, int64_t batch_index,
                             const struct ref_export_options* options, struct ArrowArray* out) {
  static const struct ref_export_options plain;
  if (batch_index < 0 || batch_index >= file->n_batches) return "the fixture has no such batch";
  if (options == NULL) options = &plain;
  struct export_state state = {file, options, options->corrupt_one_value};
  const struct arrow_json_batch* batch = &file->batches[batch_index];

  /* The batch itself: a struct with no validity buffer and one child per column. */
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
  struct ref_release_record* record = NULL;
  if (options->log != NULL) {
    record = ref_release_log_add(options->log, payload, NULL, NULL);
    array.private_data = record;
    array.release = release_tracked_array;
  }
  int status = export_children(&state, payload, file->fields, batch->columns, file->n_fields, true, record);
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
  const char* error = ref_export_batch(file, batch_index, NULL, &array);
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
