/* The plugin entry points of one library, looked up in a child process. */
#ifndef ADC_ENTRY_POINTS_H
#define ADC_ENTRY_POINTS_H

#include <stddef.h>

#include "adc/plugin_abi.h"

/* One bit per entry point, in the order of adc_entry_point_suffixes. */
enum adc_entry_point {
  ADC_EP_EXPORT_SCHEMA,
  ADC_EP_IMPORT_SCHEMA,
  ADC_EP_EXPORT_BATCH,
  ADC_EP_IMPORT_BATCH,
  ADC_EP_BYTES_ALLOCATED,
  ADC_EP_EXPORT_DEVICE_BATCH,
  ADC_EP_IMPORT_DEVICE_BATCH,
  ADC_EP_EXPORT_DEVICE_STREAM,
  ADC_EP_IMPORT_DEVICE_STREAM,
  ADC_EP_EXPORT_ASYNC,
  ADC_EP_IMPORT_ASYNC,
  ADC_EP_COUNT
};

/* "CDataIntegration_ExportSchemaFromJson", ...: the part after "<prefix>_". */
extern const char* const adc_entry_point_suffixes[ADC_EP_COUNT];

struct adc_library {
  const char* path;
  const char* prefix;
  void* handle;
  void* symbols[ADC_EP_COUNT]; /* NULL where the library lacks one */
};

/* dlopen `path` and look every entry point up.  Returns 0, or -1 with the
 * loader's message in `error`.  Only ever called in a child process. */
int adc_library_open(struct adc_library* library, const char* path, const char* prefix,
                     char* error, size_t error_size);

/* Typed views of the symbols. */
#define ADC_FN(library, ep, type) ((type)(library)->symbols[ep])

#endif /* ADC_ENTRY_POINTS_H */
