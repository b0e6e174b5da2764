#include "rule_api/consumer_calls.h"

#include "rule_api/needs.h"

static const char not_called[] = "(the consumer was not called)";

const char* adc_import_schema(struct adc_case_context* ctx, struct ArrowSchema* schema) {
  if (!adc_can_call(ctx, ADC_EP_ImportSchemaAndCompareToJson)) {
    schema->release(schema);
    return not_called;
  }
  return ctx->library->functions.ImportSchemaAndCompareToJson(ctx->fixture_path, schema);
}

const char* adc_import_batch(struct adc_case_context* ctx, int batch, struct ArrowDeviceArray* array) {
  if (!adc_can_call(ctx, ADC_EP_ImportBatchAndCompareToJson)) {
    array->array.release(&array->array);
    return not_called;
  }
  if (adc_entry_point_on_device(ADC_EP_ImportBatchAndCompareToJson, ctx->device) ==
      ADC_EP_ImportBatchAndCompareToJson) {
    return ctx->library->functions.ImportBatchAndCompareToJson(ctx->fixture_path, batch, &array->array);
  }
  return ctx->library->functions.ImportDeviceBatchAndCompareToJson(ctx->fixture_path, batch, array);
}
