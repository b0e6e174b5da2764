/* Another vendor's OpenCL, for the tests: an ICD (the library an .icd
 * file names, which the ICD loader loads) with one platform and one GPU
 * device that has coarse-grained buffer SVM only, as NVIDIA's OpenCL
 * platform has.  It answers what is asked before the harness declines
 * such a device (platform and device queries) and nothing else: a test
 * that points OCL_ICD_VENDORS at a folder holding its .icd file sees how
 * the harness and its tests meet a platform they do not run on
 * (tests/test_device_layer.c). */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl_icd.h>
#include <stddef.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))

/* What the loader reads from every object: its dispatch table first. */
struct _cl_platform_id {
  const struct _cl_icd_dispatch* dispatch;
};
struct _cl_device_id {
  const struct _cl_icd_dispatch* dispatch;
};

static struct _cl_icd_dispatch dispatch;
static struct _cl_platform_id platform = {&dispatch};
static struct _cl_device_id device = {&dispatch};

/* Copies `size` bytes of `value` out as a clGet*Info call asks. */
static cl_int answer(const void* value, size_t size, size_t room, void* out, size_t* size_out) {
  if (size_out != NULL) *size_out = size;
  if (out == NULL) return CL_SUCCESS;
  if (room < size) return CL_INVALID_VALUE;
  memcpy(out, value, size);
  return CL_SUCCESS;
}

static cl_int answer_text(const char* text, size_t room, void* out, size_t* size_out) {
  return answer(text, strlen(text) + 1, room, out, size_out);
}

static cl_int CL_API_CALL get_platform_ids(cl_uint entries, cl_platform_id* platforms, cl_uint* count) {
  if (count != NULL) *count = 1;
  if (platforms != NULL && entries > 0) platforms[0] = &platform;
  return CL_SUCCESS;
}

/* The platform's texts, by query. */
static const struct {
  cl_platform_info what;
  const char* text;
} platform_texts[] = {
    {CL_PLATFORM_PROFILE, "FULL_PROFILE"},
    {CL_PLATFORM_VERSION, "OpenCL 3.0 adc-test-vendor"},
    {CL_PLATFORM_NAME, "ADC test vendor without fine-grained SVM"},
    {CL_PLATFORM_VENDOR, "arrow-device-conformance tests"},
    {CL_PLATFORM_EXTENSIONS, "cl_khr_icd"},
    {CL_PLATFORM_ICD_SUFFIX_KHR, "ADCTEST"},
};

static cl_int CL_API_CALL get_platform_info(cl_platform_id which, cl_platform_info what, size_t room,
                                            void* out, size_t* size_out) {
  if (which != &platform) return CL_INVALID_PLATFORM;
  for (size_t i = 0; i < sizeof(platform_texts) / sizeof(platform_texts[0]); i++) {
    if (platform_texts[i].what == what) return answer_text(platform_texts[i].text, room, out, size_out);
  }
  return CL_INVALID_VALUE;
}

static cl_int CL_API_CALL get_device_ids(cl_platform_id which, cl_device_type type, cl_uint entries,
                                         cl_device_id* devices, cl_uint* count) {
  if (which != &platform) return CL_INVALID_PLATFORM;
  if ((type & (CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_DEFAULT)) == 0) return CL_DEVICE_NOT_FOUND;
  if (count != NULL) *count = 1;
  if (devices != NULL && entries > 0) devices[0] = &device;
  return CL_SUCCESS;
}

static cl_int CL_API_CALL get_device_info(cl_device_id which, cl_device_info what, size_t room, void* out,
                                          size_t* size_out) {
  if (which != &device) return CL_INVALID_DEVICE;
  if (what == CL_DEVICE_SVM_CAPABILITIES) {
    cl_device_svm_capabilities svm = CL_DEVICE_SVM_COARSE_GRAIN_BUFFER;
    return answer(&svm, sizeof(svm), room, out, size_out);
  }
  if (what == CL_DEVICE_TYPE) {
    cl_device_type type = CL_DEVICE_TYPE_GPU;
    return answer(&type, sizeof(type), room, out, size_out);
  }
  if (what == CL_DEVICE_NAME) return answer_text("ADC test GPU", room, out, size_out);
  if (what == CL_DEVICE_VERSION) return answer_text("OpenCL 3.0", room, out, size_out);
  if (what == CL_DRIVER_VERSION) return answer_text("0", room, out, size_out);
  return CL_INVALID_VALUE;
}

EXPORT cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint entries, cl_platform_id* platforms, cl_uint* count) {
  dispatch.clGetPlatformIDs = get_platform_ids;
  dispatch.clGetPlatformInfo = get_platform_info;
  dispatch.clGetDeviceIDs = get_device_ids;
  dispatch.clGetDeviceInfo = get_device_info;
  return get_platform_ids(entries, platforms, count);
}

/* ocl-icd takes a vendor whose library exports clGetPlatformInfo only. */
EXPORT cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id which, cl_platform_info what, size_t room,
                                            void* out, size_t* size_out) {
  return get_platform_info(which, what, room, out, size_out);
}

/* The loader finds clIcdGetPlatformIDsKHR through this. */
EXPORT void* CL_API_CALL clGetExtensionFunctionAddress(const char* name) {
  if (strcmp(name, "clIcdGetPlatformIDsKHR") != 0) return NULL;
  void* address;
  cl_int(CL_API_CALL * function)(cl_uint, cl_platform_id*, cl_uint*) = clIcdGetPlatformIDsKHR;
  memcpy(&address, &function, sizeof(address));
  return address;
}
