/* Rules for consumers.  The harness exports with the instrumented
 * reference producer (reference/reference_core.h) and hands the result to
 * the consumer's Import entry point, which must compare it with the fixture
 * and release it before returning.  Every export carries a release log, so
 * that a consumer releasing twice is counted, never undefined behaviour. */
#include <stdlib.h>
#include <string.h>

#include "guard.h"
#include "reference_core.h"
#include "rules.h"

/* Exports batch `batch` with `options`, giving unresolved on failure. */
static bool export_for_consumer(struct adc_case_context* ctx, int batch, struct ref_export_options* options,
                                struct ArrowArray* out) {
  const char* error = ref_export_batch(ctx->fixture, batch, options, out);
  if (error != NULL) adc_unresolved(ctx, "the reference producer could not export batch %d: %s", batch, error);
  return error == NULL;
}

/* Hands the consumer every batch, each exported with a fresh release log,
 * and lets `judge` read the log once Import has returned. */
static void judge_release_log(struct adc_case_context* ctx,
                              void (*judge)(struct adc_case_context*, int, const struct ref_release_log*)) {
  ADC_ImportBatchAndCompareToJson import = adc_require(ctx, ctx->consumer, ADC_EP_IMPORT_BATCH);
  for (int batch = 0; import != NULL && batch < ctx->fixture->n_batches && !ctx->has_verdict; batch++) {
    struct ref_export_options options = {.log = ref_release_log_new()};
    struct ArrowArray array;
    if (export_for_consumer(ctx, batch, &options, &array)) {
      import(ctx->fixture_path, batch, &array);
      judge(ctx, batch, options.log);
    }
    ref_release_log_free(options.log);
  }
}

static void released_once(struct adc_case_context* ctx, int batch, const struct ref_release_log* log) {
  int calls = ref_release_log_base_calls(log);
  if (calls == 0) adc_violation(ctx, "batch %d: the consumer returned without releasing the batch", batch);
  if (calls > 1) adc_violation(ctx, "batch %d: the consumer called the batch's release callback %d times", batch, calls);
}

void rule_consumer_release_exactly_once(struct adc_case_context* ctx) { judge_release_log(ctx, released_once); }

static void children_left_alone(struct adc_case_context* ctx, int batch, const struct ref_release_log* log) {
  int in_place = ref_release_log_children_released_in_place(log);
  if (in_place > 0) {
    adc_violation(ctx, "batch %d: the consumer called the release callback of %d child or dictionary "
                       "structure(s) in place; only the base structure's may be called",
                  batch, in_place);
  }
}

void rule_consumer_release_not_children(struct adc_case_context* ctx) {
  judge_release_log(ctx, children_left_alone);
}

void rule_consumer_schema_release_exactly_once(struct adc_case_context* ctx) {
  ADC_ImportSchemaAndCompareToJson import = adc_require(ctx, ctx->consumer, ADC_EP_IMPORT_SCHEMA);
  if (import == NULL) return;
  struct ref_release_log* log = ref_release_log_new();
  struct ArrowSchema schema;
  const char* error = ref_export_schema(ctx->fixture, &schema, log);
  if (error != NULL) {
    adc_unresolved(ctx, "the reference producer could not export the schema: %s", error);
  } else {
    import(ctx->fixture_path, &schema);
    int calls = ref_release_log_base_calls(log);
    if (calls == 0) adc_violation(ctx, "the consumer returned without releasing the schema");
    if (calls > 1) adc_violation(ctx, "the consumer called the schema's release callback %d times", calls);
  }
  ref_release_log_free(log);
}

static const char wrote_message[] =
    "the consumer wrote to an exported buffer, which both sides should treat as immutable";

void rule_consumer_buffers_not_written(struct adc_case_context* ctx) {
  ADC_ImportBatchAndCompareToJson import = adc_require(ctx, ctx->consumer, ADC_EP_IMPORT_BATCH);
  for (int batch = 0; import != NULL && batch < ctx->fixture->n_batches && !ctx->has_verdict; batch++) {
    struct ref_export_options options = {.read_only_buffers = true, .log = ref_release_log_new()};
    struct ArrowArray array;
    if (export_for_consumer(ctx, batch, &options, &array)) {
      const struct ref_read_only_region* regions;
      int64_t n = ref_release_log_read_only_regions(options.log, &regions);
      for (int64_t i = 0; i < n; i++) {
        adc_guard_add(regions[i].start, regions[i].size, adc_violation_status(ctx->rule), wrote_message);
      }
      const char* error = import(ctx->fixture_path, batch, &array);
      /* The regions are unmapped by the release: forget them before anything
       * else can be mapped there. */
      adc_guard_remove_all();
      if (error != NULL) adc_unresolved(ctx, "batch %d: the consumer rejected a valid export: %s", batch, error);
    }
    ref_release_log_free(options.log);
  }
}

/* Hands the consumer a batch that equals the fixture but is laid out as
 * `options` says; the consumer must find it equal. */
static void expect_equal(struct adc_case_context* ctx, struct ref_export_options options, const char* layout) {
  ADC_ImportBatchAndCompareToJson import = adc_require(ctx, ctx->consumer, ADC_EP_IMPORT_BATCH);
  for (int batch = 0; import != NULL && batch < ctx->fixture->n_batches && !ctx->has_verdict; batch++) {
    options.log = ref_release_log_new();
    struct ArrowArray array;
    if (export_for_consumer(ctx, batch, &options, &array)) {
      const char* error = import(ctx->fixture_path, batch, &array);
      if (error != NULL) {
        adc_violation(ctx, "batch %d, exported with %s, equals the fixture but the consumer reported: %s", batch,
                      layout, error);
      }
    }
    ref_release_log_free(options.log);
  }
}

bool fixture_has_int32_rows(const struct arrow_json_file* fixture) {
  return arrow_json_first_int32_column(fixture) >= 0;
}

void rule_consumer_offset_handled(struct adc_case_context* ctx) {
  expect_equal(ctx, (struct ref_export_options){.offset_padding = 3}, "offset 3 on its int32 columns");
}

bool fixture_has_nulls(const struct arrow_json_file* fixture) { return arrow_json_has_nulls(fixture); }

void rule_consumer_null_count_unknown(struct adc_case_context* ctx) {
  expect_equal(ctx, (struct ref_export_options){.unknown_null_count = true},
               "null_count -1 wherever a validity buffer is present");
}

void rule_consumer_detects_mismatch(struct adc_case_context* ctx) {
  ADC_ImportBatchAndCompareToJson import = adc_require(ctx, ctx->consumer, ADC_EP_IMPORT_BATCH);
  bool altered_any = false;
  for (int batch = 0; import != NULL && batch < ctx->fixture->n_batches && !ctx->has_verdict; batch++) {
    struct ref_export_options options = {.corrupt_one_value = true, .log = ref_release_log_new()};
    struct ArrowArray array;
    char difference[512];
    if (!export_for_consumer(ctx, batch, &options, &array)) {
      /* verdict given */
    } else if (arrow_json_compare_batch(ctx->fixture, batch, &array, difference, sizeof(difference)) == 0) {
      array.release(&array); /* nothing in this batch could be altered */
    } else {
      altered_any = true;
      if (import(ctx->fixture_path, batch, &array) == NULL) {
        adc_violation(ctx, "batch %d: the consumer reported the batch equal to the fixture, yet %s", batch,
                      difference);
      }
    }
    ref_release_log_free(options.log);
  }
  if (import != NULL && !altered_any) adc_unresolved(ctx, "the fixture has no value the reference producer can alter");
}

static bool column_has_value(const struct arrow_json_column* column) {
  for (int64_t i = 0; i < column->length; i++) {
    if (column->validity[i]) return true;
  }
  for (int64_t i = 0; i < column->n_children; i++) {
    if (column_has_value(&column->children[i])) return true;
  }
  return false;
}

bool fixture_has_values(const struct arrow_json_file* fixture) {
  for (int64_t b = 0; b < fixture->n_batches; b++) {
    for (int64_t c = 0; c < fixture->n_fields; c++) {
      if (column_has_value(&fixture->batches[b].columns[c])) return true;
    }
  }
  return false;
}
