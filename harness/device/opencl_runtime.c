#include "device/opencl_runtime.h"

#include <CL/cl_ext.h>
#include <dirent.h>
#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The symbol of each member of struct adc_opencl_api, in member order. */
static const char* const symbols[] = {
    "clGetPlatformIDs",
    "clGetPlatformInfo",
    "clGetDeviceIDs",
    "clGetDeviceInfo",
    "clCreateContext",
    "clReleaseContext",
    "clCreateCommandQueueWithProperties",
    "clReleaseCommandQueue",
    "clFlush",
    "clFinish",
    "clSVMAlloc",
    "clSVMFree",
    "clEnqueueSVMMemcpy",
    "clEnqueueMarkerWithWaitList",
    "clEnqueueBarrierWithWaitList",
    "clCreateUserEvent",
    "clSetUserEventStatus",
    "clWaitForEvents",
    "clGetEventInfo",
    "clReleaseEvent",
    "clCreateBuffer",
    "clReleaseMemObject",
};
#define N_SYMBOLS (sizeof(symbols) / sizeof(symbols[0]))

static struct adc_opencl_api api;
static bool loaded;
static char load_error[300];

const struct adc_opencl_api* adc_opencl_api(struct adc_error* error) {
  if (loaded) return &api;
  if (load_error[0] != '\0') {
    adc_fail(error, "%s", load_error);
    return NULL;
  }
  void* handle = dlopen("libOpenCL.so.1", RTLD_NOW | RTLD_LOCAL);
  if (handle == NULL) {
    snprintf(load_error, sizeof(load_error), "OpenCL runtime not found: %s", dlerror());
    adc_fail(error, "%s", load_error);
    return NULL;
  }
  void* members[N_SYMBOLS];
  for (size_t i = 0; i < N_SYMBOLS; i++) {
    members[i] = dlsym(handle, symbols[i]);
    if (members[i] == NULL) {
      snprintf(load_error, sizeof(load_error), "the OpenCL runtime lacks %s (OpenCL 2.0 or later is needed)",
               symbols[i]);
      dlclose(handle);
      adc_fail(error, "%s", load_error);
      return NULL;
    }
  }
  /* dlsym returns object pointers; ISO C only lets their bytes be copied
   * into function pointers, which the struct holds in symbol order. */
  _Static_assert(sizeof(api) == sizeof(members), "one member per symbol");
  memcpy(&api, members, sizeof(members));
  loaded = true;
  return &api;
}

/* The codes the headers name, with their names spelt by the preprocessor. */
#define NAMED(code) \
  { code, #code }
static const struct {
  cl_int code;
  const char* name;
} names[] = {
    NAMED(CL_SUCCESS),
    NAMED(CL_DEVICE_NOT_FOUND),
    NAMED(CL_DEVICE_NOT_AVAILABLE),
    NAMED(CL_COMPILER_NOT_AVAILABLE),
    NAMED(CL_MEM_OBJECT_ALLOCATION_FAILURE),
    NAMED(CL_OUT_OF_RESOURCES),
    NAMED(CL_OUT_OF_HOST_MEMORY),
    NAMED(CL_MEM_COPY_OVERLAP),
    NAMED(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST),
    NAMED(CL_INVALID_VALUE),
    NAMED(CL_INVALID_DEVICE_TYPE),
    NAMED(CL_INVALID_PLATFORM),
    NAMED(CL_INVALID_DEVICE),
    NAMED(CL_INVALID_CONTEXT),
    NAMED(CL_INVALID_QUEUE_PROPERTIES),
    NAMED(CL_INVALID_COMMAND_QUEUE),
    NAMED(CL_INVALID_HOST_PTR),
    NAMED(CL_INVALID_MEM_OBJECT),
    NAMED(CL_INVALID_EVENT_WAIT_LIST),
    NAMED(CL_INVALID_EVENT),
    NAMED(CL_INVALID_OPERATION),
    NAMED(CL_INVALID_BUFFER_SIZE),
    NAMED(CL_INVALID_PROPERTY),
    NAMED(CL_PLATFORM_NOT_FOUND_KHR),
};

const char* adc_opencl_error_name(cl_int code, char* buffer, size_t size) {
  for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
    if (names[i].code == code) {
      snprintf(buffer, size, "%s (%d)", names[i].name, (int)code);
      return buffer;
    }
  }
  snprintf(buffer, size, "OpenCL error %d", (int)code);
  return buffer;
}

int adc_opencl_check(cl_int code, const char* what, struct adc_error* error) {
  if (code == CL_SUCCESS) return 0;
  char name[80];
  return adc_fail(error, "%s: %s", what, adc_opencl_error_name(code, name, sizeof(name)));
}

/* Where the ICD loader looks for its vendors' files: OCL_ICD_VENDORS
 * where it names a folder (ocl-icd's reading), else the system's. */
static const char* vendors_folder(void) {
  const char* named = getenv("OCL_ICD_VENDORS");
  return named != NULL && named[0] != '\0' ? named : "/etc/OpenCL/vendors";
}

int adc_opencl_map_libraries(void) {
  /* RTLD_LOCAL, as adc_opencl_api and the ICD loader open them: mapping
   * them early must not put their symbols before a tested library's. */
  int mapped = dlopen("libOpenCL.so.1", RTLD_NOW | RTLD_LOCAL) != NULL;
  const char* folder_path = vendors_folder();
  DIR* folder = opendir(folder_path);
  if (folder == NULL) return mapped;
  struct dirent* entry;
  while ((entry = readdir(folder)) != NULL) {
    size_t length = strlen(entry->d_name);
    if (length < 5 || strcmp(entry->d_name + length - 4, ".icd") != 0) continue;
    char path[4200];
    char library[512] = "";
    snprintf(path, sizeof(path), "%s/%s", folder_path, entry->d_name);
    /* An .icd file holds one line: the vendor library's name or path. */
    FILE* icd = fopen(path, "r");
    if (icd == NULL) continue;
    if (fscanf(icd, "%511s", library) == 1) mapped += dlopen(library, RTLD_NOW | RTLD_LOCAL) != NULL;
    fclose(icd);
  }
  closedir(folder);
  return mapped;
}
