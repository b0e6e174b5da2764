/* The devices the harness knows.  The CPU needs no runtime.  CUDA and ROCm
 * runtimes are looked up with dlopen in the child, so the harness builds and
 * runs on machines without them and reports the runtime's own reason when a
 * device is missing. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "device.h"

static int probe_cpu(char* reason, size_t reason_size) {
  (void)reason;
  (void)reason_size;
  return 0;
}

/* Both runtimes share the shape: int get_device_count(int*), and a
 * function turning the returned code into text. */
static int probe_runtime(const char* const* libraries, const char* count_symbol,
                         const char* error_symbol, char* reason, size_t reason_size) {
  void* handle = NULL;
  for (int i = 0; libraries[i] != NULL && handle == NULL; i++) {
    handle = dlopen(libraries[i], RTLD_NOW | RTLD_LOCAL);
  }
  if (handle == NULL) {
    snprintf(reason, reason_size, "runtime not found: %s", dlerror());
    return -1;
  }
  int (*get_count)(int*) = (int (*)(int*))dlsym(handle, count_symbol);
  const char* (*error_string)(int) = (const char* (*)(int))dlsym(handle, error_symbol);
  if (get_count == NULL || error_string == NULL) {
    snprintf(reason, reason_size, "runtime library lacks %s", count_symbol);
    return -1;
  }
  int count = 0;
  int code = get_count(&count);
  if (code != 0) {
    snprintf(reason, reason_size, "%s: %s", count_symbol, error_string(code));
    return -1;
  }
  if (count == 0) {
    snprintf(reason, reason_size, "%s found no device", count_symbol);
    return -1;
  }
  return 0;
}

static int probe_cuda(char* reason, size_t reason_size) {
  static const char* const libraries[] = {"libcudart.so", "libcudart.so.13", "libcudart.so.12", NULL};
  return probe_runtime(libraries, "cudaGetDeviceCount", "cudaGetErrorString", reason, reason_size);
}

static int probe_rocm(char* reason, size_t reason_size) {
  static const char* const libraries[] = {"libamdhip64.so", "libamdhip64.so.5", NULL};
  return probe_runtime(libraries, "hipGetDeviceCount", "hipGetErrorString", reason, reason_size);
}

static const struct adc_device devices[] = {
    {"cpu", ADC_DEVICE_CPU, ARROW_DEVICE_CPU, -1, probe_cpu},
    {"cuda", ADC_DEVICE_CUDA, ARROW_DEVICE_CUDA, 0, probe_cuda},
    {"rocm", ADC_DEVICE_ROCM, ARROW_DEVICE_ROCM, 0, probe_rocm},
};

const struct adc_device* adc_device_find(const char* name) {
  for (size_t i = 0; i < sizeof(devices) / sizeof(devices[0]); i++) {
    if (strcmp(devices[i].name, name) == 0) return &devices[i];
  }
  return NULL;
}

const char* adc_device_names(void) { return "cpu, cuda, rocm"; }
