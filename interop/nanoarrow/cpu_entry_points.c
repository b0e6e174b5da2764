/* The CPU entry points of the plugin ABI, as nanoarrow's own C Data
 * integration library (libnanoarrow_c_data_integration.so, built from
 * nanoarrow's source unchanged) implements them: each forwards to it, so
 * that one library, this adapter, carries every entry point under the
 * prefix "nanoarrow" and the CPU rules judge nanoarrow's own code.
 *
 * BytesAllocated adds the adapter's own buffers (the device entry points'
 * JSON reader and copies) to the bytes nanoarrow's library counts, so that
 * the leak rules see both. */

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "adapter.h"
#include "adc/plugin_abi.h"

#define ADC_NANOARROW_EXPORT __attribute__((visibility("default")))

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static struct adc_plugin_functions nanoarrow_library;
static char load_failure[PATH_MAX + 256];

/* dlsym returns an object pointer; ISO C only lets its bytes be copied into
 * a function pointer. */
#define ADC_LOOK_UP(name, suffix, result, parameters, arguments)                    \
  {                                                                                 \
    void* address = dlsym(handle, "nanoarrow_" #suffix);                            \
    if (address != NULL) memcpy(&nanoarrow_library.name, &address, sizeof address); \
  }

/* The library lies beside this one (the build folder, or the install's lib
 * folder): found by this library's own path, not the loader's search path. */
static void load_nanoarrow_library(void) {
  static const char anchor = 0;
  Dl_info self;
  if (dladdr(&anchor, &self) == 0 || self.dli_fname == NULL) {
    snprintf(load_failure, sizeof load_failure, "the nanoarrow adapter cannot find its own path");
    return;
  }
  char path[PATH_MAX];
  const char* slash = strrchr(self.dli_fname, '/');
  int folder_length = slash == NULL ? 1 : (int)(slash - self.dli_fname);
  snprintf(path, sizeof path, "%.*s/libnanoarrow_c_data_integration.so", folder_length,
           slash == NULL ? "." : self.dli_fname);
  void* handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (handle == NULL) {
    snprintf(load_failure, sizeof load_failure, "the nanoarrow adapter cannot load nanoarrow's library: %s",
             dlerror());
    return;
  }
  ADC_PLUGIN_ENTRY_POINTS(ADC_LOOK_UP)
}

/* Why an entry point cannot be forwarded: the library did not load, or
 * lacks the symbol.  Valid until the next call (plugin ABI). */
static const char* missing(const char* symbol) {
  static char message[sizeof load_failure];
  if (load_failure[0] != '\0') return load_failure;
  snprintf(message, sizeof message, "libnanoarrow_c_data_integration.so has no %s", symbol);
  return message;
}

ADC_NANOARROW_EXPORT const char* nanoarrow_CDataIntegration_ExportSchemaFromJson(const char* json_path,
                                                                                 struct ArrowSchema* out) {
  pthread_once(&load_once, load_nanoarrow_library);
  if (nanoarrow_library.ExportSchemaFromJson == NULL)
    return missing("nanoarrow_CDataIntegration_ExportSchemaFromJson");
  return nanoarrow_library.ExportSchemaFromJson(json_path, out);
}

ADC_NANOARROW_EXPORT const char* nanoarrow_CDataIntegration_ImportSchemaAndCompareToJson(
    const char* json_path, struct ArrowSchema* schema) {
  pthread_once(&load_once, load_nanoarrow_library);
  if (nanoarrow_library.ImportSchemaAndCompareToJson == NULL)
    return missing("nanoarrow_CDataIntegration_ImportSchemaAndCompareToJson");
  return nanoarrow_library.ImportSchemaAndCompareToJson(json_path, schema);
}

ADC_NANOARROW_EXPORT const char* nanoarrow_CDataIntegration_ExportBatchFromJson(const char* json_path,
                                                                                int num_batch,
                                                                                struct ArrowArray* out) {
  pthread_once(&load_once, load_nanoarrow_library);
  if (nanoarrow_library.ExportBatchFromJson == NULL)
    return missing("nanoarrow_CDataIntegration_ExportBatchFromJson");
  return nanoarrow_library.ExportBatchFromJson(json_path, num_batch, out);
}

ADC_NANOARROW_EXPORT const char* nanoarrow_CDataIntegration_ImportBatchAndCompareToJson(
    const char* json_path, int num_batch, struct ArrowArray* batch) {
  pthread_once(&load_once, load_nanoarrow_library);
  if (nanoarrow_library.ImportBatchAndCompareToJson == NULL)
    return missing("nanoarrow_CDataIntegration_ImportBatchAndCompareToJson");
  return nanoarrow_library.ImportBatchAndCompareToJson(json_path, num_batch, batch);
}

ADC_NANOARROW_EXPORT int64_t nanoarrow_BytesAllocated(void) {
  pthread_once(&load_once, load_nanoarrow_library);
  int64_t theirs = nanoarrow_library.BytesAllocated != NULL ? nanoarrow_library.BytesAllocated() : 0;
  return theirs + adc_nanoarrow_bytes_held();
}
