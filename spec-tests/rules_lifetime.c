/* Nothing outlives its release (spec: "The release callback MUST free any
 * data area directly owned by the structure"). */
#include <inttypes.h>

#include "producer_calls.h"
#include "rules.h"

/* Exports the schema and every batch, then releases them all. */
static bool export_and_release_everything(struct adc_case_context* ctx) {
  struct ArrowSchema schema;
  if (!adc_export_schema(ctx, &schema)) return false;
  schema.release(&schema);
  for (int batch = 0; batch < ctx->fixture->n_batches; batch++) {
    struct ArrowArray array;
    if (!adc_export_batch(ctx, batch, &array)) return false;
    array.release(&array);
  }
  return true;
}

void rule_array_release_no_leak(struct adc_case_context* ctx) {
  ADC_BytesAllocated bytes_allocated = adc_require(ctx, ctx->producer, ADC_EP_BYTES_ALLOCATED);
  if (bytes_allocated == NULL) return;
  /* A first round lets the library set up whatever it keeps for good
   * (caches, pools), so the second round measures only what exports hold. */
  if (!export_and_release_everything(ctx)) return;
  int64_t baseline = bytes_allocated();
  if (!export_and_release_everything(ctx)) return;
  int64_t after = bytes_allocated();
  if (after != baseline) {
    adc_violation(ctx, "BytesAllocated() is %" PRId64 " after exporting and releasing everything, %" PRId64
                       " before: %" PRId64 " bytes were not given back",
                  after, baseline, after - baseline);
  }
}
