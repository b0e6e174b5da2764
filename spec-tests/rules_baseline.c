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
#include <stdio.h>
#include <string.h>

#include "consumer_feed/consumer_feed.h"
#include "consumer_plain_export.h"
#include "feed_again.h"
#include "rule_api/consumer_calls.h"
#include "rule_api/library_text.h"
#include "rule_api/needs.h"
#include "rule_api/producer_calls.h"
#include "rule_api/stream_calls.h"
#include "rule_api/stream_rows.h"

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
static bool can_be_judged(struct adc_case_context* ctx, adc_entry_point_set needed) {
  bool device_form = ctx->device->driver->batches_as_device_arrays;
  char here[1024];
  char other[1024];
  if (adc_library_describe_missing(ctx->library, adc_set_in_form(needed, device_form), here, sizeof(here)) ==
      0) {
    return true;
  }
  if (adc_library_describe_missing(ctx->library, adc_set_in_form(needed, !device_form), other,
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

/* ExportBatchFromJson (its device form on a device of device arrays) for
 * batch `batch`, released at once: NULL, or the producer's message where
 * it declined (read with a bound into `text`). */
static const char* batch_declined(struct adc_case_context* ctx, int batch, char* text, size_t size) {
  const struct adc_plugin_functions* f = &ctx->library->functions;
  const char* error;
  if (ctx->device->driver->batches_as_device_arrays) {
    struct ArrowDeviceArray out;
    memset(&out, 0, sizeof(out));
    error = f->ExportDeviceBatchFromJson(ctx->fixture_path, batch, ctx->device->driver->kind->arrow_type,
                                         ctx->device->device_id, &out);
    if (error == NULL && out.array.release != NULL) out.array.release(&out.array);
  } else {
    struct ArrowArray out;
    memset(&out, 0, sizeof(out));
    error = f->ExportBatchFromJson(ctx->fixture_path, batch, &out);
    if (error == NULL && out.release != NULL) out.release(&out);
  }
  return error != NULL ? adc_library_text(error, text, size) : NULL;
}

/* A library that keeps its own model (rule_api/library.h) exports a
 * table's data through the method its objects have ("Tables / DataFrames
 * and streams can implement" __arrow_c_stream__ alone; a batch of no rows
 * need not be an array of its stream): where it declines a batch, its
 * stream of the fixture stands for it, read to its end and its rows the
 * fixture's by value. */
static void stream_stands_for_batches(struct adc_case_context* ctx, int batch, const char* declined) {
  struct ArrowDeviceArrayStream* stream = adc_export_stream(ctx);
  if (stream == NULL) return;
  static struct adc_stream_rows rows; /* large: off the stack */
  rows.n = 0;
  int code = 0;
  struct ArrowSchema* schema = adc_stream_get_schema(ctx, stream, &code);
  char difference[512] = "";
  if (schema == NULL && !ctx->has_verdict)
    snprintf(difference, sizeof(difference), "get_schema returned %d", code);
  while (schema != NULL && !ctx->has_verdict && difference[0] == '\0' && rows.n < ADC_STREAM_MOST_BATCHES) {
    struct ArrowDeviceArray* array = adc_stream_get_next(ctx, stream, rows.n, &code);
    if (array == NULL) {
      snprintf(difference, sizeof(difference), "get_next returned %d", code);
    } else if (array->array.release == NULL) {
      break;
    } else {
      rows.arrays[rows.n++] = array;
    }
  }
  if (difference[0] == '\0' && schema != NULL && !ctx->has_verdict)
    adc_compare_stream_rows(ctx, schema, &rows, difference, sizeof(difference));
  if (difference[0] != '\0' && !ctx->has_verdict) {
    adc_violation(ctx,
                  "the producer declined to export batch %d, which every producer must export (%s), and its "
                  "stream, which stands for its batches, did not give the fixture's data: %s",
                  batch, declined, difference);
  } else if (!ctx->has_verdict) {
    adc_note(ctx, "batch %d declined (%s); its stream gave the fixture's rows", batch, declined);
  }
  adc_stream_rows_release(&rows);
  if (schema != NULL) schema->release(schema);
  stream->release(stream);
}

/* What every producer exports on the baseline: the schema and each batch
 * (the stream the rule also needs stands for the batches of a library that
 * keeps its own model, and is asked of no other). */
#define BASELINE_EXPORTS (ADC_NEED(ExportSchemaFromJson) | ADC_NEED(ExportBatchFromJson))

static void exports_baseline(struct adc_case_context* ctx) {
  if (!can_be_judged(ctx, BASELINE_EXPORTS)) return;
  ctx->decline_is_violation = true;
  struct ArrowSchema* schema = adc_export_schema_raw(ctx);
  if (schema == NULL) return;
  if (schema->release != NULL) schema->release(schema);
  if (ctx->library->keeps_own_model) {
    ADC_FOR_EACH_BATCH(ctx, batch) {
      char text[ADC_LIBRARY_TEXT_LIMIT + 128];
      const char* declined = batch_declined(ctx, batch, text, sizeof(text));
      if (declined != NULL) {
        stream_stands_for_batches(ctx, batch, declined);
        return;
      }
    }
    return;
  }
  ADC_FOR_EACH_BATCH(ctx, batch) {
    struct ArrowArray* array = adc_export_batch_raw(ctx, batch);
    if (array != NULL && array->release != NULL) array->release(array);
  }
}

/* A consumer's message on `what` of a baseline fixture, exported as the
 * fixture has it: a decline fails this rule; other data handed on is
 * consumer.accepted.values_kept's to fail. */
static void judge_baseline_answer(struct adc_case_context* ctx, const char* what, const char* message) {
  char plain[64];
  snprintf(plain, sizeof(plain), "%s, exported as the fixture has it", what);
  if (!adc_unresolved_if_handed_on_other(ctx, adc_last_consumer_answer(), plain, message)) {
    adc_violation(ctx, "the consumer declined %s, exported as the fixture has it: %s", what, message);
  }
}

static void imports_baseline(struct adc_case_context* ctx) {
  if (!can_be_judged(ctx, ctx->rule->needs)) return;
  struct adc_error error;
  struct adc_feed* feed = adc_feed_new(ctx->device);
  const char* schema_message;
  if (adc_feed_schema_to_consumer(ctx, feed, &schema_message) && schema_message != NULL) {
    judge_baseline_answer(ctx, "the schema", schema_message);
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
        char what[32];
        snprintf(what, sizeof(what), "batch %d", batch);
        judge_baseline_answer(ctx, what, message);
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
        .needs = BASELINE_EXPORTS | ADC_NEED(ExportDeviceStreamFromJson),
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
