/* The feed's batch export: one struct array per batch whose children are the
 * columns (spec: "Record batches").  Each buffer is staged on the host, then
 * placed on the feed's device with its allocate and copy_from_host
 * operations; the ArrowArray structures stay in CPU memory (spec: "Memory
 * management").  Every structure carries a record (feed_records.h). */
#include <stdlib.h>
#include <string.h>

#include "consumer_feed/feed_batch.h"
#include "consumer_feed/feed_records.h"
#include "consumer_feed/feed_structure.h"
#include "consumer_feed/feed_watch.h"

/* The payload of one exported ArrowArray. */
struct array_node {
  const struct adc_device* device;
  struct adc_device_queue* queue; /* writes its buffers late; NULL when none does */
  void* late_event;               /* the batch's sync_event, once recorded, when `queue` is set */
  bool protectable;               /* its buffers may be read-only */
  bool watched;                   /* its buffers belong to the feed's watch (feed_watch.c) */
  int64_t n_buffers;
  void** buffers; /* device memory, as many as the layout has */
  size_t* sizes;
  int64_t n_children;
  struct ArrowArray* child_structs;
  struct ArrowArray** children;
  struct ArrowArray* dictionary;
};

struct export_state {
  struct adc_feed* feed;
  const struct arrow_json_file* file;
  const struct adc_feed_layout* layout;
  struct arrow_json_dictionary* dictionaries; /* the file's, or altered copies of them */
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
    adc_device_wait_event(node->device, node->late_event, &ignored);
  } else if (node->queue != NULL) {
    node->device->driver->queue->finish(node->queue);
  }
  for (int64_t i = 0; i < node->n_children; i++) {
    if (node->children[i]->release != NULL) node->children[i]->release(node->children[i]);
  }
  if (node->dictionary != NULL && node->dictionary->release != NULL)
    node->dictionary->release(node->dictionary);
  for (int64_t i = 0; i < node->n_buffers && !node->watched; i++) {
    if (node->buffers[i] != NULL)
      adc_device_free(node->device, node->buffers[i], node->sizes[i], node->protectable);
  }
  free(node->buffers);
  free(node->sizes);
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

/* A new node of the export with room for `n_buffers`, on the feed's
 * device; NULL when out of memory. */
static struct array_node* new_node(struct export_state* state, int64_t n_buffers) {
  struct array_node* node = calloc(1, sizeof(*node));
  if (node == NULL) return NULL;
  node->buffers = calloc((size_t)n_buffers + 1, sizeof(*node->buffers));
  node->sizes = calloc((size_t)n_buffers + 1, sizeof(*node->sizes));
  node->n_buffers = n_buffers;
  if (node->buffers == NULL || node->sizes == NULL) {
    free(node->buffers);
    free(node->sizes);
    free(node);
    return NULL;
  }
  node->device = state->feed->device;
  node->queue = state->queue;
  node->protectable = state->layout->read_only_buffers;
  node->watched = state->layout->watch_buffers;
  if (state->queue == NULL) return node;
  struct array_node** grown = realloc(state->late_nodes, (state->n_late_nodes + 1) * sizeof(*grown));
  if (grown == NULL) {
    free(node->buffers);
    free(node->sizes);
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
  int status = adc_device_copy_from_host(device, node->buffers[index], pattern, size, state->error);
  free(pattern);
  if (status != 0) return -1;
  return device->driver->queue->copy_from_host(node->queue, node->buffers[index], host, size, state->error);
}

/* Places `size` bytes staged at `host` on the device as buffer `index`.
 * spec: buffers "MAY be null ... if the size in bytes of the corresponding
 * buffer would be 0". */
static int place(struct export_state* state, struct array_node* node, int index, const void* host,
                 size_t size) {
  if (size == 0) return 0;
  const struct adc_device* device = node->device;
  bool read_only = state->layout->read_only_buffers;
  node->buffers[index] = adc_device_allocate(device, size, read_only, state->error);
  if (node->buffers[index] == NULL) return -1;
  node->sizes[index] = size;
  if (node->queue != NULL) return place_late(state, node, index, host, size);
  int status = adc_device_copy_from_host(device, node->buffers[index], host, size, state->error);
  if (node->watched) {
    /* From here the feed frees the buffer, not the node's release. */
    if (status == 0) status = feed_watch_add(state->feed, node->buffers[index], size, state->error);
    if (status != 0) {
      adc_device_free(device, node->buffers[index], size, false);
      node->buffers[index] = NULL;
    }
    return status;
  }
  if (status != 0) return -1;
  if (!read_only) return 0;
  /* Fails, saying so, on a device that cannot. */
  if (adc_device_protect_read_only(device, node->buffers[index], size, state->error) != 0) return -1;
  feed_region_add(state->feed, node->buffers[index], size);
  return 0;
}

static int export_node(struct export_state* state, const struct arrow_json_field* field,
                       const struct arrow_json_type* type, const struct arrow_json_column* column,
                       int64_t padding, struct ArrowArray* out, struct feed_record* parent);

/* The values of a dictionary-encoded field: the file's, or their altered
 * copy. */
static const struct arrow_json_column* dictionary_values(const struct export_state* state,
                                                         const struct arrow_json_field* field) {
  for (int64_t i = 0; i < state->file->n_dictionaries; i++) {
    if (state->dictionaries[i].id == field->dictionary_id) return &state->dictionaries[i].values;
  }
  return NULL;
}

/* Exports `column` with `padding` rows put before its own where its layout
 * takes them (arrow_json_column_pad), or as it is. */
static int export_padded(struct export_state* state, const struct arrow_json_field* field,
                         const struct arrow_json_column* column, int64_t padding, struct ArrowArray* out,
                         struct feed_record* record) {
  const struct arrow_json_type* type = arrow_json_storage_type(field);
  if (padding == 0) return export_node(state, field, type, column, 0, out, record);
  struct arrow_json_column padded;
  int64_t applied = arrow_json_column_pad(state->file, field, column, padding, &padded);
  if (applied < 0) return out_of_memory(state);
  int status = export_node(state, field, type, &padded, applied, out, record);
  arrow_json_column_free(&padded);
  return status;
}

/* The `n` children of a node, each with its field's layout: the batch's
 * columns padded as the layout asks (`padding`), a column's children as
 * they are (a padded parent padded them already, so they export from row
 * 0). */
static int export_children(struct export_state* state, struct array_node* node,
                           const struct arrow_json_field* fields, const struct arrow_json_column* columns,
                           int64_t n, int64_t padding, struct feed_record* record) {
  if (n == 0) return 0;
  node->child_structs = calloc((size_t)n, sizeof(*node->child_structs));
  node->children = calloc((size_t)n, sizeof(*node->children));
  if (node->child_structs == NULL || node->children == NULL) return out_of_memory(state);
  node->n_children = n;
  for (int64_t i = 0; i < n; i++) {
    node->children[i] = &node->child_structs[i];
    if (export_padded(state, &fields[i], &columns[i], padding, node->children[i], record) != 0) return -1;
  }
  return 0;
}

static int export_node(struct export_state* state, const struct arrow_json_field* field,
                       const struct arrow_json_type* type, const struct arrow_json_column* column,
                       int64_t padding, struct ArrowArray* out, struct feed_record* parent) {
  struct array_node* node = new_node(state, column->n_buffers);
  if (node == NULL) return out_of_memory(state);
  *out = (struct ArrowArray){
      .length = column->length - padding,
      .offset = padding,
      .null_count = column->null_count,
      .n_buffers = column->n_buffers,
      .buffers = (const void**)node->buffers,
      .release = release_array,
      .private_data = feed_record_add(state->feed, node, out, parent),
  };
  struct feed_record* record = out->private_data;
  for (int64_t i = 0; i < column->n_buffers; i++) {
    const struct arrow_json_buffer* buffer = &column->buffers[i];
    if (buffer->bytes != NULL && place(state, node, (int)i, buffer->bytes, (size_t)buffer->size) != 0)
      return -1;
  }
  bool has_validity = arrow_layout_has_validity(type->layout) && node->buffers[0] != NULL;
  if (has_validity && state->layout->unknown_null_count) out->null_count = -1;

  bool indices = field->is_dictionary && type == &field->index_type;
  if (!indices) {
    if (export_children(state, node, field->children, column->children, column->n_children, 0, record) != 0)
      return -1;
    out->n_children = node->n_children;
    out->children = node->children;
    return 0;
  }
  /* spec: "the ArrowArray.dictionary points to the dictionary values array" */
  node->dictionary = calloc(1, sizeof(*node->dictionary));
  if (node->dictionary == NULL) return out_of_memory(state);
  if (export_node(state, field, &field->type, dictionary_values(state, field), 0, node->dictionary, record) !=
      0) {
    return -1;
  }
  out->dictionary = node->dictionary;
  return 0;
}

/* The feed's queue, with a hold queued ahead of this export's writes. */
static int start_late_writes(struct export_state* state) {
  struct adc_feed* feed = state->feed;
  if (!adc_device_has_queue(feed->device->driver)) {
    return adc_fail(state->error, "device %s has no queue to write data late with",
                    feed->device->driver->name);
  }
  if (feed->queue == NULL) feed->queue = feed->device->driver->queue->create(feed->device, state->error);
  if (feed->queue == NULL) return -1;
  state->queue = feed->queue;
  const struct adc_device_queue_ops* queue = feed->device->driver->queue;
  double patience = state->layout->patience_seconds;
  if (patience > 0 && queue->hold_past_synchronisation != NULL)
    return queue->hold_past_synchronisation(feed->queue, patience, state->error);
  return queue->hold(feed->queue, patience > 0 ? patience : state->layout->late_write_seconds, state->error);
}

struct adc_feed_layout feed_streamed_layout(int64_t batch, int64_t altered_batch, double late_write_seconds,
                                            double patience_seconds) {
  return (struct adc_feed_layout){.alter_one_value = batch == altered_batch,
                                  .late_write_seconds = late_write_seconds,
                                  .patience_seconds = patience_seconds};
}

/* Exports the batch into `out` (see adc_feed_export_batch). */
static int export_batch(struct export_state* state, int64_t batch_index, struct ArrowDeviceArray* out);

int adc_feed_export_batch(struct adc_feed* feed, const struct arrow_json_file* file, int64_t batch_index,
                          const struct adc_feed_layout* layout, struct ArrowDeviceArray* out,
                          struct adc_error* error) {
  static const struct adc_feed_layout plain;
  if (batch_index < 0 || batch_index >= file->n_batches)
    return adc_fail(error, "the fixture has no such batch");
  if (layout != NULL && layout->watch_buffers &&
      (layout->late_write_seconds > 0 || layout->read_only_buffers))
    return adc_fail(error, "harness error: watched buffers are neither late-written nor read-only");
  layout = layout ? layout : &plain;
  struct arrow_json_file broken;
  if (layout->break_structure) {
    int made = feed_broken_file(file, batch_index, layout->broken_family, &broken);
    if (made < 0) return adc_fail(error, "out of host memory breaking a batch's structure");
    if (made == 0) {
      return adc_fail(error, "batch %ld has no column the %s invariants apply to", (long)batch_index,
                      arrow_structure_families[layout->broken_family].name);
    }
    file = &broken;
  }
  struct export_state state = {feed, file, layout, file->dictionaries, error, NULL, NULL, 0};
  int status = export_batch(&state, batch_index, out);
  free(state.late_nodes);
  if (layout->break_structure) feed_broken_file_free(&broken, batch_index);
  return status;
}

/* Copies of the batch's columns and of the file's dictionaries, with one
 * value altered (arrow_json_alter_one_value); freed with free_altered. */
struct altered_batch {
  int64_t n_columns;
  struct arrow_json_column* columns;
  int64_t n_dictionaries;
  struct arrow_json_dictionary* dictionaries;
};

static void free_altered(struct altered_batch* altered) {
  for (int64_t i = 0; i < altered->n_columns; i++) arrow_json_column_free(&altered->columns[i]);
  for (int64_t i = 0; i < altered->n_dictionaries; i++)
    arrow_json_column_free(&altered->dictionaries[i].values);
  free(altered->columns);
  free(altered->dictionaries);
}

static int alter_batch(const struct arrow_json_file* file, int64_t batch_index,
                       struct altered_batch* altered) {
  const struct arrow_json_batch* batch = &file->batches[batch_index];
  altered->columns = calloc((size_t)file->n_fields + 1, sizeof(*altered->columns));
  altered->dictionaries = calloc((size_t)file->n_dictionaries + 1, sizeof(*altered->dictionaries));
  if (altered->columns == NULL || altered->dictionaries == NULL) return -1;
  for (int64_t i = 0; i < file->n_fields; i++) {
    altered->n_columns = i + 1;
    if (arrow_json_column_copy(&batch->columns[i], &altered->columns[i]) != 0) return -1;
  }
  for (int64_t i = 0; i < file->n_dictionaries; i++) {
    altered->n_dictionaries = i + 1;
    altered->dictionaries[i].id = file->dictionaries[i].id;
    if (arrow_json_column_copy(&file->dictionaries[i].values, &altered->dictionaries[i].values) != 0)
      return -1;
  }
  arrow_json_alter_one_value(file, altered->columns, altered->dictionaries);
  return 0;
}

static int export_batch(struct export_state* state, int64_t batch_index, struct ArrowDeviceArray* out) {
  struct adc_feed* feed = state->feed;
  if (state->layout->late_write_seconds > 0 && start_late_writes(state) != 0) return -1;
  const struct arrow_json_batch* batch = &state->file->batches[batch_index];

  /* The batch itself: a struct with no validity buffer and one child per column. */
  struct array_node* node = new_node(state, 1);
  if (node == NULL) return out_of_memory(state);
  struct ArrowArray array = {
      .length = batch->length,
      .null_count = 0,
      .n_buffers = 1,
      .buffers = (const void**)node->buffers,
      .release = release_array,
      .private_data = feed_record_add(feed, node, NULL, NULL),
  };
  struct altered_batch altered = {0};
  const struct arrow_json_column* columns = batch->columns;
  int status = 0;
  if (state->layout->alter_one_value) {
    status = alter_batch(state->file, batch_index, &altered);
    if (status != 0) out_of_memory(state);
    columns = altered.columns;
    state->dictionaries = altered.dictionaries;
  }
  if (status == 0) {
    status = export_children(state, node, state->file->fields, columns, state->file->n_fields,
                             state->layout->offset_padding, array.private_data);
  }
  free_altered(&altered);
  array.n_children = node->n_children;
  array.children = node->children;
  if (status != 0) {
    array.release(&array);
    return -1;
  }
  /* spec: the event completes once every late write queued above has. */
  void* sync_event = NULL;
  if (state->queue != NULL) {
    sync_event = feed->device->driver->queue->record_event(state->queue, state->error);
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
      .device_type = feed->device->driver->kind->arrow_type,
      .sync_event = sync_event,
  };
  return 0;
}
