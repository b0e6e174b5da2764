/* The device drivers the registry lists, one file per runtime. */
#ifndef ADC_DEVICE_DRIVERS_H
#define ADC_DEVICE_DRIVERS_H

#include "device/device.h"

extern const struct adc_device_driver adc_device_cpu;               /* device_cpu.c */
extern const struct adc_device_driver adc_device_cpu_device_arrays; /* device_cpu.c */
extern const struct adc_device_driver adc_device_cuda;              /* device_gpu_runtimes.c */
extern const struct adc_device_driver adc_device_cuda_host;         /* device_gpu_runtimes.c */
extern const struct adc_device_driver adc_device_cuda_managed;      /* device_gpu_runtimes.c */
extern const struct adc_device_driver adc_device_rocm;              /* device_gpu_runtimes.c */
extern const struct adc_device_driver adc_device_rocm_host;         /* device_gpu_runtimes.c */
/* device_opencl.c, or device_opencl_unbuilt.c without OpenCL's headers */
/* start_is_costly for drivers whose start is always costly (a GPU runtime,
 * OpenCL).  Here, beside the drivers, rather than with the operations on
 * a device (device_instance.c), which look drivers up in the registry:
 * the drivers then need nothing above them. */
static inline bool adc_device_start_always_costly(void) {
  return true;
}

extern const struct adc_device_driver adc_device_opencl;
/* Defines adc_device_opencl with these operations, written once for both
 * files: what the harness knows of the device without its runtime. */
#define ADC_DEFINE_OPENCL_DRIVER(driver_ops, queue_ops, preload)          \
  static const struct {                                                   \
    const char* runtime;                                                  \
  } opencl_backend = {"OpenCL, through the ICD loader (libOpenCL.so.1)"}; \
  const struct adc_device_driver adc_device_opencl = {                    \
      .name = "opencl",                                                   \
      .kind = &adc_device_kind_opencl,                                    \
      .batches_as_device_arrays = true,                                   \
      .backend = &opencl_backend,                                         \
      .ops = (driver_ops),                                                \
      .queue = (queue_ops),                                               \
      .preload_runtime = (preload),                                       \
      .start_is_costly = adc_device_start_always_costly,                  \
  };
extern const struct adc_device_driver adc_device_simulated; /* device_simulated.c */

#endif /* ADC_DEVICE_DRIVERS_H */
