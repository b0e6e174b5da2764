/* The feed's batch export: one struct array per batch whose children are the
 * columns (spec: "Record batches").  Each buffer is staged on the host, then
 * placed on the feed's device with its allocate and copy_from_host
 * operations; the ArrowArray structures stay in CPU memory (spec: "Memory
 * management").  Every structure carries a record (feed_records.h). */
#include <stdlib.h>
#include <string.h>

#include "consumer_feed/feed_records.h"

#define MAX_BUFFERS 3

/* The payload of one exported ArrowArray. */
struct array_node {
  const struct adc_device* device;
  struct adc_device_queue* queue; /* writes its buffers late; NULL when none does */
  void* late_event;               /* the batch's sync_event, once recorded, when `queue` is set */
  bool protectable;               /* its buffers may be read-only */
  void* buffers[MAX_BUFFERS];     /* device memory */
  size_t sizes[MAX_BUFFERS];
  int64_t n_children;
  struct ArrowArray* child_structs;
  struct ArrowArray** children;
  struct ArrowArray* dictionary;
};

struct export_state {
  struct adc_feed* feed;
  const struct arrow_json_file* file;
  const struct adc_feed_layout* layout;
  bool alteration_pending;
  struct adc_error* error;
  struct adc_device_queue* queue; /* late writes go here; NULL when the layout has none */
  /* The nodes whose buffers the queue writes, to be told the batch's event. */
  struct array_node** late_nodes;
  size_t n_late_nodes;
};

/* spec: "The release callback MUST walk all children structures (including
 * the optional dictionary) and call their own release callbacks", skipping
 * those moved out (already released). */
static void free_node(struct array_node* node) {
  /* A consumer may release before the late writes have landed: they land
   * first.  Waiting on the batch's own event opens only its own hold, so
   * the batches exported after it stay unwritten until their consumer
   * synchronises; an export that failed before its event was recorded
   * flushes the whole queue. */
  if (node->late_event != NULL) {
    struct adc_error ignored;
    node->device->wait_event(node->device, node->late_event, &ignored);
  } else if (node->queue != NULL) {
    node->device->queue_finish(node->queue);
  }
  for (int64_t i = 0; i < node->n_children; i++) {
    if (node->children[i]->release != NULL) node->children[i]->release(node->children[i]);
  }
  if (node->dictionary != NULL && node->dictionary->release != NULL)
    node->dictionary->release(node->dictionary);
  for (int i = 0; i < MAX_BUFFERS; i++) {
    if (node->buffers[i] != NULL)
      node->device->free(node->device, node->buffers[i], node->sizes[i], node->protectable);
  }
  free(node->child_structs);
  free(node->children);
  free(node->dictionary);
  free(node);
}

static void release_array(struct ArrowArray* array) {
  struct feed_record* record = array->private_data;
  struct array_node* node = feed_record_enter(record, array);
  if (node != NULL) free_node(node);
  feed_record_leave(record);
  array->release = NULL;
}

static int out_of_memory(struct export_state* state) {
  return adc_fail(state->error, "out of host memory exporting a batch");
}

/* A new node of the export, on the feed's device; NULL when out of memory. */
static struct array_node* new_node(struct export_state* state) {
  struct array_node* node = calloc(1, sizeof(*node));
  if (node == NULL) return NULL;
  node->device = state->feed->device;
  node->queue = state->queue;
  node->protectable = state->layout->read_only_buffers;
  if (state->queue == NULL) return node;
  struct array_node** grown = realloc(state->late_nodes, (state->n_late_nodes + 1) * sizeof(*grown));
  if (grown == NULL) {
    free(node);
    return NULL;
  }
  state->late_nodes = grown;
  state->late_nodes[state->n_late_nodes++] = node;
  return node;
}

/* Fills buffer `index` with the not-yet-written pattern now and queues the
 * copy of its real bytes behind the layout's delay. */
static int place_late(struct export_state* state, struct array_node* node, int index, const void* host,
                      size_t size) {
  const struct adc_device* device = node->device;
  void* pattern = malloc(size);
  if (pattern == NULL) return out_of_memory(state);
  memset(pattern, ADC_FEED_NOT_YET_WRITTEN, size);
  int status = device->copy_from_host(device, node->buffers[index], pattern, size, state->error);
  free(pattern);
  if (status != 0) return -1;
  return device->queue_copy_from_host(node->queue, node->buffers[index], host, size, state->error);
}

/* Places `size` bytes staged at `host` on the device as buffer `index`.
 * spec: buffers "MAY be null ... if the size in bytes of the corresponding
 * buffer would be 0". */
static int place(struct export_state* state, struct array_node* node, int index, const void* host,
                 size_t size) {
  if (size == 0) return 0;
  const struct adc_device* device = node->device;
  bool read_only = state->layout->read_only_buffers;
  node->buffers[index] = device->allocate(device, size, read_only, state->error);
  if (node->buffers[index] == NULL) return -1;
  node->sizes[index] = size;
  if (node->queue != NULL) return place_late(state, node, index, host, size);
  if (device->copy_from_host(device, node->buffers[index], host, size, state->error) != 0) return -1;
  if (!read_only) return 0;
  if (device->protect_read_only == NULL) {
    return adc_fail(state->error, "device %s cannot make memory read-only", device->name);
  }
  if (device->protect_read_only(device, node->buffers[index], size, state->error) != 0) return -1;
  feed_region_add(state->feed, node->buffers[index], size);
  return 0;
}

/* The validity bitmap (spec: "null bitmap buffer"), left NULL when every row
 * is valid, which the spec allows when null_count is 0.  Padding rows are
 * valid.  Returns the null count, or -1. */
static int64_t place_validity(struct export_state* state, struct array_node* node,
                              const struct arrow_json_column* column, int64_t padding) {
  int64_t nulls = 0;
  for (int64_t i = 0; i < column->length; i++) nulls += !column->validity[i];
  if (nulls == 0) return 0;
  size_t size = (size_t)(padding + column->length + 7) / 8;
  uint8_t* bitmap = calloc(size, 1);
  if (bitmap == NULL) return out_of_memory(state);
  for (int64_t i = 0; i < padding + column->length; i++) {
    if (i < padding || column->validity[i - padding]) bitmap[i / 8] |= (uint8_t)(1u << (i % 8));
  }
  int status = place(state, node, 0, bitmap, size);
  free(bitmap);
  return status == 0 ? nulls : -1;
}

static int place_ints(struct export_state* state, struct array_node* node, const struct arrow_json_type* type,
                      const struct arrow_json_column* column, int64_t padding) {
  size_t size = (size_t)(padding + column->length) * (size_t)(type->bit_width / 8);
  void* data = calloc(size ? size : 1, 1);
  if (data == NULL) return out_of_memory(state);
  /* Padding rows hold a value no fixture uses, so a consumer that ignores
   * `offset` reads visibly wrong data. */
  for (int64_t i = 0; i < padding; i++) arrow_json_store_int(data, type->bit_width, i, 0x5A5A5A5A);
  for (int64_t i = 0; i < column->length; i++) {
    int64_t value = column->ints[i];
    if (state->alteration_pending && column->validity[i]) {
      value += 1;
      state->alteration_pending = false;
    }
    arrow_json_store_int(data, type->bit_width, padding + i, value);
  }
  int status = place(state, node, 1, data, size);
  free(data);
  return status;
}

static int place_utf8(struct export_state* state, struct array_node* node,
                      const struct arrow_json_column* column) {
  if (place(state, node, 1, column->offsets, (size_t)(column->length + 1) * sizeof(int32_t)) != 0) return -1;
  char* bytes = malloc(column->n_bytes ? (size_t)column->n_bytes : 1);
  if (bytes == NULL) return out_of_memory(state);
  if (column->n_bytes > 0) memcpy(bytes, column->bytes, (size_t)column->n_bytes);
  for (int64_t i = 0; state->alteration_pending && i < column->length; i++) {
    if (column->validity[i] && column->offsets[i + 1] > column->offsets[i]) {
      bytes[column->offsets[i]] ^= 0x20; /* flips the case of a letter */
      state->alteration_pending = false;
    }
  }
  int status = place(state, node, 2, bytes, (size_t)column->n_bytes);
  free(bytes);
  return status;
}

static int export_node(struct export_state* state, const struct arrow_json_field* field,
                       const struct arrow_json_type* type, const struct arrow_json_column* column,
                       int64_t padding, struct ArrowArray* out, struct feed_record* parent);

static int export_children(struct export_state* state, struct array_node* node,
                           const struct arrow_json_field* fields, const struct arrow_json_column* columns,
                           int64_t n, bool pad_int32_columns, struct feed_record* record) {
  if (n == 0) return 0;
  node->child_structs = calloc((size_t)n, sizeof(*node->child_structs));
  node->children = calloc((size_t)n, sizeof(*node->children));
  if (node->child_structs == NULL || node->children == NULL) return out_of_memory(state);
  node->n_children = n;
  for (int64_t i = 0; i < n; i++) {
    const struct arrow_json_field* field = &fields[i];
    const struct arrow_json_type* type = field->is_dictionary ? &field->index_type : &field->type;
    bool int32 = !field->is_dictionary && type->kind == ARROW_JSON_INT && type->bit_width == 32;
    int64_t padding = pad_int32_columns && int32 ? state->layout->offset_padding : 0;
    node->children[i] = &node->child_structs[i];
    if (export_node(state, field, type, &columns[i], padding, node->children[i], record) != 0) return -1;
  }
  return 0;
}

/* Exports one column (or, with `field` NULL, a dictionary's values). */
static int export_node(struct export_state* state, const struct arrow_json_field* field,
                       const struct arrow_json_type* type, const struct arrow_json_column* column,
                       int64_t padding, struct ArrowArray* out, struct feed_record* parent) {
  struct array_node* node = new_node(state);
  if (node == NULL) return out_of_memory(state);
  *out = (struct ArrowArray){
      .length = column->length,
      .offset = padding,
      .n_buffers = type->kind == ARROW_JSON_UTF8     ? 3
                   : type->kind == ARROW_JSON_STRUCT ? 1
                                                     : 2,
      .buffers = (const void**)node->buffers,
      .release = release_array,
      .private_data = feed_record_add(state->feed, node, out, parent),
  };
  struct feed_record* record = out->private_data;
  int64_t null_count = place_validity(state, node, column, padding);
  if (null_count < 0) return -1;
  out->null_count = node->buffers[0] != NULL && state->layout->unknown_null_count ? -1 : null_count;

  bool is_dictionary = field != NULL && field->is_dictionary;
  if (type->kind == ARROW_JSON_INT) {
    /* An altered dictionary index could point outside the dictionary: alter
     * values, never indices. */
    bool pending = state->alteration_pending;
    if (is_dictionary) state->alteration_pending = false;
    if (place_ints(state, node, type, column, padding) != 0) return -1;
    if (is_dictionary) state->alteration_pending = pending;
  }
  if (type->kind == ARROW_JSON_UTF8 && place_utf8(state, node, column) != 0) return -1;
  if (type->kind == ARROW_JSON_STRUCT) {
    if (export_children(state, node, field->children, column->children, field->n_children, false, record) !=
        0) {
      return -1;
    }
    out->n_children = node->n_children;
    out->children = node->children;
  }
  if (is_dictionary) {
    /* spec: "the ArrowArray.dictionary points to the dictionary values array" */
    node->dictionary = calloc(1, sizeof(*node->dictionary));
    if (node->dictionary == NULL) return out_of_memory(state);
    const struct arrow_json_column* values = arrow_json_dictionary_values(state->file, field);
    if (export_node(state, NULL, &field->type, values, 0, node->dictionary, record) != 0) return -1;
    out->dictionary = node->dictionary;
  }
  return 0;
}

/* The feed's queue, with a hold queued ahead of this export's writes. */
static int start_late_writes(struct export_state* state) {
  struct adc_feed* feed = state->feed;
  if (!adc_device_has_queue(feed->device)) {
    return adc_fail(state->error, "device %s has no queue to write data late with", feed->device->name);
  }
  if (feed->queue == NULL) feed->queue = feed->device->queue_new(feed->device, state->error);
  if (feed->queue == NULL) return -1;
  state->queue = feed->queue;
  return feed->device->queue_hold(feed->queue, state->layout->late_write_seconds, state->error);
}

struct adc_feed_layout feed_streamed_layout(int64_t batch, int64_t altered_batch, double late_write_seconds) {
  return (struct adc_feed_layout){.alter_one_value = batch == altered_batch,
                                  .late_write_seconds = late_write_seconds};
}

/* Exports the batch into `out` (see adc_feed_export_batch). */
static int export_batch(struct export_state* state, int64_t batch_index, struct ArrowDeviceArray* out);

int adc_feed_export_batch(struct adc_feed* feed, const struct arrow_json_file* file, int64_t batch_index,
                          const struct adc_feed_layout* layout, struct ArrowDeviceArray* out,
                          struct adc_error* error) {
  static const struct adc_feed_layout plain;
  if (batch_index < 0 || batch_index >= file->n_batches)
    return adc_fail(error, "the fixture has no such batch");
  struct export_state state = {
      feed, file, layout ? layout : &plain, layout && layout->alter_one_value, error, NULL, NULL, 0};
  int status = export_batch(&state, batch_index, out);
  free(state.late_nodes);
  return status;
}

static int export_batch(struct export_state* state, int64_t batch_index, struct ArrowDeviceArray* out) {
  struct adc_feed* feed = state->feed;
  if (state->layout->late_write_seconds > 0 && start_late_writes(state) != 0) return -1;
  const struct arrow_json_batch* batch = &state->file->batches[batch_index];

  /* The batch itself: a struct with no validity buffer and one child per column. */
  struct array_node* node = new_node(state);
  if (node == NULL) return out_of_memory(state);
  struct ArrowArray array = {
      .length = batch->length,
      .null_count = 0,
      .n_buffers = 1,
      .buffers = (const void**)node->buffers,
      .release = release_array,
      .private_data = feed_record_add(feed, node, NULL, NULL),
  };
  int status = export_children(state, node, state->file->fields, batch->columns, state->file->n_fields, true,
                               array.private_data);
  array.n_children = node->n_children;
  array.children = node->children;
  if (status != 0) {
    array.release(&array);
    return -1;
  }
  /* spec: the event completes once every late write queued above has. */
  void* sync_event = NULL;
  if (state->queue != NULL) {
    sync_event = feed->device->queue_record_event(state->queue, state->error);
    if (sync_event == NULL) {
      array.release(&array);
      return -1;
    }
    /* Each node's release waits for its batch's writes alone. */
    for (size_t i = 0; i < state->n_late_nodes; i++) state->late_nodes[i]->late_event = sync_event;
  }
  *out = (struct ArrowDeviceArray){
      .array = array,
      .device_id = feed->device->device_id,
      .device_type = feed->device->arrow_type,
      .sync_event = sync_event,
  };
  return 0;
}
