/* The nanoarrow adapter's parts, shared by its files: the simulated device
 * given to nanoarrow as an `ArrowDevice`, and the allocator whose bytes
 * BytesAllocated reports.  Everything else the adapter does is nanoarrow's
 * own public API (nanoarrow.h, nanoarrow_device.h, nanoarrow_testing.hpp). */
#ifndef ADC_NANOARROW_ADAPTER_H
#define ADC_NANOARROW_ADAPTER_H

#include <stdint.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_device.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The simulated device of include/adc/simulated_device.h as nanoarrow sees
 * it: device type ARROW_DEVICE_EXT_DEV, id 0, host memory that nanoarrow
 * reaches through the device's copies, and `synchronize_event` waiting on
 * the device's event.  A singleton, like nanoarrow's own devices; the
 * caller never releases it. */
struct ArrowDevice* adc_nanoarrow_simulated_device(void);

/* The device nanoarrow should use for (device_type, device_id): nanoarrow's
 * ArrowDeviceResolve, plus the simulated device.  NULL for any other. */
struct ArrowDevice* adc_nanoarrow_device(ArrowDeviceType device_type, int64_t device_id);

/* Why nanoarrow's CUDA device (ArrowDeviceCuda) has no device
 * `device_id`, in the driver's words (cuda_driver.c): a machine without
 * NVIDIA's driver, or without a GPU.  Only where libnanoarrow.so was built
 * with it (ADC_NANOARROW_WITH_CUDA). */
const char* adc_nanoarrow_cuda_unavailable(int64_t device_id);

/* An allocator counting the bytes it holds: the adapter's buffers (the JSON
 * reader's, and the simulated device's copies) come from it. */
struct ArrowBufferAllocator adc_nanoarrow_counting_allocator(void);

/* Bytes the counting allocator holds now. */
int64_t adc_nanoarrow_bytes_held(void);

#ifdef __cplusplus
}
#endif

#endif /* ADC_NANOARROW_ADAPTER_H */
