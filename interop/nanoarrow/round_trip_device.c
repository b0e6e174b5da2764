/* The round-trip adapter's device part: device batches, on nanoarrow's
 * devices and the simulated one (simulated_device.c), made nanoarrow's own
 * (round_trip_held.c) on the device they came on.  ArrowDeviceArrayViewCopy
 * waits on the batch's sync_event only where it must read offsets to size a
 * buffer (CONFORMANCE.md, N2): the adapter adds no wait of its own, so that
 * the consumer rules judge nanoarrow's. */
#include "round_trip.h"

ADC_NANOARROW_EXPORT const char* nanoarrow_RoundTrip_AdoptDeviceBatch(struct ArrowSchema* schema,
                                                                      struct ArrowDeviceArray* batch,
                                                                      void** out) {
  struct ArrowError error = {{0}};
  struct adc_nanoarrow_held* held;
  ArrowErrorCode status = adc_nanoarrow_rt_hold(schema, &held, &error);
  struct ArrowDevice* device = adc_nanoarrow_rt_device(batch->device_type, batch->device_id);
  if (status == NANOARROW_OK)
    status = adc_nanoarrow_rt_copy(&held->schema, batch, device, &held->batch, &error);
  if (batch->array.release != NULL) ArrowArrayRelease(&batch->array);
  return adc_nanoarrow_rt_adopted(held, status, &error, out);
}

ADC_NANOARROW_EXPORT const char* nanoarrow_RoundTrip_ExportDeviceBatch(void* opaque,
                                                                       struct ArrowDeviceArray* out) {
  struct adc_nanoarrow_held* held = opaque;
  if (held->batch.array.release == NULL) return "nanoarrow holds no device batch (exported already)";
  ArrowDeviceArrayMove(&held->batch, out);
  return NULL;
}
