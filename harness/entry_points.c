#include "entry_points.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

const char* const adc_entry_point_suffixes[ADC_EP_COUNT] = {
    "CDataIntegration_ExportSchemaFromJson",
    "CDataIntegration_ImportSchemaAndCompareToJson",
    "CDataIntegration_ExportBatchFromJson",
    "CDataIntegration_ImportBatchAndCompareToJson",
    "BytesAllocated",
    "CDeviceIntegration_ExportDeviceBatchFromJson",
    "CDeviceIntegration_ImportDeviceBatchAndCompareToJson",
    "CDeviceIntegration_ExportDeviceStreamFromJson",
    "CDeviceIntegration_ImportDeviceStreamAndCompareToJson",
    "CDeviceIntegration_ExportAsyncFromJson",
    "CDeviceIntegration_ImportAsyncAndCompareToJson",
};

int adc_library_open(struct adc_library* library, const char* path, const char* prefix,
                     char* error, size_t error_size) {
  memset(library, 0, sizeof(*library));
  library->path = path;
  library->prefix = prefix;
  library->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (library->handle == NULL) {
    const char* reason = dlerror();
    snprintf(error, error_size, "%s", reason ? reason : "dlopen failed");
    return -1;
  }
  for (int i = 0; i < ADC_EP_COUNT; i++) {
    char name[256];
    snprintf(name, sizeof(name), "%s_%s", prefix, adc_entry_point_suffixes[i]);
    library->symbols[i] = dlsym(library->handle, name);
  }
  return 0;
}
