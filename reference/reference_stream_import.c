/* The reference device stream consumer: drain a stream, compare every batch
 * with the fixture, release everything.
 *
 * spec: "Device Stream Interface".  The stream is released exactly once,
 * on every path; the schema and each array are released as soon as they
 * are compared (spec: "Result lifetimes": they are independent of the
 * stream); get_last_error is asked only right after a call failed. */
#include <inttypes.h>
#include <stdio.h>

#include "reference_core.h"

static _Thread_local char message[2048];

static const char* stream_failure(struct ArrowDeviceArrayStream* stream, const char* call, int code) {
  /* spec: get_last_error "must ONLY be called if the last operation ...
   * returned an error" -- which is the case here.  The text is copied at
   * once: it is valid only "until the next call of one of the stream's
   * callbacks". */
  const char* detail = stream->get_last_error(stream);
  snprintf(message, sizeof(message), "%s returned %d: %s", call, code, detail ? detail : "(no detail)");
  return message;
}

static const char* compare_schema(struct ArrowDeviceArrayStream* stream, const struct arrow_json_file* file) {
  struct ArrowSchema schema;
  int code = stream->get_schema(stream, &schema);
  if (code != 0) return stream_failure(stream, "get_schema", code);
  const char* result =
      arrow_json_compare_schema(file, &schema, message, sizeof(message)) == 0 ? NULL : message;
  schema.release(&schema);
  return result;
}

/* Reads batches until the end of the stream; NULL when each matched. */
static const char* compare_batches(struct ArrowDeviceArrayStream* stream,
                                   const struct arrow_json_file* file) {
  for (int64_t batch = 0;; batch++) {
    struct ArrowDeviceArray array;
    int code = stream->get_next(stream, &array);
    if (code != 0) return stream_failure(stream, "get_next", code);
    /* spec: "On success, the consumer must check whether the
     * ArrowDeviceArray's embedded ArrowArray is marked released." */
    if (array.array.release == NULL) {
      if (batch == file->n_batches) return NULL;
      snprintf(message, sizeof(message),
               "the stream ended after %" PRId64 " batches, the fixture has %" PRId64, batch,
               file->n_batches);
      return message;
    }
    if (batch >= file->n_batches) {
      array.array.release(&array.array);
      snprintf(message, sizeof(message), "the stream has more than the fixture's %" PRId64 " batches",
               file->n_batches);
      return message;
    }
    if (array.device_type != stream->device_type) {
      /* spec: "The next chunk of data MUST be accessible from a device type
       * matching the ArrowDeviceArrayStream.device_type." */
      snprintf(message, sizeof(message), "batch %" PRId64 " has device_type %d, the stream %d", batch,
               (int)array.device_type, (int)stream->device_type);
      array.array.release(&array.array);
      return message;
    }
    /* The steps of a single device batch: wait on its sync_event, read it
     * (through a host copy where the CPU cannot), release it. */
    const char* difference = ref_compare_device_batch(file, batch, &array);
    if (difference != NULL) return difference;
  }
}

const char* ref_import_device_stream(const char* json_path, struct ArrowDeviceArrayStream* stream) {
  if (stream->release == NULL) return "the stream handed to the consumer is already released";
  struct arrow_json_file file;
  const char* result = message;
  if (ref_load_fixture(json_path, &file, message, sizeof(message)) == 0) {
    result = compare_schema(stream, &file);
    if (result == NULL) result = compare_batches(stream, &file);
    arrow_json_file_free(&file);
  }
  stream->release(stream);
  return result;
}
