/* N6 (a candidate, read in the source; to be shown on a GPU): nanoarrow's
 * CUDA device allocates an array's device buffers in stream order
 * (cuMemAllocAsync on the copy's stream, ArrowDeviceCudaAllocateBufferAsync
 * in cuda.c) and its release frees them with cuMemFree
 * (ArrowDeviceCudaDeallocator), having destroyed the array's event without
 * waiting on it (ArrowDeviceCudaArrayRelease).  For memory from
 * cuMemAllocAsync, cuMemFree "will not perform any implicit
 * synchronization" (CUDA driver API): the caller must make sure every access
 * has completed.  So a consumer that releases an array before the copy that
 * fills it has landed (it need not wait on sync_event unless it reads the
 * data) has nanoarrow free memory that the copy then writes.
 *
 * spec (C Device Data Interface, "The ArrowDeviceArray structure"): "any
 * data pointed to by the struct MUST be allocated and maintained by the
 * producer", its lifetime "managed through the release callback".
 *
 * What it does: a CPU int32 array whose data sit in pinned host memory, so
 * that the copy is truly asynchronous, is copied to the GPU by
 * ArrowDeviceArrayViewCopyAsync on a stream held back by a host function
 * that sleeps 500 ms; the copy is released at once, as a consumer that
 * declines the batch does.  Then, on another stream, memory of the same
 * size is allocated from the same pool and filled with 0xEE; when the first
 * stream has run, the program looks whether that memory still holds 0xEE
 * and whether the device reports an error.
 *
 * No harness, no adapter: nanoarrow's library and the CUDA driver, loaded
 * with dlopen (the program builds without NVIDIA's driver).
 *
 * Exit 0: reproduced (the device wrote freed memory: another allocation's
 * bytes changed, or the device reports an error); 1: not reproduced
 * (release waited for the copy); 2: setup error, or inconclusive (the pool
 * handed out other memory and nothing failed); 77: not run (no GPU). */
#include <cuda.h>
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_device.h"

#define VALUES (4 * 1024 * 1024)
#define BYTES ((size_t)VALUES * sizeof(int32_t))

/* The driver functions this program calls itself (nanoarrow resolves its
 * own), by their versioned symbols as cuda.h names them. */
#define DRIVER_FUNCTIONS(X)                                          \
  X(cuInit, (unsigned int))                                          \
  X(cuDeviceGet, (CUdevice*, int))                                   \
  X(cuDevicePrimaryCtxRetain, (CUcontext*, CUdevice))                \
  X(cuCtxSetCurrent, (CUcontext))                                    \
  X(cuStreamCreate, (CUstream*, unsigned int))                       \
  X(cuStreamSynchronize, (CUstream))                                 \
  X(cuLaunchHostFunc, (CUstream, CUhostFn, void*))                   \
  X(cuMemAllocHost, (void**, size_t))                                \
  X(cuMemFreeHost, (void*))                                          \
  X(cuMemAllocAsync, (CUdeviceptr*, size_t, CUstream))               \
  X(cuMemsetD8Async, (CUdeviceptr, unsigned char, size_t, CUstream)) \
  X(cuMemcpyDtoH, (void*, CUdeviceptr, size_t))                      \
  X(cuCtxSynchronize, (void))                                        \
  X(cuGetErrorName, (CUresult, const char**))

#define SYMBOL_TEXT(name) #name
#define SYMBOL_OF(name) SYMBOL_TEXT(name)
#define DECLARE(name, parameters) CUresult(*name) parameters;
static struct { DRIVER_FUNCTIONS(DECLARE) } driver;
#undef DECLARE

static int load_driver(void) {
  void* library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (library == NULL) {
    printf("not run: no CUDA driver (%s)\n", dlerror());
    return 77;
  }
#define RESOLVE(name, parameters)                                          \
  {                                                                        \
    void* address = dlsym(library, SYMBOL_OF(name));                       \
    if (address == NULL) {                                                 \
      printf("setup error: the CUDA driver has no %s\n", SYMBOL_OF(name)); \
      return 2;                                                            \
    }                                                                      \
    memcpy(&driver.name, &address, sizeof(address));                       \
  }
  DRIVER_FUNCTIONS(RESOLVE)
#undef RESOLVE
  return 0;
}

static const char* name_of(CUresult code) {
  const char* name = NULL;
  if (driver.cuGetErrorName(code, &name) != CUDA_SUCCESS || name == NULL) return "an unnamed error";
  return name;
}

static void CUDA_CB hold_the_stream(void* unused) {
  (void)unused;
  struct timespec pause = {0, 500 * 1000 * 1000};
  nanosleep(&pause, NULL);
}

static void release_pinned_array(struct ArrowArray* array) {
  driver.cuMemFreeHost((void*)array->buffers[1]);
  ArrowFree(array->buffers);
  array->release = NULL;
}

int main(void) {
  int loaded = load_driver();
  if (loaded != 0) return loaded;
  CUresult code = driver.cuInit(0);
  CUdevice device;
  CUcontext context;
  if (code == CUDA_SUCCESS) code = driver.cuDeviceGet(&device, 0);
  if (code == CUDA_SUCCESS) code = driver.cuDevicePrimaryCtxRetain(&context, device);
  if (code == CUDA_SUCCESS) code = driver.cuCtxSetCurrent(context);
  if (code != CUDA_SUCCESS) {
    printf("not run: no CUDA device (%s)\n", name_of(code));
    return 77;
  }
  struct ArrowDevice* gpu = ArrowDeviceCuda(ARROW_DEVICE_CUDA, 0);
  if (gpu == NULL) {
    printf("setup error: nanoarrow's ArrowDeviceCuda has no device 0\n");
    return 2;
  }

  /* The CPU array: its data pinned, so that the copy waits for its stream. */
  void* pinned = NULL;
  const void** buffers = (const void**)ArrowMalloc(2 * sizeof(void*));
  if (buffers == NULL || driver.cuMemAllocHost(&pinned, BYTES) != CUDA_SUCCESS) {
    printf("setup error: no pinned memory\n");
    return 2;
  }
  for (int32_t i = 0; i < VALUES; i++) ((int32_t*)pinned)[i] = i;
  buffers[0] = NULL;
  buffers[1] = pinned;
  struct ArrowArray cpu_array;
  memset(&cpu_array, 0, sizeof(cpu_array));
  cpu_array.length = VALUES;
  cpu_array.n_buffers = 2;
  cpu_array.buffers = buffers;
  cpu_array.release = release_pinned_array;
  struct ArrowSchema schema;
  struct ArrowError error;
  struct ArrowDeviceArray on_cpu;
  struct ArrowDeviceArrayView view;
  ArrowDeviceArrayViewInit(&view);
  if (ArrowSchemaInitFromType(&schema, NANOARROW_TYPE_INT32) != NANOARROW_OK ||
      ArrowDeviceArrayInit(ArrowDeviceCpu(), &on_cpu, &cpu_array, NULL) != NANOARROW_OK ||
      ArrowArrayViewInitFromSchema(&view.array_view, &schema, &error) != NANOARROW_OK ||
      ArrowDeviceArrayViewSetArray(&view, &on_cpu, &error) != NANOARROW_OK) {
    printf("setup error: building the CPU array\n");
    return 2;
  }

  /* The copy to the GPU, held back behind a host function on its stream. */
  CUstream copying;
  CUstream other;
  if (driver.cuStreamCreate(&copying, CU_STREAM_NON_BLOCKING) != CUDA_SUCCESS ||
      driver.cuStreamCreate(&other, CU_STREAM_NON_BLOCKING) != CUDA_SUCCESS ||
      driver.cuLaunchHostFunc(copying, hold_the_stream, NULL) != CUDA_SUCCESS) {
    printf("setup error: streams\n");
    return 2;
  }
  struct ArrowDeviceArray on_gpu;
  if (ArrowDeviceArrayViewCopyAsync(&view, gpu, &on_gpu, &copying) != NANOARROW_OK) {
    printf("setup error: ArrowDeviceArrayViewCopyAsync failed\n");
    return 2;
  }
  CUdeviceptr copy_at = (CUdeviceptr)on_gpu.array.buffers[1];
  /* The consumer releases the batch unread: nanoarrow frees its buffers. */
  ArrowArrayRelease(&on_gpu.array);

  /* Memory of the same size from the same pool, on another stream. */
  CUdeviceptr reused = 0;
  code = driver.cuMemAllocAsync(&reused, BYTES, other);
  if (code == CUDA_SUCCESS) code = driver.cuMemsetD8Async(reused, 0xEE, BYTES, other);
  if (code == CUDA_SUCCESS) code = driver.cuStreamSynchronize(other);
  CUresult after = driver.cuCtxSynchronize();
  unsigned char first[16];
  CUresult read = code == CUDA_SUCCESS && after == CUDA_SUCCESS
                      ? driver.cuMemcpyDtoH(first, reused, sizeof(first))
                      : CUDA_SUCCESS;

  printf("spec: \"any data pointed to by the struct MUST be allocated and maintained by the producer\"\n");
  printf("copy's buffer at 0x%llx; the allocation made after the release at 0x%llx (%s)\n",
         (unsigned long long)copy_at, (unsigned long long)reused,
         copy_at == reused ? "the same memory" : "other memory");
  if (code != CUDA_SUCCESS || after != CUDA_SUCCESS || read != CUDA_SUCCESS) {
    printf(
        "REPRODUCED N6: after nanoarrow released the array whose copy was still pending, the device "
        "reports %s\n",
        name_of(code != CUDA_SUCCESS    ? code
                : after != CUDA_SUCCESS ? after
                                        : read));
    return 0;
  }
  if (first[0] != 0xEE) {
    printf(
        "REPRODUCED N6: the pending copy wrote into memory nanoarrow had freed, since given to another "
        "allocation (its first byte is 0x%02x, not 0xEE)\n",
        first[0]);
    return 0;
  }
  if (copy_at != reused) {
    printf(
        "inconclusive: the pool gave the later allocation other memory, and the device reports no error\n");
    return 2;
  }
  printf("NOT REPRODUCED N6: the release left no copy writing freed memory\n");
  return 1;
}
