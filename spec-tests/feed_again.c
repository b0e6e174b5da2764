#include "feed_again.h"

#include <string.h>

static int export_again(void* context, void* out, struct adc_error* error) {
  struct adc_feed_input* input = context;
  int result = -1;
  switch (input->kind) {
    case ADC_FEED_SCHEMA:
      result = adc_feed_export_schema(input->feed, input->fixture, out, error);
      break;
    case ADC_FEED_BATCH:
      result = adc_feed_export_batch(input->feed, input->fixture, input->batch, input->layout, out, error);
      break;
    case ADC_FEED_STREAM:
      result = adc_feed_export_stream(input->feed, input->fixture, input->stream_options, out, error);
      break;
  }
  if (result == 0 && input->exported != NULL) input->exported(input->exported_context);
  return result;
}

static const struct adc_input_again* described(struct adc_feed_input* input, struct adc_feed* feed,
                                               const struct arrow_json_file* fixture,
                                               enum adc_feed_input_kind kind) {
  memset(input, 0, sizeof(*input));
  input->again = (struct adc_input_again){export_again, input};
  input->feed = feed;
  input->fixture = fixture;
  input->kind = kind;
  return &input->again;
}

const struct adc_input_again* adc_feed_schema_again(struct adc_feed_input* input, struct adc_feed* feed,
                                                    const struct arrow_json_file* fixture) {
  return described(input, feed, fixture, ADC_FEED_SCHEMA);
}

const struct adc_input_again* adc_feed_batch_again(struct adc_feed_input* input, struct adc_feed* feed,
                                                   const struct arrow_json_file* fixture, int batch,
                                                   const struct adc_feed_layout* layout) {
  described(input, feed, fixture, ADC_FEED_BATCH);
  input->batch = batch;
  input->layout = layout;
  return &input->again;
}

const struct adc_input_again* adc_feed_stream_again(struct adc_feed_input* input, struct adc_feed* feed,
                                                    const struct arrow_json_file* fixture,
                                                    const struct adc_feed_stream_options* options) {
  described(input, feed, fixture, ADC_FEED_STREAM);
  input->stream_options = options;
  return &input->again;
}

bool adc_feed_schema_to_consumer(struct adc_case_context* ctx, struct adc_feed* feed, const char** message) {
  struct ArrowSchema schema;
  struct adc_error error;
  if (adc_feed_export_schema(feed, ctx->fixture, &schema, &error) != 0) {
    adc_unresolved(ctx, "the consumer feed could not export the schema: %s", error.message);
    return false;
  }
  struct adc_feed_input input;
  *message = adc_import_schema(ctx, &schema, adc_feed_schema_again(&input, feed, ctx->fixture));
  return true;
}
