#include "rule_api/consumer_calls.h"

#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "adc/export_again.h"

#include "rule_api/library_text.h"
#include "rule_api/needs.h"
#include "rule_api/round_trip.h"

static const char not_called[] = "(the consumer was not called)";

/* The consumer's message, read with a bound; valid until the next call. */
static const char* bounded(const char* message) {
  static char text[ADC_LIBRARY_TEXT_LIMIT + 128];
  return adc_library_text(message, text, sizeof(text));
}

static _Thread_local enum adc_consumer_answer last_answer;

enum adc_consumer_answer adc_last_consumer_answer(void) {
  return last_answer;
}

/* Before an Import: what a made Import of the round trip records is its own. */
static void forget_answer(void) {
  last_answer = ADC_CONSUMER_REPORTED;
  (void)adc_round_trip_take_answer();
}

/* After an Import that returned `message` (NULL: equal). */
static void note_answer(const char* message) {
  last_answer = message == NULL ? ADC_CONSUMER_FOUND_EQUAL : adc_round_trip_take_answer();
}

/* One Import's input, exportable again while the Import runs. */
struct input_again {
  const struct adc_input_again* again;
  bool embedded_array; /* the C Data Interface form of a batch: the device array's `array` */
  char message[sizeof(((struct adc_error*)0)->message) + 64];
};

/* adc_export_again_function (include/adc/export_again.h) over the caller's
 * adc_input_again. */
static const char* export_input_again(void* context, void* out) {
  struct input_again* input = context;
  struct adc_error error;
  if (input->again == NULL) {
    snprintf(input->message, sizeof(input->message),
             "the harness cannot export this input again: the rule hands it once");
    return input->message;
  }
  struct ArrowDeviceArray device;
  if (input->again->export(input->again->context, input->embedded_array ? (void*)&device : out, &error) !=
      0) {
    snprintf(input->message, sizeof(input->message), "the harness could not export the input again: %s",
             error.message);
    return input->message;
  }
  /* A move of the embedded array (spec: "Moving an array"). */
  if (input->embedded_array) memcpy(out, &device.array, sizeof(device.array));
  return NULL;
}

/* The library's <prefix>_SetExportAgain, or NULL where it has none. */
static adc_set_export_again_function export_again_setter(const struct adc_case_context* ctx) {
  char symbol[256];
  snprintf(symbol, sizeof(symbol), "%s_%s", ctx->library->prefix, ADC_SET_EXPORT_AGAIN_SUFFIX);
  void* address = dlsym(ctx->library->handle, symbol);
  adc_set_export_again_function setter = NULL;
  if (address != NULL) memcpy(&setter, &address, sizeof(setter)); /* ISO C: an object pointer's bytes */
  return setter;
}

/* Gives the library its input's export_again before an Import (`input`
 * set) and takes it back after (`input` NULL), where it has the setter. */
static void offer_input_again(const struct adc_case_context* ctx, struct input_again* input) {
  adc_set_export_again_function setter = export_again_setter(ctx);
  if (setter != NULL) setter(input != NULL ? export_input_again : NULL, input);
}

const char* adc_import_schema(struct adc_case_context* ctx, struct ArrowSchema* schema,
                              const struct adc_input_again* again) {
  forget_answer();
  if (!adc_can_call(ctx, ADC_EP_ImportSchemaAndCompareToJson)) {
    schema->release(schema);
    return not_called;
  }
  struct input_again input = {again, false, ""};
  offer_input_again(ctx, &input);
  const char* message = ctx->library->functions.ImportSchemaAndCompareToJson(ctx->fixture_path, schema);
  note_answer(message);
  /* Read before the library's next call, which may end its message's life. */
  const char* reported = bounded(message);
  offer_input_again(ctx, NULL);
  return reported;
}

const char* adc_import_batch(struct adc_case_context* ctx, int batch, struct ArrowDeviceArray* array,
                             const struct adc_input_again* again) {
  forget_answer();
  if (!adc_can_call(ctx, ADC_EP_ImportBatchAndCompareToJson)) {
    array->array.release(&array->array);
    return not_called;
  }
  bool plain = adc_entry_point_on_device(ADC_EP_ImportBatchAndCompareToJson, ctx->device->driver) ==
               ADC_EP_ImportBatchAndCompareToJson;
  struct input_again input = {again, plain, ""};
  offer_input_again(ctx, &input);
  const char* message =
      plain ? ctx->library->functions.ImportBatchAndCompareToJson(ctx->fixture_path, batch, &array->array)
            : ctx->library->functions.ImportDeviceBatchAndCompareToJson(ctx->fixture_path, batch, array);
  note_answer(message);
  /* Read before the library's next call, which may end its message's life. */
  const char* reported = bounded(message);
  offer_input_again(ctx, NULL);
  return reported;
}

const char* adc_import_device_stream(struct adc_case_context* ctx, struct ArrowDeviceArrayStream* stream,
                                     const struct adc_input_again* again) {
  forget_answer();
  if (!adc_can_call(ctx, ADC_EP_ImportDeviceStreamAndCompareToJson)) {
    stream->release(stream);
    return not_called;
  }
  struct input_again input = {again, false, ""};
  offer_input_again(ctx, &input);
  const char* message = ctx->library->functions.ImportDeviceStreamAndCompareToJson(ctx->fixture_path, stream);
  note_answer(message);
  /* Read before the library's next call, which may end its message's life. */
  const char* reported = bounded(message);
  offer_input_again(ctx, NULL);
  return reported;
}

const char* adc_import_async(struct adc_case_context* ctx, ADC_AsyncProducerStart start,
                             void* start_context) {
  forget_answer();
  if (!adc_can_call(ctx, ADC_EP_ImportAsyncAndCompareToJson)) return not_called;
  const char* message = ctx->library->functions.ImportAsyncAndCompareToJson(
      ctx->fixture_path, ctx->device->driver->kind->arrow_type, start, start_context);
  note_answer(message);
  return bounded(message);
}

const char* adc_import_async_cancelling(struct adc_case_context* ctx, int cancel_after_batch,
                                        ADC_AsyncProducerStart start, void* start_context) {
  if (!adc_can_call(ctx, ADC_EP_ImportAsyncAndCancelAfterBatch)) return not_called;
  return bounded(ctx->library->functions.ImportAsyncAndCancelAfterBatch(
      ctx->fixture_path, ctx->device->driver->kind->arrow_type, cancel_after_batch, start, start_context));
}
