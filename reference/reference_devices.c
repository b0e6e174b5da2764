/* The devices the reference pair serves, listed once: the CPU and the
 * simulated device built in, the GPUs in modules loaded on first use
 * (reference_device.h). */
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "adc/device_kinds.h"
#include "reference_core.h"
#include "reference_device.h"

static const struct ref_allocator allocator = {ref_alloc, ref_free};

/* The module's file, in the folder of the library this code is part of. */
static void module_path(const char* module, char* path, size_t size) {
  Dl_info self;
  const char* folder_end = NULL;
  if (dladdr((void*)&allocator, &self) != 0 && self.dli_fname != NULL)
    folder_end = strrchr(self.dli_fname, '/');
  if (folder_end == NULL) {
    snprintf(path, size, "%s", module);
  } else {
    snprintf(path, size, "%.*s/%s", (int)(folder_end - self.dli_fname), self.dli_fname, module);
  }
}

static const struct ref_device* from_module(const char* module, ArrowDeviceType type) {
  char path[PATH_MAX];
  module_path(module, path, sizeof(path));
  void* handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (handle == NULL) return NULL;
  void* address = dlsym(handle, REF_GPU_MODULE_ENTRY);
  if (address == NULL) {
    /* Not a module of this reference: nothing of it is used, so it goes. */
    dlclose(handle);
    return NULL;
  }
  ref_gpu_module_entry entry;
  memcpy(&entry, &address, sizeof(entry)); /* ISO C: a function pointer from dlsym's bytes */
  /* A device found stays loaded for the process's life: its table and
   * operations live in the module. */
  return entry(type, &allocator);
}

const struct ref_device* ref_device_for(ArrowDeviceType type) {
  switch (type) {
    case ARROW_DEVICE_CPU:
      return &ref_device_cpu;
    case ARROW_DEVICE_EXT_DEV:
      return &ref_device_simulated;
    case ARROW_DEVICE_CUDA:
    case ARROW_DEVICE_CUDA_HOST:
    case ARROW_DEVICE_CUDA_MANAGED:
      return from_module("libadc_reference_cuda.so", type);
    case ARROW_DEVICE_ROCM:
    case ARROW_DEVICE_ROCM_HOST:
      return from_module("libadc_reference_rocm.so", type);
    case ARROW_DEVICE_OPENCL:
      return from_module("libadc_reference_opencl.so", type);
    default:
      return NULL;
  }
}

int ref_device_host_readable(const struct ref_device* device) {
  const struct adc_device_kind* kind = adc_device_kind_of_type(device->type);
  return kind != NULL && kind->host_readable;
}
