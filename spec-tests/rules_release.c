/* Release callbacks as seen right after export and right after release
 * (spec: "Released structure", "Release callback semantics -- for
 * producers"). */
#include "producer_calls.h"
#include "rules.h"

void rule_array_release_non_null(struct adc_case_context* ctx) {
  for (int batch = 0; batch < ctx->fixture->n_batches; batch++) {
    struct ArrowArray out;
    if (!adc_export_batch_raw(ctx, batch, &out)) return;
    if (out.release == NULL) return adc_violation(ctx, "batch %d: release is NULL right after a successful export", batch);
    out.release(&out);
  }
}

void rule_schema_release_non_null(struct adc_case_context* ctx) {
  struct ArrowSchema out;
  if (!adc_export_schema_raw(ctx, &out)) return;
  if (out.release == NULL) return adc_violation(ctx, "release is NULL right after a successful export");
  out.release(&out);
}

void rule_array_release_sets_null(struct adc_case_context* ctx) {
  for (int batch = 0; batch < ctx->fixture->n_batches; batch++) {
    struct ArrowArray out;
    if (!adc_export_batch(ctx, batch, &out)) return;
    out.release(&out);
    if (out.release != NULL) {
      return adc_violation(ctx, "batch %d: release is still set after the release callback returned", batch);
    }
  }
}

void rule_schema_release_sets_null(struct adc_case_context* ctx) {
  struct ArrowSchema out;
  if (!adc_export_schema(ctx, &out)) return;
  out.release(&out);
  if (out.release != NULL) adc_violation(ctx, "release is still set after the release callback returned");
}
