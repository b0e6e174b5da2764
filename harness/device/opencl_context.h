/* One OpenCL device, opened in a case's process (never the harness
 * parent: see opencl_runtime.h): its platform and a context, released by
 * adc_opencl_close.  Queues are their users' own (the device's late-write
 * queue makes one in the context).
 *
 * Which device: `device_id` counts every device of every platform, in the
 * ICD loader's order (CONFORMANCE.md, "OpenCL").  It must offer
 * fine-grained buffer SVM: buffers are SVM pointers, which the struct's
 * "device pointers" can be and a cl_mem handle cannot, and only
 * fine-grained ones can be read by the host, once their event completed,
 * without mapping them in the producer's context. */
#ifndef ADC_DEVICE_OPENCL_CONTEXT_H
#define ADC_DEVICE_OPENCL_CONTEXT_H

#include <stdint.h>

#include "device/opencl_runtime.h"

struct adc_opencl_context {
  const struct adc_opencl_api* api;
  cl_platform_id platform;
  cl_device_id device;
  cl_context context;
};

/* Opens the device `device_id` into `out`: 0, or -1 with the reason (the
 * call and the runtime's code: "clGetPlatformIDs: CL_PLATFORM_NOT_FOUND_KHR
 * (-1001)", dlopen's words, or the missing SVM capability), with nothing
 * left to close. */
int adc_opencl_open(int64_t device_id, struct adc_opencl_context* out, struct adc_error* error);
/* Releases the context of an opened device. */
void adc_opencl_close(struct adc_opencl_context* opened);

/* "<device name>", "<driver version>", "<platform version>" of an open
 * device, each "" where the runtime does not say. */
void adc_opencl_describe(const struct adc_opencl_context* opened, char* name, size_t name_size, char* driver,
                         size_t driver_size, char* platform, size_t platform_size);

/* 0 when `sync_event` points to a live cl_event (a cl_event* as the spec's
 * table of event types has it): the slot and the object readable, the
 * object's first word the ICD dispatch table of this process's own
 * context (every object of one ICD vendor starts with it), the runtime
 * calling it an event of a command (PoCL answers for a cl_mem too), and
 * its status one of complete, running, submitted or queued.  Else -1 with
 * the reason.  Reads nothing unreadable, so a wild pointer or an event
 * passed by value fails here rather than crashing in the runtime. */
int adc_opencl_check_event(const struct adc_opencl_context* opened, const void* sync_event,
                           struct adc_error* error);

#endif /* ADC_DEVICE_OPENCL_CONTEXT_H */
