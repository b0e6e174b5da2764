/* The reference device stream: every batch of a fixture, in order.
 *
 * spec: "Device Stream Interface".  get_next signals the end of the stream by
 * returning 0 with a released array; the schema and each array are released
 * independently of the stream (spec: "Result lifetimes"). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reference_core.h"

struct stream_private {
  struct arrow_json_file file;
  int64_t next_batch;
  char last_error[1024];
};

static int stream_get_schema(struct ArrowDeviceArrayStream* stream, struct ArrowSchema* out) {
  struct stream_private* state = stream->private_data;
  const char* error = ref_export_schema(&state->file, out);
  if (error == NULL) return 0;
  snprintf(state->last_error, sizeof(state->last_error), "%s", error);
  return ENOMEM;
}

static int stream_get_next(struct ArrowDeviceArrayStream* stream, struct ArrowDeviceArray* out) {
  struct stream_private* state = stream->private_data;
  if (state->next_batch == state->file.n_batches) {
    /* spec: "If the embedded ArrowDeviceArray.array is released, then the end
     * of the stream has been reached." */
    memset(out, 0, sizeof(*out));
    return 0;
  }
  const char* error = ref_export_device_batch(&state->file, state->next_batch, stream->device_type, -1, out);
  if (error != NULL) {
    snprintf(state->last_error, sizeof(state->last_error), "%s", error);
    return EINVAL;
  }
  state->next_batch++;
  return 0;
}

static const char* stream_get_last_error(struct ArrowDeviceArrayStream* stream) {
  struct stream_private* state = stream->private_data;
  return state->last_error[0] ? state->last_error : NULL;
}

static void stream_release(struct ArrowDeviceArrayStream* stream) {
  struct stream_private* state = stream->private_data;
  arrow_json_file_free(&state->file);
  free(state);
  stream->release = NULL;
}

const char* ref_export_device_stream(const char* json_path, ArrowDeviceType device_type, int64_t device_id,
                                     struct ArrowDeviceArrayStream* out) {
  static _Thread_local char error[1024];
  (void)device_id;
  if (device_type != ARROW_DEVICE_CPU) return "the reference producer only streams ARROW_DEVICE_CPU data";
  struct stream_private* state = calloc(1, sizeof(*state));
  if (state == NULL) return "out of memory";
  if (ref_load_fixture(json_path, &state->file, error, sizeof(error)) != 0) {
    free(state);
    return error;
  }
  *out = (struct ArrowDeviceArrayStream){
      .device_type = device_type,
      .get_schema = stream_get_schema,
      .get_next = stream_get_next,
      .get_last_error = stream_get_last_error,
      .release = stream_release,
      .private_data = state,
  };
  return NULL;
}

/* ---- consumer side ---- */

static const char* stream_failure(struct ArrowDeviceArrayStream* stream, const char* call, int code,
                                  char* message, size_t size) {
  /* spec: get_last_error "must ONLY be called if the last operation ...
   * returned an error" -- which is the case here. */
  const char* detail = stream->get_last_error(stream);
  snprintf(message, size, "%s returned %d: %s", call, code, detail ? detail : "(no detail)");
  return message;
}

const char* ref_import_device_stream(const char* json_path, struct ArrowDeviceArrayStream* stream) {
  static _Thread_local char message[2048];
  if (stream->release == NULL) return "the stream handed to the consumer is already released";
  struct arrow_json_file file;
  if (ref_load_fixture(json_path, &file, message, sizeof(message)) != 0) {
    stream->release(stream);
    return message;
  }
  const char* result = NULL;
  struct ArrowSchema schema;
  int code = stream->get_schema(stream, &schema);
  if (code != 0) {
    result = stream_failure(stream, "get_schema", code, message, sizeof(message));
  } else {
    if (arrow_json_compare_schema(&file, &schema, message, sizeof(message)) != 0) result = message;
    schema.release(&schema);
  }
  for (int64_t batch = 0; result == NULL; batch++) {
    struct ArrowDeviceArray array;
    code = stream->get_next(stream, &array);
    if (code != 0) {
      result = stream_failure(stream, "get_next", code, message, sizeof(message));
      break;
    }
    if (array.array.release == NULL) {
      if (batch != file.n_batches) {
        snprintf(message, sizeof(message),
                 "the stream ended after %" PRId64 " batches, the fixture has %" PRId64, batch,
                 file.n_batches);
        result = message;
      }
      break;
    }
    if (array.device_type != stream->device_type) {
      /* spec: "The next chunk of data MUST be accessible from a device type
       * matching the ArrowDeviceArrayStream.device_type." */
      snprintf(message, sizeof(message), "batch %" PRId64 " has device_type %d, the stream %d", batch,
               (int)array.device_type, (int)stream->device_type);
      result = message;
    } else if (arrow_json_compare_batch(&file, batch, &array.array, message, sizeof(message)) != 0) {
      result = message;
    }
    array.array.release(&array.array);
  }
  arrow_json_file_free(&file);
  stream->release(stream);
  return result;
}
