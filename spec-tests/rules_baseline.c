/* The baseline: what every producer and every consumer must handle, on the
 * CPU, so that a library declining everything cannot pass as conforming.
 *
 * Elsewhere a library that declines a fixture (an export returning a
 * message) or lacks an entry point ends not_supported: the spec leaves the
 * types a library supports to the library.  The baseline is the least a
 * library claiming the C Data Interface handles: int32 columns, nullable,
 * and a nested struct of them (fixtures int32_* and nested_struct).  There
 * a decline is a violation of these rules, and a library with neither the
 * C Data Interface entry points nor the device ones cannot be judged at
 * all, which fails them too (CONFORMANCE.md, "The baseline"). */
#include <string.h>

#include "consumer_feed/consumer_feed.h"
#include "feed_again.h"
#include "rule_api/consumer_calls.h"
#include "rule_api/needs.h"
#include "rule_api/producer_calls.h"

/* Every column an int32 or a struct of such, none dictionary-encoded. */
static bool baseline_field(const struct arrow_json_field* field) {
  if (field->is_dictionary) return false;
  if (field->type.kind == ARROW_JSON_INT) return field->type.bit_width == 32 && field->type.is_signed;
  if (field->type.kind != ARROW_JSON_STRUCT) return false;
  for (int64_t c = 0; c < field->n_children; c++) {
    if (!baseline_field(&field->children[c])) return false;
  }
  return true;
}

static bool is_baseline(const struct arrow_json_file* fixture) {
  for (int64_t f = 0; f < fixture->n_fields; f++) {
    if (!baseline_field(&fixture->fields[f])) return false;
  }
  return fixture->n_fields > 0;
}
static const struct adc_fixture_filter baseline_fixtures = {
    is_baseline, "only int32 columns and structs of them (the baseline: int32_*, nested_struct)"};

static bool on_the_cpu(const struct adc_device_target* device) {
  return device->driver->kind->arrow_type == ARROW_DEVICE_CPU;
}
static const struct adc_device_filter cpu_devices = {
    on_the_cpu, "on the CPU (cpu through the C Data Interface, cpu_device_arrays through device arrays)"};

/* Whether the library exports what the rule needs in this device's form.
 * One that has the other form instead is judged on the other CPU device
 * (not_supported here); one with neither cannot be judged: a violation
 * naming every missing symbol. */
static bool can_be_judged(struct adc_case_context* ctx) {
  bool device_form = ctx->device->driver->batches_as_device_arrays;
  char here[1024];
  char other[1024];
  if (adc_library_describe_missing(ctx->library, adc_needs_in_form(ctx->rule, device_form), here,
                                   sizeof(here)) == 0) {
    return true;
  }
  if (adc_library_describe_missing(ctx->library, adc_needs_in_form(ctx->rule, !device_form), other,
                                   sizeof(other)) == 0) {
    adc_not_supported(ctx, "%s; judged through its %s entry points on the other CPU device", here,
                      device_form ? "C Data Interface" : "device");
  } else {
    /* "<path> does not export ...": the path is said once. */
    const char* lacks = strstr(other, " does not export ");
    adc_violation(ctx, "the library cannot be judged on the baseline: %s; nor in the %s form:%s", here,
                  device_form ? "C Data Interface" : "device", lacks != NULL ? lacks : other);
  }
  return false;
}

static void exports_baseline(struct adc_case_context* ctx) {
  if (!can_be_judged(ctx)) return;
  ctx->decline_is_violation = true;
  struct ArrowSchema* schema = adc_export_schema_raw(ctx);
  if (schema == NULL) return;
  if (schema->release != NULL) schema->release(schema);
  ADC_FOR_EACH_BATCH(ctx, batch) {
    struct ArrowArray* array = adc_export_batch_raw(ctx, batch);
    if (array != NULL && array->release != NULL) array->release(array);
  }
}

static void imports_baseline(struct adc_case_context* ctx) {
  if (!can_be_judged(ctx)) return;
  struct adc_error error;
  struct adc_feed* feed = adc_feed_new(ctx->device);
  struct ArrowSchema schema;
  if (adc_feed_export_schema(feed, ctx->fixture, &schema, &error) != 0) {
    adc_unresolved(ctx, "the consumer feed could not export the schema: %s", error.message);
  } else {
    struct adc_feed_input input;
    const char* message = adc_import_schema(ctx, &schema, adc_feed_schema_again(&input, feed, ctx->fixture));
    if (message != NULL) {
      adc_violation(ctx, "the consumer declined the schema, exported as the fixture has it: %s", message);
    }
  }
  adc_feed_free(feed);
  ADC_FOR_EACH_BATCH(ctx, batch) {
    feed = adc_feed_new(ctx->device);
    struct ArrowDeviceArray array;
    if (adc_feed_export_batch(feed, ctx->fixture, batch, NULL, &array, &error) != 0) {
      adc_unresolved(ctx, "the consumer feed could not export batch %d: %s", batch, error.message);
    } else {
      struct adc_feed_input input;
      const char* message =
          adc_import_batch(ctx, batch, &array, adc_feed_batch_again(&input, feed, ctx->fixture, batch, NULL));
      if (message != NULL) {
        adc_violation(ctx, "the consumer declined batch %d, exported as the fixture has it: %s", batch,
                      message);
      }
    }
    adc_feed_free(feed);
  }
}

static const char baseline_clause[] = "The C data interface -- the baseline of this suite";

static const struct adc_rule rules[] = {
    {
        .id = "baseline.producer.exports_baseline_fixtures",
        .clause = baseline_clause,
        .sentence =
            "The Arrow C data interface defines a very small, stable set of C definitions that can be "
            "easily copied in any project's source code and used for columnar data interchange in "
            "the Arrow format.",
        .method = "Exports the schema and every batch of each baseline fixture on the CPU: a decline fails, "
                  "and so does a library with neither the C Data Interface nor the device entry points.",
        .role = ADC_ROLE_PRODUCER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ExportSchemaFromJson) | ADC_NEED(ExportBatchFromJson),
        .judges_missing_entry_points = true,
        .devices = &cpu_devices,
        .fixtures = &baseline_fixtures,
        .run = exports_baseline,
    },
    {
        .id = ADC_RULE_CONSUMER_BASELINE,
        .clause = baseline_clause,
        .sentence =
            "The Arrow C data interface defines a very small, stable set of C definitions that can be "
            "easily copied in any project's source code and used for columnar data interchange in "
            "the Arrow format.",
        .method = "Hands the consumer the schema and every batch of each baseline fixture on the CPU, "
                  "exported as the fixture has them: any message (a decline) fails, and so does a library "
                  "with neither the C Data Interface nor the device entry points.",
        .role = ADC_ROLE_CONSUMER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ImportSchemaAndCompareToJson) | ADC_NEED(ImportBatchAndCompareToJson),
        .judges_missing_entry_points = true,
        .devices = &cpu_devices,
        .fixtures = &baseline_fixtures,
        .run = imports_baseline,
    },
};

const struct adc_rule_family adc_baseline_rules = ADC_RULE_FAMILY(rules);
