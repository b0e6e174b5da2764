#include "rule_api/consumer_calls.h"

#include "rule_api/library_text.h"
#include "rule_api/needs.h"

static const char not_called[] = "(the consumer was not called)";

/* The consumer's message, read with a bound; valid until the next call. */
static const char* bounded(const char* message) {
  static char text[ADC_LIBRARY_TEXT_LIMIT + 128];
  return adc_library_text(message, text, sizeof(text));
}

const char* adc_import_schema(struct adc_case_context* ctx, struct ArrowSchema* schema) {
  if (!adc_can_call(ctx, ADC_EP_ImportSchemaAndCompareToJson)) {
    schema->release(schema);
    return not_called;
  }
  return bounded(ctx->library->functions.ImportSchemaAndCompareToJson(ctx->fixture_path, schema));
}

const char* adc_import_batch(struct adc_case_context* ctx, int batch, struct ArrowDeviceArray* array) {
  if (!adc_can_call(ctx, ADC_EP_ImportBatchAndCompareToJson)) {
    array->array.release(&array->array);
    return not_called;
  }
  if (adc_entry_point_on_device(ADC_EP_ImportBatchAndCompareToJson, ctx->device->driver) ==
      ADC_EP_ImportBatchAndCompareToJson) {
    return bounded(
        ctx->library->functions.ImportBatchAndCompareToJson(ctx->fixture_path, batch, &array->array));
  }
  return bounded(ctx->library->functions.ImportDeviceBatchAndCompareToJson(ctx->fixture_path, batch, array));
}

const char* adc_import_device_stream(struct adc_case_context* ctx, struct ArrowDeviceArrayStream* stream) {
  if (!adc_can_call(ctx, ADC_EP_ImportDeviceStreamAndCompareToJson)) {
    stream->release(stream);
    return not_called;
  }
  return bounded(ctx->library->functions.ImportDeviceStreamAndCompareToJson(ctx->fixture_path, stream));
}

const char* adc_import_async(struct adc_case_context* ctx, ADC_AsyncProducerStart start,
                             void* start_context) {
  if (!adc_can_call(ctx, ADC_EP_ImportAsyncAndCompareToJson)) return not_called;
  return bounded(ctx->library->functions.ImportAsyncAndCompareToJson(
      ctx->fixture_path, ctx->device->driver->kind->arrow_type, start, start_context));
}

const char* adc_import_async_cancelling(struct adc_case_context* ctx, int cancel_after_batch,
                                        ADC_AsyncProducerStart start, void* start_context) {
  if (!adc_can_call(ctx, ADC_EP_ImportAsyncAndCancelAfterBatch)) return not_called;
  return bounded(ctx->library->functions.ImportAsyncAndCancelAfterBatch(
      ctx->fixture_path, ctx->device->driver->kind->arrow_type, cancel_after_batch, start, start_context));
}
