#include "rule_api/producer_calls.h"

#include <stdio.h>
#include <string.h>

#include "rule_api/library_text.h"
#include "rule_api/needs.h"
#include "rule_api/output_slot.h"

void* adc_output_slot_new_filled(struct adc_case_context* ctx, size_t size, const char* structure,
                                 const char* entry_point) {
  void* slot = adc_output_slot_new(ctx, size, structure, entry_point);
  if (slot != NULL) memset(slot, ADC_FILL_BYTE, size);
  return slot;
}

void* adc_exported(struct adc_case_context* ctx, void* out, const char* error, const char* what) {
  if (!adc_output_slot_intact(ctx, out)) return NULL;
  if (error != NULL) {
    char text[ADC_LIBRARY_TEXT_LIMIT + 128];
    adc_library_text(error, text, sizeof(text));
    if (ctx->decline_is_violation) {
      adc_violation(ctx, "the producer declined to export %s, which every producer must export: %s", what,
                    text);
    } else {
      adc_not_supported(ctx, "the producer declined to export %s: %s", what, text);
    }
    return NULL;
  }
  return out;
}

struct ArrowSchema* adc_export_schema_raw(struct adc_case_context* ctx) {
  if (!adc_can_call(ctx, ADC_EP_ExportSchemaFromJson)) return NULL;
  struct ArrowSchema* out =
      adc_output_slot_new_filled(ctx, sizeof(*out), "ArrowSchema", "ExportSchemaFromJson");
  if (out == NULL) return NULL;
  return adc_exported(ctx, out, ctx->library->functions.ExportSchemaFromJson(ctx->fixture_path, out),
                      "the schema");
}

struct ArrowSchema* adc_export_schema(struct adc_case_context* ctx) {
  struct ArrowSchema* out = adc_export_schema_raw(ctx);
  if (out != NULL && out->release == NULL) {
    adc_unresolved(ctx, "the exported schema is already released (see schema.release.non_null_after_export)");
    return NULL;
  }
  return out;
}

/* ExportDeviceBatchFromJson with the case's device type and id. */
static struct ArrowDeviceArray* export_device_form(struct adc_case_context* ctx, int batch) {
  struct ArrowDeviceArray* out =
      adc_output_slot_new_filled(ctx, sizeof(*out), "ArrowDeviceArray", "ExportDeviceBatchFromJson");
  if (out == NULL) return NULL;
  const char* error = ctx->library->functions.ExportDeviceBatchFromJson(
      ctx->fixture_path, batch, ctx->device->driver->kind->arrow_type, ctx->device->device_id, out);
  char what[128];
  snprintf(what, sizeof(what), "batch %d to %s", batch, ctx->device->driver->name);
  return adc_exported(ctx, out, error, what);
}

struct ArrowArray* adc_export_batch_raw(struct adc_case_context* ctx, int batch) {
  if (!adc_can_call(ctx, ADC_EP_ExportBatchFromJson)) return NULL;
  if (adc_entry_point_on_device(ADC_EP_ExportBatchFromJson, ctx->device->driver) ==
      ADC_EP_ExportBatchFromJson) {
    struct ArrowArray* out =
        adc_output_slot_new_filled(ctx, sizeof(*out), "ArrowArray", "ExportBatchFromJson");
    if (out == NULL) return NULL;
    char what[64];
    snprintf(what, sizeof(what), "batch %d", batch);
    return adc_exported(ctx, out, ctx->library->functions.ExportBatchFromJson(ctx->fixture_path, batch, out),
                        what);
  }
  struct ArrowDeviceArray* out = export_device_form(ctx, batch);
  if (out == NULL || (out->array.release != NULL && !adc_wait_until_ready(ctx, out, batch))) return NULL;
  return &out->array;
}

const struct adc_source_rules* adc_source_rules(enum adc_array_source source) {
  static const struct adc_source_rules rules[ADC_ARRAY_SOURCE_COUNT] = {
      [ADC_FROM_DEVICE_BATCH] = {ADC_RULE_VALID_EVENT, ADC_RULE_DATA_COMPLETE, ADC_RULE_NULL_MEANS_READY,
                                 "array.data.matches_fixture", "batch"},
      [ADC_FROM_STREAM] = {"device_stream.sync_event.valid_event", "device_stream.sync_event.data_complete",
                           "device_stream.sync_event.null_means_ready", "device_stream.next.matches_fixture",
                           "stream batch"},
      [ADC_FROM_ASYNC_TASK] = {"async.sync_event.valid_event", "async.sync_event.data_complete",
                               "async.sync_event.null_means_ready", "async.task.matches_fixture",
                               "async task"},
  };
  return &rules[source];
}

bool adc_wait_until_ready_from(struct adc_case_context* ctx, struct ArrowDeviceArray* array, int batch,
                               enum adc_array_source source) {
  const struct adc_source_rules* rules = adc_source_rules(source);
  /* spec: a consumer must wait on the event before touching the data. */
  struct adc_error error;
  if (adc_device_wait_event(ctx->device, array->sync_event, &error) != 0) {
    adc_unresolved(ctx, "%s %d: waiting on its sync_event failed (see %s): %s", rules->array_noun, batch,
                   rules->valid_event, error.message);
    array->array.release(&array->array);
    return false;
  }
  if (ctx->device->driver->kind->event_type != NULL) {
    ctx->late_data_rule = array->sync_event != NULL ? rules->data_complete : rules->null_means_ready;
  }
  return true;
}

bool adc_wait_until_ready(struct adc_case_context* ctx, struct ArrowDeviceArray* array, int batch) {
  return adc_wait_until_ready_from(ctx, array, batch, ADC_FROM_DEVICE_BATCH);
}

struct ArrowArray* adc_export_batch(struct adc_case_context* ctx, int batch) {
  struct ArrowArray* out = adc_export_batch_raw(ctx, batch);
  if (out != NULL && out->release == NULL) {
    adc_unresolved(ctx, "the exported batch is already released (see array.release.non_null_after_export)");
    return NULL;
  }
  return out;
}

const char* adc_call_batch_export(const struct adc_library* library, const struct adc_case_context* ctx,
                                  int batch, struct ArrowDeviceArray* out) {
  if (ctx->device->driver->batches_as_device_arrays) {
    return library->functions.ExportDeviceBatchFromJson(
        ctx->fixture_path, batch, ctx->device->driver->kind->arrow_type, ctx->device->device_id, out);
  }
  const char* declined = library->functions.ExportBatchFromJson(ctx->fixture_path, batch, &out->array);
  if (declined == NULL) {
    out->device_id = -1;
    out->device_type = ARROW_DEVICE_CPU;
    out->sync_event = NULL;
    memset(out->reserved, 0, sizeof(out->reserved));
  }
  return declined;
}

struct ArrowDeviceArray* adc_export_batch_unwaited(struct adc_case_context* ctx, int batch) {
  if (!adc_can_call(ctx, ADC_EP_ExportBatchFromJson)) return NULL;
  if (ctx->device->driver->batches_as_device_arrays) return export_device_form(ctx, batch);
  struct ArrowDeviceArray* out =
      adc_output_slot_new_filled(ctx, sizeof(*out), "ArrowDeviceArray", "ExportBatchFromJson");
  if (out == NULL) return NULL;
  char what[64];
  snprintf(what, sizeof(what), "batch %d", batch);
  return adc_exported(ctx, out, adc_call_batch_export(ctx->library, ctx, batch, out), what);
}

struct ArrowDeviceArray* adc_export_device_batch(struct adc_case_context* ctx, int batch) {
  if (!adc_can_call(ctx, ADC_EP_ExportDeviceBatchFromJson)) return NULL;
  struct ArrowDeviceArray* out = export_device_form(ctx, batch);
  if (out != NULL && out->array.release == NULL) {
    adc_unresolved(ctx, "the exported device batch is already released");
    return NULL;
  }
  return out;
}

const char* adc_export_missing_batch(struct adc_case_context* ctx, int batch, char* text, size_t size,
                                     bool* well_formed) {
  *well_formed = true;
  if (!adc_can_call(ctx, ADC_EP_ExportBatchFromJson)) return NULL;
  struct ArrowDeviceArray* out =
      adc_output_slot_new_filled(ctx, sizeof(*out), "ArrowDeviceArray", "ExportBatchFromJson");
  if (out == NULL) return NULL;
  const char* message =
      adc_entry_point_on_device(ADC_EP_ExportBatchFromJson, ctx->device->driver) == ADC_EP_ExportBatchFromJson
          ? ctx->library->functions.ExportBatchFromJson(ctx->fixture_path, batch, &out->array)
          : ctx->library->functions.ExportDeviceBatchFromJson(
                ctx->fixture_path, batch, ctx->device->driver->kind->arrow_type, ctx->device->device_id, out);
  if (!adc_output_slot_intact(ctx, out)) return NULL;
  if (message != NULL) return adc_library_text_checked(message, text, size, well_formed);
  /* Something was exported: give it back, unless release was never set. */
  if (out->array.release != NULL && !adc_output_unwritten(&out->array.release, sizeof(out->array.release))) {
    out->array.release(&out->array);
  }
  return NULL;
}

bool adc_output_unwritten(const void* member, size_t size) {
  const unsigned char* bytes = member;
  for (size_t i = 0; i < size; i++) {
    if (bytes[i] != ADC_FILL_BYTE) return false;
  }
  return true;
}

bool adc_bytes_allocated(struct adc_case_context* ctx, int64_t* bytes) {
  if (!adc_can_call(ctx, ADC_EP_BytesAllocated)) return false;
  *bytes = ctx->library->functions.BytesAllocated();
  return true;
}

const char* adc_layout_rule_of(int difference) {
  if (difference == ARROW_JSON_DIFFERENT_COUNTS) return ADC_RULE_ARRAY_LAYOUT;
  if (difference == ARROW_JSON_DIFFERENT_DICTIONARY) return ADC_RULE_ARRAY_DICTIONARY;
  if (difference == ARROW_JSON_DIFFERENT_TYPES) return ADC_RULE_SCHEMA_TYPES;
  return NULL;
}
