/* The rules judging a pair: one library's export of a fixture handed to
 * another's import, with the harness in between (`adc-conform matrix`).
 *
 * The harness hands the consumer exactly what the producer exported (no
 * copy, no wait: the consumer waits on the sync_event as it must), each
 * structure's release wrapped so that the harness sees the consumer
 * release it (pair_handover.h).  The consumer compares what it imported
 * with the fixture, as in its own runs; a consumer that asks for its
 * input again gets another export of the producer's.  A case passes when
 * the consumer found the data equal and released everything it was
 * handed, once.  Which side a failure is the fault of is not the case's
 * to say: the matrix reads it from the pairs each side makes with the
 * reference (CONFORMANCE.md, "The interop matrix"). */
#include <stdio.h>
#include <string.h>

#include "consumer_feed/consumer_feed.h"
#include "consumer_plain_export.h"
#include "feed_again.h"
#include "pair_handover.h"
#include "pair_own_model.h"
#include "rule_api/consumer_calls.h"
#include "rule_api/library_text.h"
#include "rule_api/producer_calls.h"
#include "rule_api/stream_calls.h"

/* The context through which the body calls the producer: the case's, with
 * the producer as its library.  A verdict given there is carried to the
 * case by producer_verdict_carried. */
static struct adc_case_context producer_context(const struct adc_case_context* ctx) {
  struct adc_case_context producer = *ctx;
  producer.library = ctx->pair_producer;
  producer.calls_pair_producer = true;
  return producer;
}

/* Gives the case the verdict the producer's context got (a decline is the
 * case's not_supported: the pair has nothing to judge), saying it is the
 * producer's; whether there was one. */
static bool producer_verdict_carried(struct adc_case_context* ctx, const struct adc_case_context* producer) {
  if (!producer->has_verdict) return false;
  ctx->has_verdict = true;
  ctx->status = producer->status;
  snprintf(ctx->message, sizeof(ctx->message), "the producer: %.1000s", producer->message);
  return true;
}

/* One Import's input, exported again by the producer for a consumer that
 * asks for it (include/adc/export_again.h), each export watched. */
struct pair_input {
  struct adc_input_again again;
  struct adc_case_context* ctx;
  struct adc_pair_watch* watch;
  int batch; /* -1: the stream */
};

static int export_batch_again(void* context, void* out, struct adc_error* error) {
  struct pair_input* input = context;
  struct ArrowDeviceArray* array = out;
  const struct adc_case_context* ctx = input->ctx;
  const char* declined = adc_call_batch_export(ctx->pair_producer, ctx, input->batch, array);
  if (declined != NULL) return adc_fail(error, "the producer declined to export it again: %.900s", declined);
  adc_pair_watch_array(input->watch, &array->array);
  return 0;
}

static int export_stream_again(void* context, void* out, struct adc_error* error) {
  struct pair_input* input = context;
  const struct adc_case_context* ctx = input->ctx;
  const char* declined = ctx->pair_producer->functions.ExportDeviceStreamFromJson(
      ctx->fixture_path, ctx->device->driver->kind->arrow_type, ctx->device->device_id, out);
  if (declined != NULL) return adc_fail(error, "the producer declined to export it again: %.900s", declined);
  adc_pair_watch_stream(input->watch, out);
  return 0;
}

/* Whether the consumer declines the fixture's stream even as the harness's
 * feed exports it, plainly: then the case is not_supported, saying so. */
static bool not_supported_if_stream_declined_plainly(struct adc_case_context* ctx) {
  struct adc_feed* feed = adc_feed_new(ctx->device);
  struct ArrowDeviceArrayStream stream;
  struct adc_error error;
  bool declines = false;
  if (adc_feed_export_stream(feed, ctx->fixture, NULL, &stream, &error) != 0) {
    adc_unresolved(ctx, "the consumer feed could not export the stream: %s", error.message);
    declines = true;
  } else {
    struct adc_feed_input input;
    const char* reported =
        adc_import_device_stream(ctx, &stream, adc_feed_stream_again(&input, feed, ctx->fixture, NULL));
    if (reported != NULL &&
        !adc_unresolved_if_handed_on_other(ctx, adc_last_consumer_answer(),
                                           "the stream, exported as the fixture has it", reported)) {
      adc_not_supported(ctx, "the consumer declines the fixture's stream even as the harness exports it: %s",
                        reported);
    }
    declines = reported != NULL;
  }
  adc_feed_free(feed);
  return declines;
}

/* Whether the consumer declines the fixture's async stream even as the
 * harness's feed hands it over: then the case is not_supported, saying so. */
static bool consumer_declines_plain_async(struct adc_case_context* ctx) {
  struct adc_feed* feed = adc_feed_new(ctx->device);
  struct adc_feed_async* producer = adc_feed_async_new(feed, ctx->fixture, NULL);
  bool declines = false;
  if (producer == NULL) {
    adc_unresolved(ctx, "the consumer feed could not make an async producer");
    declines = true;
  } else {
    const char* reported = adc_import_async(ctx, adc_feed_async_start, producer);
    adc_feed_async_import_returned(producer);
    if (reported != NULL) {
      adc_not_supported(
          ctx,
          "the consumer declines the fixture's async stream even as the harness's feed hands it over: %s",
          reported);
      declines = true;
    }
  }
  adc_feed_free(feed);
  return declines;
}

/* Judges the consumer's answer on what it was handed (`what`, batch
 * `batch` or the stream for -1) and what the watch saw it do.  A consumer
 * that declines the fixture even as the harness's feed exports it has
 * nothing to say of the pair: not_supported. */
static void judge_handover(struct adc_case_context* ctx, const char* what, int batch, const char* message,
                           struct adc_pair_watch* watch) {
  struct adc_pair_counts counts = adc_pair_watch_end(watch);
  if (ctx->has_verdict) return;
  char fault[256];
  if (message != NULL) {
    /* Kept: the plain export's Import below overwrites the thread's text. */
    char answer[1024];
    snprintf(answer, sizeof(answer), "%s", message);
    if (batch >= 0 ? adc_not_supported_if_declined_plainly(ctx, batch)
                   : not_supported_if_stream_declined_plainly(ctx))
      return;
    char kept[512];
    if (adc_pair_values_kept_in_own_model(ctx, batch, kept, sizeof(kept))) {
      /* The consumer's difference is the producer's model meeting a
       * comparison with the file as written; what the harness watched of
       * the handover is still judged. */
      if (!adc_pair_counts_clean(&counts, fault, sizeof(fault))) {
        adc_violation(ctx, "%s: %s", what, fault);
      } else {
        adc_not_supported(
            ctx,
            "the producer keeps its own model and hands over the fixture's values in it (a fresh "
            "export, read by its own schema, equals the fixture by value; the file as written "
            "differs: %s), which the consumer compares with the file as written (its answer: "
            "%s): the pair's values are not judged, its releases were clean",
            kept, answer);
      }
      return;
    }
    adc_violation(ctx,
                  "the consumer did not find %s equal to the fixture, but takes the fixture as the harness "
                  "exports it: %s",
                  what, answer);
    return;
  }
  if (!adc_pair_counts_clean(&counts, fault, sizeof(fault))) adc_violation(ctx, "%s: %s", what, fault);
}

/* Whether the producer keeps its own model of the data (a Python library)
 * in other types than the fixture's: its batch, which carries no schema,
 * cannot be handed to a consumer, which reads a batch by the fixture's
 * types (plugin ABI: ImportBatchAndCompareToJson has the file's schema);
 * given as it is, a string view read as a string faults in the consumer,
 * blamed on neither.  Then the case is not_supported, saying what the
 * producer keeps instead: its stream, which carries its schema, is
 * pair.device_stream.imported_equal's to judge. */
static bool not_supported_for_own_types(struct adc_case_context* ctx) {
  char kept[512];
  if (!adc_pair_producer_keeps_other_types(ctx, kept, sizeof(kept))) return false;
  adc_not_supported(
      ctx,
      "the producer keeps its own model, in other types than the fixture's (%s): a batch carries no "
      "schema, and the consumer reads it by the fixture's (its stream, which carries its schema, is "
      "pair.device_stream.imported_equal's)",
      kept);
  return true;
}

static void batches_handed_over(struct adc_case_context* ctx) {
  if (not_supported_for_own_types(ctx)) return;
  ADC_FOR_EACH_BATCH(ctx, batch) {
    struct adc_case_context producer = producer_context(ctx);
    struct ArrowDeviceArray* exported = adc_export_batch_unwaited(&producer, batch);
    if (producer_verdict_carried(ctx, &producer)) return;
    if (exported->array.release == NULL) {
      adc_violation(ctx, "the producer's batch %d was already released when exported", batch);
      return;
    }
    struct adc_pair_watch watch = {0};
    adc_pair_watch_array(&watch, &exported->array);
    struct pair_input input = {{export_batch_again, &input}, ctx, &watch, batch};
    const char* message = adc_import_batch(ctx, batch, exported, &input.again);
    char what[64];
    snprintf(what, sizeof(what), "the producer's batch %d", batch);
    judge_handover(ctx, what, batch, message, &watch);
  }
}

static void stream_handed_over(struct adc_case_context* ctx) {
  struct adc_case_context producer = producer_context(ctx);
  struct ArrowDeviceArrayStream* exported = adc_export_stream(&producer);
  if (producer_verdict_carried(ctx, &producer)) return;
  struct adc_pair_watch watch = {0};
  adc_pair_watch_stream(&watch, exported);
  struct pair_input input = {{export_stream_again, &input}, ctx, &watch, -1};
  const char* message = adc_import_device_stream(ctx, exported, &input.again);
  judge_handover(ctx, "the producer's stream", -1, message, &watch);
}

/* The producer's ExportAsyncFromJson, as adc_pair_async's export_async. */
static const char* export_async(void* context, struct ArrowAsyncDeviceStreamHandler* handler) {
  const struct adc_case_context* ctx = context;
  return ctx->pair_producer->functions.ExportAsyncFromJson(
      ctx->fixture_path, ctx->device->driver->kind->arrow_type, ctx->device->device_id, handler);
}

static void async_handed_over(struct adc_case_context* ctx) {
  struct adc_pair_watch watch = {0};
  struct adc_pair_async pair = {.export_async = export_async, .export_context = ctx, .watch = &watch};
  const char* message = adc_import_async(ctx, adc_pair_async_start, &pair);
  struct adc_pair_counts counts = adc_pair_watch_end(&watch);
  if (ctx->has_verdict) return;
  char fault[256];
  if (pair.refused != NULL) {
    char text[ADC_LIBRARY_TEXT_LIMIT + 128];
    adc_library_text(pair.refused, text, sizeof(text));
    adc_not_supported(ctx, "the producer declined to start its async stream: %s", text);
  } else if (message != NULL) {
    /* Kept: the feed's Import below overwrites the thread's text. */
    char answer[1024];
    snprintf(answer, sizeof(answer), "%s", message);
    if (consumer_declines_plain_async(ctx)) return;
    adc_violation(ctx,
                  "the producer's async stream: the consumer did not find it equal to the fixture, but takes "
                  "the fixture as the harness's feed hands it over: %s",
                  answer);
  } else if (!adc_pair_counts_clean(&counts, fault, sizeof(fault))) {
    adc_violation(ctx, "the producer's async stream: %s", fault);
  }
}

static const char pair_clause[] = "Goals";
static const char pair_sentence[] =
    "Allow zero-copy sharing of Arrow formatted device memory between independent runtimes and "
    "components running in the same process.";

static const struct adc_rule rules[] = {
    {
        .id = "pair.batch.imported_equal",
        .clause = pair_clause,
        .sentence = pair_sentence,
        .method =
            "Hands each batch the producer exports on the device (the C Data Interface form on "
            "cpu) to the consumer's import as it is, its release watched; passes when the consumer finds "
            "it equal to the fixture and releases it once. A consumer that declines the fixture even as "
            "the harness's feed exports it: not_supported. So is a producer keeping its own model whose "
            "batch, exported again, holds the fixture's values, which a consumer comparing with the file "
            "as written found different (its releases still judged).",
        .role = ADC_ROLE_CONSUMER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ImportBatchAndCompareToJson),
        .judges_a_pair = true,
        .producer_needs = ADC_NEED(ExportBatchFromJson),
        .run = batches_handed_over,
    },
    {
        .id = "pair.device_stream.imported_equal",
        .clause = pair_clause,
        .sentence = pair_sentence,
        .method = "Hands the device stream the producer exports to the consumer's import inside a stream "
                  "of the harness's that forwards every callback; passes when the consumer finds it equal to "
                  "the fixture and releases the stream and every batch it took, once, calling nothing on the "
                  "stream once released. A consumer that declines the fixture even as the harness's feed "
                  "exports it: not_supported. So is a producer keeping its own model whose stream, exported "
                  "again, holds the fixture's values, which a consumer comparing with the file as written "
                  "found different (its releases still judged).",
        .role = ADC_ROLE_CONSUMER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ImportDeviceStreamAndCompareToJson),
        .judges_a_pair = true,
        .producer_needs = ADC_NEED(ExportDeviceStreamFromJson),
        .devices = &adc_devices_for_streams,
        .run = stream_handed_over,
    },
    {
        .id = "pair.async.imported_equal",
        .clause = pair_clause,
        .sentence = pair_sentence,
        .method =
            "Starts the producer's async stream on a handler of the harness's that forwards every "
            "callback to the consumer's handler and each task wrapped; passes when the consumer finds "
            "the stream equal to the fixture, calls extract_data once per task and releases every "
            "array once. A consumer that declines the fixture even as the harness's feed hands it over: "
            "not_supported.",
        .role = ADC_ROLE_CONSUMER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ImportAsyncAndCompareToJson),
        .judges_a_pair = true,
        .producer_needs = ADC_NEED(ExportAsyncFromJson),
        .devices = &adc_devices_for_streams,
        .run = async_handed_over,
    },
};

const struct adc_rule_family adc_pair_rules = ADC_RULE_FAMILY(rules);
