/* A stand-in for the CUDA driver (libcuda.so.1) in host memory, for the
 * nanoarrow_cuda_stand_in test alone: "device" memory is malloc'd, copies
 * are memcpy, streams and events do nothing (every copy has landed when
 * it returns).  It lets the adapter's CUDA path run through nanoarrow's
 * own CUDA device (cuda.c, with the adapter's cuda_driver.c) on a machine
 * without a GPU: the calls nanoarrow makes, the stream the adapter gives
 * them, the shape of what comes back.  What it cannot show is anything of
 * a GPU (device memory the CPU cannot read, asynchronous copies, events):
 * no case on cuda is judged with it, and the build keeps it in a folder of
 * its own, which only that test puts on the library path. */
#include <cuda.h>
#include <stdlib.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))

EXPORT CUresult cuInit(unsigned int flags) {
  (void)flags;
  return CUDA_SUCCESS;
}
EXPORT CUresult cuDeviceGetCount(int* count) {
  *count = 1;
  return CUDA_SUCCESS;
}
EXPORT CUresult cuDeviceGet(CUdevice* device, int ordinal) {
  *device = ordinal;
  return ordinal == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}
EXPORT CUresult cuDevicePrimaryCtxRetain(CUcontext* context, CUdevice device) {
  static int the_context;
  (void)device;
  *context = (CUcontext)(void*)&the_context;
  return CUDA_SUCCESS;
}
EXPORT CUresult cuDevicePrimaryCtxRelease(CUdevice device) {
  (void)device;
  return CUDA_SUCCESS;
}
EXPORT CUresult cuCtxPushCurrent(CUcontext context) {
  (void)context;
  return CUDA_SUCCESS;
}
EXPORT CUresult cuCtxPopCurrent(CUcontext* context) {
  if (context != NULL) *context = NULL;
  return CUDA_SUCCESS;
}
EXPORT CUresult cuGetErrorName(CUresult error, const char** name) {
  (void)error;
  *name = "CUDA_ERROR_OF_THE_STAND_IN";
  return CUDA_SUCCESS;
}
EXPORT CUresult cuGetErrorString(CUresult error, const char** text) {
  (void)error;
  *text = "an error of the host-memory stand-in";
  return CUDA_SUCCESS;
}
EXPORT CUresult cuEventCreate(CUevent* event, unsigned int flags) {
  (void)flags;
  *event = (CUevent)malloc(1);
  return *event != NULL ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}
EXPORT CUresult cuEventDestroy(CUevent event) {
  free(event);
  return CUDA_SUCCESS;
}
EXPORT CUresult cuEventRecord(CUevent event, CUstream stream) {
  (void)event;
  (void)stream;
  return CUDA_SUCCESS;
}
EXPORT CUresult cuEventSynchronize(CUevent event) {
  (void)event;
  return CUDA_SUCCESS;
}
EXPORT CUresult cuStreamWaitEvent(CUstream stream, CUevent event, unsigned int flags) {
  (void)stream;
  (void)event;
  (void)flags;
  return CUDA_SUCCESS;
}
EXPORT CUresult cuMemAllocAsync(CUdeviceptr* memory, size_t size, CUstream stream) {
  (void)stream;
  void* block = malloc(size > 0 ? size : 1);
  *memory = (CUdeviceptr)block;
  return block != NULL ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}
EXPORT CUresult cuMemAllocHost(void** memory, size_t size) {
  *memory = malloc(size > 0 ? size : 1);
  return *memory != NULL ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}
EXPORT CUresult cuMemFree(CUdeviceptr memory) {
  free((void*)memory);
  return CUDA_SUCCESS;
}
EXPORT CUresult cuMemFreeHost(void* memory) {
  free(memory);
  return CUDA_SUCCESS;
}
EXPORT CUresult cuMemcpyDtoDAsync(CUdeviceptr to, CUdeviceptr from, size_t size, CUstream stream) {
  (void)stream;
  memcpy((void*)to, (const void*)from, size);
  return CUDA_SUCCESS;
}
EXPORT CUresult cuMemcpyDtoHAsync(void* to, CUdeviceptr from, size_t size, CUstream stream) {
  (void)stream;
  memcpy(to, (const void*)from, size);
  return CUDA_SUCCESS;
}
EXPORT CUresult cuMemcpyHtoDAsync(CUdeviceptr to, const void* from, size_t size, CUstream stream) {
  (void)stream;
  memcpy((void*)to, from, size);
  return CUDA_SUCCESS;
}
EXPORT CUresult cuMemcpyPeerAsync(CUdeviceptr to, CUcontext to_context, CUdeviceptr from,
                                  CUcontext from_context, size_t size, CUstream stream) {
  (void)to_context;
  (void)from_context;
  (void)stream;
  memcpy((void*)to, (const void*)from, size);
  return CUDA_SUCCESS;
}
