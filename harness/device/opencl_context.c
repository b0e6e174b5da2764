#include "device/opencl_context.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/safe_read.h"

/* The device_id-th device of all platforms, in enumeration order. */
static int find_device(const struct adc_opencl_api* api, int64_t device_id, struct adc_opencl_context* opened,
                       struct adc_error* error) {
  cl_uint n_platforms = 0;
  if (adc_opencl_check(api->get_platform_ids(0, NULL, &n_platforms), "clGetPlatformIDs", error) != 0)
    return -1;
  if (n_platforms == 0) return adc_fail(error, "clGetPlatformIDs: no platform");
  cl_platform_id* platforms = calloc(n_platforms, sizeof(*platforms));
  if (platforms == NULL) return adc_fail(error, "out of memory");
  int status =
      adc_opencl_check(api->get_platform_ids(n_platforms, platforms, NULL), "clGetPlatformIDs", error);
  int64_t before = 0; /* devices of the platforms before this one */
  cl_int last_code = CL_SUCCESS;
  for (cl_uint p = 0; status == 0 && p < n_platforms; p++) {
    cl_uint n_devices = 0;
    cl_int code = api->get_device_ids(platforms[p], CL_DEVICE_TYPE_ALL, 0, NULL, &n_devices);
    if (code != CL_SUCCESS) {
      last_code = code; /* a platform without devices says CL_DEVICE_NOT_FOUND */
      continue;
    }
    if (device_id < before + n_devices) {
      cl_device_id* devices = calloc(n_devices, sizeof(*devices));
      if (devices == NULL) {
        status = adc_fail(error, "out of memory");
        break;
      }
      status =
          adc_opencl_check(api->get_device_ids(platforms[p], CL_DEVICE_TYPE_ALL, n_devices, devices, NULL),
                           "clGetDeviceIDs", error);
      opened->platform = platforms[p];
      opened->device = devices[device_id - before];
      free(devices);
      free(platforms);
      return status;
    }
    before += n_devices;
  }
  free(platforms);
  if (status != 0) return status;
  if (before == 0)
    return adc_opencl_check(last_code != CL_SUCCESS ? last_code : CL_DEVICE_NOT_FOUND, "clGetDeviceIDs",
                            error);
  return adc_fail(error, "no OpenCL device %lld: the platforms have %lld", (long long)device_id,
                  (long long)before);
}

int adc_opencl_open(int64_t device_id, struct adc_opencl_context* opened, struct adc_error* error) {
  memset(opened, 0, sizeof(*opened));
  const struct adc_opencl_api* api = adc_opencl_api(error);
  if (api == NULL) return -1;
  opened->api = api;
  if (find_device(api, device_id, opened, error) != 0) return -1;
  cl_device_svm_capabilities svm = 0;
  if (adc_opencl_check(
          api->get_device_info(opened->device, CL_DEVICE_SVM_CAPABILITIES, sizeof(svm), &svm, NULL),
          "clGetDeviceInfo(CL_DEVICE_SVM_CAPABILITIES)", error) != 0) {
    return -1;
  }
  if ((svm & CL_DEVICE_SVM_FINE_GRAIN_BUFFER) == 0) {
    return adc_fail(error,
                    "the OpenCL device has no fine-grained buffer SVM (CL_DEVICE_SVM_FINE_GRAIN_BUFFER)");
  }
  cl_int code = CL_SUCCESS;
  opened->context = api->create_context(NULL, 1, &opened->device, NULL, NULL, &code);
  return adc_opencl_check(code, "clCreateContext", error);
}

void adc_opencl_close(struct adc_opencl_context* opened) {
  if (opened->context != NULL) opened->api->release_context(opened->context);
  memset(opened, 0, sizeof(*opened));
}

/* The runtime refuses a buffer shorter than the whole text (PoCL's
 * platform version is longer than a report keeps): each text is read
 * whole, then truncated to `out`. */
static void keep_text(char* out, size_t size, char* whole, bool read) {
  out[0] = '\0';
  if (whole != NULL && read) snprintf(out, size, "%s", whole);
  free(whole);
}

static void device_text(const struct adc_opencl_context* c, cl_device_info what, char* out, size_t size) {
  size_t needed = 0;
  c->api->get_device_info(c->device, what, 0, NULL, &needed);
  char* whole = calloc(needed + 1, 1);
  keep_text(out, size, whole,
            whole != NULL && c->api->get_device_info(c->device, what, needed, whole, NULL) == CL_SUCCESS);
}

static void platform_text(const struct adc_opencl_context* c, cl_platform_info what, char* out, size_t size) {
  size_t needed = 0;
  c->api->get_platform_info(c->platform, what, 0, NULL, &needed);
  char* whole = calloc(needed + 1, 1);
  keep_text(out, size, whole,
            whole != NULL && c->api->get_platform_info(c->platform, what, needed, whole, NULL) == CL_SUCCESS);
}

void adc_opencl_describe(const struct adc_opencl_context* c, char* name, size_t name_size, char* driver,
                         size_t driver_size, char* platform, size_t platform_size) {
  device_text(c, CL_DEVICE_NAME, name, name_size);
  device_text(c, CL_DRIVER_VERSION, driver, driver_size);
  platform_text(c, CL_PLATFORM_VERSION, platform, platform_size);
}

int adc_opencl_check_event(const struct adc_opencl_context* c, const void* sync_event,
                           struct adc_error* error) {
  if (sync_event == NULL) return adc_fail(error, "sync_event is NULL");
  cl_event event;
  if (adc_copy_readable(&event, sync_event, sizeof(event)) != sizeof(event)) {
    return adc_fail(error, "sync_event %p cannot be read (a cl_event* is expected)", sync_event);
  }
  const void* dispatch = NULL;
  if (adc_copy_readable(&dispatch, (const void*)event, sizeof(dispatch)) != sizeof(dispatch)) {
    return adc_fail(error, "the cl_event %p that sync_event holds cannot be read (an event by value?)",
                    (void*)event);
  }
  const void* own_dispatch = *(const void* const*)(const void*)c->context;
  if (dispatch != own_dispatch) {
    return adc_fail(error, "the cl_event %p that sync_event holds is not an object of the OpenCL runtime",
                    (void*)event);
  }
  cl_command_type command = 0;
  cl_int code = c->api->get_event_info(event, CL_EVENT_COMMAND_TYPE, sizeof(command), &command, NULL);
  if (adc_opencl_check(code, "clGetEventInfo(CL_EVENT_COMMAND_TYPE) on the sync_event", error) != 0)
    return -1;
  /* The command types of OpenCL 1.0 to 3.0 run from CL_COMMAND_NDRANGE_KERNEL
   * (0x11F0) to CL_COMMAND_SVM_MIGRATE_MEM (0x120E). */
  if (command < CL_COMMAND_NDRANGE_KERNEL || command > CL_COMMAND_SVM_MIGRATE_MEM) {
    return adc_fail(error, "the sync_event's object is not an event: its command type is 0x%x",
                    (unsigned)command);
  }
  cl_int status = 0;
  code = c->api->get_event_info(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status), &status, NULL);
  if (adc_opencl_check(code, "clGetEventInfo(CL_EVENT_COMMAND_EXECUTION_STATUS) on the sync_event", error) !=
      0) {
    return -1;
  }
  if (status < CL_COMPLETE || status > CL_QUEUED) {
    return adc_fail(error, "the sync_event's command failed or is unknown: execution status %d", (int)status);
  }
  return 0;
}
