/* What the producer exports equals the fixture it was asked for
 * (spec: "The ArrowSchema structure", "The ArrowArray structure"). */
#include "rule_api/fixture_compare.h"
#include "rule_api/producer_calls.h"

static void schema_matches_fixture(struct adc_case_context* ctx) {
  struct ArrowSchema* schema = adc_export_schema(ctx);
  if (schema == NULL) return;
  char difference[512];
  if (arrow_json_compare_schema(ctx->fixture, schema, difference, sizeof(difference)) != 0) {
    adc_violation(ctx, "%s", difference);
  }
  schema->release(schema);
}

static void array_matches_fixture(struct adc_case_context* ctx) {
  ADC_FOR_EACH_BATCH(ctx, batch) {
    struct ArrowArray* array = adc_export_batch(ctx, batch);
    if (array == NULL) return;
    char difference[512];
    if (adc_compare_batch(ctx, batch, array, difference, sizeof(difference)) != 0) {
      adc_violation(ctx, "batch %d: %s", batch, difference);
    }
    array->release(array);
  }
}

/* spec: "The data returned by ... must be released independently": the
 * schema's release must leave the array whole. */
static void schema_release_independent(struct adc_case_context* ctx) {
  ADC_FOR_EACH_BATCH(ctx, batch) {
    struct ArrowSchema* schema = adc_export_schema(ctx);
    if (schema == NULL) return;
    struct ArrowArray* array = adc_export_batch(ctx, batch);
    if (array == NULL) {
      schema->release(schema);
      return;
    }
    bool whole_before = adc_batch_matches_before(ctx, batch, array);
    schema->release(schema);
    char difference[512];
    if (whole_before && adc_compare_batch(ctx, batch, array, difference, sizeof(difference)) != 0) {
      adc_violation(ctx, "batch %d changed when its schema was released: %s", batch, difference);
    }
    array->release(array);
  }
}

static const struct adc_rule rules[] = {
    {
        .id = "schema.format.matches_fixture",
        .clause = "The ArrowSchema structure",
        .sentence = "Mandatory. A null-terminated, UTF8-encoded string describing the data type.",
        .method = "Compares the exported schema with the fixture: format, name, nullability, children, "
                  "dictionary, no metadata.",
        .role = ADC_ROLE_PRODUCER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ExportSchemaFromJson),
        .run = schema_matches_fixture,
    },
    {
        .id = "array.data.matches_fixture",
        .clause = "The ArrowArray structure",
        .sentence = "The producer MUST ensure that each contiguous buffer is large enough to represent "
                    "length + offset values encoded according to the Columnar format specification.",
        .method = "Compares every exported batch with the fixture: lengths, buffer counts, validity, "
                  "values, offsets, null_count, children and dictionaries.",
        .role = ADC_ROLE_PRODUCER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ExportBatchFromJson),
        .run = array_matches_fixture,
    },
    {
        .id = "schema.release.independent_of_array",
        .clause = "Member allocation",
        .sentence = "any data pointed to by the struct MUST be allocated and maintained by the producer.",
        .method = "Exports schema and batch, releases the schema first and checks the batch still equals "
                  "the fixture.",
        .role = ADC_ROLE_PRODUCER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ExportSchemaFromJson) | ADC_NEED(ExportBatchFromJson),
        .run = schema_release_independent,
    },
};

const struct adc_rule_family adc_content_rules = ADC_RULE_FAMILY(rules);
