/* The reference producer and consumer on an OpenCL device
 * (ARROW_DEVICE_OPENCL), a module of its own, libadc_reference_opencl.so,
 * loaded the first time an OpenCL device is asked for (reference_device.h):
 * loading an OpenCL platform (PoCL brings LLVM) costs every process that
 * does it, and most never touch one.
 *
 * How this project reads the spec for OpenCL (CONFORMANCE.md, "OpenCL"):
 * buffers are fine-grained SVM pointers, the sync_event is a cl_event*
 * (producer-owned storage holding a cl_event, live until release), and
 * device_id counts every device of every platform in the ICD loader's
 * order.
 *
 * Producer (spec: "Memory management": only the buffers live on the
 * device): each export has an in-order queue of its own; each buffer is
 * an SVM allocation whose bytes are queued there as a non-blocking
 * clEnqueueSVMMemcpy, and a marker after the last one is exported as
 * &event (spec: "the producer MUST ensure that the exported data is
 * available on the device before the event is triggered").  Release
 * finishes the queue before it frees anything (a consumer may release
 * without waiting), then releases the event and the queue.  No kernels:
 * building one costs PoCL a second per process.
 *
 * Consumer: the event may belong to another context than ours, so the wait
 * is queued where the event lives: a queue in the event's context, a
 * barrier on the event, clFinish (spec: "the consumer should not attempt to
 * access or read the data until they have synchronized on that event"). */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "reference_device.h"

/* Host memory comes from the reference's allocator, given at load time. */
static const struct ref_allocator* host_allocator;

/* This process's device: opened on the first export, kept to the end.
 * Exports may start on several threads at once (an async producer's
 * tasks are extracted where the consumer calls): the first opens it, under
 * the lock, and the others use what it opened. */
static pthread_mutex_t opening = PTHREAD_MUTEX_INITIALIZER;
static struct {
  int64_t device_id;
  cl_device_id device;
  cl_context context;
  int opened;
} ours;

static _Thread_local char failure[160]; /* per thread: exports run on several */

/* NULL for CL_SUCCESS, else "<what> failed: OpenCL error <code>". */
static const char* cl_failure(cl_int code, const char* what) {
  if (code == CL_SUCCESS) return NULL;
  snprintf(failure, sizeof(failure), "%s failed: OpenCL error %d", what, (int)code);
  return failure;
}

/* The device_id-th device of all platforms, in enumeration order. */
static const char* find_device(int64_t device_id, cl_device_id* out) {
  cl_platform_id platforms[16];
  cl_uint n_platforms = 0;
  const char* error = cl_failure(clGetPlatformIDs(16, platforms, &n_platforms), "clGetPlatformIDs");
  if (error != NULL) return error;
  int64_t before = 0;
  for (cl_uint p = 0; p < n_platforms && p < 16; p++) {
    cl_device_id devices[64];
    cl_uint n_devices = 0;
    if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 64, devices, &n_devices) != CL_SUCCESS) continue;
    if (n_devices > 64) n_devices = 64; /* those it wrote */
    if (device_id < before + n_devices) {
      *out = devices[device_id - before];
      return NULL;
    }
    before += n_devices;
  }
  return "no OpenCL device of that device_id";
}

static const char* open_device(int64_t device_id) {
  if (ours.opened)
    return ours.device_id == device_id ? NULL : "the OpenCL module serves one device_id a process";
  const char* error = find_device(device_id, &ours.device);
  if (error != NULL) return error;
  cl_int code = CL_SUCCESS;
  /* Buffers are fine-grained SVM, which the consumer reads in place once
   * it waited (CONFORMANCE.md, "OpenCL"). */
  cl_device_svm_capabilities svm = 0;
  error = cl_failure(clGetDeviceInfo(ours.device, CL_DEVICE_SVM_CAPABILITIES, sizeof(svm), &svm, NULL),
                     "clGetDeviceInfo(CL_DEVICE_SVM_CAPABILITIES)");
  if (error != NULL) return error;
  if ((svm & CL_DEVICE_SVM_FINE_GRAIN_BUFFER) == 0) return "the OpenCL device has no fine-grained buffer SVM";
  ours.context = clCreateContext(NULL, 1, &ours.device, NULL, NULL, &code);
  if ((error = cl_failure(code, "clCreateContext")) != NULL) return error;
  ours.device_id = device_id;
  ours.opened = 1;
  return NULL;
}

struct ref_stream {
  cl_command_queue queue; /* in order, this export's own */
  cl_event event;         /* exported as &event */
  int event_made;
  void** staging; /* host bytes the queued copies read, freed with the stream */
  size_t n_staging;
};

static const char* opencl_open_stream(int64_t device_id, struct ref_stream** out) {
  pthread_mutex_lock(&opening);
  const char* error = open_device(device_id);
  pthread_mutex_unlock(&opening);
  if (error != NULL) return error;
  struct ref_stream* stream = host_allocator->alloc(sizeof(*stream));
  if (stream == NULL) return "out of memory";
  memset(stream, 0, sizeof(*stream));
  cl_int code = CL_SUCCESS;
  stream->queue = clCreateCommandQueueWithProperties(ours.context, ours.device, NULL, &code);
  if ((error = cl_failure(code, "clCreateCommandQueueWithProperties")) != NULL) {
    host_allocator->free(stream);
    return error;
  }
  *out = stream;
  return NULL;
}

static const char* opencl_upload(struct ref_stream* stream, void* host, size_t size, void** device) {
  /* Room to keep `host` until the copy has read it, made first: once the
   * copy is queued nothing may fail. */
  void** staging = host_allocator->alloc((stream->n_staging + 1) * sizeof(void*));
  if (staging == NULL) {
    host_allocator->free(host);
    return "out of memory";
  }
  if (stream->n_staging > 0) memcpy(staging, stream->staging, stream->n_staging * sizeof(void*));
  host_allocator->free(stream->staging);
  stream->staging = staging;
  void* memory = clSVMAlloc(ours.context, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER, size, 0);
  if (memory == NULL) {
    host_allocator->free(host);
    return "clSVMAlloc of fine-grained memory failed";
  }
  const char* error = cl_failure(
      clEnqueueSVMMemcpy(stream->queue, CL_FALSE, memory, host, size, 0, NULL, NULL), "clEnqueueSVMMemcpy");
  if (error != NULL) {
    clSVMFree(ours.context, memory);
    host_allocator->free(host);
    return error;
  }
  stream->staging[stream->n_staging++] = host;
  *device = memory;
  return NULL;
}

static const char* opencl_record_event(struct ref_stream* stream, void** sync_event) {
  const char* error = cl_failure(clEnqueueMarkerWithWaitList(stream->queue, 0, NULL, &stream->event),
                                 "clEnqueueMarkerWithWaitList");
  if (error != NULL) return error;
  stream->event_made = 1;
  clFlush(stream->queue); /* submitted now: a runtime may hold commands until a flush */
  *sync_event = &stream->event;
  return NULL;
}

static void opencl_free_buffer(struct ref_stream* stream, void* buffer) {
  /* A consumer may release a batch without waiting on its event: a copy
   * queued into the buffer may still be running, and freeing under it
   * (PoCL's SVM is host memory) corrupts the heap.  The stream's work ends
   * first; after the first buffer the queue is empty and this is cheap. */
  clFinish(stream->queue);
  clSVMFree(ours.context, buffer);
}

static void opencl_close_stream(struct ref_stream* stream) {
  clFinish(stream->queue);
  clReleaseCommandQueue(stream->queue);
  if (stream->event_made) clReleaseEvent(stream->event);
  for (size_t i = 0; i < stream->n_staging; i++) host_allocator->free(stream->staging[i]);
  host_allocator->free(stream->staging);
  host_allocator->free(stream);
}

static const char* opencl_wait_event(void* sync_event) {
  /* spec: "If the sync_event member is NULL, then it MUST be safe to access
   * the data without any synchronization necessary on the part of the
   * consumer." */
  if (sync_event == NULL) return NULL;
  cl_event event = *(cl_event*)sync_event;
  cl_context context = NULL;
  const char* error = cl_failure(clGetEventInfo(event, CL_EVENT_CONTEXT, sizeof(context), &context, NULL),
                                 "clGetEventInfo(CL_EVENT_CONTEXT)");
  if (error != NULL) return error;
  cl_device_id device = NULL;
  error = cl_failure(clGetContextInfo(context, CL_CONTEXT_DEVICES, sizeof(device), &device, NULL),
                     "clGetContextInfo(CL_CONTEXT_DEVICES)");
  if (error != NULL) return error;
  cl_int code = CL_SUCCESS;
  cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, NULL, &code);
  if ((error = cl_failure(code, "clCreateCommandQueueWithProperties")) != NULL) return error;
  error = cl_failure(clEnqueueBarrierWithWaitList(queue, 1, &event, NULL), "clEnqueueBarrierWithWaitList");
  if (error == NULL) error = cl_failure(clFinish(queue), "clFinish");
  clReleaseCommandQueue(queue);
  return error;
}

static const char* opencl_query_event(void* sync_event, bool* complete) {
  *complete = true;
  if (sync_event == NULL) return NULL;
  cl_int status = CL_COMPLETE;
  const char* error = cl_failure(clGetEventInfo(*(cl_event*)sync_event, CL_EVENT_COMMAND_EXECUTION_STATUS,
                                                sizeof(status), &status, NULL),
                                 "clGetEventInfo(CL_EVENT_COMMAND_EXECUTION_STATUS)");
  if (error == NULL && status < 0) error = "the event's command ended with an error";
  *complete = error != NULL || status == CL_COMPLETE;
  return error;
}

/* Fine-grained SVM: the consumer reads in place once it waited. */
static const char* opencl_copy_to_host(void* host, const void* device, size_t size) {
  memcpy(host, device, size);
  return NULL;
}

static const struct ref_device opencl_device = {
    .type = ARROW_DEVICE_OPENCL,
    .open_stream = opencl_open_stream,
    .upload = opencl_upload,
    .record_event = opencl_record_event,
    .free_buffer = opencl_free_buffer,
    .close_stream = opencl_close_stream,
    .wait_event = opencl_wait_event,
    .query_event = opencl_query_event,
    .copy_to_host = opencl_copy_to_host,
    .copy_from_host = NULL, /* the CPU writes fine-grained SVM in place */
};

__attribute__((visibility("default"))) const struct ref_device* adc_reference_gpu_device(
    ArrowDeviceType type, const struct ref_allocator* allocator) {
  host_allocator = allocator;
  return type == ARROW_DEVICE_OPENCL ? &opencl_device : NULL;
}
