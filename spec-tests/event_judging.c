#include "event_judging.h"

#include "rule_api/async_handler.h"
#include "rule_api/fixture_compare.h"
#include "rule_api/stream_calls.h"

const char adc_valid_event_sentence[] =
    "The table below lists the expected event types for each device type.";
const char adc_data_complete_sentence[] =
    "If an event is provided, then the producer MUST ensure that the exported data is available on the "
    "device "
    "before the event is triggered.";
const char adc_null_means_ready_sentence[] =
    "If the sync_event member is NULL, then it MUST be safe to access the data without any synchronization "
    "necessary on the part of the consumer.";

static bool has_event_type(const struct adc_device_target* device) {
  return device->driver->kind->event_type != NULL;
}
const struct adc_device_filter adc_devices_with_event_type = {has_event_type, "with an event type"};

/* What is done with each array handed out, before it is released. */
typedef void (*array_visitor)(struct adc_case_context* ctx, enum adc_array_source source, int batch,
                              struct ArrowDeviceArray* array, void* state);

static void visit_device_batches(struct adc_case_context* ctx, array_visitor visit, void* state) {
  ADC_FOR_EACH_BATCH(ctx, batch) {
    struct ArrowDeviceArray* out = adc_export_device_batch(ctx, batch);
    if (out == NULL) return;
    visit(ctx, ADC_FROM_DEVICE_BATCH, batch, out, state);
    out->array.release(&out->array);
  }
}

/* Each batch as get_next hands it out, not waited on. */
static void visit_stream_batches(struct adc_case_context* ctx, array_visitor visit, void* state) {
  struct ArrowDeviceArrayStream* stream = adc_export_stream(ctx);
  if (stream == NULL) return;
  ADC_FOR_EACH_BATCH(ctx, batch) {
    struct ArrowDeviceArray* out = adc_stream_next_unwaited_or_unresolved(ctx, stream, batch);
    if (out == NULL) break;
    visit(ctx, ADC_FROM_STREAM, batch, out, state);
    out->array.release(&out->array);
  }
  stream->release(stream);
}

/* Each task's array as extract_data wrote it, once the stream was run to
 * the release of its handler (the arrays are the harness's from
 * extract_data on: their lifetime is their own), or NULL (`visit`) to
 * judge the events as extract_data handed them over (async_handler.h
 * checks them inside on_next_task).  An event live then and dead now is
 * async.lifetime.events_outlive_stream's, not the visitor's. */
static void visit_async_tasks(struct adc_case_context* ctx, array_visitor visit, void* state) {
  const struct adc_async_script script = adc_async_script_request_all(ctx->fixture);
  struct adc_async_run* run = adc_async_run_to_release(ctx, &script);
  if (run == NULL) return;
  struct adc_async_observed seen = adc_async_snapshot(run);
  if (visit == NULL && seen.dead_events_at_extract > 0) {
    adc_violation(ctx, "async task %d, as extract_data handed it over: %s (%d task(s) with such an event)",
                  seen.first_dead_event_task, seen.dead_event_problem, seen.dead_events_at_extract);
  }
  ADC_FOR_EACH_BATCH(ctx, batch) {
    struct ArrowDeviceArray* array = adc_async_array(ctx, run, batch);
    if (array == NULL) {
      if (!ctx->has_verdict) {
        adc_unresolved(ctx, "no array was extracted from task %d (see %s)", batch, ADC_RULE_ASYNC_TASKS);
      }
      break;
    }
    if (visit == NULL) continue;
    if (!adc_async_event_still_live(ctx, run, batch, array)) break;
    visit(ctx, ADC_FROM_ASYNC_TASK, batch, array, state);
  }
  adc_async_release_results(run);
}

static void visit_arrays(struct adc_case_context* ctx, enum adc_array_source source, array_visitor visit,
                         void* state) {
  switch (source) {
    case ADC_FROM_DEVICE_BATCH:
      visit_device_batches(ctx, visit, state);
      break;
    case ADC_FROM_STREAM:
      visit_stream_batches(ctx, visit, state);
      break;
    default:
      visit_async_tasks(ctx, visit, state);
      break;
  }
}

static void check_event(struct adc_case_context* ctx, enum adc_array_source source, int batch,
                        struct ArrowDeviceArray* array, void* state) {
  (void)state;
  struct adc_error error;
  if (array->sync_event != NULL && adc_device_check_event(ctx->device, array->sync_event, &error) != 0) {
    adc_violation(ctx, "%s %d: %s", adc_source_rules(source)->array_noun, batch, error.message);
  }
}

void adc_judge_valid_events(struct adc_case_context* ctx, enum adc_array_source source) {
  if (!adc_device_can_check_events(ctx->device->driver)) {
    adc_not_supported(ctx, "the harness cannot check events of %s yet",
                      ctx->device->driver->kind->event_type);
    return;
  }
  /* An async task's event is judged as extract_data hands it over, while
   * the producer is surely alive: whether it outlives the stream is
   * async.lifetime.events_outlive_stream's to judge. */
  visit_arrays(ctx, source, source == ADC_FROM_ASYNC_TASK ? NULL : check_event, NULL);
}

struct readiness {
  bool with_event;
  bool judged; /* an array of that kind was read */
};

/* Reads the array at once and judges whether it was ready `when`. */
static void judge_at_once(struct adc_case_context* ctx, enum adc_array_source source, int batch,
                          const struct ArrowArray* array, const char* when) {
  const struct adc_source_rules* rules = adc_source_rules(source);
  char difference[512];
  int result = adc_compare_batch(ctx, batch, array, difference, sizeof(difference));
  if (result == 0 || ctx->has_verdict) return;
  if (adc_layout_rule_of(result) != NULL) {
    /* Not late data: a layout no write will mend. */
    adc_unresolved(ctx, "%s %d: its layout differs from the fixture's (see %s): %s", rules->array_noun, batch,
                   adc_layout_rule_of(result), difference);
    return;
  }
  double later = adc_seconds_until_batch_matches(ctx, batch, array);
  if (later < 0) {
    adc_unresolved(ctx, "%s %d differs from the fixture %s and did not change within %.0f s (see %s): %s",
                   rules->array_noun, batch, when, ADC_LATE_DATA_WATCH_SECONDS, rules->data, difference);
  } else {
    adc_violation(ctx, "%s %d, read at once %s, differs from the fixture (%s); %.2f s later it equals it",
                  rules->array_noun, batch, when, difference, later);
  }
}

static void check_readiness(struct adc_case_context* ctx, enum adc_array_source source, int batch,
                            struct ArrowDeviceArray* array, void* state) {
  struct readiness* readiness = state;
  const struct adc_source_rules* rules = adc_source_rules(source);
  if ((array->sync_event != NULL) != readiness->with_event) return; /* the other rule's array */
  struct adc_error error;
  if (adc_device_wait_event(ctx->device, array->sync_event, &error) != 0) {
    adc_unresolved(ctx, "%s %d: waiting on its sync_event failed (see %s): %s", rules->array_noun, batch,
                   rules->valid_event, error.message);
    return;
  }
  readiness->judged = true;
  judge_at_once(
      ctx, source, batch, &array->array,
      readiness->with_event ? "after its sync_event completed" : "as it was handed out, sync_event NULL");
}

void adc_judge_readiness(struct adc_case_context* ctx, enum adc_array_source source, bool with_event) {
  struct readiness readiness = {with_event, false};
  visit_arrays(ctx, source, check_readiness, &readiness);
  if (!readiness.judged && !ctx->has_verdict) {
    adc_not_supported(ctx, "the producer handed out no %s with %s on %s: nothing to judge",
                      adc_source_rules(source)->array_noun, with_event ? "a sync_event" : "a NULL sync_event",
                      ctx->device->driver->name);
  }
}
