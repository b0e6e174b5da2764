/* The reference device stream producer: every batch of a fixture, in order,
 * on the device asked for.
 *
 * spec: "Device Stream Interface".  Each get_next exports the next batch
 * exactly as ExportDeviceBatchFromJson would (buffers on the device, a
 * sync_event where its data are still on their way).  The end of the stream is a
 * released array returned with 0, as often as the consumer asks; the schema
 * and each array are released independently of the stream (spec: "Result
 * lifetimes"). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "reference_core.h"
#include "reference_device.h"

/* What the stream owns, from ref_alloc (reference_allocator.c): it is part
 * of the export, so BytesAllocated counts it until the stream's release. */
struct stream_private {
  struct arrow_json_file file; /* the data source, the fixture model's memory */
  /* Kept here, not read back from the stream's public member: the producer
   * serves the device it was asked for, whatever happens to the struct. */
  ArrowDeviceType device_type;
  int64_t device_id;
  int64_t next_batch;
  /* The batch whose get_next fails (an injected error, for tests of the
   * error path); -1 for a stream that never fails. */
  int64_t fail_at_batch;
  char last_error[1024];
};

/* Keeps the description get_last_error returns (spec: valid "until the next
 * call of one of the stream's callbacks") and gives back `code`. */
static int fail(struct stream_private* state, int code, const char* description) {
  snprintf(state->last_error, sizeof(state->last_error), "%s", description);
  return code;
}

/* spec: get_schema "allows the consumer to query the schema of the chunks
 * of data in the stream.  The schema is the same for all data chunks": each
 * call exports the fixture's schema afresh, the caller owning it (spec:
 * "Result lifetimes"). */
static int stream_get_schema(struct ArrowDeviceArrayStream* stream, struct ArrowSchema* out) {
  struct stream_private* state = stream->private_data;
  state->last_error[0] = '\0';
  const char* error = ref_export_schema(&state->file, out);
  /* spec: error codes "should be interpreted like errno numbers". */
  return error == NULL ? 0 : fail(state, ENOMEM, error);
}

static int stream_get_next(struct ArrowDeviceArrayStream* stream, struct ArrowDeviceArray* out) {
  struct stream_private* state = stream->private_data;
  state->last_error[0] = '\0';
  if (state->next_batch == state->fail_at_batch) {
    /* spec: "Return value: 0 on success, a non-zero error code otherwise",
     * with get_last_error describing it. */
    char description[128];
    snprintf(description, sizeof(description), "injected failure: reading batch %" PRId64 " failed",
             state->next_batch);
    return fail(state, EIO, description);
  }
  if (state->next_batch == state->file.n_batches) {
    /* spec: "If the embedded ArrowDeviceArray.array is released, then the end
     * of the stream has been reached."  Every later call says the same. */
    memset(out, 0, sizeof(*out));
    return 0;
  }
  /* spec: "The next chunk of data MUST be accessible from a device type
   * matching the ArrowDeviceArrayStream.device_type." */
  const char* error =
      ref_export_device_batch(&state->file, state->next_batch, state->device_type, state->device_id, out);
  if (error != NULL) return fail(state, EIO, error);
  state->next_batch++;
  return 0;
}

/* spec: "a pointer to a NULL-terminated character string (UTF8-encoded).
 * NULL can also be returned if no detailed description is available." */
static const char* stream_get_last_error(struct ArrowDeviceArrayStream* stream) {
  struct stream_private* state = stream->private_data;
  return state->last_error[0] ? state->last_error : NULL;
}

/* spec: "Stream lifetime": like an array's, the release callback frees what
 * the stream owns and marks it released.  Arrays and schemas handed out
 * own their memory and live on. */
static void stream_release(struct ArrowDeviceArrayStream* stream) {
  struct stream_private* state = stream->private_data;
  arrow_json_file_free(&state->file);
  ref_free(state);
  /* spec: "The release callback MUST mark the structure as released, by
   * setting its release member to NULL." */
  stream->release = NULL;
}

const char* ref_export_failing_device_stream(const char* json_path, ArrowDeviceType device_type,
                                             int64_t device_id, int64_t fail_at_batch,
                                             struct ArrowDeviceArrayStream* out) {
  static _Thread_local char error[1024];
  /* Decline at once, leaving `out` untouched, rather than hand out a stream
   * whose every get_next would fail. */
  if (ref_device_for(device_type) == NULL) return "the reference producer does not serve this device type";
  struct stream_private* state = ref_calloc(1, sizeof(*state));
  if (state == NULL) return "out of memory";
  if (ref_load_fixture(json_path, &state->file, error, sizeof(error)) != 0) {
    ref_free(state);
    return error;
  }
  state->device_type = device_type;
  state->device_id = device_id;
  state->fail_at_batch = fail_at_batch;
  /* Moving a stream is a bitwise copy (as for arrays, spec: "Moving an
   * array"): no callback depends on where `out` lives. */
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

const char* ref_export_device_stream(const char* json_path, ArrowDeviceType device_type, int64_t device_id,
                                     struct ArrowDeviceArrayStream* out) {
  return ref_export_failing_device_stream(json_path, device_type, device_id, -1, out);
}
