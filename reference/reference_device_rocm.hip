/* The reference pair on ROCm: ARROW_DEVICE_ROCM (hipMalloc) and
 * ARROW_DEVICE_ROCM_HOST (hipHostMalloc), each with a hipEvent_t* as
 * sync_event.  The code is shared with CUDA: reference_device_gpu.inc. */
#include <hip/hip_runtime.h>
#include <string.h>

#include "reference_device.h"

typedef hipError_t GPU_ERROR;
typedef hipStream_t GPU_STREAM;
typedef hipEvent_t GPU_EVENT;
#define GPU_SUCCESS hipSuccess
#define GPU_GET_ERROR_STRING hipGetErrorString
#define GPU_SET_DEVICE hipSetDevice
#define GPU_STREAM_CREATE(stream) hipStreamCreateWithFlags(stream, hipStreamNonBlocking)
#define GPU_STREAM_SYNCHRONIZE hipStreamSynchronize
#define GPU_STREAM_DESTROY hipStreamDestroy
/* The default stream of the calling thread, on which hipMemcpy runs. */
#define GPU_DEFAULT_STREAM ((hipStream_t)0)
#define GPU_STREAM_WAIT_EVENT hipStreamWaitEvent
#define GPU_MALLOC hipMalloc
#define GPU_MALLOC_HOST(pointer, size) hipHostMalloc(pointer, size, hipHostMallocDefault)
#define GPU_MALLOC_MANAGED(pointer, size) hipMallocManaged(pointer, size, hipMemAttachGlobal)
#define GPU_FREE hipFree
#define GPU_FREE_HOST hipHostFree
#define GPU_MEMCPY hipMemcpy
#define GPU_MEMCPY_ASYNC hipMemcpyAsync
#define GPU_MEMCPY_DEFAULT hipMemcpyDefault
#define GPU_EVENT_CREATE(event) hipEventCreateWithFlags(event, hipEventDisableTiming)
#define GPU_EVENT_RECORD hipEventRecord
#define GPU_EVENT_DESTROY hipEventDestroy
#define GPU_EVENT_QUERY hipEventQuery
#define GPU_ERROR_NOT_READY hipErrorNotReady

#include "reference_device_gpu.inc"

GPU_REFERENCE_DEVICE(ref_device_rocm, ARROW_DEVICE_ROCM, open_device_stream);
GPU_REFERENCE_DEVICE(ref_device_rocm_host, ARROW_DEVICE_ROCM_HOST, open_pinned_stream);

static const struct ref_device* const module_devices[] = {&ref_device_rocm, &ref_device_rocm_host};

GPU_MODULE_ENTRY_POINT
