#include "rule_api/fixture_compare.h"

#include <stdio.h>

#include <stdlib.h>

#include "arrow_format/arrow_json_mirror.h"
#include "arrow_format/arrow_logical.h"
#include "rule_api/producer_calls.h"
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
  /* The library's own schema of the batch (library.h: keeps_own_model),
   * which the data are read by, compared by their values
   * (arrow_logical.h); NULL: the fixture's types, compared exactly. */
  const struct ArrowSchema* schema;
};

/* The data read by the library's own schema, compared by value. */
static int compare_values(const struct arrow_json_file* fixture, const struct target* target,
                          const struct ArrowArray* array, char* difference, size_t size) {
  if (target->kind != WHOLE_BATCH &&
      (target->column >= target->schema->n_children || target->schema->children == NULL ||
       target->schema->children[target->column] == NULL)) {
    snprintf(difference, size, "the library's schema has no column %lld", (long long)target->column);
    return ARROW_JSON_DIFFERENT_TYPES;
  }
  switch (target->kind) {
    case WHOLE_BATCH:
      return arrow_logical_compare_batches(fixture, target->batch, target->schema, &array, 1, difference,
                                           size);
    case ONE_COLUMN:
      return arrow_logical_compare_column(fixture, target->batch, target->column,
                                          target->schema->children[target->column], array, difference, size);
    case DICTIONARY_VALUES: {
      const struct ArrowSchema* values = target->schema->children[target->column]->dictionary;
      if (values == NULL) {
        snprintf(difference, size, "column '%s' is exported decoded: it has no dictionary",
                 fixture->fields[target->column].name);
        return ARROW_JSON_DIFFERENT_DICTIONARY;
      }
      return arrow_logical_compare_dictionary(fixture, target->column, values, array, difference, size);
    }
  }
  return -1;
}

static int compare_on_host(const struct arrow_json_file* fixture, const struct target* target,
                           const struct ArrowArray* array, char* difference, size_t size, void* state) {
  (void)state;
  if (target->schema != NULL) return compare_values(fixture, target, array, difference, size);
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

/* The library's schema of the fixture (ExportSchemaFromJson), by which a
 * library that keeps its own model (library.h) has its batches read; NULL
 * for any other library or a consumer rule, or with the case unresolved
 * where it could not be had.  Exported afresh for each comparison and released after it, so
 * that a rule measuring what the library holds sees none of it. */
/* Whether the case's library keeps its own model (none: a test of the
 * comparisons alone, with no library). */
static bool keeps_own_model(const struct adc_case_context* ctx) {
  return ctx->library != NULL && ctx->library->keeps_own_model;
}

static struct ArrowSchema* library_schema(struct adc_case_context* ctx, bool* failed) {
  *failed = false;
  /* A consumer rule compares the harness's own exports (the consumer
   * feed's), which are the fixture as written. */
  if (!keeps_own_model(ctx) || ctx->rule->role != ADC_ROLE_PRODUCER) return NULL;
  struct ArrowSchema* schema = calloc(1, sizeof(*schema));
  const char* error = schema == NULL ? "out of memory"
                      : ctx->library->functions.ExportSchemaFromJson == NULL
                          ? "the library has no ExportSchemaFromJson"
                          : ctx->library->functions.ExportSchemaFromJson(ctx->fixture_path, schema);
  if (error == NULL && schema->release != NULL) return schema;
  *failed = true;
  adc_unresolved(ctx,
                 "the library's schema of the fixture, by which its own representation of the data is read, "
                 "could not be had: %s (see %s)",
                 error != NULL ? error : "it was exported released", ADC_RULE_SCHEMA_TYPES);
  free(schema);
  return NULL;
}

static void free_library_schema(struct ArrowSchema* schema) {
  if (schema == NULL) return;
  if (schema->release != NULL) schema->release(schema);
  free(schema);
}

static int judge(struct adc_case_context* ctx, const struct target* given, const struct ArrowArray* array,
                 const struct judgement* judgement, char* difference, size_t size) {
  bool failed;
  struct ArrowSchema* schema = library_schema(ctx, &failed);
  if (failed) {
    snprintf(difference, size, "the library's schema could not be had");
    return ARROW_JSON_DIFFERENT_TYPES;
  }
  struct target typed = *given;
  typed.schema = schema;
  const struct target* target = &typed;
  int result = judge_once(ctx, target, array, judgement, difference, size);
  /* Only the first comparison after an export is watched: later ones
   * follow a step of the rule (a move, a release), whose effects are the
   * rule's to judge. */
  const char* event_rule = ctx->late_data_rule;
  ctx->late_data_rule = NULL;
  if (result != 0 && event_rule != NULL && !ctx->has_verdict) {
    double later = watch_until_right(ctx, target, array, judgement);
    if (later >= 0) {
      adc_unresolved(ctx,
                     "the data were wrong when the producer said they were ready (%s) and right %.2f s "
                     "later: it was still writing them (see %s)",
                     difference, later, event_rule);
    }
  }
  free_library_schema(schema);
  return result;
}

int adc_compare_batch(struct adc_case_context* ctx, int batch, const struct ArrowArray* array,
                      char* difference, size_t size) {
  struct target target = {WHOLE_BATCH, batch, -1, NULL};
  return judge(ctx, &target, array, &equal_to_fixture, difference, size);
}

int adc_compare_column(struct adc_case_context* ctx, int batch, int64_t column,
                       const struct ArrowArray* array, char* difference, size_t size) {
  struct target target = {ONE_COLUMN, batch, column, NULL};
  return judge(ctx, &target, array, &equal_to_fixture, difference, size);
}

/* A library that keeps its own model keeps its own dictionaries (another
 * order of values, another index type: arrow_logical.h), so a dictionary
 * moved out of its batch is compared with the dictionary of a fresh
 * export of the same batch, read by the library's schema. */
static int compare_with_fresh_dictionary(struct adc_case_context* ctx, int batch, int64_t column,
                                         const struct ArrowArray* dictionary, char* difference, size_t size) {
  bool failed;
  struct ArrowSchema* schema = library_schema(ctx, &failed);
  if (failed) {
    snprintf(difference, size, "the library's schema could not be had");
    return ARROW_JSON_DIFFERENT_TYPES;
  }
  int result = ARROW_JSON_DIFFERENT_DICTIONARY;
  const struct ArrowSchema* values =
      column < schema->n_children ? schema->children[column]->dictionary : NULL;
  struct ArrowArray* fresh = values != NULL ? adc_export_batch(ctx, batch) : NULL;
  if (values == NULL) {
    snprintf(difference, size, "the library's schema has no dictionary for column %lld", (long long)column);
  } else if (fresh == NULL) {
    snprintf(difference, size, "a fresh export of batch %d, to compare with, was not made", batch);
  } else if (column >= fresh->n_children || fresh->children[column]->dictionary == NULL) {
    snprintf(difference, size, "a fresh export of batch %d has no dictionary in column %lld", batch,
             (long long)column);
  } else {
    result = arrow_logical_compare_arrays(values, dictionary, fresh->children[column]->dictionary, difference,
                                          size);
  }
  if (fresh != NULL) fresh->release(fresh);
  free_library_schema(schema);
  return result;
}

int adc_compare_dictionary(struct adc_case_context* ctx, int batch, int64_t column,
                           const struct ArrowArray* dictionary, char* difference, size_t size) {
  if (keeps_own_model(ctx) && ctx->rule->role == ADC_ROLE_PRODUCER)
    return compare_with_fresh_dictionary(ctx, batch, column, dictionary, difference, size);
  struct target target = {DICTIONARY_VALUES, -1, column, NULL};
  return judge(ctx, &target, dictionary, &equal_to_fixture, difference, size);
}

double adc_seconds_until_batch_matches(struct adc_case_context* ctx, int batch,
                                       const struct ArrowArray* array) {
  bool failed;
  struct ArrowSchema* schema = library_schema(ctx, &failed);
  if (failed) return -1;
  struct target target = {WHOLE_BATCH, batch, -1, schema};
  double seconds = watch_until_right(ctx, &target, array, &equal_to_fixture);
  free_library_schema(schema);
  return seconds;
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

int adc_compare_schema(const struct adc_case_context* ctx, const struct ArrowSchema* schema, char* difference,
                       size_t size) {
  if (!keeps_own_model(ctx)) return arrow_json_compare_schema(ctx->fixture, schema, difference, size);
  return arrow_logical_compare_schema_aspects(
      ctx->fixture, schema,
      ARROW_LOGICAL_NAMES | ARROW_LOGICAL_METADATA | ARROW_LOGICAL_FLAGS | ARROW_LOGICAL_NULLABLE_MAY_WIDEN,
      difference, size);
}

int adc_compare_schema_types(const struct adc_case_context* ctx, const struct ArrowSchema* schema,
                             char* difference, size_t size) {
  if (!keeps_own_model(ctx))
    return arrow_json_compare_schema_aspects(ctx->fixture, schema, ARROW_JSON_SCHEMA_TYPES, difference, size);
  return arrow_logical_compare_schema_aspects(ctx->fixture, schema, ARROW_LOGICAL_NAMES, difference, size);
}

/* For a library that keeps its own model: whether its schema's types are
 * the fixture's, as the structural checks read them; where not, the
 * representation it keeps instead, in `difference`. */
static bool typed_as_fixture(struct adc_case_context* ctx, char* difference, size_t size) {
  bool failed;
  struct ArrowSchema* schema = library_schema(ctx, &failed);
  if (failed || schema == NULL) return !failed;
  char unused[256];
  bool same = arrow_json_compare_schema_aspects(ctx->fixture, schema, ARROW_JSON_SCHEMA_TYPES, unused,
                                                sizeof(unused)) == 0;
  if (!same && arrow_logical_describe_changes(ctx->fixture, schema, difference, size) <= 0) {
    snprintf(difference, size, "its types are not the fixture's");
  }
  free_library_schema(schema);
  return same;
}

int adc_check_batch_structure(struct adc_case_context* ctx, int batch, const struct ArrowArray* array,
                              enum arrow_structure_family family, char* difference, size_t size) {
  if (!typed_as_fixture(ctx, difference, size)) return ctx->has_verdict ? -1 : ADC_STRUCTURE_OTHER_TYPES;
  struct target target = {WHOLE_BATCH, batch, -1, NULL};
  struct structure_check check = {family, 0};
  struct judgement structure = {check_structure_on_host, &check};
  int result = judge(ctx, &target, array, &structure, difference, size);
  return result == 0 || ctx->has_verdict ? (result == 0 ? 0 : -1) : check.outcome;
}

bool adc_batch_matches_before_step(struct adc_case_context* ctx, int batch, const struct ArrowArray* array,
                                   const char* data_rule) {
  char difference[512];
  int result = adc_compare_batch(ctx, batch, array, difference, sizeof(difference));
  if (result == 0) return true;
  const char* layout_rule = adc_layout_rule_of(result);
  adc_unresolved(ctx, "batch %d differs from the fixture before the rule's step (see %s): %s", batch,
                 layout_rule != NULL ? layout_rule : data_rule, difference);
  return false;
}

bool adc_batch_matches_before(struct adc_case_context* ctx, int batch, const struct ArrowArray* array) {
  return adc_batch_matches_before_step(ctx, batch, array, "array.data.matches_fixture");
}
