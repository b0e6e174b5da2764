/* Rules for async device stream producers, on what they hand over: the
 * producer object, the schema, the arrays of the tasks (spec: "Async Device
 * Stream Interface").  The harness's instrumented handler
 * (harness/rule_api/async_handler.h) is the consumer; it requests the whole
 * stream from inside on_schema, extracts every task inside on_next_task,
 * and these rules judge what it kept, on every fixture. */
#include <inttypes.h>
#include <stdio.h>

#include "device_id_label.h"
#include "rule_api/async_handler.h"
#include "rule_api/fixture_compare.h"
#include "rule_api/producer_calls.h"

/* Starts the whole stream and waits for on_schema; the producer object as
 * the handler saw it then, or false with unresolved naming the rule that
 * judges why it cannot be read. */
static bool producer_seen_at_schema(struct adc_case_context* ctx, struct adc_async_run* run,
                                    struct adc_async_observed* seen) {
  adc_async_wait_for(run, ADC_ASYNC_SCHEMA_SEEN, 0, ADC_ASYNC_QUIET_SECONDS);
  *seen = adc_async_snapshot(run);
  if (seen->on_schema_calls == 0) {
    adc_unresolved(ctx, "on_schema never came (see %s)", ADC_RULE_ASYNC_SCHEMA);
  } else if (!seen->producer_set_at_on_schema) {
    adc_unresolved(ctx, "handler->producer was not set when on_schema came (see %s)",
                   ADC_RULE_ASYNC_PRODUCER_SET);
  }
  return !ctx->has_verdict;
}

static void producer_device_type_matches_request(struct adc_case_context* ctx) {
  struct adc_async_run* run = adc_async_start_whole_stream(ctx);
  if (run == NULL) return;
  struct adc_async_observed seen;
  if (producer_seen_at_schema(ctx, run, &seen) &&
      seen.producer_device_type != ctx->device->driver->kind->arrow_type) {
    adc_violation(ctx, "the producer's device_type is %d, the handler was asked for on %s (%d)",
                  (int)seen.producer_device_type, ctx->device->driver->name,
                  (int)ctx->device->driver->kind->arrow_type);
  }
  adc_async_wind_down(run);
}

static void metadata_well_formed(struct adc_case_context* ctx) {
  struct adc_async_run* run = adc_async_start_whole_stream(ctx);
  if (run == NULL) return;
  struct adc_async_observed seen;
  if (producer_seen_at_schema(ctx, run, &seen)) {
    if (seen.metadata_problem[0] != '\0') {
      adc_violation(ctx, "additional_metadata is not encoded as ArrowSchema.metadata: %s",
                    seen.metadata_problem);
    } else {
      adc_note(ctx, "additional_metadata is %s", seen.metadata_present ? "well formed" : "NULL");
    }
  }
  adc_async_wind_down(run);
}

static void schema_matches_fixture(struct adc_case_context* ctx) {
  struct adc_async_run* run = adc_async_start_whole_stream(ctx);
  if (run == NULL) return;
  adc_async_wait_for(run, ADC_ASYNC_SCHEMA_SEEN, 0, ADC_ASYNC_QUIET_SECONDS);
  struct adc_async_observed seen = adc_async_snapshot(run);
  struct ArrowSchema* schema = adc_async_schema(run);
  char difference[512];
  if (schema == NULL && seen.on_error_calls > 0) {
    adc_violation(ctx, "the producer called on_error (%d: %s) instead of on_schema", seen.error_code,
                  seen.error_message);
  } else if (schema == NULL) {
    adc_violation(ctx, "on_schema never came: %s", adc_async_how_silent(&seen));
  } else if (arrow_json_compare_schema(ctx->fixture, schema, difference, sizeof(difference)) != 0) {
    adc_violation(ctx, "the schema on_schema received differs from the fixture: %s", difference);
  }
  adc_async_wind_down(run);
}

static void task_device_type_matches_producer(struct adc_case_context* ctx) {
  const struct adc_async_script script = adc_async_script_request_all(ctx->fixture);
  struct adc_async_run* run = adc_async_run_to_release(ctx, &script);
  if (run == NULL) return;
  struct adc_async_observed seen = adc_async_snapshot(run);
  if (seen.producer_device_type != ctx->device->driver->kind->arrow_type) {
    /* Arrays on the device asked for would differ from a wrong producer
     * type: the rule on the producer's type judges that first. */
    adc_unresolved(ctx,
                   "the producer's device_type is not the one asked for (see "
                   "async.producer.device_type_matches_request)");
  }
  for (int task = 0; task < seen.tasks && !ctx->has_verdict; task++) {
    const struct ArrowDeviceArray* array = adc_async_array(ctx, run, task);
    if (array != NULL && array->device_type != seen.producer_device_type) {
      adc_violation(ctx, "the array of task %d has device_type %d, the producer's is %d", task,
                    (int)array->device_type, (int)seen.producer_device_type);
    }
  }
  adc_async_release_results(run);
}

/* ArrowAsyncProducer has a device type and no device id: each array
 * names its device itself, and this stream was asked for on one (plugin
 * ABI).  An array of another type than the device's points at the rule on
 * the producer's type when the array follows it, else at the one on the
 * arrays' type. */
static void task_device_id_matches_request(struct adc_case_context* ctx) {
  const struct adc_async_script script = adc_async_script_request_all(ctx->fixture);
  struct adc_async_run* run = adc_async_run_to_release(ctx, &script);
  if (run == NULL) return;
  struct adc_async_observed seen = adc_async_snapshot(run);
  for (int task = 0; task < seen.tasks && !ctx->has_verdict; task++) {
    const struct ArrowDeviceArray* array = adc_async_array(ctx, run, task);
    if (array == NULL) continue;
    char which[48];
    snprintf(which, sizeof(which), "the array of task %d", task);
    adc_judge_device_id(ctx, array, which,
                        array->device_type == seen.producer_device_type
                            ? "async.producer.device_type_matches_request"
                            : "async.task.device_type_matches_producer");
  }
  adc_async_release_results(run);
}

static void task_matches_fixture(struct adc_case_context* ctx) {
  const struct adc_async_script script = adc_async_script_request_all(ctx->fixture);
  struct adc_async_run* run = adc_async_run_to_release(ctx, &script);
  if (run == NULL) return;
  struct adc_async_observed seen = adc_async_snapshot(run);
  if (seen.extracts_unwritten > 0) {
    adc_violation(ctx, "extract_data returned 0 and wrote no array %d time(s)", seen.extracts_unwritten);
  } else if (seen.extract_failures > 0) {
    adc_violation(ctx, "extract_data failed %d time(s), first with %d", seen.extract_failures,
                  seen.first_extract_failure);
  } else if (seen.tasks != ctx->fixture->n_batches) {
    adc_violation(ctx, "the stream handed out %d task(s) before its end, the fixture has %d batch(es)",
                  seen.tasks, (int)ctx->fixture->n_batches);
  }
  ADC_FOR_EACH_BATCH(ctx, batch) {
    struct ArrowDeviceArray* array = adc_async_array(ctx, run, batch);
    if (array == NULL) break; /* a verdict was given, or the slot check gave one */
    /* spec: the consumer waits on the array's sync_event before reading. */
    if (!adc_async_event_still_live(ctx, run, batch, array) ||
        !adc_wait_until_ready_from(ctx, array, batch, ADC_FROM_ASYNC_TASK))
      break;
    char difference[512];
    if (adc_compare_batch(ctx, batch, &array->array, difference, sizeof(difference)) != 0) {
      adc_violation(ctx, "the array of task %d differs from the fixture's batch %d: %s", batch, batch,
                    difference);
    }
  }
  adc_async_release_results(run);
}

/* The producer may free what it held just after it released the handler
 * (the reference's thread does, as it ends), so BytesAllocated is asked
 * again until it is back, or the producer can free nothing more: every
 * other thread of the process waits (a leak shows at once).  A producer
 * with a thread still running is asked again for up to a second
 * (adc_async_watch); this is the bound where its process does not go quiet
 * and none of its threads runs. */
#define BYTES_BACK_WITHIN_SECONDS 0.5

struct bytes_asked {
  struct adc_case_context* ctx;
  int64_t baseline;
  int64_t bytes;
  bool failed; /* BytesAllocated could not be called: a verdict was given */
};

static bool bytes_back(void* context) {
  struct bytes_asked* asked = context;
  asked->failed = !adc_bytes_allocated(asked->ctx, &asked->bytes);
  return asked->failed || asked->bytes == asked->baseline;
}

/* Whether BytesAllocated came back to `baseline`; `bytes` as last read. */
static bool bytes_back_to(struct adc_case_context* ctx, int64_t baseline, int64_t* bytes) {
  struct bytes_asked asked = {ctx, baseline, 0, false};
  bool back = adc_async_watch(BYTES_BACK_WITHIN_SECONDS, bytes_back, &asked) && !asked.failed;
  *bytes = asked.bytes;
  return back;
}

static void extract_without_data_cleans_up(struct adc_case_context* ctx) {
  int64_t baseline;
  if (!adc_bytes_allocated(ctx, &baseline)) return;
  struct adc_async_script script = adc_async_script_request_all(ctx->fixture);
  script.extract_without_data = true;
  struct adc_async_run* run = adc_async_run_to_release(ctx, &script);
  if (run == NULL) return;
  adc_async_release_results(run); /* the schema: nothing else was kept */
  int64_t bytes;
  if (!bytes_back_to(ctx, baseline, &bytes) && !ctx->has_verdict) {
    adc_violation(ctx,
                  "after extract_data(task, NULL) on all %d task(s) and release, BytesAllocated is %" PRId64
                  ", %" PRId64 " before the stream",
                  adc_async_snapshot(run).tasks, bytes, baseline);
  }
}

static const struct adc_rule rules[] = {
    {
        .id = "async.producer.device_type_matches_request",
        .clause = "ArrowAsyncProducer.device_type",
        .sentence = "The device type that this producer will provide data on.",
        .method = "Asks ExportAsyncFromJson for the case's device and reads handler->producer->device_type "
                  "when on_schema comes: the device type asked for.",
        .role = ADC_ROLE_PRODUCER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ExportAsyncFromJson),
        .devices = &adc_devices_for_streams,
        .run = producer_device_type_matches_request,
    },
    {
        .id = "async.additional_metadata.well_formed",
        .clause = "ArrowAsyncProducer.additional_metadata",
        .sentence = "This MUST either be NULL or a valid string that is encoded in the same way as "
                    "ArrowSchema.metadata.",
        .method = "Reads additional_metadata when on_schema comes, without faulting, and parses it as "
                  "ArrowSchema.metadata: a non-negative pair count, then lengths and bytes that all lie in "
                  "readable memory.",
        .role = ADC_ROLE_PRODUCER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ExportAsyncFromJson),
        .devices = &adc_devices_for_streams,
        .run = metadata_well_formed,
    },
    {
        .id = "async.schema.matches_fixture",
        .clause = "ArrowAsyncDeviceStreamHandler.on_schema",
        .sentence = "Handler for receiving the schema of the stream. All incoming records should match the "
                    "provided schema.",
        .method = "Moves the schema on_schema receives into the harness's memory and compares it with the "
                  "fixture's; on_error or silence instead of on_schema fails too.",
        .role = ADC_ROLE_PRODUCER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ExportAsyncFromJson),
        .devices = &adc_devices_for_streams,
        .run = schema_matches_fixture,
    },
    {
        .id = "async.task.device_type_matches_producer",
        .clause = "ArrowAsyncProducer.device_type",
        .sentence = "All ArrowDeviceArray structs that are produced by this producer should have the same "
                    "device type as is set here.",
        .method = "Extracts every task of the stream inside on_next_task and compares each array's "
                  "device_type with the producer's.",
        .role = ADC_ROLE_PRODUCER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ExportAsyncFromJson),
        .devices = &adc_devices_for_streams,
        .run = task_device_type_matches_producer,
    },
    {
        .id = "async.task.device_id_matches_request",
        .clause = ADC_DEVICE_ID_CLAUSE,
        .sentence = ADC_DEVICE_ID_SENTENCE,
        .method = "Extracts every task of the stream inside on_next_task and checks each array's device_id "
                  "is the id the stream was requested on (MUST: see erratum E12).",
        .role = ADC_ROLE_PRODUCER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ExportAsyncFromJson),
        .devices = &adc_devices_with_ids,
        .run = task_device_id_matches_request,
    },
    {
        .id = "async.task.matches_fixture",
        .clause = "ArrowAsyncTask.extract_data",
        .sentence = "A callback to populate the provided ArrowDeviceArray with the available data. The order "
                    "of ArrowAsyncTasks provided by the producer enables a consumer to know the order of the "
                    "data to process.",
        .method = "Extracts every task inside on_next_task, waits on each array's sync_event and compares "
                  "the arrays, in order, with the fixture's batches; as many tasks as batches before the "
                  "end.",
        .role = ADC_ROLE_PRODUCER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ExportAsyncFromJson),
        .devices = &adc_devices_for_streams,
        .run = task_matches_fixture,
    },
    {
        .id = "async.task.extract_without_data_cleans_up",
        .clause = "ArrowAsyncTask.extract_data",
        .sentence = "NULL should be passed as the device array pointer to indicate that the consumer doesn't "
                    "want the actual data, letting the task perform necessary cleanup.",
        .method = "Calls extract_data(task, NULL) on every task of the stream and compares BytesAllocated "
                  "after the handler's release with its value before the stream.",
        .role = ADC_ROLE_PRODUCER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ExportAsyncFromJson) | ADC_NEED(BytesAllocated),
        .devices = &adc_devices_for_streams,
        .run = extract_without_data_cleans_up,
    },
};

const struct adc_rule_family adc_async_data_rules = ADC_RULE_FAMILY(rules);
