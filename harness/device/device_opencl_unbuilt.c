/* The opencl device of a harness built without OpenCL's headers (CL/cl.h:
 * Debian's opencl-headers): every case on it ends not_supported, saying
 * so, as a GPU's do on a machine without the GPU. */
#include "device/device_drivers.h"

static int unbuilt_open(struct adc_device* device, struct adc_error* error) {
  (void)device;
  return adc_fail(error,
                  "this adc-conform was built without OpenCL's headers (CL/cl.h): rebuild it with them");
}

static int unbuilt_never(const struct adc_device* device, void* sync_event, struct adc_error* error) {
  (void)device;
  (void)sync_event;
  return adc_fail(error, "no OpenCL in this build");
}

static int unbuilt_copy(const struct adc_device* device, void* destination, const void* source, size_t size,
                        struct adc_error* error) {
  (void)device;
  (void)destination;
  (void)source;
  (void)size;
  return adc_fail(error, "no OpenCL in this build");
}

static void* unbuilt_allocate(const struct adc_device* device, size_t size, bool protectable,
                              struct adc_error* error) {
  (void)device;
  (void)size;
  (void)protectable;
  adc_fail(error, "no OpenCL in this build");
  return NULL;
}

static void unbuilt_free(const struct adc_device* device, void* memory, size_t size, bool protectable) {
  (void)device;
  (void)memory;
  (void)size;
  (void)protectable;
}

/* Only open is ever called (it fails); the rest keep the driver whole. */
static const struct adc_device_ops unbuilt_ops = {
    .open = unbuilt_open,
    .wait_event = unbuilt_never,
    .copy_to_host = unbuilt_copy,
    .copy_from_host = unbuilt_copy,
    .allocate = unbuilt_allocate,
    .free = unbuilt_free,
    .check_event = unbuilt_never,
};

/* No queue, and nothing to preload. */
ADC_DEFINE_OPENCL_DRIVER(&unbuilt_ops, NULL, NULL)
