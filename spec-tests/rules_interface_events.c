/* The synchronisation event rules on the interfaces that hand out several
 * arrays: each get_next of a device stream (spec: "Device Stream
 * Interface") and each extract_data of an async stream's tasks (spec:
 * "Async Device Stream Interface").  Every array handed out carries its
 * own sync_event, and the duties of rules_sync_event.c hold for each, with
 * rules of their own so that a late write names the interface it came
 * through (event_judging.h).  And an array's event lives as long as the
 * array: a stream's release, or an async producer's end, must not take
 * it along. */
#include <stdlib.h>

#include "event_judging.h"
#include "rule_api/async_handler.h"
#include "rule_api/stream_calls.h"

static void stream_valid_event(struct adc_case_context* ctx) {
  adc_judge_valid_events(ctx, ADC_FROM_STREAM);
}
static void stream_data_complete(struct adc_case_context* ctx) {
  adc_judge_readiness(ctx, ADC_FROM_STREAM, true);
}
static void stream_null_means_ready(struct adc_case_context* ctx) {
  adc_judge_readiness(ctx, ADC_FROM_STREAM, false);
}
static void async_valid_event(struct adc_case_context* ctx) {
  adc_judge_valid_events(ctx, ADC_FROM_ASYNC_TASK);
}
static void async_data_complete(struct adc_case_context* ctx) {
  adc_judge_readiness(ctx, ADC_FROM_ASYNC_TASK, true);
}
static void async_null_means_ready(struct adc_case_context* ctx) {
  adc_judge_readiness(ctx, ADC_FROM_ASYNC_TASK, false);
}

/* spec: the data of an ArrowDeviceArray, "This includes the sync_event
 * member", live until the array's release, and the arrays' lifetimes "are
 * not tied to that of ArrowDeviceArrayStream".  Every batch is taken, none
 * waited on, the stream released; then each event must still be live and
 * complete. */
static void events_outlive_stream(struct adc_case_context* ctx) {
  if (!adc_device_can_check_events(ctx->device->driver)) {
    adc_not_supported(ctx, "the harness cannot check events of %s yet",
                      ctx->device->driver->kind->event_type);
    return;
  }
  struct ArrowDeviceArrayStream* stream = adc_export_stream(ctx);
  if (stream == NULL) return;
  struct ArrowDeviceArray** arrays = calloc((size_t)ctx->fixture->n_batches + 1, sizeof(*arrays));
  int held = 0;
  ADC_FOR_EACH_BATCH(ctx, batch) {
    struct ArrowDeviceArray* out = adc_stream_next_unwaited_or_unresolved(ctx, stream, batch);
    if (out == NULL) break;
    /* An event that is no live event to begin with is another rule's. */
    struct adc_error error;
    if (out->sync_event != NULL && adc_device_check_event(ctx->device, out->sync_event, &error) != 0) {
      adc_unresolved(ctx, "stream batch %d: %s (see device_stream.sync_event.valid_event)", batch,
                     error.message);
      out->array.release(&out->array);
      break;
    }
    arrays[held++] = out;
  }
  stream->release(stream);
  bool with_event = false;
  for (int batch = 0; batch < held; batch++) {
    struct ArrowDeviceArray* array = arrays[batch];
    struct adc_error error;
    if (array->sync_event == NULL || ctx->has_verdict) {
      /* nothing of its own to outlive the stream */
    } else if (adc_device_check_event(ctx->device, array->sync_event, &error) != 0 ||
               adc_device_wait_event(ctx->device, array->sync_event, &error) != 0) {
      adc_violation(ctx, "stream batch %d, still held once the stream was released: %s", batch,
                    error.message);
    } else {
      with_event = true;
    }
    array->array.release(&array->array);
  }
  free(arrays);
  if (!with_event && !ctx->has_verdict) {
    adc_not_supported(ctx, "the stream handed out no batch with a sync_event on %s: nothing to judge",
                      ctx->device->driver->name);
  }
}

/* spec: the same holds for an async task's array: "Ownership of the Array
 * is given to the pointer passed in as a parameter, and this array must be
 * released separately" (ArrowAsyncTask.extract_data), and its data, "This
 * includes the sync_event member if it is not null", live until that
 * release, not until the producer's.  Every task is extracted inside
 * on_next_task and its event checked there (async_handler.h), none waited
 * on; once the producer released the handler and can do nothing more (it
 * cleans up "*after* calling the release callback": its threads are
 * watched until all wait), each event must still be live and complete. */
static void async_events_outlive_stream(struct adc_case_context* ctx) {
  if (!adc_device_can_check_events(ctx->device->driver)) {
    adc_not_supported(ctx, "the harness cannot check events of %s yet",
                      ctx->device->driver->kind->event_type);
    return;
  }
  const struct adc_async_script script = adc_async_script_request_all(ctx->fixture);
  struct adc_async_run* run = adc_async_run_to_release(ctx, &script);
  if (run == NULL) return;
  /* Ends once every thread of the process waits; the window bounds only a
   * process that never goes quiet. */
  adc_async_watch(ADC_ASYNC_RELEASE_GRACE_SECONDS, NULL, NULL);
  struct adc_async_observed seen = adc_async_snapshot(run);
  bool with_event = false;
  for (int task = 0; task < seen.tasks && !ctx->has_verdict; task++) {
    struct ArrowDeviceArray* array = adc_async_array(ctx, run, task);
    struct adc_error error;
    if (array == NULL || array->sync_event == NULL) {
      /* nothing of its own to outlive the stream */
    } else if (!adc_async_event_live_at_extract(run, task)) {
      /* An event that is no live event to begin with is another rule's. */
      adc_unresolved(ctx,
                     "async task %d: its sync_event was no live event when extract_data returned (see %s)",
                     task, ADC_RULE_ASYNC_VALID_EVENT);
    } else if (adc_device_check_event(ctx->device, array->sync_event, &error) != 0 ||
               adc_device_wait_event(ctx->device, array->sync_event, &error) != 0) {
      adc_violation(ctx, "async task %d, its array still held once the producer released the handler: %s",
                    task, error.message);
    } else {
      with_event = true;
    }
  }
  adc_async_release_results(run);
  if (!with_event && !ctx->has_verdict) {
    adc_not_supported(ctx, "the async stream handed out no array with a sync_event on %s: nothing to judge",
                      ctx->device->driver->name);
  }
}

static bool streams_with_event_type(const struct adc_device_target* device) {
  return adc_devices_with_event_type.holds(device) && adc_devices_for_streams.holds(device);
}
static const struct adc_device_filter streams_with_events = {
    streams_with_event_type, "with an event type (devices other than cpu_device_arrays, as for streams)"};

#define STREAM_RULE(rule_id, rule_clause, rule_sentence, rule_method, body)                         \
  {                                                                                                 \
    .id = rule_id, .clause = rule_clause, .sentence = rule_sentence, .method = rule_method,         \
    .role = ADC_ROLE_PRODUCER, .severity = ADC_MUST, .needs = ADC_NEED(ExportDeviceStreamFromJson), \
    .devices = &streams_with_events, .run = body                                                    \
  }
#define ASYNC_RULE(rule_id, rule_clause, rule_sentence, rule_method, body)                   \
  {                                                                                          \
    .id = rule_id, .clause = rule_clause, .sentence = rule_sentence, .method = rule_method,  \
    .role = ADC_ROLE_PRODUCER, .severity = ADC_MUST, .needs = ADC_NEED(ExportAsyncFromJson), \
    .devices = &streams_with_events, .run = body                                             \
  }

static const struct adc_rule rules[] = {
    STREAM_RULE("device_stream.sync_event.valid_event", ADC_VALID_EVENT_CLAUSE, adc_valid_event_sentence,
                "Takes every batch with get_next and checks each non-NULL sync_event is a live event of the "
                "device's runtime (cudaEventQuery, or the simulated event's magic number).",
                stream_valid_event),
    STREAM_RULE(
        "device_stream.sync_event.data_complete", ADC_DATA_COMPLETE_CLAUSE, adc_data_complete_sentence,
        "Takes every batch with get_next, waits on each sync_event and reads the data at once, with no "
        "other synchronisation; data that differ, then equal the fixture a moment later, were written "
        "late.",
        stream_data_complete),
    STREAM_RULE("device_stream.sync_event.null_means_ready", ADC_NULL_MEANS_READY_CLAUSE,
                adc_null_means_ready_sentence,
                "Reads each batch get_next hands out with a NULL sync_event as it returns; data that differ, "
                "then equal the fixture a moment later, were written late.",
                stream_null_means_ready),
    STREAM_RULE(
        "device_stream.lifetime.events_outlive_stream", "Result lifetimes",
        "The data returned by the get_schema and get_next callbacks must be released independently. "
        "Their lifetimes are not tied to that of ArrowDeviceArrayStream.",
        "Takes every batch with get_next without waiting on its sync_event, releases the stream, then "
        "checks each event is still a live event of the device's runtime and can be waited on (the "
        "event is the array's data: \"This includes the sync_event member if it is not null\").",
        events_outlive_stream),
    ASYNC_RULE("async.sync_event.valid_event", ADC_VALID_EVENT_CLAUSE, adc_valid_event_sentence,
               "Runs the whole async stream, extracting every task inside on_next_task, and checks there "
               "each array's non-NULL sync_event is a live event of the device's runtime.",
               async_valid_event),
    ASYNC_RULE(
        "async.sync_event.data_complete", ADC_DATA_COMPLETE_CLAUSE, adc_data_complete_sentence,
        "Runs the whole async stream, then waits on each extracted array's sync_event and reads the data "
        "at once; data that differ, then equal the fixture a moment later, were written late.",
        async_data_complete),
    ASYNC_RULE("async.sync_event.null_means_ready", ADC_NULL_MEANS_READY_CLAUSE,
               adc_null_means_ready_sentence,
               "Runs the whole async stream, then reads each extracted array with a NULL sync_event at once; "
               "data that differ, then equal the fixture a moment later, were written late.",
               async_null_means_ready),
    ASYNC_RULE("async.lifetime.events_outlive_stream", "ArrowAsyncTask.extract_data",
               "Ownership of the Array is given to the pointer passed in as a parameter, and this array must "
               "be released separately.",
               "Runs the whole async stream, extracting every task inside on_next_task without waiting on "
               "its sync_event (each checked live there), waits for the handler's release and for every "
               "thread of the producer to wait (it cleans up after release), then checks each event is "
               "still a live event of the device's runtime and can be waited on (the event is the array's "
               "data: \"This includes the sync_event member if it is not null\").",
               async_events_outlive_stream),
};

const struct adc_rule_family adc_interface_event_rules = ADC_RULE_FAMILY(rules);
