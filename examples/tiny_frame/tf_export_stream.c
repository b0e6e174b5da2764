/* A device stream over a table's batches.
 *
 * The stream holds a reference to the table, so it lives on after
 * tiny_frame_RoundTrip_Free; each batch it hands out is exported afresh
 * and is the consumer's to release, independently of the stream (spec:
 * "Result lifetimes"). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tf_error.h"
#include "tf_export.h"

struct stream_private {
  struct tf_table* table;
  int64_t next_batch;
  char error[1024]; /* get_last_error's text, after a call failed */
};

static int stream_fail(struct stream_private* private_data) {
  snprintf(private_data->error, sizeof(private_data->error), "%s", tf_error_message());
  return ENOMEM; /* tiny_frame's exports fail only for want of memory */
}

static int get_schema(struct ArrowDeviceArrayStream* stream, struct ArrowSchema* out) {
  struct stream_private* private_data = stream->private_data;
  if (tf_export_schema(&private_data->table->schema, out) != 0) return stream_fail(private_data);
  return 0;
}

static int get_next(struct ArrowDeviceArrayStream* stream, struct ArrowDeviceArray* out) {
  struct stream_private* private_data = stream->private_data;
  struct tf_table* table = private_data->table;
  if (private_data->next_batch == table->n_batches) {
    /* spec: "If the embedded ArrowDeviceArray.array is released, then the
     * end of the stream has been reached": on this call and every later
     * one. */
    memset(out, 0, sizeof(*out));
    return 0;
  }
  if (tf_export_device_batch(&table->batches[private_data->next_batch], out) != 0) {
    return stream_fail(private_data);
  }
  private_data->next_batch++;
  return 0;
}

static const char* get_last_error(struct ArrowDeviceArrayStream* stream) {
  struct stream_private* private_data = stream->private_data;
  return private_data->error[0] != '\0' ? private_data->error : NULL;
}

static void release_stream(struct ArrowDeviceArrayStream* stream) {
  struct stream_private* private_data = stream->private_data;
  tf_table_unref(private_data->table);
  free(private_data);
  stream->release = NULL; /* spec: "Stream lifetime": marked released as an array is */
}

int tf_export_device_stream(struct tf_table* table, struct ArrowDeviceArrayStream* out) {
  struct stream_private* private_data = calloc(1, sizeof(*private_data));
  if (private_data == NULL) return tf_fail("tiny_frame is out of memory");
  private_data->table = tf_table_ref(table);
  /* spec: "All ArrowDeviceArrays that are produced by this stream should
   * have the same device type as is set here." */
  out->device_type = table->device_type;
  out->get_schema = get_schema;
  out->get_next = get_next;
  out->get_last_error = get_last_error;
  out->release = release_stream;
  out->private_data = private_data;
  return 0;
}
