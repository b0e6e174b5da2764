/* The reference pair on CUDA: ARROW_DEVICE_CUDA (cudaMalloc),
 * ARROW_DEVICE_CUDA_HOST (pinned host memory) and ARROW_DEVICE_CUDA_MANAGED
 * (cudaMallocManaged), each with a cudaEvent_t* as sync_event.  The code is
 * shared with HIP: reference_device_gpu.inc. */
#include <cuda_runtime.h>
#include <string.h>

#include "reference_device.h"

typedef cudaError_t GPU_ERROR;
typedef cudaStream_t GPU_STREAM;
typedef cudaEvent_t GPU_EVENT;
#define GPU_SUCCESS cudaSuccess
#define GPU_GET_ERROR_STRING cudaGetErrorString
#define GPU_SET_DEVICE cudaSetDevice
#define GPU_STREAM_CREATE(stream) cudaStreamCreateWithFlags(stream, cudaStreamNonBlocking)
#define GPU_STREAM_SYNCHRONIZE cudaStreamSynchronize
#define GPU_STREAM_DESTROY cudaStreamDestroy
/* The default stream of the calling thread, on which cudaMemcpy runs. */
#define GPU_DEFAULT_STREAM ((cudaStream_t)0)
#define GPU_STREAM_WAIT_EVENT cudaStreamWaitEvent
#define GPU_MALLOC cudaMalloc
#define GPU_MALLOC_HOST(pointer, size) cudaMallocHost(pointer, size)
#define GPU_MALLOC_MANAGED(pointer, size) cudaMallocManaged(pointer, size, cudaMemAttachGlobal)
#define GPU_FREE cudaFree
#define GPU_FREE_HOST cudaFreeHost
#define GPU_MEMCPY cudaMemcpy
#define GPU_MEMCPY_ASYNC cudaMemcpyAsync
#define GPU_MEMCPY_DEFAULT cudaMemcpyDefault
#define GPU_EVENT_CREATE(event) cudaEventCreateWithFlags(event, cudaEventDisableTiming)
#define GPU_EVENT_RECORD cudaEventRecord
#define GPU_EVENT_DESTROY cudaEventDestroy
#define GPU_EVENT_QUERY cudaEventQuery
#define GPU_ERROR_NOT_READY cudaErrorNotReady

#include "reference_device_gpu.inc"

GPU_REFERENCE_DEVICE(ref_device_cuda, ARROW_DEVICE_CUDA, open_device_stream);
GPU_REFERENCE_DEVICE(ref_device_cuda_host, ARROW_DEVICE_CUDA_HOST, open_pinned_stream);
GPU_REFERENCE_DEVICE(ref_device_cuda_managed, ARROW_DEVICE_CUDA_MANAGED, open_managed_stream);

static const struct ref_device* const module_devices[] = {&ref_device_cuda, &ref_device_cuda_host,
                                                          &ref_device_cuda_managed};

GPU_MODULE_ENTRY_POINT
