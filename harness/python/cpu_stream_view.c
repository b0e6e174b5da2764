/* A plain stream over a CPU device stream (cpu_stream_view.h). */
#include "cpu_stream_view.h"

#include <stdlib.h>
#include <string.h>

static int view_get_schema(struct ArrowArrayStream* stream, struct ArrowSchema* out) {
  struct adc_cpu_stream_view* view = stream->private_data;
  return view->device.get_schema(&view->device, out);
}

static int view_get_next(struct ArrowArrayStream* stream, struct ArrowArray* out) {
  struct adc_cpu_stream_view* view = stream->private_data;
  struct ArrowDeviceArray next;
  int code = view->device.get_next(&view->device, &next);
  if (code == 0) memcpy(out, &next.array, sizeof(*out));
  return code;
}

static const char* view_get_last_error(struct ArrowArrayStream* stream) {
  struct adc_cpu_stream_view* view = stream->private_data;
  return view->device.get_last_error(&view->device);
}

static void view_release(struct ArrowArrayStream* stream) {
  struct adc_cpu_stream_view* view = stream->private_data;
  if (view->device.release != NULL) view->device.release(&view->device);
  view->released = true;
  stream->release = NULL;
  if (view->free_on_release) free(view);
}

void adc_cpu_stream_view_start(struct ArrowArrayStream* stream, struct adc_cpu_stream_view* view) {
  stream->get_schema = view_get_schema;
  stream->get_next = view_get_next;
  stream->get_last_error = view_get_last_error;
  stream->private_data = view;
  stream->release = view_release;
}
