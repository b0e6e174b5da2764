#include "rule_api/producer_calls.h"

#include <string.h>

#include "rule_api/fixture_compare.h"
#include "rule_api/needs.h"

bool adc_export_schema_raw(struct adc_case_context* ctx, struct ArrowSchema* out) {
  if (!adc_can_call(ctx, ADC_EP_ExportSchemaFromJson)) return false;
  memset(out, ADC_FILL_BYTE, sizeof(*out));
  const char* error = ctx->library->functions.ExportSchemaFromJson(ctx->fixture_path, out);
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

/* ExportBatchFromJson (the C Data Interface form), with the members a CPU
 * device array adds filled in as a CPU producer would. */
static bool export_cpu_form(struct adc_case_context* ctx, int batch, struct ArrowDeviceArray* out) {
  memset(out, ADC_FILL_BYTE, sizeof(*out));
  const char* error = ctx->library->functions.ExportBatchFromJson(ctx->fixture_path, batch, &out->array);
  if (error != NULL) {
    adc_not_supported(ctx, "the producer declined to export batch %d: %s", batch, error);
    return false;
  }
  out->device_id = ctx->device->device_id;
  out->device_type = ctx->device->arrow_type;
  out->sync_event = NULL;
  memset(out->reserved, 0, sizeof(out->reserved));
  return true;
}

/* ExportDeviceBatchFromJson with the case's device type and id. */
static bool export_device_form(struct adc_case_context* ctx, int batch, struct ArrowDeviceArray* out) {
  memset(out, ADC_FILL_BYTE, sizeof(*out));
  const char* error = ctx->library->functions.ExportDeviceBatchFromJson(
      ctx->fixture_path, batch, ctx->device->arrow_type, ctx->device->device_id, out);
  if (error != NULL) {
    adc_not_supported(ctx, "the producer declined to export batch %d to %s: %s", batch, ctx->device->name,
                      error);
    return false;
  }
  return true;
}

bool adc_export_batch_raw(struct adc_case_context* ctx, int batch, struct ArrowDeviceArray* out) {
  if (!adc_can_call(ctx, ADC_EP_ExportBatchFromJson)) return false;
  if (adc_entry_point_on_device(ADC_EP_ExportBatchFromJson, ctx->device) == ADC_EP_ExportBatchFromJson) {
    return export_cpu_form(ctx, batch, out);
  }
  if (!export_device_form(ctx, batch, out)) return false;
  /* spec: a consumer must wait on the event before touching the data. */
  struct adc_error error;
  if (out->array.release != NULL && ctx->device->wait_event(ctx->device, out->sync_event, &error) != 0) {
    adc_unresolved(ctx, "batch %d: waiting on its sync_event failed: %s", batch, error.message);
    out->array.release(&out->array);
    return false;
  }
  return true;
}

bool adc_export_batch(struct adc_case_context* ctx, int batch, struct ArrowDeviceArray* out) {
  if (!adc_export_batch_raw(ctx, batch, out)) return false;
  if (out->array.release == NULL) {
    adc_unresolved(ctx, "the exported batch is already released (see array.release.non_null_after_export)");
    return false;
  }
  return true;
}

bool adc_export_device_batch(struct adc_case_context* ctx, int batch, struct ArrowDeviceArray* out) {
  if (!adc_can_call(ctx, ADC_EP_ExportDeviceBatchFromJson) || !export_device_form(ctx, batch, out))
    return false;
  if (out->array.release == NULL) {
    adc_unresolved(ctx, "the exported device batch is already released");
    return false;
  }
  return true;
}

bool adc_bytes_allocated(struct adc_case_context* ctx, int64_t* bytes) {
  if (!adc_can_call(ctx, ADC_EP_BytesAllocated)) return false;
  *bytes = ctx->library->functions.BytesAllocated();
  return true;
}

bool adc_batch_matches_before(struct adc_case_context* ctx, int batch, const struct ArrowArray* array) {
  char difference[512];
  if (adc_compare_batch(ctx, batch, array, difference, sizeof(difference)) == 0) return true;
  adc_unresolved(
      ctx, "batch %d differs from the fixture before the rule's step (see array.data.matches_fixture): %s",
      batch, difference);
  return false;
}
