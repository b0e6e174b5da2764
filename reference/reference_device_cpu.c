/* The CPU: buffers are the host bytes themselves, ready at once, so there is
 * no stream and no event (spec: "If no event type is supported ("N/A"),
 * then the sync_event member should always be null"). */
#include "reference_core.h"
#include "reference_device.h"

static const char* cpu_open_stream(int64_t device_id, struct ref_stream** out) {
  /* spec: the CPU is among the "device types that do not have an intrinsic
   * notion of a device identifier"; ref_export_device_batch exports -1. */
  (void)device_id;
  *out = NULL;
  return NULL;
}

/* The host buffer is the CPU's buffer: nothing to copy. */
static const char* cpu_upload(struct ref_stream* stream, void* host, size_t size, void** device) {
  (void)stream;
  (void)size;
  *device = host;
  return NULL;
}

static const char* cpu_record_event(struct ref_stream* stream, void** sync_event) {
  (void)stream;
  *sync_event = NULL;
  return NULL;
}

static void cpu_free_buffer(struct ref_stream* stream, void* buffer) {
  (void)stream;
  ref_free(buffer);
}

static void cpu_close_stream(struct ref_stream* stream) {
  (void)stream;
}

static const char* cpu_wait_event(void* sync_event) {
  return sync_event == NULL ? NULL : "sync_event is set on a CPU array, which has no event type";
}

static const char* cpu_query_event(void* sync_event, bool* complete) {
  *complete = true;
  return cpu_wait_event(sync_event);
}

const struct ref_device ref_device_cpu = {
    .type = ARROW_DEVICE_CPU,
    .open_stream = cpu_open_stream,
    .upload = cpu_upload,
    .record_event = cpu_record_event,
    .free_buffer = cpu_free_buffer,
    .close_stream = cpu_close_stream,
    .wait_event = cpu_wait_event,
    .query_event = cpu_query_event,
};
