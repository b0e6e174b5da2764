/* Release callbacks as seen right after export and right after release
 * (spec: "Released structure", "Release callback semantics -- for
 * producers"). */
#include "rule_api/producer_calls.h"

static void array_release_non_null(struct adc_case_context* ctx) {
  ADC_FOR_EACH_BATCH(ctx, batch) {
    struct ArrowArray* out = adc_export_batch_raw(ctx, batch);
    if (out == NULL) return;
    if (out->release == NULL) {
      adc_violation(ctx, "batch %d: release is NULL right after a successful export", batch);
      return;
    }
    out->release(out);
  }
}

static void schema_release_non_null(struct adc_case_context* ctx) {
  struct ArrowSchema* out = adc_export_schema_raw(ctx);
  if (out == NULL) return;
  if (out->release == NULL) {
    adc_violation(ctx, "release is NULL right after a successful export");
    return;
  }
  out->release(out);
}

static void array_release_sets_null(struct adc_case_context* ctx) {
  ADC_FOR_EACH_BATCH(ctx, batch) {
    struct ArrowArray* out = adc_export_batch(ctx, batch);
    if (out == NULL) return;
    out->release(out);
    if (out->release != NULL) {
      adc_violation(ctx, "batch %d: release is still set after the release callback returned", batch);
    }
  }
}

static void schema_release_sets_null(struct adc_case_context* ctx) {
  struct ArrowSchema* out = adc_export_schema(ctx);
  if (out == NULL) return;
  out->release(out);
  if (out->release != NULL) adc_violation(ctx, "release is still set after the release callback returned");
}

static const struct adc_rule rules[] = {
    {
        .id = "array.release.non_null_after_export",
        .clause = "The ArrowArray structure",
        .sentence = "Mandatory. A pointer to a producer-provided release callback.",
        .method = "Exports every batch and checks release is not NULL.",
        .role = ADC_ROLE_PRODUCER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ExportBatchFromJson),
        .run = array_release_non_null,
    },
    {
        .id = "schema.release.non_null_after_export",
        .clause = "The ArrowSchema structure",
        .sentence = "Mandatory. A pointer to a producer-provided release callback.",
        .method = "Exports the schema and checks release is not NULL.",
        .role = ADC_ROLE_PRODUCER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ExportSchemaFromJson),
        .run = schema_release_non_null,
    },
    {
        .id = "array.release.sets_null",
        .clause = "Release callback semantics -- for producers",
        .sentence = "The release callback MUST mark the structure as released, by setting its release "
                    "member to NULL.",
        .method = "Exports every batch, calls its release callback and checks release is NULL afterwards.",
        .role = ADC_ROLE_PRODUCER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ExportBatchFromJson),
        .run = array_release_sets_null,
    },
    {
        .id = "schema.release.sets_null",
        .clause = "Release callback semantics -- for producers",
        .sentence = "The release callback MUST mark the structure as released, by setting its release "
                    "member to NULL.",
        .method = "Exports the schema, calls its release callback and checks release is NULL afterwards.",
        .role = ADC_ROLE_PRODUCER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ExportSchemaFromJson),
        .run = schema_release_sets_null,
    },
};

const struct adc_rule_family adc_release_rules = ADC_RULE_FAMILY(rules);
