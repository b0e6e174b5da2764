/* Nothing outlives its release (spec: "The release callback MUST free any
 * data area directly owned by the structure"). */
#include <inttypes.h>

#include "rule_api/producer_calls.h"

/* Exports the schema and every batch, then releases them all. */
static bool export_and_release_everything(struct adc_case_context* ctx) {
  struct ArrowSchema* schema = adc_export_schema(ctx);
  if (schema == NULL) return false;
  schema->release(schema);
  ADC_FOR_EACH_BATCH(ctx, batch) {
    struct ArrowArray* array = adc_export_batch(ctx, batch);
    if (array == NULL) return false;
    array->release(array);
  }
  return true;
}

static void array_release_no_leak(struct adc_case_context* ctx) {
  int64_t baseline;
  int64_t after;
  /* A first round lets the library set up whatever it keeps for good
   * (caches, pools), so the second round measures only what exports hold. */
  if (!export_and_release_everything(ctx) || !adc_bytes_allocated(ctx, &baseline)) return;
  if (!export_and_release_everything(ctx) || !adc_bytes_allocated(ctx, &after)) return;
  if (after != baseline) {
    adc_violation(ctx,
                  "BytesAllocated() is %" PRId64 " after exporting and releasing everything, %" PRId64
                  " before: %" PRId64 " bytes were not given back",
                  after, baseline, after - baseline);
  }
}

static const struct adc_rule rules[] = {
    {
        .id = "array.release.no_leak",
        .clause = "Release callback semantics -- for producers",
        .sentence = "The release callback MUST free any data area directly owned by the structure (such as "
                    "the buffers and children members).",
        .method = "After a warm-up round, exports and releases the schema and every batch and checks "
                  "BytesAllocated() is back to its value before.",
        .role = ADC_ROLE_PRODUCER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ExportSchemaFromJson) | ADC_NEED(ExportBatchFromJson) | ADC_NEED(BytesAllocated),
        .run = array_release_no_leak,
    },
};

const struct adc_rule_family adc_lifetime_rules = ADC_RULE_FAMILY(rules);
