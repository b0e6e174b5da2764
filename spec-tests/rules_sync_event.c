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
#include "rule_api/consumer_calls.h"
#include "rule_api/fixture_compare.h"
#include "rule_api/producer_calls.h"

static void valid_event(struct adc_case_context* ctx) {
  if (ctx->device->check_event == NULL) {
    adc_not_supported(ctx, "the harness cannot check events of %s yet", ctx->device->event_type);
    return;
  }
  ADC_FOR_EACH_BATCH(ctx, batch) {
    struct ArrowDeviceArray* out = adc_export_device_batch(ctx, batch);
    if (out == NULL) return;
    struct adc_error error;
    if (out->sync_event != NULL && ctx->device->check_event(ctx->device, out->sync_event, &error) != 0) {
      adc_violation(ctx, "batch %d: %s", batch, error.message);
    }
    out->array.release(&out->array);
  }
}

/* Reads batch `batch` at once and judges whether it was ready `when`. */
static void judge_readiness(struct adc_case_context* ctx, int batch, const struct ArrowArray* array,
                            const char* when) {
  char difference[512];
  if (adc_compare_batch(ctx, batch, array, difference, sizeof(difference)) == 0 || ctx->has_verdict) return;
  double later = adc_seconds_until_batch_matches(ctx, batch, array);
  if (later < 0) {
    adc_unresolved(ctx, "batch %d differs from the fixture %s and did not change within %.0f s (see %s): %s",
                   batch, when, ADC_LATE_DATA_WATCH_SECONDS, "array.data.matches_fixture", difference);
  } else {
    adc_violation(ctx, "batch %d, read at once %s, differs from the fixture (%s); %.2f s later it equals it",
                  batch, when, difference, later);
  }
}

/* Exports every batch to the device and judges those whose sync_event is
 * set (`with_event`) or NULL, at the moment a consumer may read them. */
static void judge_batches(struct adc_case_context* ctx, bool with_event) {
  bool judged = false;
  ADC_FOR_EACH_BATCH(ctx, batch) {
    struct ArrowDeviceArray* out = adc_export_device_batch(ctx, batch);
    if (out == NULL) return;
    struct adc_error error;
    if ((out->sync_event != NULL) != with_event) {
      /* the other rule's batch */
    } else if (ctx->device->wait_event(ctx->device, out->sync_event, &error) != 0) {
      adc_unresolved(ctx, "batch %d: waiting on its sync_event failed (see %s): %s", batch,
                     ADC_RULE_VALID_EVENT, error.message);
    } else {
      judged = true;
      judge_readiness(
          ctx, batch, &out->array,
          with_event ? "after its sync_event completed" : "as the export returned, sync_event NULL");
    }
    out->array.release(&out->array);
  }
  if (!judged && !ctx->has_verdict) {
    adc_not_supported(ctx, "the producer exported no batch with %s to %s: nothing to judge",
                      with_event ? "a sync_event" : "a NULL sync_event", ctx->device->name);
  }
}

static void data_complete(struct adc_case_context* ctx) {
  judge_batches(ctx, true);
}

static void null_means_ready(struct adc_case_context* ctx) {
  judge_batches(ctx, false);
}

/* Hands the consumer batch `*context` of a fresh feed. */
static bool hand_batch(struct adc_case_context* ctx, void* context, double late_write_seconds,
                       const char** message) {
  const int batch = *(const int*)context;
  const struct adc_feed_layout layout = {.late_write_seconds = late_write_seconds};
  struct adc_feed* feed = adc_feed_new(ctx->device);
  struct ArrowDeviceArray array;
  struct adc_error error;
  bool handed = adc_feed_export_batch(feed, ctx->fixture, batch, &layout, &array, &error) == 0;
  if (handed) {
    *message = adc_import_batch(ctx, batch, &array);
  } else {
    adc_unresolved(ctx, "the consumer feed could not export batch %d%s: %s", batch,
                   late_write_seconds > 0 ? " late" : "", error.message);
  }
  adc_feed_free(feed);
  return handed && !ctx->has_verdict;
}

static void consumer_waits(struct adc_case_context* ctx) {
  ADC_FOR_EACH_BATCH(ctx, batch) {
    char what[32];
    snprintf(what, sizeof(what), "batch %d", batch);
    adc_judge_waiting(ctx, what, hand_batch, &batch);
  }
}

static bool has_event_type(const struct adc_device* device) {
  return device->event_type != NULL;
}
static const struct adc_device_filter with_event_type = {has_event_type, "with an event type"};

static const char producer_sentence[] =
    "If an event is provided, then the producer MUST ensure that the exported data is available on the "
    "device before the event is triggered.";

static const struct adc_rule rules[] = {
    {
        .id = ADC_RULE_VALID_EVENT,
        .clause = "Synchronization event types",
        .sentence = "The table below lists the expected event types for each device type.",
        .method = "Exports every batch to the device and checks each non-NULL sync_event is a live event "
                  "of the device's runtime (cudaEventQuery, or the simulated event's magic number).",
        .role = ADC_ROLE_PRODUCER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ExportDeviceBatchFromJson),
        .devices = &with_event_type,
        .run = valid_event,
    },
    {
        .id = ADC_RULE_DATA_COMPLETE,
        .clause = "ArrowDeviceArray.sync_event",
        .sentence = producer_sentence,
        .method =
            "Waits on each batch's sync_event and reads the data at once, with no other "
            "synchronisation; data that differ, then equal the fixture moment later, were written late.",
        .role = ADC_ROLE_PRODUCER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ExportDeviceBatchFromJson),
        .devices = &with_event_type,
        .run = data_complete,
    },
    {
        .id = ADC_RULE_NULL_MEANS_READY,
        .clause = "Synchronization",
        .sentence = "If the sync_event member is NULL, then it MUST be safe to access the data without any "
                    "synchronization necessary on the part of the consumer.",
        .method = "Reads each batch exported with a NULL sync_event as the export returns; data that "
                  "differ, then equal the fixture moments later, were written late.",
        .role = ADC_ROLE_PRODUCER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ExportDeviceBatchFromJson),
        .devices = &with_event_type,
        .run = null_means_ready,
    },
    {
        .id = "consumer.sync_event.waited_before_reading",
        .clause = "ArrowDeviceArray.sync_event",
        .sentence = ADC_SYNC_EVENT_CONSUMER_SENTENCE,
        .method = "Hands the consumer each batch with its values not yet written and a sync_event that "
                  "completes once they are: on the simulated device they are written as the consumer begins "
                  "to synchronise on the event (a wait or a query), exactly; on a GPU 0.3 s after the "
                  "export. The consumer must find the batch equal to the fixture (MUST: erratum E6).",
        .role = ADC_ROLE_CONSUMER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ImportBatchAndCompareToJson),
        .devices = &adc_devices_for_late_writes,
        .fixtures = &adc_fixtures_with_values,
        .run = consumer_waits,
    },
};

const struct adc_rule_family adc_sync_event_rules = ADC_RULE_FAMILY(rules);
