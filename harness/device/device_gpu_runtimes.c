/* CUDA and ROCm, known by name so that --device answers clearly.  Their
 * runtimes are looked up with dlopen in the child, so the harness builds and
 * runs on machines without them and reports the runtime's own reason when a
 * device is missing.  They have no data operations yet (the device issue
 * adds them), so no case is planned on them. */
#include <dlfcn.h>
#include <string.h>

#include "device/device_kinds.h"

/* Both runtimes share the shape: int get_device_count(int*), and a function
 * turning the returned code into text. */
typedef int (*get_count_fn)(int*);
typedef const char* (*error_string_fn)(int);

static int probe_runtime(const char* const* libraries, const char* count_symbol, const char* error_symbol,
                         struct adc_error* error) {
  void* handle = NULL;
  for (int i = 0; libraries[i] != NULL && handle == NULL; i++) {
    handle = dlopen(libraries[i], RTLD_NOW | RTLD_LOCAL);
  }
  if (handle == NULL) return adc_fail(error, "runtime not found: %s", dlerror());
  /* dlsym returns an object pointer; ISO C only lets its bytes be copied
   * into a function pointer. */
  void* count_address = dlsym(handle, count_symbol);
  void* error_address = dlsym(handle, error_symbol);
  if (count_address == NULL || error_address == NULL) {
    return adc_fail(error, "runtime library lacks %s", count_symbol);
  }
  get_count_fn get_count;
  error_string_fn error_string;
  memcpy(&get_count, &count_address, sizeof(get_count));
  memcpy(&error_string, &error_address, sizeof(error_string));
  int count = 0;
  int code = get_count(&count);
  if (code != 0) return adc_fail(error, "%s: %s", count_symbol, error_string(code));
  if (count == 0) return adc_fail(error, "%s found no device", count_symbol);
  return 0;
}

static int probe_cuda(const struct adc_device* device, struct adc_error* error) {
  (void)device;
  static const char* const libraries[] = {"libcudart.so", "libcudart.so.13", "libcudart.so.12", NULL};
  return probe_runtime(libraries, "cudaGetDeviceCount", "cudaGetErrorString", error);
}

static int probe_rocm(const struct adc_device* device, struct adc_error* error) {
  (void)device;
  static const char* const libraries[] = {"libamdhip64.so", "libamdhip64.so.5", NULL};
  return probe_runtime(libraries, "hipGetDeviceCount", "hipGetErrorString", error);
}

const struct adc_device adc_device_cuda = {
    .name = "cuda",
    .arrow_type = ARROW_DEVICE_CUDA,
    .device_id = 0,
    .event_type = "cudaEvent_t",
    .probe = probe_cuda,
};

const struct adc_device adc_device_rocm = {
    .name = "rocm",
    .arrow_type = ARROW_DEVICE_ROCM,
    .device_id = 0,
    .event_type = "hipEvent_t",
    .probe = probe_rocm,
};
