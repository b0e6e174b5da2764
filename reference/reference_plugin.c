/* The reference pair behind the plugin ABI (include/adc/plugin_abi.h), with
 * the entry-point prefix "adc_reference".  Each entry point does one thing
 * with the core functions of reference_core.h (loading the fixture first
 * where they take one loaded) and reports a failure as a message kept
 * until the same thread's next call.  Ownership is the plugin ABI's: an
 * export hands its structure to the caller, an import takes and releases
 * what it is given. */
#include <stdio.h>

#include "adc/plugin_abi.h"
#include "reference_core.h"

/* Exported from libadc_reference.so.  The deliberately broken libraries link
 * these same functions hidden (ADC_REFERENCE_HIDDEN), so that they forward to
 * the reference without exporting its prefix. */
#ifdef ADC_REFERENCE_HIDDEN
#define EXPORT
#else
#define EXPORT __attribute__((visibility("default")))
#endif

static _Thread_local char last_error[2048];

static const char* keep(const char* error) {
  if (error == NULL || error == last_error) return error;
  snprintf(last_error, sizeof(last_error), "%s", error);
  return last_error;
}

EXPORT const char* adc_reference_CDataIntegration_ExportSchemaFromJson(const char* json_path,
                                                                       struct ArrowSchema* out) {
  struct arrow_json_file file;
  if (ref_load_fixture(json_path, &file, last_error, sizeof(last_error)) != 0) return last_error;
  const char* error = ref_export_schema(&file, out);
  arrow_json_file_free(&file);
  return keep(error);
}

EXPORT const char* adc_reference_CDataIntegration_ExportBatchFromJson(const char* json_path, int num_batch,
                                                                      struct ArrowArray* out) {
  struct arrow_json_file file;
  if (ref_load_fixture(json_path, &file, last_error, sizeof(last_error)) != 0) return last_error;
  const char* error = ref_export_batch(&file, num_batch, out);
  arrow_json_file_free(&file);
  return keep(error);
}

EXPORT const char* adc_reference_CDataIntegration_ImportSchemaAndCompareToJson(const char* json_path,
                                                                               struct ArrowSchema* schema) {
  return keep(ref_import_schema(json_path, schema));
}

EXPORT const char* adc_reference_CDataIntegration_ImportBatchAndCompareToJson(const char* json_path,
                                                                              int num_batch,
                                                                              struct ArrowArray* batch) {
  return keep(ref_import_batch(json_path, num_batch, batch));
}

/* What the reference holds now (reference_allocator.c says what is
 * counted): back where it was once everything exported has been released. */
EXPORT int64_t adc_reference_BytesAllocated(void) {
  return ref_bytes_allocated();
}

EXPORT const char* adc_reference_CDeviceIntegration_ExportDeviceBatchFromJson(const char* json_path,
                                                                              int num_batch,
                                                                              ArrowDeviceType device_type,
                                                                              int64_t device_id,
                                                                              struct ArrowDeviceArray* out) {
  struct arrow_json_file file;
  if (ref_load_fixture(json_path, &file, last_error, sizeof(last_error)) != 0) return last_error;
  const char* error = ref_export_device_batch(&file, num_batch, device_type, device_id, out);
  arrow_json_file_free(&file);
  return keep(error);
}

EXPORT const char* adc_reference_CDeviceIntegration_ImportDeviceBatchAndCompareToJson(
    const char* json_path, int num_batch, struct ArrowDeviceArray* batch) {
  return keep(ref_import_device_batch(json_path, num_batch, batch));
}

EXPORT const char* adc_reference_CDeviceIntegration_ExportDeviceStreamFromJson(
    const char* json_path, ArrowDeviceType device_type, int64_t device_id,
    struct ArrowDeviceArrayStream* out) {
  return keep(ref_export_device_stream(json_path, device_type, device_id, out));
}

EXPORT const char* adc_reference_CDeviceIntegration_ExportFailingDeviceStreamFromJson(
    const char* json_path, ArrowDeviceType device_type, int64_t device_id, int fail_at_batch,
    struct ArrowDeviceArrayStream* out) {
  return keep(ref_export_failing_device_stream(json_path, device_type, device_id, fail_at_batch, out));
}

EXPORT const char* adc_reference_CDeviceIntegration_ImportDeviceStreamAndCompareToJson(
    const char* json_path, struct ArrowDeviceArrayStream* stream) {
  return keep(ref_import_device_stream(json_path, stream));
}

EXPORT const char* adc_reference_CDeviceIntegration_ExportAsyncFromJson(
    const char* json_path, ArrowDeviceType device_type, int64_t device_id,
    struct ArrowAsyncDeviceStreamHandler* handler) {
  return keep(ref_export_async(json_path, device_type, device_id, handler));
}

EXPORT const char* adc_reference_CDeviceIntegration_ImportAsyncAndCompareToJson(const char* json_path,
                                                                                ArrowDeviceType device_type,
                                                                                ADC_AsyncProducerStart start,
                                                                                void* start_context) {
  return keep(ref_import_async(json_path, device_type, start, start_context));
}

EXPORT const char* adc_reference_CDeviceIntegration_ExportFailingAsyncFromJson(
    const char* json_path, ArrowDeviceType device_type, int64_t device_id, int fail_at_batch,
    struct ArrowAsyncDeviceStreamHandler* handler) {
  return keep(ref_export_failing_async(json_path, device_type, device_id, fail_at_batch, handler));
}

EXPORT const char* adc_reference_CDeviceIntegration_ImportAsyncAndCancelAfterBatch(
    const char* json_path, ArrowDeviceType device_type, int cancel_after_batch, ADC_AsyncProducerStart start,
    void* start_context) {
  return keep(ref_import_async_cancelling(json_path, device_type, cancel_after_batch, start, start_context));
}
