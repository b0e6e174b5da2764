/* The synchronisation event rules (spec: "ArrowDeviceArray.sync_event",
 * "Synchronization"), on every device with an event type.
 *
 * A producer's event must be a live event of the device's runtime, and the
 * data must be complete when it completes, or at once when it is NULL.  The
 * harness reads the data the moment it is told they are ready, with no
 * other synchronisation; when they differ from the fixture it watches them,
 * and data that turn into the fixture's a moment later were written late.
 * Data that never do are wrong, which array.data.matches_fixture judges. */
#include <stdio.h>

#include "consumer_feed/consumer_feed.h"
#include "consumer_waiting.h"
#include "event_judging.h"
#include "feed_again.h"
#include "rule_api/consumer_calls.h"
#include "rule_api/fixture_compare.h"
#include "rule_api/producer_calls.h"

static void valid_event(struct adc_case_context* ctx) {
  adc_judge_valid_events(ctx, ADC_FROM_DEVICE_BATCH);
}

static void data_complete(struct adc_case_context* ctx) {
  adc_judge_readiness(ctx, ADC_FROM_DEVICE_BATCH, true);
}

static void null_means_ready(struct adc_case_context* ctx) {
  adc_judge_readiness(ctx, ADC_FROM_DEVICE_BATCH, false);
}

/* Hands the consumer batch `*context` of a fresh feed. */
static bool hand_batch(struct adc_case_context* ctx, void* context, double late_write_seconds,
                       double patience_seconds, const char** message) {
  const int batch = *(const int*)context;
  const struct adc_feed_layout layout = {.late_write_seconds = late_write_seconds,
                                         .patience_seconds = patience_seconds};
  struct adc_feed* feed = adc_feed_new(ctx->device);
  struct ArrowDeviceArray array;
  struct adc_error error;
  bool handed = adc_feed_export_batch(feed, ctx->fixture, batch, &layout, &array, &error) == 0;
  if (handed) {
    struct adc_feed_input input;
    *message = adc_import_batch(ctx, batch, &array,
                                adc_feed_batch_again(&input, feed, ctx->fixture, batch, &layout));
  } else {
    adc_unresolved(ctx, "the consumer feed could not export batch %d%s: %s", batch,
                   late_write_seconds > 0 ? " late" : "", error.message);
  }
  adc_feed_free(feed);
  return handed && !ctx->has_verdict;
}

static void consumer_waits_long(struct adc_case_context* ctx);

static void consumer_waits(struct adc_case_context* ctx) {
  ADC_FOR_EACH_BATCH(ctx, batch) {
    char what[32];
    snprintf(what, sizeof(what), "batch %d", batch);
    adc_judge_waiting(ctx, what, hand_batch, &batch);
  }
}

static const struct adc_rule rules[] = {
    {
        .id = ADC_RULE_VALID_EVENT,
        .clause = ADC_VALID_EVENT_CLAUSE,
        .sentence = adc_valid_event_sentence,
        .method = "Exports every batch to the device and checks each non-NULL sync_event is a live event "
                  "of the device's runtime (cudaEventQuery, or the simulated event's magic number).",
        .role = ADC_ROLE_PRODUCER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ExportDeviceBatchFromJson),
        .devices = &adc_devices_with_event_type,
        .run = valid_event,
    },
    {
        .id = ADC_RULE_DATA_COMPLETE,
        .clause = ADC_DATA_COMPLETE_CLAUSE,
        .sentence = adc_data_complete_sentence,
        .method =
            "Waits on each batch's sync_event and reads the data at once, with no other "
            "synchronisation; data that differ, then equal the fixture a moment later, were written late.",
        .role = ADC_ROLE_PRODUCER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ExportDeviceBatchFromJson),
        .devices = &adc_devices_with_event_type,
        .run = data_complete,
    },
    {
        .id = ADC_RULE_NULL_MEANS_READY,
        .clause = ADC_NULL_MEANS_READY_CLAUSE,
        .sentence = adc_null_means_ready_sentence,
        .method = "Reads each batch exported with a NULL sync_event as the export returns; data that "
                  "differ, then equal the fixture a moment later, were written late.",
        .role = ADC_ROLE_PRODUCER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ExportDeviceBatchFromJson),
        .devices = &adc_devices_with_event_type,
        .run = null_means_ready,
    },
    {
        .id = "consumer.sync_event.waited_before_reading",
        .clause = "ArrowDeviceArray.sync_event",
        .sentence = ADC_SYNC_EVENT_CONSUMER_SENTENCE,
        .method =
            "Hands the consumer each batch with its values not yet written and a sync_event that "
            "completes once they are: on the simulated device they are written as the consumer begins "
            "to synchronise on the event (a wait or a query), exactly; on OpenCL once every other thread of "
            "the case's process waits (the consumer does, on the event), else 0.3 s after the export, as on "
            "a GPU. The consumer must find the batch equal to the fixture (MUST: erratum E6).",
        .role = ADC_ROLE_CONSUMER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ImportBatchAndCompareToJson),
        .devices = &adc_devices_for_late_writes,
        .writes_late = true,
        .fixtures = &adc_fixtures_with_values,
        .run = consumer_waits,
    },
    ADC_PATIENCE_RULE("consumer.sync_event.waited_out_a_long_hold", "its batch", ImportBatchAndCompareToJson,
                      consumer_waits_long),
};

static void consumer_waits_long(struct adc_case_context* ctx) {
  int batch = 0;
  adc_judge_patience(ctx, "batch 0", "consumer.sync_event.waited_before_reading", hand_batch, &batch);
}

const struct adc_rule_family adc_sync_event_rules = ADC_RULE_FAMILY(rules);
