#include "rule_api/needs.h"

enum adc_entry_point adc_entry_point_on_device(enum adc_entry_point entry_point,
                                               const struct adc_device* device) {
  if (device->arrow_type == ARROW_DEVICE_CPU) return entry_point;
  /* Off the CPU a batch can only travel as an ArrowDeviceArray. */
  switch (entry_point) {
    case ADC_EP_ExportBatchFromJson:
      return ADC_EP_ExportDeviceBatchFromJson;
    case ADC_EP_ImportBatchAndCompareToJson:
      return ADC_EP_ImportDeviceBatchAndCompareToJson;
    default:
      return entry_point;
  }
}

/* The needs of the rule as the library must meet them on the case's device. */
static adc_entry_point_set needs_on_device(const struct adc_case_context* ctx) {
  adc_entry_point_set set = 0;
  for (int i = 0; i < ADC_EP_COUNT; i++) {
    if (ctx->rule->needs & ((adc_entry_point_set)1u << i)) {
      set |= (adc_entry_point_set)1u << adc_entry_point_on_device((enum adc_entry_point)i, ctx->device);
    }
  }
  return set;
}

bool adc_needs_met(struct adc_case_context* ctx) {
  char missing[1024];
  if (adc_library_describe_missing(ctx->library, needs_on_device(ctx), missing, sizeof(missing)) > 0) {
    adc_not_supported(ctx, "%s", missing);
    return false;
  }
  if (ctx->rule->needs_read_only_memory && ctx->device->protect_read_only == NULL) {
    adc_not_supported(ctx, "the harness cannot make memory on %s read-only", ctx->device->name);
    return false;
  }
  return true;
}

bool adc_can_call(struct adc_case_context* ctx, enum adc_entry_point entry_point) {
  if ((ctx->rule->needs & ((adc_entry_point_set)1u << entry_point)) == 0) {
    adc_unresolved(ctx, "harness error: rule %s calls %s without declaring it in its needs", ctx->rule->id,
                   adc_entry_point_name(entry_point));
    return false;
  }
  enum adc_entry_point called = adc_entry_point_on_device(entry_point, ctx->device);
  if (!ctx->library->present[called]) {
    adc_not_supported(ctx, "%s does not export %s_%s", ctx->library->path, ctx->library->prefix,
                      adc_entry_point_suffix(called));
    return false;
  }
  return true;
}
