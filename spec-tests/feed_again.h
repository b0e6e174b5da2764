/* What the consumer rules hand a consumer is an export of the consumer
 * feed (harness/consumer_feed); a consumer that asks for its input again
 * (include/adc/export_again.h) gets another export of the same feed, laid
 * out the same way, so that the feed's records judge every export it was
 * handed, one by one. */
#ifndef ADC_FEED_AGAIN_H
#define ADC_FEED_AGAIN_H

#include "consumer_feed/consumer_feed.h"
#include "rule_api/consumer_calls.h"

enum adc_feed_input_kind { ADC_FEED_SCHEMA, ADC_FEED_BATCH, ADC_FEED_STREAM };

/* One Import's input as the feed exports it.  Lives on the caller's stack
 * while the Import runs. */
struct adc_feed_input {
  struct adc_input_again again; /* what the Import is given: exports this input again */
  struct adc_feed* feed;
  const struct arrow_json_file* fixture;
  enum adc_feed_input_kind kind;
  int batch;                                            /* ADC_FEED_BATCH */
  const struct adc_feed_layout* layout;                 /* ADC_FEED_BATCH; NULL: plain */
  const struct adc_feed_stream_options* stream_options; /* ADC_FEED_STREAM */
  /* Called after each export made again (it may guard the new export's
   * memory as the first one's was); NULL: nothing more to do. */
  void (*exported)(void* context);
  void* exported_context;
};

/* `input` described so, its `again` ready to hand to an adc_import_*
 * call; returns &input->again. */
const struct adc_input_again* adc_feed_schema_again(struct adc_feed_input* input, struct adc_feed* feed,
                                                    const struct arrow_json_file* fixture);
const struct adc_input_again* adc_feed_batch_again(struct adc_feed_input* input, struct adc_feed* feed,
                                                   const struct arrow_json_file* fixture, int batch,
                                                   const struct adc_feed_layout* layout);
const struct adc_input_again* adc_feed_stream_again(struct adc_feed_input* input, struct adc_feed* feed,
                                                    const struct arrow_json_file* fixture,
                                                    const struct adc_feed_stream_options* options);

/* Exports the fixture's schema from `feed` and hands it to the consumer's
 * ImportSchemaAndCompareToJson: true with the consumer's message in
 * `*message` (NULL: equal); false, the case unresolved, where the feed
 * could not export it. */
bool adc_feed_schema_to_consumer(struct adc_case_context* ctx, struct adc_feed* feed, const char** message);

#endif /* ADC_FEED_AGAIN_H */
