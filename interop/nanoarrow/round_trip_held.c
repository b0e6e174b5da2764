/* The round-trip adapter's held object: nanoarrow makes what it adopts its
 * own, as a nanoarrow user does with data handed over: the schema parsed and
 * deep-copied, a batch viewed (ArrowArrayView), validated and copied into
 * nanoarrow-built buffers (ArrowDeviceArrayViewCopy, nanoarrow's copy of a
 * whole array, on any device), the input released at once.  So the producer
 * rules judge nanoarrow's own arrays, not the reference's passed through. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "round_trip.h"

/* nanoarrow's CPU device, its copies' buffers counted (BytesAllocated, the leak rules). */
static struct ArrowDevice counted_cpu;

static ArrowErrorCode counted_buffer_init(struct ArrowDevice* device_src, struct ArrowBufferView src,
                                          struct ArrowDevice* device_dst, struct ArrowBuffer* dst,
                                          void* stream) {
  /* ArrowDevice.buffer_init: "Implementations must check device_src and device_dst" */
  if (device_src->device_type != ARROW_DEVICE_CPU || device_dst->device_type != ARROW_DEVICE_CPU)
    return ENOTSUP;
  if (stream != NULL) return EINVAL;
  ArrowBufferInit(dst);
  dst->allocator = adc_nanoarrow_counting_allocator();
  return ArrowBufferAppend(dst, src.data.data, src.size_bytes);
}

static void init_counted_cpu(void) {
  ArrowDeviceInitCpu(&counted_cpu);
  counted_cpu.buffer_init = counted_buffer_init;
}

struct ArrowDevice* adc_nanoarrow_rt_device(ArrowDeviceType device_type, int64_t device_id) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, init_counted_cpu);
  return device_type == ARROW_DEVICE_CPU ? &counted_cpu : adc_nanoarrow_device(device_type, device_id);
}

ArrowErrorCode adc_nanoarrow_rt_hold(struct ArrowSchema* schema, struct adc_nanoarrow_held** held,
                                     struct ArrowError* error) {
  struct ArrowArrayView view;
  ArrowErrorCode status =
      schema->release == NULL ? EINVAL : ArrowArrayViewInitFromSchema(&view, schema, error);
  if (status == NANOARROW_OK) ArrowArrayViewReset(&view);
  *held = status == NANOARROW_OK ? calloc(1, sizeof **held) : NULL;
  if (status == NANOARROW_OK && *held == NULL) status = ENOMEM;
  if (status == NANOARROW_OK) status = ArrowSchemaDeepCopy(schema, &(*held)->schema);
  if (schema->release != NULL) ArrowSchemaRelease(schema); /* spec: "Moving an array": ours, released once */
  return status;
}

ArrowErrorCode adc_nanoarrow_rt_copy(const struct ArrowSchema* schema, struct ArrowDeviceArray* array,
                                     struct ArrowDevice* destination, struct ArrowDeviceArray* out,
                                     struct ArrowError* error) {
  struct ArrowDeviceArrayView view;
  ArrowDeviceArrayViewInit(&view);
  view.device = adc_nanoarrow_rt_device(array->device_type, array->device_id);
  if (view.device == NULL || destination == NULL || array->array.release == NULL) {
    ArrowErrorSet(error, "nanoarrow takes no released array, nor one on device type %d id %lld",
                  (int)array->device_type, (long long)array->device_id);
    return EINVAL;
  }
  /* ArrowDeviceArrayViewSetArrayMinimal's steps, with the adapter's devices */
  view.sync_event = array->sync_event;
  ArrowErrorCode status = ArrowArrayViewInitFromSchema(&view.array_view, schema, error);
  /* nanoarrow reads a CPU array's buffers, so validates it in full; a device's, not */
  if (status == NANOARROW_OK && view.device->device_type == ARROW_DEVICE_CPU) {
    status = ArrowArrayViewSetArray(&view.array_view, &array->array, error);
    if (status == NANOARROW_OK)
      status = ArrowArrayViewValidate(&view.array_view, NANOARROW_VALIDATION_LEVEL_FULL, error);
  } else if (status == NANOARROW_OK) {
    status = ArrowArrayViewSetArrayMinimal(&view.array_view, &array->array, error);
  }
  if (status == NANOARROW_OK && (status = ArrowDeviceArrayViewCopy(&view, destination, out)) != NANOARROW_OK)
    ArrowErrorSet(error, "ArrowDeviceArrayViewCopy failed (%s)", strerror(status));
  ArrowDeviceArrayViewReset(&view);
  return status;
}

ADC_NANOARROW_EXPORT void nanoarrow_RoundTrip_Free(void* opaque) {
  struct adc_nanoarrow_held* held = opaque;
  if (held == NULL) return;
  if (held->schema.release != NULL) ArrowSchemaRelease(&held->schema);
  if (held->batch.array.release != NULL) ArrowArrayRelease(&held->batch.array);
  if (held->batches.release != NULL) ArrowArrayStreamRelease(&held->batches);
  free(held);
}

const char* adc_nanoarrow_rt_adopted(struct adc_nanoarrow_held* held, ArrowErrorCode status,
                                     const struct ArrowError* error, void** out) {
  static _Thread_local char message[sizeof(struct ArrowError)]; /* valid until the next call */
  if (status != NANOARROW_OK) nanoarrow_RoundTrip_Free(held);
  *out = status == NANOARROW_OK ? held : NULL;
  if (status == NANOARROW_OK) return NULL;
  snprintf(message, sizeof message, "%s", error->message[0] != '\0' ? error->message : strerror(status));
  return message;
}
