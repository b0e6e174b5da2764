/* Whether a consumer declines a batch exported plainly (consumer_plain_export.h). */
#include "consumer_plain_export.h"

#include <stdio.h>

#include "consumer_feed/consumer_feed.h"
#include "feed_again.h"
#include "rule_api/consumer_calls.h"

bool adc_not_supported_if_declined_plainly(struct adc_case_context* ctx, int batch) {
  char plain[1024];
  if (ctx->has_verdict || !adc_consumer_declines_plain_export(ctx, batch, plain, sizeof(plain))) return false;
  char what[64];
  snprintf(what, sizeof(what), "batch %d, exported as the fixture has it", batch);
  if (adc_unresolved_if_handed_on_other(ctx, adc_last_consumer_answer(), what, plain)) return true;
  adc_not_supported(
      ctx,
      "batch %d: the consumer declines the fixture even exported as it is (%s judges that on the "
      "baseline fixtures): %s",
      batch, ADC_RULE_CONSUMER_BASELINE, plain);
  return true;
}

bool adc_consumer_declines_plain_export(struct adc_case_context* ctx, int batch, char* message, size_t size) {
  struct adc_feed* feed = adc_feed_new(ctx->device);
  struct ArrowDeviceArray array;
  struct adc_error error;
  bool declines = false;
  if (adc_feed_export_batch(feed, ctx->fixture, batch, NULL, &array, &error) != 0) {
    adc_unresolved(ctx, "the consumer feed could not export batch %d: %s", batch, error.message);
  } else {
    struct adc_feed_input input;
    const char* reported =
        adc_import_batch(ctx, batch, &array, adc_feed_batch_again(&input, feed, ctx->fixture, batch, NULL));
    if (reported != NULL) snprintf(message, size, "%s", reported);
    declines = reported != NULL;
  }
  adc_feed_free(feed);
  return declines;
}

bool adc_unresolved_if_handed_on_other(struct adc_case_context* ctx, enum adc_consumer_answer answer,
                                       const char* what, const char* message) {
  if (answer != ADC_CONSUMER_HANDED_ON_OTHER) return false;
  adc_unresolved(ctx, "%s: the consumer accepted it and handed on other data (%s judges that): %s", what,
                 ADC_RULE_CONSUMER_VALUES_KEPT, message);
  return true;
}
