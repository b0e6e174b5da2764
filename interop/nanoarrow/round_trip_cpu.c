/* The round-trip adapter's CPU part: schemas and C Data Interface batches,
 * made nanoarrow's own (round_trip_held.c) and moved out as exported. */
#include "round_trip.h"

ADC_NANOARROW_EXPORT const char* nanoarrow_RoundTrip_AdoptSchema(struct ArrowSchema* schema, void** out) {
  struct ArrowError error = {{0}};
  struct adc_nanoarrow_held* held;
  ArrowErrorCode status = adc_nanoarrow_rt_hold(schema, &held, &error);
  return adc_nanoarrow_rt_adopted(held, status, &error, out);
}

ADC_NANOARROW_EXPORT const char* nanoarrow_RoundTrip_AdoptBatch(struct ArrowSchema* schema,
                                                                struct ArrowArray* batch, void** out) {
  struct ArrowError error = {{0}};
  /* spec: ARROW_DEVICE_CPU: "same as using ArrowArray directly".  Not
   * ArrowDeviceCpu(): its singleton is malloc'd and never freed. */
  struct ArrowDevice* cpu = adc_nanoarrow_rt_device(ARROW_DEVICE_CPU, -1);
  struct ArrowDeviceArray on_cpu;
  ArrowDeviceArrayInit(cpu, &on_cpu, batch, NULL);
  struct adc_nanoarrow_held* held;
  ArrowErrorCode status = adc_nanoarrow_rt_hold(schema, &held, &error);
  if (status == NANOARROW_OK)
    status = adc_nanoarrow_rt_copy(&held->schema, &on_cpu, cpu, &held->batch, &error);
  if (on_cpu.array.release != NULL) ArrowArrayRelease(&on_cpu.array);
  return adc_nanoarrow_rt_adopted(held, status, &error, out);
}

ADC_NANOARROW_EXPORT const char* nanoarrow_RoundTrip_ExportSchema(void* opaque, struct ArrowSchema* out) {
  struct adc_nanoarrow_held* held = opaque;
  if (held->schema.release == NULL) return "nanoarrow holds no schema (exported already)";
  ArrowSchemaMove(&held->schema, out); /* spec: "Moving an array" */
  return NULL;
}

ADC_NANOARROW_EXPORT const char* nanoarrow_RoundTrip_ExportBatch(void* opaque, struct ArrowArray* out) {
  struct adc_nanoarrow_held* held = opaque;
  if (held->batch.array.release == NULL) return "nanoarrow holds no batch (exported already)";
  ArrowArrayMove(&held->batch.array, out);
  return NULL;
}

/* The leak rules' count: the buffers of nanoarrow's copies, held or exported. */
ADC_NANOARROW_EXPORT int64_t nanoarrow_BytesAllocated(void) {
  return adc_nanoarrow_bytes_held();
}
