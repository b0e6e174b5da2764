/* The nanoarrow adapter on the round-trip ABI (include/adc/plugin_abi.h,
 * ADC_ROUND_TRIP_ENTRY_POINTS; CONFORMANCE.md, "The round-trip ABI"), no
 * JSON: round_trip_held.c makes nanoarrow's own structures of what is
 * adopted, round_trip_cpu.c has the schema and CPU batch entry points,
 * round_trip_device.c the device batch ones, round_trip_stream.c the device
 * stream ones. */
#ifndef ADC_NANOARROW_ROUND_TRIP_H
#define ADC_NANOARROW_ROUND_TRIP_H

#include "adapter.h"
#include "adc/plugin_abi.h"

#define ADC_NANOARROW_EXPORT __attribute__((visibility("default")))

/* The held object: nanoarrow's own structures, made of what was adopted
 * (released by then), each moved out by its export. */
struct adc_nanoarrow_held {
  struct ArrowSchema schema;       /* ArrowSchemaDeepCopy of the adopted schema */
  struct ArrowDeviceArray batch;   /* ArrowDeviceArrayViewCopy of the adopted batch */
  struct ArrowArrayStream batches; /* the adopted device stream's batches, copied as read */
  struct ArrowDevice* device;      /* the device of `batches` */
};

/* nanoarrow's device for (device_type, device_id): its CPU device with the
 * copies' buffers counted (BytesAllocated), its CUDA devices, the simulated
 * device (simulated_device.c).  NULL for any other. */
struct ArrowDevice* adc_nanoarrow_rt_device(ArrowDeviceType device_type, int64_t device_id);

/* A new held object with nanoarrow's copy of `schema`, which is released
 * whatever happens; *held is NULL where it fails. */
ArrowErrorCode adc_nanoarrow_rt_hold(struct ArrowSchema* schema, struct adc_nanoarrow_held** held,
                                     struct ArrowError* error);

/* `array` (left to the caller) validated against `schema` as far as nanoarrow
 * reads it, and copied to `destination`: nanoarrow's own array, in `out`. */
ArrowErrorCode adc_nanoarrow_rt_copy(const struct ArrowSchema* schema, struct ArrowDeviceArray* array,
                                     struct ArrowDevice* destination, struct ArrowDeviceArray* out,
                                     struct ArrowError* error);

/* An Adopt's end: `held` in *out, or, where `status` failed, `held` freed,
 * NULL in *out and the message. */
const char* adc_nanoarrow_rt_adopted(struct adc_nanoarrow_held* held, ArrowErrorCode status,
                                     const struct ArrowError* error, void** out);

#endif /* ADC_NANOARROW_ROUND_TRIP_H */
