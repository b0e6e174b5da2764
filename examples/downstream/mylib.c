/* mylib: an example library under test.  It exports the CPU entry points
 * and the device-batch pair of the plugin ABI (adc/plugin_abi.h) under the
 * prefix "mylib"; a library may export any subset, and the rules needing
 * the others (streams, async streams) end not_supported.
 *
 * Each entry point forwards to the reference pair (libadc_reference.so,
 * prefix "adc_reference"), so that this example stays short; a real library
 * would call its own C Data export and import functions here
 * (docs/writing-an-adapter.md).  One entry point carries a deliberate
 * defect, listed in known-failures.txt. */
#include <stddef.h>

#include "adc/plugin_abi.h"

/* The reference's entry points, declared from the one list of the plugin
 * ABI: adc_reference_CDataIntegration_ExportSchemaFromJson, ... */
#define DECLARE_REFERENCE_ENTRY_POINT(name, suffix, result, parameters, arguments) \
  result adc_reference_##suffix parameters;
ADC_PLUGIN_ENTRY_POINTS(DECLARE_REFERENCE_ENTRY_POINT)
#undef DECLARE_REFERENCE_ENTRY_POINT

const char* mylib_CDataIntegration_ExportSchemaFromJson(const char* json_path, struct ArrowSchema* out) {
  return adc_reference_CDataIntegration_ExportSchemaFromJson(json_path, out);
}

const char* mylib_CDataIntegration_ImportSchemaAndCompareToJson(const char* json_path,
                                                                struct ArrowSchema* schema) {
  return adc_reference_CDataIntegration_ImportSchemaAndCompareToJson(json_path, schema);
}

const char* mylib_CDataIntegration_ExportBatchFromJson(const char* json_path, int num_batch,
                                                       struct ArrowArray* out) {
  return adc_reference_CDataIntegration_ExportBatchFromJson(json_path, num_batch, out);
}

const char* mylib_CDataIntegration_ImportBatchAndCompareToJson(const char* json_path, int num_batch,
                                                               struct ArrowArray* batch) {
  return adc_reference_CDataIntegration_ImportBatchAndCompareToJson(json_path, num_batch, batch);
}

int64_t mylib_BytesAllocated(void) {
  return adc_reference_BytesAllocated();
}

/* The deliberate defect: every member of the device array is written but
 * `reserved`, which keeps whatever the caller's memory held.  The spec
 * says of ArrowDeviceArray.reserved: "These bytes MUST be zero'd out after
 * initialization by the producer", so device_array.reserved.zeroed fails. */
const char* mylib_CDeviceIntegration_ExportDeviceBatchFromJson(const char* json_path, int num_batch,
                                                               ArrowDeviceType device_type, int64_t device_id,
                                                               struct ArrowDeviceArray* out) {
  struct ArrowDeviceArray exported;
  const char* error = adc_reference_CDeviceIntegration_ExportDeviceBatchFromJson(
      json_path, num_batch, device_type, device_id, &exported);
  if (error != NULL) return error;
  out->array = exported.array; /* moved: `exported` is not used again */
  out->device_id = exported.device_id;
  out->device_type = exported.device_type;
  out->sync_event = exported.sync_event;
  return NULL;
}

const char* mylib_CDeviceIntegration_ImportDeviceBatchAndCompareToJson(const char* json_path, int num_batch,
                                                                       struct ArrowDeviceArray* batch) {
  return adc_reference_CDeviceIntegration_ImportDeviceBatchAndCompareToJson(json_path, num_batch, batch);
}
