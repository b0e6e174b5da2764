/* The CUDA driver functions nanoarrow's CUDA device (cuda.c) calls, each
 * resolving its namesake in libcuda.so.1 on first use.
 *
 * libcuda.so.1 comes with NVIDIA's kernel driver, not with the toolkit, so
 * a machine without a GPU lacks it, and a library linked to it would not
 * load there: the adapter could then judge no device at all.  Built into
 * libnanoarrow.so beside cuda.c, these definitions stand where the
 * driver's would (hidden: only cuda.c binds to them, never another
 * library of the process, such as the CUDA runtime the harness loads).
 * Where the driver cannot be loaded every call returns
 * CUDA_ERROR_NOT_FOUND, so that ArrowDeviceCuda finds no device, and
 * adc_nanoarrow_cuda_unavailable gives the loader's reason.  nanoarrow's
 * own code runs unchanged. */
#include <cuda.h>
#include <dlfcn.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "adapter.h"

static void* driver;
static char driver_problem[512];
static pthread_once_t driver_once = PTHREAD_ONCE_INIT;

static void load_driver(void) {
  driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (driver == NULL) snprintf(driver_problem, sizeof(driver_problem), "%s", dlerror());
}

/* The driver's function `symbol` into `*function` (a function pointer's
 * bytes: ISO C converts no object pointer to a function pointer); 0, or
 * -1 where the driver or the symbol is missing. */
static int resolve(const char* symbol, void* function, size_t size) {
  pthread_once(&driver_once, load_driver);
  void* address = driver != NULL ? dlsym(driver, symbol) : NULL;
  if (address == NULL) return -1;
  memcpy(function, &address, size);
  return 0;
}

/* cuda.h names most functions by a macro for their versioned symbol
 * (cuMemFree is cuMemFree_v2): the symbol is the name as expanded. */
#define SYMBOL_OF(name) SYMBOL_TEXT(name)
#define SYMBOL_TEXT(name) #name

#define FORWARD(name, parameters, arguments)                                            \
  __attribute__((visibility("hidden"))) CUresult CUDAAPI name parameters {              \
    static CUresult(CUDAAPI* resolved) parameters;                                      \
    if (resolved == NULL && resolve(SYMBOL_OF(name), &resolved, sizeof(resolved)) != 0) \
      return CUDA_ERROR_NOT_FOUND;                                                      \
    return resolved arguments;                                                          \
  }

FORWARD(cuInit, (unsigned int flags), (flags))
FORWARD(cuDeviceGet, (CUdevice * device, int ordinal), (device, ordinal))
FORWARD(cuDeviceGetCount, (int* count), (count))
FORWARD(cuDevicePrimaryCtxRetain, (CUcontext * context, CUdevice device), (context, device))
FORWARD(cuDevicePrimaryCtxRelease, (CUdevice device), (device))
FORWARD(cuCtxPushCurrent, (CUcontext context), (context))
FORWARD(cuCtxPopCurrent, (CUcontext * context), (context))
FORWARD(cuGetErrorName, (CUresult error, const char** name), (error, name))
FORWARD(cuGetErrorString, (CUresult error, const char** text), (error, text))
FORWARD(cuEventCreate, (CUevent * event, unsigned int flags), (event, flags))
FORWARD(cuEventDestroy, (CUevent event), (event))
FORWARD(cuEventRecord, (CUevent event, CUstream stream), (event, stream))
FORWARD(cuEventSynchronize, (CUevent event), (event))
FORWARD(cuStreamWaitEvent, (CUstream stream, CUevent event, unsigned int flags), (stream, event, flags))
FORWARD(cuMemAllocAsync, (CUdeviceptr * memory, size_t size, CUstream stream), (memory, size, stream))
FORWARD(cuMemAllocHost, (void** memory, size_t size), (memory, size))
FORWARD(cuMemFree, (CUdeviceptr memory), (memory))
FORWARD(cuMemFreeHost, (void* memory), (memory))
FORWARD(cuMemcpyDtoDAsync, (CUdeviceptr to, CUdeviceptr from, size_t size, CUstream stream),
        (to, from, size, stream))
FORWARD(cuMemcpyDtoHAsync, (void* to, CUdeviceptr from, size_t size, CUstream stream),
        (to, from, size, stream))
FORWARD(cuMemcpyHtoDAsync, (CUdeviceptr to, const void* from, size_t size, CUstream stream),
        (to, from, size, stream))
FORWARD(cuMemcpyPeerAsync,
        (CUdeviceptr to, CUcontext to_context, CUdeviceptr from, CUcontext from_context, size_t size,
         CUstream stream),
        (to, to_context, from, from_context, size, stream))

/* A driver call's failure, "cuInit: CUDA_ERROR_NO_DEVICE (no CUDA-capable
 * device is detected)", into `out`. */
static void describe(const char* call, CUresult code, char* out, size_t size) {
  const char* name = NULL;
  const char* text = NULL;
  if (cuGetErrorName(code, &name) != CUDA_SUCCESS || name == NULL) name = "an unnamed error";
  if (cuGetErrorString(code, &text) != CUDA_SUCCESS || text == NULL) text = "no description";
  snprintf(out, size, "%s: %s (%s)", call, name, text);
}

/* Exported: the adapter (libadc_nanoarrow.so) asks it. */
__attribute__((visibility("default"))) const char* adc_nanoarrow_cuda_unavailable(int64_t device_id) {
  static char reason[1024];
  pthread_once(&driver_once, load_driver);
  if (driver == NULL) {
    snprintf(reason, sizeof(reason), "the CUDA driver cannot be loaded: %s", driver_problem);
    return reason;
  }
  CUresult code = cuInit(0);
  if (code != CUDA_SUCCESS) {
    describe("cuInit", code, reason, sizeof(reason));
    return reason;
  }
  int count = 0;
  code = cuDeviceGetCount(&count);
  if (code != CUDA_SUCCESS) {
    describe("cuDeviceGetCount", code, reason, sizeof(reason));
  } else if (device_id < 0 || device_id >= count) {
    snprintf(reason, sizeof(reason), "the CUDA driver finds %d device(s), and no device %" PRId64, count,
             device_id);
  } else {
    snprintf(reason, sizeof(reason),
             "nanoarrow's ArrowDeviceCuda found no device %" PRId64
             " (a device of the driver failed to start: cuDevicePrimaryCtxRetain)",
             device_id);
  }
  return reason;
}
