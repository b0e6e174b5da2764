/* The round-trip adapter's device streams, read as their exports are read:
 * each batch made nanoarrow's own (round_trip_held.c) as it is asked for and
 * handed to nanoarrow's basic device stream (ArrowDeviceBasicArrayStreamInit),
 * so that a failure of the adopted stream is handed on.  nanoarrow 0.9.0's C
 * library has no async device stream (nanoarrow_device.h has no
 * ArrowAsyncDeviceStreamHandler): AdoptAsync and ExportAsync are absent, and
 * the async rules end not_supported. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "round_trip.h"

static const char* failure_of(struct ArrowDeviceArrayStream* stream, int status) {
  const char* text = stream->get_last_error(stream);
  return text != NULL ? text : strerror(status);
}

/* The adopted stream as an ArrowArrayStream of nanoarrow's copies on `device`. */
struct copying {
  struct ArrowDeviceArrayStream source;
  struct ArrowSchema schema; /* nanoarrow's copy of the source's */
  struct ArrowDevice* device;
  struct ArrowError error;
};

static int copying_get_schema(struct ArrowArrayStream* stream, struct ArrowSchema* out) {
  return ArrowSchemaDeepCopy(&((struct copying*)stream->private_data)->schema, out);
}

static int copying_get_next(struct ArrowArrayStream* stream, struct ArrowArray* out) {
  struct copying* self = stream->private_data;
  struct ArrowDeviceArray next = {.array.release = NULL}, copy;
  int status = self->source.get_next(&self->source, &next);
  if (status != 0) { /* spec: get_last_error's text lives until the next call: kept */
    ArrowErrorSet(&self->error, "%s", failure_of(&self->source, status));
    return status;
  }
  if (next.array.release == NULL) { /* the end, handed on */
    out->release = NULL;
    return 0;
  }
  status = adc_nanoarrow_rt_copy(&self->schema, &next, self->device, &copy, &self->error);
  ArrowArrayRelease(&next.array);
  if (status != NANOARROW_OK) return status;
  /* The basic stream hands each array to the device's array_init with no
   * event: the copy's own is waited on here. */
  status = self->device->synchronize_event(self->device, copy.sync_event, NULL, &self->error);
  if (status == NANOARROW_OK) ArrowArrayMove(&copy.array, out);
  if (copy.array.release != NULL) ArrowArrayRelease(&copy.array);
  return status;
}

static const char* copying_get_last_error(struct ArrowArrayStream* stream) {
  struct copying* self = stream->private_data;
  return self->error.message[0] != '\0' ? self->error.message : NULL;
}

static void copying_release(struct ArrowArrayStream* stream) {
  struct copying* self = stream->private_data;
  self->source.release(&self->source);
  ArrowSchemaRelease(&self->schema);
  free(self);
  stream->release = NULL;
}

ADC_NANOARROW_EXPORT const char* nanoarrow_RoundTrip_AdoptDeviceStream(struct ArrowDeviceArrayStream* stream,
                                                                       void** out) {
  struct ArrowError error = {{0}};
  struct adc_nanoarrow_held* held = NULL;
  struct ArrowSchema schema;
  struct copying* self = calloc(1, sizeof *self);
  ArrowErrorCode status = self == NULL ? ENOMEM : stream->get_schema(stream, &schema);
  if (self != NULL && status != 0) ArrowErrorSet(&error, "get_schema failed: %s", failure_of(stream, status));
  if (status == NANOARROW_OK) status = adc_nanoarrow_rt_hold(&schema, &held, &error);
  if (status != NANOARROW_OK) {
    free(self);
    stream->release(stream); /* an Adopt takes what it is handed */
    return adc_nanoarrow_rt_adopted(held, status, &error, out);
  }
  self->source = *stream; /* spec: "Moving an array" (a stream moves alike) */
  stream->release = NULL;
  ArrowSchemaMove(&held->schema, &self->schema);
  held->batches = (struct ArrowArrayStream){copying_get_schema, copying_get_next, copying_get_last_error,
                                            copying_release, self};
  /* A stream's device_id is its batches': the device's first (-1 on the CPU) */
  ArrowDeviceType type = self->source.device_type;
  held->device = self->device = adc_nanoarrow_rt_device(type, type == ARROW_DEVICE_CPU ? -1 : 0);
  if (held->device == NULL) ArrowErrorSet(&error, "nanoarrow has no device of type %d", (int)type);
  return adc_nanoarrow_rt_adopted(held, held->device == NULL ? ENOTSUP : NANOARROW_OK, &error, out);
}

ADC_NANOARROW_EXPORT const char* nanoarrow_RoundTrip_ExportDeviceStream(void* opaque,
                                                                        struct ArrowDeviceArrayStream* out) {
  struct adc_nanoarrow_held* held = opaque;
  if (held->batches.release == NULL) return "nanoarrow holds no stream (exported already)";
  ArrowErrorCode status = ArrowDeviceBasicArrayStreamInit(out, &held->batches, held->device);
  return status == NANOARROW_OK ? NULL : "out of memory";
}
