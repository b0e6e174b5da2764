#include "consumer_alteration.h"

#include "consumer_feed/consumer_feed.h"
#include "rule_api/fixture_compare.h"

int64_t adc_alterable_batch(struct adc_case_context* ctx) {
  static const struct adc_feed_layout altered = {.alter_one_value = true};
  int64_t found = -1;
  struct adc_feed* feed = adc_feed_new(ctx->device);
  ADC_FOR_EACH_BATCH(ctx, batch) {
    struct ArrowDeviceArray array;
    char difference[512];
    struct adc_error error;
    if (adc_feed_export_batch(feed, ctx->fixture, batch, &altered, &array, &error) != 0) {
      adc_unresolved(ctx, "the consumer feed could not export batch %d: %s", batch, error.message);
      break;
    }
    bool differs = adc_compare_batch(ctx, batch, &array.array, difference, sizeof(difference)) != 0;
    array.array.release(&array.array);
    if (differs) {
      found = batch;
      break;
    }
  }
  adc_feed_free(feed);
  if (ctx->has_verdict) return -1; /* the comparison could not be made */
  if (found < 0) adc_unresolved(ctx, "the fixture has no value the consumer feed can alter");
  return found;
}
