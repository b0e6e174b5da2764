/* The OpenCL runtime, reached through the ICD loader (libOpenCL.so.1)
 * opened with dlopen on first use, in a case's process only: a process
 * whose parent initialised PoCL (called clGetPlatformIDs) hangs in its
 * first OpenCL call, so the harness parent never loads it (the run's
 * preloading server maps it, calling nothing: adc_opencl_map_libraries),
 * and the harness builds and runs where no OpenCL is installed, reporting
 * dlopen's words.
 *
 * Only what the opencl device needs is resolved: platforms and devices,
 * one context and in-order queue, fine-grained SVM buffers, and events
 * (markers, barriers, user events). */
#ifndef ADC_DEVICE_OPENCL_RUNTIME_H
#define ADC_DEVICE_OPENCL_RUNTIME_H

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include "support/error.h"

struct adc_opencl_api {
  cl_int (*get_platform_ids)(cl_uint, cl_platform_id*, cl_uint*);
  cl_int (*get_platform_info)(cl_platform_id, cl_platform_info, size_t, void*, size_t*);
  cl_int (*get_device_ids)(cl_platform_id, cl_device_type, cl_uint, cl_device_id*, cl_uint*);
  cl_int (*get_device_info)(cl_device_id, cl_device_info, size_t, void*, size_t*);
  cl_context (*create_context)(const cl_context_properties*, cl_uint, const cl_device_id*,
                               void (*)(const char*, const void*, size_t, void*), void*, cl_int*);
  cl_int (*release_context)(cl_context);
  cl_command_queue (*create_queue)(cl_context, cl_device_id, const cl_queue_properties*, cl_int*);
  cl_int (*release_queue)(cl_command_queue);
  cl_int (*flush)(cl_command_queue);
  cl_int (*finish)(cl_command_queue);
  void* (*svm_alloc)(cl_context, cl_svm_mem_flags, size_t, cl_uint);
  void (*svm_free)(cl_context, void*);
  cl_int (*enqueue_svm_memcpy)(cl_command_queue, cl_bool, void*, const void*, size_t, cl_uint,
                               const cl_event*, cl_event*);
  cl_int (*enqueue_marker)(cl_command_queue, cl_uint, const cl_event*, cl_event*);
  cl_int (*enqueue_barrier)(cl_command_queue, cl_uint, const cl_event*, cl_event*);
  cl_event (*create_user_event)(cl_context, cl_int*);
  cl_int (*set_user_event_status)(cl_event, cl_int);
  cl_int (*wait_for_events)(cl_uint, const cl_event*);
  cl_int (*get_event_info)(cl_event, cl_event_info, size_t, void*, size_t*);
  cl_int (*release_event)(cl_event);
  /* A cl_mem: what a check of a sync_event must refuse (tests). */
  cl_mem (*create_buffer)(cl_context, cl_mem_flags, size_t, void*, cl_int*);
  cl_int (*release_mem)(cl_mem);
};

/* The runtime's entry points, loaded on the first call; NULL with the
 * reason in `error` ("libOpenCL.so.1: cannot open shared object file ...",
 * or the missing symbol) when it cannot be.  The answer is kept: later
 * calls give the same. */
const struct adc_opencl_api* adc_opencl_api(struct adc_error* error);

/* Maps the ICD loader and each vendor library its vendors' folder names
 * (/etc/OpenCL/vendors, or OCL_ICD_VENDORS) and calls nothing in them:
 * no platform is initialised, so a process forked after this may still use
 * OpenCL.  The count of libraries mapped; what cannot be mapped is left to
 * the ICD loader to report when a case's process asks for platforms. */
int adc_opencl_map_libraries(void);

/* "CL_PLATFORM_NOT_FOUND_KHR (-1001)" for a code the headers name, else
 * "OpenCL error -1234"; in `buffer`, which it returns. */
const char* adc_opencl_error_name(cl_int code, char* buffer, size_t size);

/* 0 for CL_SUCCESS, else -1 with "<what>: <the code's name>" in `error`. */
int adc_opencl_check(cl_int code, const char* what, struct adc_error* error);

#endif /* ADC_DEVICE_OPENCL_RUNTIME_H */
