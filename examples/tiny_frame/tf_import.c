/* Adopting: ownership, synchronisation and streams.  The fields and
 * columns themselves are read by tf_import_schema.c and
 * tf_import_column.c. */
#include "tf_import.h"

#include <string.h>

#include "adc/simulated_device.h"
#include "tf_error.h"

/* spec: "Moving an array": a bitwise copy, the source marked released
 * "without calling that release callback".  From here on the caller's
 * structure is never touched again; tiny_frame releases its own copy. */
static void move_schema(struct ArrowSchema* from, struct ArrowSchema* to) {
  *to = *from;
  from->release = NULL;
}

static void move_array(struct ArrowArray* from, struct ArrowArray* to) {
  *to = *from;
  from->release = NULL;
}

/* A consumer releases only the base structure it was handed, exactly
 * once; the producer's callback releases the children (spec: "Release
 * callback semantics -- for consumers"). */
static void release_schema(struct ArrowSchema* schema) {
  if (schema->release != NULL) schema->release(schema);
}

static void release_array(struct ArrowArray* array) {
  if (array->release != NULL) array->release(array);
}

/* The schema of a table: a struct whose fields are its columns (spec:
 * "Record batches"). */
static int import_table_schema(const struct ArrowSchema* schema, struct tf_table* table) {
  if (schema->release == NULL) return tf_fail("the schema handed to tiny_frame is already released");
  if (tf_field_from_schema(schema, &table->schema) != 0) return -1;
  if (table->schema.type != TF_STRUCT) {
    return tf_fail("tiny_frame holds tables: the schema must be a struct ('+s'), not '%s'", schema->format);
  }
  return 0;
}

/* spec: "If the sync_event member is non-NULL, the consumer should not
 * attempt to access or read the data until they have synchronized on
 * that event."  On the simulated device the event is a
 * struct adc_simulated_event (adc/simulated_device.h, the device's
 * documentation the spec asks of ARROW_DEVICE_EXT_DEV).  The CPU has no
 * event type (spec: "Synchronization event types": "N/A"), so there is
 * nothing to wait on. */
static int wait_for_data(const struct ArrowDeviceArray* batch) {
  if (batch->sync_event == NULL || batch->device_type != ADC_SIMULATED_DEVICE_TYPE) return 0;
  struct adc_simulated_event* event = batch->sync_event;
  if (event->magic != ADC_SIMULATED_EVENT_MAGIC) {
    return tf_fail(
        "the sync_event of a simulated device batch is not a struct adc_simulated_event "
        "of this version (magic 0x%08x)",
        (unsigned)event->magic);
  }
  adc_simulated_event_wait(event);
  return 0;
}

/* One device batch of `table`'s schema, which the caller owns: waits on
 * its event, then copies its rows into a new batch of the table. */
static int import_one_batch(const struct ArrowDeviceArray* batch, struct tf_table* table) {
  struct tf_device device = {batch->device_type, batch->device_id};
  if (batch->array.release == NULL) return tf_fail("the batch handed to tiny_frame is already released");
  if (tf_device_check(device) != 0) return -1;
  if (wait_for_data(batch) != 0) return -1;
  struct tf_batch* mine = tf_table_add_batch(table, device);
  if (mine == NULL) return -1;
  return tf_column_from_array(&batch->array, &table->schema, 0, batch->array.length, device, &mine->root);
}

struct tf_table* tf_import_schema(struct ArrowSchema* schema) {
  struct ArrowSchema mine;
  move_schema(schema, &mine);
  struct tf_table* table = tf_table_new(TF_TABLE_SCHEMA);
  int status = table != NULL ? import_table_schema(&mine, table) : -1;
  release_schema(&mine);
  if (status == 0) return table;
  tf_table_unref(table);
  return NULL;
}

struct tf_table* tf_import_device_batch(struct ArrowSchema* schema, struct ArrowDeviceArray* batch) {
  struct ArrowSchema my_schema;
  struct ArrowDeviceArray my_batch;
  move_schema(schema, &my_schema);
  my_batch = *batch;
  batch->array.release = NULL; /* spec: "Moving an array" */
  struct tf_table* table = tf_table_new(TF_TABLE_BATCH);
  int status = table != NULL ? import_table_schema(&my_schema, table) : -1;
  release_schema(&my_schema); /* copied: no longer needed */
  if (status == 0) {
    table->device_type = my_batch.device_type;
    status = import_one_batch(&my_batch, table);
  }
  release_array(&my_batch.array);
  if (status == 0) return table;
  tf_table_unref(table);
  return NULL;
}

struct tf_table* tf_import_batch(struct ArrowSchema* schema, struct ArrowArray* batch) {
  struct ArrowDeviceArray on_cpu;
  memset(&on_cpu, 0, sizeof(on_cpu));
  move_array(batch, &on_cpu.array);
  on_cpu.device_type = ARROW_DEVICE_CPU;
  on_cpu.device_id = -1;
  return tf_import_device_batch(schema, &on_cpu);
}

/* ---- streams ---------------------------------------------------------- */

/* The stream's error, with get_last_error's text (spec: "get_last_error":
 * "This callback must ONLY be called if the last operation on the
 * ArrowDeviceArrayStream returned an error"; it may return NULL). */
static int stream_failed(struct ArrowDeviceArrayStream* stream, const char* call, int code) {
  const char* reason = stream->get_last_error(stream);
  return tf_fail("the stream's %s failed with code %d (%s): %.800s", call, code, strerror(code),
                 reason != NULL ? reason : "get_last_error gave no description");
}

/* Every batch of the stream, which the caller owns, to the end. */
static int read_stream(struct ArrowDeviceArrayStream* stream, struct tf_table* table) {
  struct tf_device device_type_only = {stream->device_type, stream->device_type == ARROW_DEVICE_CPU ? -1 : 0};
  if (tf_device_check(device_type_only) != 0) return -1;
  table->device_type = stream->device_type;
  struct ArrowSchema schema;
  memset(&schema, 0, sizeof(schema));
  int code = stream->get_schema(stream, &schema);
  if (code != 0) return stream_failed(stream, "get_schema", code);
  int status = import_table_schema(&schema, table);
  release_schema(&schema);
  while (status == 0) {
    struct ArrowDeviceArray batch;
    memset(&batch, 0, sizeof(batch));
    if ((code = stream->get_next(stream, &batch)) != 0) return stream_failed(stream, "get_next", code);
    /* spec: "If the embedded ArrowDeviceArray.array is released, then the
     * end of the stream has been reached." */
    if (batch.array.release == NULL) break;
    if (batch.device_type != stream->device_type) {
      status = tf_fail("the stream of device type %d handed out a batch of device type %d",
                       (int)stream->device_type, (int)batch.device_type);
    } else {
      status = import_one_batch(&batch, table);
    }
    release_array(&batch.array); /* spec: "Result lifetimes": released independently */
  }
  return status;
}

struct tf_table* tf_import_device_stream(struct ArrowDeviceArrayStream* stream) {
  struct ArrowDeviceArrayStream mine = *stream;
  stream->release = NULL; /* moved, as an array is (spec: "Stream lifetime") */
  if (mine.release == NULL) {
    tf_fail("the stream handed to tiny_frame is already released");
    return NULL;
  }
  struct tf_table* table = tf_table_new(TF_TABLE_STREAM);
  int status = table != NULL ? read_stream(&mine, table) : -1;
  mine.release(&mine);
  if (status == 0) return table;
  tf_table_unref(table);
  return NULL;
}
