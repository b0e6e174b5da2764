/* Calling a consumer under test.  Each hands over something the caller owns
 * until then; the consumer must compare it with the fixture and release it
 * before returning (plugin ABI).  Each returns the consumer's message, NULL
 * when it found the data equal to the fixture.  When the call cannot be made
 * the case gets a verdict, the input is released by the harness, and a
 * non-NULL placeholder is returned. */
#ifndef ADC_CONSUMER_CALLS_H
#define ADC_CONSUMER_CALLS_H

#include "rule_api/case_context.h"
#include "rule_api/consumer_answer.h"
#include "support/error.h"

/* The rule a consumer declining a plain export of a baseline fixture
 * fails (spec-tests/rules_baseline.c); other consumer rules point at it
 * when the consumer declines even the plain export. */
#define ADC_RULE_CONSUMER_BASELINE "baseline.consumer.imports_baseline_fixtures"

/* How the caller exports an Import's input again, for a consumer that asks
 * for it more than once (include/adc/export_again.h): the same data,
 * laid out as the input was, afresh.  `export` writes an ArrowSchema for a
 * schema, an ArrowDeviceArray for a batch (in either form: the C Data
 * Interface form is handed its embedded array), an ArrowDeviceArrayStream
 * for a stream; 0, or -1 with the reason in `error`.  The caller judges
 * every export it made so (its feed's records).  Each Import below takes
 * one, or NULL where the input cannot be made again: a consumer that asks
 * is then told so. */
struct adc_input_again {
  int (*export)(void* context, void* out, struct adc_error* error);
  void* context;
};

/* ImportSchemaAndCompareToJson. */
const char* adc_import_schema(struct adc_case_context* ctx, struct ArrowSchema* schema,
                              const struct adc_input_again* again);

/* Batch `batch` of the fixture, as a consumer on the case's device receives
 * it: on `cpu`, ImportBatchAndCompareToJson with the embedded array (the
 * C Data Interface form); on every other device (cpu_device_arrays
 * included) ImportDeviceBatchAndCompareToJson.  A
 * rule declares ADC_NEED(ImportBatchAndCompareToJson) for either. */
const char* adc_import_batch(struct adc_case_context* ctx, int batch, struct ArrowDeviceArray* array,
                             const struct adc_input_again* again);

/* ImportDeviceStreamAndCompareToJson, on every device the case runs on (a
 * device stream carries device arrays on the CPU too).  The consumer must
 * drain `stream`, compare the schema and every batch, and release every
 * result and the stream. */
const char* adc_import_device_stream(struct adc_case_context* ctx, struct ArrowDeviceArrayStream* stream,
                                     const struct adc_input_again* again);

/* ImportAsyncAndCompareToJson, with the case's device type: the consumer
 * builds a handler, gives it to a producer through `start(start_context,
 * handler)`, and returns once the producer has released the handler.  The
 * producer (the consumer feed's, for the consumer rules) is the caller's;
 * when the call cannot be made, start is never called. */
const char* adc_import_async(struct adc_case_context* ctx, ADC_AsyncProducerStart start, void* start_context);
/* ImportAsyncAndCancelAfterBatch (optional, plugin ABI): the same, with the
 * consumer cancelling once it has received batch `cancel_after_batch`. */
const char* adc_import_async_cancelling(struct adc_case_context* ctx, int cancel_after_batch,
                                        ADC_AsyncProducerStart start, void* start_context);

/* What the last Import on this thread showed beyond its message
 * (consumer_answer.h): found equal, or through the round trip a decline or
 * other data handed on; ADC_CONSUMER_REPORTED where the suite cannot tell
 * (the JSON ABI), and where the call could not be made. */
enum adc_consumer_answer adc_last_consumer_answer(void);

#endif /* ADC_CONSUMER_CALLS_H */
