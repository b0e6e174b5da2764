#include "producer_calls.h"

#include <string.h>

bool adc_export_schema_raw(struct adc_case_context* ctx, struct ArrowSchema* out) {
  ADC_ExportSchemaFromJson export_schema = adc_require(ctx, ctx->producer, ADC_EP_EXPORT_SCHEMA);
  if (export_schema == NULL) return false;
  memset(out, ADC_FILL_BYTE, sizeof(*out));
  const char* error = export_schema(ctx->fixture_path, out);
  if (error != NULL) {
    adc_not_supported(ctx, "the producer declined to export the schema: %s", error);
    return false;
  }
  return true;
}

bool adc_export_schema(struct adc_case_context* ctx, struct ArrowSchema* out) {
  if (!adc_export_schema_raw(ctx, out)) return false;
  if (out->release == NULL) {
    adc_unresolved(ctx, "the exported schema is already released (see schema.release.non_null_after_export)");
    return false;
  }
  return true;
}

bool adc_export_batch_raw(struct adc_case_context* ctx, int batch, struct ArrowArray* out) {
  ADC_ExportBatchFromJson export_batch = adc_require(ctx, ctx->producer, ADC_EP_EXPORT_BATCH);
  if (export_batch == NULL) return false;
  memset(out, ADC_FILL_BYTE, sizeof(*out));
  const char* error = export_batch(ctx->fixture_path, batch, out);
  if (error != NULL) {
    adc_not_supported(ctx, "the producer declined to export batch %d: %s", batch, error);
    return false;
  }
  return true;
}

bool adc_export_batch(struct adc_case_context* ctx, int batch, struct ArrowArray* out) {
  if (!adc_export_batch_raw(ctx, batch, out)) return false;
  if (out->release == NULL) {
    adc_unresolved(ctx, "the exported batch is already released (see array.release.non_null_after_export)");
    return false;
  }
  return true;
}

bool adc_export_device_batch(struct adc_case_context* ctx, int batch, struct ArrowDeviceArray* out) {
  ADC_ExportDeviceBatchFromJson export_batch = adc_require(ctx, ctx->producer, ADC_EP_EXPORT_DEVICE_BATCH);
  if (export_batch == NULL) return false;
  memset(out, ADC_FILL_BYTE, sizeof(*out));
  const char* error = export_batch(ctx->fixture_path, batch, ctx->device->arrow_type,
                                   ctx->device->device_id, out);
  if (error != NULL) {
    adc_not_supported(ctx, "the producer declined to export batch %d to %s: %s", batch,
                      ctx->device->name, error);
    return false;
  }
  if (out->array.release == NULL) {
    adc_unresolved(ctx, "the exported device batch is already released");
    return false;
  }
  return true;
}

bool adc_batch_matches_before(struct adc_case_context* ctx, int batch, const struct ArrowArray* array) {
  char difference[512];
  if (arrow_json_compare_batch(ctx->fixture, batch, array, difference, sizeof(difference)) == 0) {
    return true;
  }
  adc_unresolved(ctx, "batch %d differs from the fixture before the rule's step (see array.data.matches_fixture): %s",
                 batch, difference);
  return false;
}
