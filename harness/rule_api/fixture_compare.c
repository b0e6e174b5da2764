#include "rule_api/fixture_compare.h"

#include <stdio.h>

#include "arrow_format/arrow_json_mirror.h"
#include "support/clock.h"

/* What is done with the data once the CPU can read them: 0 when they are
 * right, otherwise non-zero with what is wrong in `difference`. */
struct target;
struct judgement {
  int (*judge)(const struct arrow_json_file* fixture, const struct target* target,
               const struct ArrowArray* host, char* difference, size_t size, void* state);
  void* state;
};

/* What is compared: one of the three shapes of fixture_compare.h. */
enum target_kind { WHOLE_BATCH, ONE_COLUMN, DICTIONARY_VALUES };

struct target {
  enum target_kind kind;
  int batch;
  int64_t column;
};

static int compare_on_host(const struct arrow_json_file* fixture, const struct target* target,
                           const struct ArrowArray* array, char* difference, size_t size, void* state) {
  (void)state;
  const struct arrow_json_field* field =
      target->kind == WHOLE_BATCH ? NULL : &fixture->fields[target->column];
  switch (target->kind) {
    case WHOLE_BATCH:
      return arrow_json_compare_batch(fixture, target->batch, array, difference, size);
    case ONE_COLUMN:
      return arrow_json_compare_column(
          fixture, field, &fixture->batches[target->batch].columns[target->column], array, difference, size);
    case DICTIONARY_VALUES:
      return arrow_json_compare_values(fixture, field, array, difference, size);
  }
  return -1;
}

/* The device's copy, for the mirror; the reason of a failure stays here. */
struct device_copy {
  const struct adc_device* device;
  struct adc_error* error;
};

static int copy_from_device(void* context, void* host, const void* source, size_t size) {
  struct device_copy* copy = context;
  return adc_device_copy_to_host(copy->device, host, source, size, copy->error);
}

static int mirror(const struct adc_case_context* ctx, struct arrow_json_mirror* mirror,
                  const struct target* target, const struct ArrowArray* array, struct ArrowArray* host) {
  const struct arrow_json_field* field =
      target->kind == WHOLE_BATCH ? NULL : &ctx->fixture->fields[target->column];
  switch (target->kind) {
    case WHOLE_BATCH:
      return arrow_json_mirror_batch(mirror, ctx->fixture, array, host);
    case ONE_COLUMN:
      return arrow_json_mirror_column(mirror, field, array, host);
    case DICTIONARY_VALUES:
      return arrow_json_mirror_values(mirror, field, array, host);
  }
  return -1;
}

static const struct judgement equal_to_fixture = {compare_on_host, NULL};

static int judge_once(struct adc_case_context* ctx, const struct target* target,
                      const struct ArrowArray* array, const struct judgement* judgement, char* difference,
                      size_t size) {
  if (adc_device_reads_in_place(ctx->device->driver))
    return judgement->judge(ctx->fixture, target, array, difference, size, judgement->state);
  struct adc_error error;
  struct device_copy device_copy = {ctx->device, &error};
  struct arrow_json_mirror copies = {.copy = copy_from_device, .context = &device_copy};
  struct ArrowArray host;
  int result;
  if (mirror(ctx, &copies, target, array, &host) != 0) {
    if (copies.out_of_memory) adc_fail(&error, "out of host memory for a copy of the data");
    adc_unresolved(ctx, "cannot bring the data on %s to the host: %s", ctx->device->driver->name,
                   error.message);
    snprintf(difference, size, "the data could not be read: %s", error.message);
    result = -1;
  } else {
    result = judgement->judge(ctx->fixture, target, &host, difference, size, judgement->state);
  }
  arrow_json_mirror_free(&copies);
  return result;
}

/* Re-reads data that were judged wrong until they are right or the watch
 * ends: the seconds it took, or -1. */
static double watch_until_right(struct adc_case_context* ctx, const struct target* target,
                                const struct ArrowArray* array, const struct judgement* judgement) {
  double start = adc_now_seconds();
  while (!ctx->has_verdict && adc_now_seconds() - start < ADC_LATE_DATA_WATCH_SECONDS) {
    adc_sleep_seconds(ADC_LATE_DATA_WATCH_SECONDS / 100);
    char ignored[64];
    if (judge_once(ctx, target, array, judgement, ignored, sizeof(ignored)) == 0)
      return adc_now_seconds() - start;
  }
  return -1;
}

static int judge(struct adc_case_context* ctx, const struct target* target, const struct ArrowArray* array,
                 const struct judgement* judgement, char* difference, size_t size) {
  int result = judge_once(ctx, target, array, judgement, difference, size);
  /* Only the first comparison after an export is watched: later ones
   * follow a step of the rule (a move, a release), whose effects are the
   * rule's to judge. */
  const char* event_rule = ctx->late_data_rule;
  ctx->late_data_rule = NULL;
  if (result == 0 || event_rule == NULL || ctx->has_verdict) return result;
  double later = watch_until_right(ctx, target, array, judgement);
  if (later >= 0) {
    adc_unresolved(ctx,
                   "the data were wrong when the producer said they were ready (%s) and right %.2f s "
                   "later: it was still writing them (see %s)",
                   difference, later, event_rule);
  }
  return result;
}

int adc_compare_batch(struct adc_case_context* ctx, int batch, const struct ArrowArray* array,
                      char* difference, size_t size) {
  struct target target = {WHOLE_BATCH, batch, -1};
  return judge(ctx, &target, array, &equal_to_fixture, difference, size);
}

int adc_compare_column(struct adc_case_context* ctx, int batch, int64_t column,
                       const struct ArrowArray* array, char* difference, size_t size) {
  struct target target = {ONE_COLUMN, batch, column};
  return judge(ctx, &target, array, &equal_to_fixture, difference, size);
}

int adc_compare_dictionary(struct adc_case_context* ctx, int64_t column, const struct ArrowArray* dictionary,
                           char* difference, size_t size) {
  struct target target = {DICTIONARY_VALUES, -1, column};
  return judge(ctx, &target, dictionary, &equal_to_fixture, difference, size);
}

double adc_seconds_until_batch_matches(struct adc_case_context* ctx, int batch,
                                       const struct ArrowArray* array) {
  struct target target = {WHOLE_BATCH, batch, -1};
  return watch_until_right(ctx, &target, array, &equal_to_fixture);
}

/* The structural check of one family, as a judgement: its state. */
struct structure_check {
  enum arrow_structure_family family;
  int outcome; /* 0, ADC_STRUCTURE_BREACH or ADC_STRUCTURE_UNREADABLE */
};

static int check_structure_on_host(const struct arrow_json_file* fixture, const struct target* target,
                                   const struct ArrowArray* host, char* difference, size_t size,
                                   void* state) {
  struct structure_check* check = state;
  struct arrow_structure_findings findings;
  arrow_structure_check_batch(fixture, host, &findings);
  (void)target;
  check->outcome = 0;
  if (findings.found[check->family]) {
    check->outcome = ADC_STRUCTURE_BREACH;
    snprintf(difference, size, "%s", findings.message[check->family]);
  } else if (findings.unreadable) {
    check->outcome = ADC_STRUCTURE_UNREADABLE;
    snprintf(difference, size, "%s", findings.unreadable_message);
  }
  return check->outcome;
}

int adc_check_batch_structure(struct adc_case_context* ctx, int batch, const struct ArrowArray* array,
                              enum arrow_structure_family family, char* difference, size_t size) {
  struct target target = {WHOLE_BATCH, batch, -1};
  struct structure_check check = {family, 0};
  struct judgement structure = {check_structure_on_host, &check};
  int result = judge(ctx, &target, array, &structure, difference, size);
  return result == 0 || ctx->has_verdict ? (result == 0 ? 0 : -1) : check.outcome;
}
