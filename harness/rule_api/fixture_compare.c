#include "rule_api/fixture_compare.h"

#include <stdio.h>

#include "rule_api/host_mirror.h"
#include "support/clock.h"

/* What is compared: one of the three shapes of fixture_compare.h. */
enum target_kind { WHOLE_BATCH, ONE_COLUMN, DICTIONARY_VALUES };

struct target {
  enum target_kind kind;
  int batch;
  int64_t column;
};

static int compare_on_host(const struct arrow_json_file* fixture, const struct target* target,
                           const struct ArrowArray* array, char* difference, size_t size) {
  const struct arrow_json_field* field =
      target->kind == WHOLE_BATCH ? NULL : &fixture->fields[target->column];
  switch (target->kind) {
    case WHOLE_BATCH:
      return arrow_json_compare_batch(fixture, target->batch, array, difference, size);
    case ONE_COLUMN:
      return arrow_json_compare_column(
          fixture, field, &fixture->batches[target->batch].columns[target->column], array, difference, size);
    case DICTIONARY_VALUES:
      return arrow_json_compare_values(&field->type, arrow_json_dictionary_values(fixture, field), array,
                                       difference, size);
  }
  return -1;
}

static int mirror(const struct adc_case_context* ctx, struct adc_host_mirror* mirror,
                  const struct target* target, const struct ArrowArray* array, struct ArrowArray* host,
                  struct adc_error* error) {
  const struct arrow_json_field* field =
      target->kind == WHOLE_BATCH ? NULL : &ctx->fixture->fields[target->column];
  switch (target->kind) {
    case WHOLE_BATCH:
      return adc_host_mirror_batch(mirror, ctx->device, ctx->fixture, array, host, error);
    case ONE_COLUMN:
      return adc_host_mirror_column(mirror, ctx->device, field, array, host, error);
    case DICTIONARY_VALUES:
      return adc_host_mirror_values(mirror, ctx->device, &field->type, array, host, error);
  }
  return -1;
}

static int compare_once(struct adc_case_context* ctx, const struct target* target,
                        const struct ArrowArray* array, char* difference, size_t size) {
  if (ctx->device->host_accessible) return compare_on_host(ctx->fixture, target, array, difference, size);
  struct adc_host_mirror copies = {0};
  struct ArrowArray host;
  struct adc_error error;
  int result;
  if (mirror(ctx, &copies, target, array, &host, &error) != 0) {
    adc_unresolved(ctx, "cannot bring the data on %s to the host: %s", ctx->device->name, error.message);
    snprintf(difference, size, "the data could not be read: %s", error.message);
    result = -1;
  } else {
    result = compare_on_host(ctx->fixture, target, &host, difference, size);
  }
  adc_host_mirror_free(&copies);
  return result;
}

/* Re-reads data that differed from the fixture until they equal it or the
 * watch ends: the seconds it took, or -1. */
static double watch_until_equal(struct adc_case_context* ctx, const struct target* target,
                                const struct ArrowArray* array) {
  double start = adc_now_seconds();
  while (!ctx->has_verdict && adc_now_seconds() - start < ADC_LATE_DATA_WATCH_SECONDS) {
    adc_sleep_seconds(ADC_LATE_DATA_WATCH_SECONDS / 100);
    char ignored[64];
    if (compare_once(ctx, target, array, ignored, sizeof(ignored)) == 0) return adc_now_seconds() - start;
  }
  return -1;
}

static int compare(struct adc_case_context* ctx, const struct target* target, const struct ArrowArray* array,
                   char* difference, size_t size) {
  int result = compare_once(ctx, target, array, difference, size);
  /* Only the first comparison after an export is watched: later ones
   * follow a step of the rule (a move, a release), whose effects are the
   * rule's to judge. */
  const char* event_rule = ctx->late_data_rule;
  ctx->late_data_rule = NULL;
  if (result == 0 || event_rule == NULL || ctx->has_verdict) return result;
  double later = watch_until_equal(ctx, target, array);
  if (later >= 0) {
    adc_unresolved(ctx,
                   "the data differed from the fixture when the producer said they were ready (%s) and "
                   "equalled it %.2f s later: it was still writing them (see %s)",
                   difference, later, event_rule);
  }
  return result;
}

int adc_compare_batch(struct adc_case_context* ctx, int batch, const struct ArrowArray* array,
                      char* difference, size_t size) {
  struct target target = {WHOLE_BATCH, batch, -1};
  return compare(ctx, &target, array, difference, size);
}

int adc_compare_column(struct adc_case_context* ctx, int batch, int64_t column,
                       const struct ArrowArray* array, char* difference, size_t size) {
  struct target target = {ONE_COLUMN, batch, column};
  return compare(ctx, &target, array, difference, size);
}

int adc_compare_dictionary(struct adc_case_context* ctx, int64_t column, const struct ArrowArray* dictionary,
                           char* difference, size_t size) {
  struct target target = {DICTIONARY_VALUES, -1, column};
  return compare(ctx, &target, dictionary, difference, size);
}

double adc_seconds_until_batch_matches(struct adc_case_context* ctx, int batch,
                                       const struct ArrowArray* array) {
  struct target target = {WHOLE_BATCH, batch, -1};
  return watch_until_equal(ctx, &target, array);
}
