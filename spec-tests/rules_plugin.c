/* Rules on the plugin ABI itself (CONFORMANCE.md, "Plugin ABI"): what every
 * verdict of the other rules relies on when a library says no, and how a
 * process that loaded the library ends. */
#include <string.h>

#include "consumer_feed/consumer_feed.h"
#include "feed_again.h"
#include "rule_api/consumer_calls.h"
#include "rule_api/library_text.h"
#include "rule_api/producer_calls.h"

/* A library's message is read with a bound whatever it is; this rule makes
 * one that is not NUL-terminated UTF-8 a finding of its own. */
static void declines_missing_batch(struct adc_case_context* ctx) {
  char text[ADC_LIBRARY_TEXT_LIMIT + 128];
  bool well_formed;
  int missing = (int)ctx->fixture->n_batches;
  const char* message = adc_export_missing_batch(ctx, missing, text, sizeof(text), &well_formed);
  if (ctx->has_verdict) return;
  if (message == NULL) {
    adc_violation(ctx, "batch %d, which the fixture does not have, was exported instead of declined",
                  missing);
  } else if (!well_formed) {
    adc_violation(ctx, "batch %d was declined with a message that is not NUL-terminated UTF-8: %s", missing,
                  message);
  }
}

/* The body of plugin.process.exits_cleanly: the library used as any
 * producer rule uses it (the schema and the first batch exported and
 * released); the verdict is how its process then ends (judges_process_end),
 * never what these calls give, which the other rules judge. */
static void producer_used_then_exits(struct adc_case_context* ctx) {
  struct ArrowSchema* schema = adc_export_schema_raw(ctx);
  if (schema != NULL && schema->release != NULL) schema->release(schema);
  struct ArrowArray* array = ctx->has_verdict ? NULL : adc_export_batch_raw(ctx, 0);
  if (array != NULL && array->release != NULL) array->release(array);
}

/* The body of consumer.process.exits_cleanly: the consumer handed the
 * schema and the first batch, as any consumer rule hands them. */
static void consumer_used_then_exits(struct adc_case_context* ctx) {
  struct adc_error error;
  struct adc_feed* feed = adc_feed_new(ctx->device);
  struct ArrowSchema schema;
  struct adc_feed_input input;
  if (adc_feed_export_schema(feed, ctx->fixture, &schema, &error) == 0) {
    adc_import_schema(ctx, &schema, adc_feed_schema_again(&input, feed, ctx->fixture));
  }
  adc_feed_free(feed);
  feed = adc_feed_new(ctx->device);
  struct ArrowDeviceArray array;
  if (adc_feed_export_batch(feed, ctx->fixture, 0, NULL, &array, &error) == 0) {
    adc_import_batch(ctx, 0, &array, adc_feed_batch_again(&input, feed, ctx->fixture, 0, NULL));
  }
  adc_feed_free(feed);
}

/* One fixture is enough to end a process (on a GPU, or for a Python
 * library, a process of its own costs a runtime's start or an import):
 * the baseline's one nullable int32 column with values and nulls
 * (int32_nulls among the bundled fixtures), which every library handles. */
static bool one_int32_column_with_nulls(const struct arrow_json_file* fixture) {
  if (fixture->n_fields != 1 || fixture->n_batches == 0 || fixture->fields[0].is_dictionary) return false;
  const struct arrow_json_type* type = &fixture->fields[0].type;
  const struct arrow_json_column* column = &fixture->batches[0].columns[0];
  return type->kind == ARROW_JSON_INT && type->bit_width == 32 && type->is_signed && column->null_count > 0 &&
         column->null_count < column->length;
}
static const struct adc_fixture_filter with_rows = {
    one_int32_column_with_nulls, "one int32 column with values and nulls in its first batch (int32_nulls)"};

static const char process_end_sentence[] =
    "The harness loads the library into a process, calls it, and the process then exits: the library's "
    "exit handlers, destructors and unloading must let it end normally (this suite's own requirement: the "
    "specification does not speak of processes).";

static const struct adc_rule rules[] = {
    {
        .id = "plugin.process.exits_cleanly",
        .clause = "Plugin ABI",
        .sentence = process_end_sentence,
        .method = "In a process of its own, exports the schema and the first batch and releases them, then "
                  "lets the process exit: a death as it ends (a crash in an exit handler or a destructor) "
                  "fails; the same death after any other case's verdict is reported here, once.",
        .role = ADC_ROLE_PRODUCER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ExportSchemaFromJson) | ADC_NEED(ExportBatchFromJson),
        .fixtures = &with_rows,
        .needs_own_process = true,
        .judges_process_end = true,
        .run = producer_used_then_exits,
    },
    {
        .id = "consumer.process.exits_cleanly",
        .clause = "Plugin ABI",
        .sentence = process_end_sentence,
        .method = "In a process of its own, hands the consumer the schema and the first batch, then lets "
                  "the process exit: a death as it ends (a crash in an exit handler or a destructor) fails; "
                  "the same death after any other case's verdict is reported here, once.",
        .role = ADC_ROLE_CONSUMER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ImportSchemaAndCompareToJson) | ADC_NEED(ImportBatchAndCompareToJson),
        .fixtures = &with_rows,
        .needs_own_process = true,
        .judges_process_end = true,
        .run = consumer_used_then_exits,
    },
    {
        .id = "plugin.export.declines_missing_batch",
        .clause = "Plugin ABI",
        .sentence = "Conventions: functions returning const char* return NULL on success, else a UTF-8 "
                    "message owned by the library and valid until its next call.",
        .method = "Asks for the batch after the fixture's last one: the producer must decline it with a "
                  "NUL-terminated UTF-8 message (read with a bound of 4096 bytes).",
        .role = ADC_ROLE_PRODUCER,
        .severity = ADC_SHOULD,
        .needs = ADC_NEED(ExportBatchFromJson),
        .run = declines_missing_batch,
    },
};

const struct adc_rule_family adc_plugin_rules = ADC_RULE_FAMILY(rules);
