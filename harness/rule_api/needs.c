#include "rule_api/needs.h"

#include <stdio.h>

enum adc_entry_point adc_entry_point_on_device(enum adc_entry_point entry_point,
                                               const struct adc_device_driver* driver) {
  return adc_entry_point_in_form(entry_point, driver->batches_as_device_arrays);
}

enum adc_entry_point adc_entry_point_in_form(enum adc_entry_point entry_point, bool device_form) {
  if (!device_form) return entry_point;
  switch (entry_point) {
    case ADC_EP_ExportBatchFromJson:
      return ADC_EP_ExportDeviceBatchFromJson;
    case ADC_EP_ImportBatchAndCompareToJson:
      return ADC_EP_ImportDeviceBatchAndCompareToJson;
    default:
      return entry_point;
  }
}

adc_entry_point_set adc_set_in_form(adc_entry_point_set needs, bool device_form) {
  adc_entry_point_set set = 0;
  for (int i = 0; i < ADC_EP_COUNT; i++) {
    if (needs & ADC_ENTRY_POINT_BIT(i)) {
      set |= ADC_ENTRY_POINT_BIT(adc_entry_point_in_form((enum adc_entry_point)i, device_form));
    }
  }
  return set;
}

adc_entry_point_set adc_needs_in_form(const struct adc_rule* rule, bool device_form) {
  return adc_set_in_form(rule->needs, device_form);
}

/* The needs of the rule as the library must meet them on the case's device. */
static adc_entry_point_set needs_on_device(const struct adc_case_context* ctx) {
  return adc_needs_in_form(ctx->rule, ctx->device->driver->batches_as_device_arrays);
}

/* Whether the library exports every entry point of `needed`; otherwise
 * gives not_supported naming every one it lacks. */
static bool exports(struct adc_case_context* ctx, adc_entry_point_set needed) {
  char missing[1024];
  if (adc_library_describe_missing(ctx->library, needed, missing, sizeof(missing)) == 0) return true;
  adc_not_supported(ctx, "%s", missing);
  return false;
}

bool adc_device_meets_needs(const struct adc_rule* rule, const struct adc_device_driver* driver, char* why,
                            size_t size) {
  if (rule->needs_read_only_memory && !adc_device_can_protect(driver)) {
    snprintf(why, size, "the harness cannot make memory on %s read-only", driver->name);
    return false;
  }
  return true;
}

/* Whether a pair rule's producer exports every entry point the rule calls
 * of it; otherwise not_supported naming what it lacks. */
static bool pair_producer_exports(struct adc_case_context* ctx) {
  if (!ctx->rule->judges_a_pair) return true;
  adc_entry_point_set needed =
      adc_set_in_form(ctx->rule->producer_needs, ctx->device->driver->batches_as_device_arrays);
  char missing[1024];
  if (ctx->pair_producer == NULL) {
    adc_unresolved(ctx, "harness error: pair rule %s has no producer", ctx->rule->id);
    return false;
  }
  if (adc_library_describe_missing(ctx->pair_producer, needed, missing, sizeof(missing)) == 0) return true;
  adc_not_supported(ctx, "the producer: %s", missing);
  return false;
}

bool adc_needs_met(struct adc_case_context* ctx) {
  if (!ctx->rule->judges_missing_entry_points && !exports(ctx, needs_on_device(ctx))) return false;
  if (!pair_producer_exports(ctx)) return false;
  char why[256];
  if (!adc_device_meets_needs(ctx->rule, ctx->device->driver, why, sizeof(why))) {
    adc_not_supported(ctx, "%s", why);
    return false;
  }
  return true;
}

bool adc_can_call(struct adc_case_context* ctx, enum adc_entry_point entry_point) {
  adc_entry_point_set declared = ctx->calls_pair_producer ? ctx->rule->producer_needs : ctx->rule->needs;
  if ((declared & ADC_ENTRY_POINT_BIT(entry_point)) == 0) {
    adc_unresolved(ctx, "harness error: rule %s calls %s without declaring it in its needs", ctx->rule->id,
                   adc_entry_point_name(entry_point));
    return false;
  }
  return exports(ctx, ADC_ENTRY_POINT_BIT(adc_entry_point_on_device(entry_point, ctx->device->driver)));
}
