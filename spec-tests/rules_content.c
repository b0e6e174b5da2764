/* What the producer exports equals the fixture it was asked for
 * (spec: "The ArrowSchema structure", "The ArrowArray structure"). */
#include "producer_calls.h"
#include "rules.h"

void rule_schema_matches_fixture(struct adc_case_context* ctx) {
  struct ArrowSchema schema;
  if (!adc_export_schema(ctx, &schema)) return;
  char difference[512];
  if (arrow_json_compare_schema(ctx->fixture, &schema, difference, sizeof(difference)) != 0) {
    adc_violation(ctx, "%s", difference);
  }
  schema.release(&schema);
}

void rule_array_matches_fixture(struct adc_case_context* ctx) {
  for (int batch = 0; batch < ctx->fixture->n_batches && !ctx->has_verdict; batch++) {
    struct ArrowArray array;
    if (!adc_export_batch(ctx, batch, &array)) return;
    char difference[512];
    if (arrow_json_compare_batch(ctx->fixture, batch, &array, difference, sizeof(difference)) != 0) {
      adc_violation(ctx, "batch %d: %s", batch, difference);
    }
    array.release(&array);
  }
}

/* spec: "The data returned by ... must be released independently": the
 * schema's release must leave the array whole. */
void rule_schema_release_independent(struct adc_case_context* ctx) {
  for (int batch = 0; batch < ctx->fixture->n_batches && !ctx->has_verdict; batch++) {
    struct ArrowSchema schema;
    struct ArrowArray array;
    if (!adc_export_schema(ctx, &schema)) return;
    if (!adc_export_batch(ctx, batch, &array)) {
      schema.release(&schema);
      return;
    }
    if (adc_batch_matches_before(ctx, batch, &array)) {
      schema.release(&schema);
      char difference[512];
      if (arrow_json_compare_batch(ctx->fixture, batch, &array, difference, sizeof(difference)) != 0) {
        adc_violation(ctx, "batch %d changed when its schema was released: %s", batch, difference);
      }
    } else {
      schema.release(&schema);
    }
    array.release(&array);
  }
}
