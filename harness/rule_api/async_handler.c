#include "rule_api/async_handler.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "rule_api/async_metadata.h"
#include "rule_api/library_text.h"
#include "rule_api/needs.h"
#include "rule_api/output_slot.h"
#include "rule_api/producer_calls.h"
#include "support/activity_watch.h"
#include "support/clock.h"

/* A case runs one rule, which hands out a few handlers at most; their
 * records are static so that they outlive anything the producer does
 * (until the next case, in a prepared process). */
#define MAX_RUNS 4
/* Tasks extracted into arrays of their own; later ones (a producer
 * ignoring back-pressure) are extracted and released at once. */
#define MAX_KEPT_TASKS 64

struct adc_async_run {
  struct adc_async_script script;
  struct ArrowAsyncDeviceStreamHandler* handler; /* in an output slot */
  /* Guards everything below; never held while calling the producer. */
  pthread_mutex_t lock;
  pthread_cond_t changed; /* after every callback */
  /* Held by the main thread while it calls request or cancel, and by
   * release (unless release comes inside such a call): the producer is
   * never called once released. */
  pthread_mutex_t producer_calls;
  int callbacks_running;
  bool released;
  bool rejected; /* on_schema or on_next_task returned non-zero */
  struct ArrowSchema schema;
  bool has_schema;
  struct ArrowDeviceArray* arrays[MAX_KEPT_TASKS]; /* output slots, made before the start */
  bool extracted[MAX_KEPT_TASKS];                  /* extract_data succeeded into the slot */
  /* The slot's sync_event was NULL or a live event of the case's device
   * when extract_data returned (checked inside on_next_task). */
  bool event_live_at_extract[MAX_KEPT_TASKS];
  const struct adc_device* device; /* the case's */
  int n_slots;
  int tasks_seen_by_waiter; /* ADC_ASYNC_TASK_SEEN's starting point */
  struct adc_async_observed seen;
};

static struct adc_async_run runs[MAX_RUNS];
static int n_runs;

/* The run whose request or cancel the current thread is inside, if any. */
static _Thread_local struct adc_async_run* inside_request;
static _Thread_local struct adc_async_run* inside_cancel;
/* Set on the main thread while it holds producer_calls. */
static _Thread_local bool holds_producer_calls;

struct adc_async_script adc_async_script_request_all(const struct arrow_json_file* fixture) {
  return (struct adc_async_script){.request_in_on_schema = fixture->n_batches + 1, .reject_task = -1};
}

static void hold_open(struct adc_async_run* run, enum adc_async_hold kind);

static void note(struct adc_async_wrong_calls* calls, const char* callback) {
  if (calls->count++ == 0) calls->first = callback;
}

/* Every callback starts here: counts it and notes every way in which its
 * arrival is wrong. */
static struct adc_async_run* enter(struct ArrowAsyncDeviceStreamHandler* handler, const char* callback) {
  struct adc_async_run* run = handler->private_data;
  bool is_error = strcmp(callback, "on_error") == 0;
  bool is_release = strcmp(callback, "release") == 0;
  pthread_mutex_lock(&run->lock);
  struct adc_async_observed* seen = &run->seen;
  if (seen->first_callback == NULL) seen->first_callback = callback;
  bool synchronous = false;
  if (inside_request == run && !is_release) {
    note(&seen->inside_request, callback);
    synchronous = true;
  }
  if (inside_cancel == run && !is_error) {
    note(&seen->inside_cancel, callback);
    synchronous = true;
  }
  /* A callback made synchronously from a call the harness made inside
   * another callback is judged as synchronous, not as an overlap. */
  if (run->callbacks_running > 0 && !synchronous) {
    note(&seen->overlapping, callback);
    pthread_cond_broadcast(&run->changed); /* ends a hold (hold_open) */
  }
  if (run->released) note(&seen->after_release, callback);
  if (seen->ends > 0 && !is_release) note(&seen->after_end, callback);
  if (run->rejected && !is_release) note(&seen->after_rejection, callback);
  if (seen->cancelled && is_error) note(&seen->error_after_cancel, callback);
  if (seen->on_error_calls > 0 && !is_release) note(&seen->after_error, callback);
  run->callbacks_running++;
  pthread_mutex_unlock(&run->lock);
  return run;
}

static void leave(struct adc_async_run* run) {
  pthread_mutex_lock(&run->lock);
  run->callbacks_running--;
  run->seen.callbacks++;
  pthread_cond_broadcast(&run->changed);
  pthread_mutex_unlock(&run->lock);
}

/* request from inside a callback, on the producer's thread: the demand is
 * counted before the call, since the producer may answer at once on
 * another thread. */
static void request_from_callback(struct adc_async_run* run, struct ArrowAsyncDeviceStreamHandler* handler,
                                  int64_t n, const char* callback) {
  pthread_mutex_lock(&run->lock);
  run->seen.requested += n;
  run->seen.request_stuck_in = callback;
  pthread_mutex_unlock(&run->lock);
  inside_request = run;
  handler->producer->request(handler->producer, n);
  inside_request = NULL;
  pthread_mutex_lock(&run->lock);
  run->seen.request_stuck_in = NULL;
  pthread_mutex_unlock(&run->lock);
}

static int on_schema(struct ArrowAsyncDeviceStreamHandler* handler, struct ArrowSchema* stream_schema) {
  struct adc_async_run* run = enter(handler, "on_schema");
  /* spec: the schema is "needing to be moved to a consumer owned
   * ArrowSchema object"; a second one is released at once. */
  struct ArrowSchema schema = *stream_schema;
  stream_schema->release = NULL;
  const struct ArrowAsyncProducer* producer = handler->producer;
  char metadata_problem[sizeof(run->seen.metadata_problem)] = "";
  if (producer != NULL) {
    adc_metadata_problem(producer->additional_metadata, metadata_problem, sizeof(metadata_problem));
  }
  pthread_mutex_lock(&run->lock);
  struct adc_async_observed* seen = &run->seen;
  if (seen->on_schema_calls++ == 0) {
    seen->producer_set_at_on_schema = producer != NULL;
    if (producer != NULL) {
      seen->producer_device_type = producer->device_type;
      seen->metadata_present = producer->additional_metadata != NULL;
      memcpy(seen->metadata_problem, metadata_problem, sizeof(metadata_problem));
    }
    run->schema = schema;
    run->has_schema = true;
    schema.release = NULL;
  }
  if (run->script.reject_schema != 0) run->rejected = true;
  pthread_mutex_unlock(&run->lock);
  if (schema.release != NULL) schema.release(&schema);
  int result = run->script.reject_schema;
  if (result == 0 && run->script.request_in_on_schema > 0 && producer != NULL) {
    request_from_callback(run, handler, run->script.request_in_on_schema, "on_schema");
  }
  if (result == 0) hold_open(run, ADC_ASYNC_HOLD_SCHEMA);
  leave(run);
  return result;
}

/* Extracts task number `index` into its slot, or, past the slots or when
 * the script wants no data, without keeping anything; extract_data's code. */
static int extract(struct adc_async_run* run, struct ArrowAsyncTask* task, int index) {
  if (run->script.extract_without_data) return task->extract_data(task, NULL);
  if (index < run->n_slots) return task->extract_data(task, run->arrays[index]);
  struct ArrowDeviceArray surplus;
  memset(&surplus, 0, sizeof(surplus));
  int code = task->extract_data(task, &surplus);
  if (code == 0 && surplus.array.release != NULL) surplus.array.release(&surplus.array);
  return code;
}

/* spec: "Synchronization event types": the sync_event of the array task
 * `index` handed over is checked inside on_next_task, while the producer
 * is surely alive, so that an event dying later (with the stream's end) is
 * told apart from one that was never live (async.sync_event.valid_event
 * judges the first, async.lifetime.events_outlive_stream the second). */
static void check_event_at_extract(struct adc_async_run* run, int index) {
  const struct ArrowDeviceArray* array = run->arrays[index];
  struct adc_error error = {0};
  bool live = array->sync_event == NULL || !adc_device_can_check_events(run->device->driver) ||
              adc_device_check_event(run->device, array->sync_event, &error) == 0;
  pthread_mutex_lock(&run->lock);
  run->event_live_at_extract[index] = live;
  struct adc_async_observed* seen = &run->seen;
  if (!live && seen->dead_events_at_extract++ == 0) {
    seen->first_dead_event_task = index;
    snprintf(seen->dead_event_problem, sizeof(seen->dead_event_problem), "%s", error.message);
  }
  pthread_mutex_unlock(&run->lock);
}

/* Waits, with run->lock held, for a signal on `changed` for the watch's
 * pause; when none came, looks at the process with the lock released
 * (every callback's enter() takes it: a producer thread waiting for it
 * would look quiet) and says whether the watch is over.  The caller
 * rechecks what it waits for first. */
static enum adc_watch_state wait_and_look(struct adc_async_run* run, struct adc_activity_watch* watch) {
  const struct timespec until = adc_monotonic_deadline(adc_watch_pause(watch));
  if (pthread_cond_timedwait(&run->changed, &run->lock, &until) != ETIMEDOUT) return ADC_WATCH_GOES_ON;
  pthread_mutex_unlock(&run->lock);
  enum adc_watch_state state = adc_watch_look(watch);
  pthread_mutex_lock(&run->lock);
  return state;
}

/* Where the script holds callbacks of `kind`, keeps the calling callback
 * open until another callback starts beside it
 * (spec: "Thread safety"), or until no other thread of the process can
 * start one: all wait (a serialised producer waits for this callback to
 * return; the case's main thread, waiting for callbacks, is left out of the
 * looks).  A thread that runs may be on its way to a callback: the hold
 * lasts while one does, up to ADC_ASYNC_QUIET_SECONDS, and the script's
 * hold_seconds where the producer's threads wait on timers or cannot be
 * seen. */
static void hold_open(struct adc_async_run* run, enum adc_async_hold kind) {
  if (run->script.hold_seconds <= 0 || (run->script.hold & kind) == 0) return;
  struct adc_activity_watch watch;
  adc_watch_begin(&watch, run->script.hold_seconds, ADC_ASYNC_QUIET_SECONDS);
  pthread_mutex_lock(&run->lock);
  while (run->seen.overlapping.count == 0 && wait_and_look(run, &watch) == ADC_WATCH_GOES_ON) {
  }
  pthread_mutex_unlock(&run->lock);
}

static int on_next_task(struct ArrowAsyncDeviceStreamHandler* handler, struct ArrowAsyncTask* task,
                        const char* metadata) {
  (void)metadata; /* lives only during this call (spec: "on_next_task"); not needed */
  struct adc_async_run* run = enter(handler, task == NULL ? "on_next_task(NULL)" : "on_next_task");
  pthread_mutex_lock(&run->lock);
  struct adc_async_observed* seen = &run->seen;
  int index = 0;
  if (task == NULL) {
    seen->ends++;
  } else {
    index = seen->tasks++;
    int64_t beyond = seen->tasks - seen->requested;
    if (beyond > seen->most_tasks_beyond_requested) seen->most_tasks_beyond_requested = beyond;
  }
  pthread_mutex_unlock(&run->lock);
  int result = 0;
  if (task != NULL) {
    /* spec: the task "is only valid during the lifetime of this function
     * call": it is extracted here and never looked at again. */
    int code = extract(run, task, index);
    pthread_mutex_lock(&run->lock);
    if (code != 0 && seen->extract_failures++ == 0) seen->first_extract_failure = code;
    bool kept = code == 0 && index < run->n_slots && !run->script.extract_without_data;
    /* A success that wrote nothing leaves the fill pattern, never to be
     * called as a release (Arrow C++'s extract_data returns 0 where its
     * device export failed). */
    if (kept &&
        adc_output_unwritten(&run->arrays[index]->array.release, sizeof(run->arrays[index]->array.release))) {
      kept = false;
      seen->extracts_unwritten++;
    }
    if (kept) run->extracted[index] = true;
    if (index == run->script.reject_task) {
      run->rejected = true;
      result = EINVAL;
    }
    pthread_mutex_unlock(&run->lock);
    if (kept) check_event_at_extract(run, index);
    if (result == 0 && run->script.request_in_on_next_task > 0) {
      request_from_callback(run, handler, run->script.request_in_on_next_task, "on_next_task");
    }
    if (index == run->script.hold_task) hold_open(run, ADC_ASYNC_HOLD_TASK);
  } else {
    hold_open(run, ADC_ASYNC_HOLD_END);
  }
  leave(run);
  return result;
}

static void on_error(struct ArrowAsyncDeviceStreamHandler* handler, int code, const char* message,
                     const char* metadata) {
  struct adc_async_run* run = enter(handler, "on_error");
  /* spec: the message and the metadata are "only valid during the scope of
   * this call": read now, with a bound, since they are the library's. */
  char text[ADC_LIBRARY_TEXT_LIMIT + 128];
  bool well_formed = true;
  const char* read = adc_library_text_checked(message, text, sizeof(text), &well_formed);
  char metadata_problem[sizeof(run->seen.error_metadata_problem)];
  adc_metadata_problem(metadata, metadata_problem, sizeof(metadata_problem));
  pthread_mutex_lock(&run->lock);
  struct adc_async_observed* seen = &run->seen;
  if (seen->on_error_calls++ == 0) {
    seen->error_code = code;
    snprintf(seen->error_message, sizeof(seen->error_message), "%s", read != NULL ? read : "(no message)");
    seen->error_message_null = message == NULL;
    seen->error_message_well_formed = well_formed;
    seen->error_metadata_null = metadata == NULL;
    memcpy(seen->error_metadata_problem, metadata_problem, sizeof(metadata_problem));
  }
  pthread_mutex_unlock(&run->lock);
  hold_open(run, ADC_ASYNC_HOLD_ERROR);
  leave(run);
}

static void release(struct ArrowAsyncDeviceStreamHandler* handler) {
  struct adc_async_run* run = enter(handler, "release");
  /* Unless it comes from inside the main thread's own request or cancel
   * (which hold producer_calls), release waits for such a call to end:
   * the producer must stay valid while it runs. */
  bool wait_for_calls = !holds_producer_calls;
  if (wait_for_calls) pthread_mutex_lock(&run->producer_calls);
  pthread_mutex_lock(&run->lock);
  run->seen.release_calls++;
  run->released = true;
  pthread_mutex_unlock(&run->lock);
  if (wait_for_calls) pthread_mutex_unlock(&run->producer_calls);
  leave(run);
}

static struct adc_async_run* new_run(struct adc_case_context* ctx, const struct adc_async_script* script) {
  if (n_runs == MAX_RUNS) {
    adc_unresolved(ctx, "the harness ran out of async handler records (%d per case)", MAX_RUNS);
    return NULL;
  }
  struct adc_async_run* run = &runs[n_runs++];
  run->script = *script;
  run->device = ctx->device;
  pthread_mutex_init(&run->lock, NULL);
  adc_monotonic_cond_init(&run->changed); /* deadlines from adc_monotonic_deadline() */
  pthread_mutex_init(&run->producer_calls, NULL);
  int slots = (int)ctx->fixture->n_batches + 2;
  run->n_slots = slots < MAX_KEPT_TASKS ? slots : MAX_KEPT_TASKS;
  for (int i = 0; i < run->n_slots; i++) {
    run->arrays[i] = adc_output_slot_new_filled(ctx, sizeof(struct ArrowDeviceArray), "ArrowDeviceArray",
                                                "ArrowAsyncTask.extract_data");
    if (run->arrays[i] == NULL) return NULL;
  }
  run->handler =
      adc_output_slot_new(ctx, sizeof(*run->handler), "ArrowAsyncDeviceStreamHandler", "ExportAsyncFromJson");
  if (run->handler == NULL) return NULL;
  /* spec: the handler "should be able to handle callbacks as soon as it is
   * passed to the producer": complete before the call. */
  *run->handler = (struct ArrowAsyncDeviceStreamHandler){
      .on_schema = on_schema,
      .on_next_task = on_next_task,
      .on_error = on_error,
      .release = release,
      .producer = NULL,
      .private_data = run,
  };
  return run;
}

/* ExportAsyncFromJson, or ExportFailingAsyncFromJson when `fail_at_batch`
 * is not negative. */
static struct adc_async_run* start(struct adc_case_context* ctx, const struct adc_async_script* script,
                                   int fail_at_batch) {
  const struct adc_plugin_functions* library = &ctx->library->functions;
  bool failing = fail_at_batch >= 0;
  if (!adc_can_call(ctx, failing ? ADC_EP_ExportFailingAsyncFromJson : ADC_EP_ExportAsyncFromJson))
    return NULL;
  struct adc_async_run* run = new_run(ctx, script);
  if (run == NULL) return NULL;
  const struct adc_device* device = ctx->device;
  const char* refused =
      failing ? library->ExportFailingAsyncFromJson(ctx->fixture_path, device->driver->kind->arrow_type,
                                                    device->device_id, fail_at_batch, run->handler)
              : library->ExportAsyncFromJson(ctx->fixture_path, device->driver->kind->arrow_type,
                                             device->device_id, run->handler);
  char what[128];
  snprintf(what, sizeof(what), "an async stream%s on %s", failing ? " failing mid-stream" : "",
           device->driver->name);
  if (adc_exported(ctx, run->handler, refused, what) == NULL) return NULL;
  return run;
}

struct adc_async_run* adc_async_start(struct adc_case_context* ctx, const struct adc_async_script* script) {
  return start(ctx, script, -1);
}

struct adc_async_run* adc_async_start_failing(struct adc_case_context* ctx,
                                              const struct adc_async_script* script, int fail_at_batch) {
  return start(ctx, script, fail_at_batch);
}

struct adc_async_run* adc_async_start_whole_stream(struct adc_case_context* ctx) {
  const struct adc_async_script script = adc_async_script_request_all(ctx->fixture);
  return adc_async_start(ctx, &script);
}

/* Calls `call` on the producer from the main thread, unless the handler
 * was released: holding producer_calls keeps release from completing, so
 * the producer object is valid throughout (spec: it "MUST remain valid at
 * least until just before calling release"). */
static void call_producer(struct adc_async_run* run, int64_t n, bool cancel) {
  pthread_mutex_lock(&run->producer_calls);
  pthread_mutex_lock(&run->lock);
  bool callable = !run->released && run->handler->producer != NULL;
  if (callable && cancel) run->seen.cancelled = true;
  if (callable && !cancel && n > 0) run->seen.requested += n;
  pthread_mutex_unlock(&run->lock);
  if (callable) {
    struct ArrowAsyncProducer* producer = run->handler->producer;
    holds_producer_calls = true;
    if (cancel) {
      inside_cancel = run;
      producer->cancel(producer);
      inside_cancel = NULL;
    } else {
      inside_request = run;
      producer->request(producer, n);
      inside_request = NULL;
    }
    holds_producer_calls = false;
  }
  pthread_mutex_unlock(&run->producer_calls);
}

void adc_async_request(struct adc_async_run* run, int64_t n) {
  call_producer(run, n, false);
}

void adc_async_cancel(struct adc_async_run* run) {
  call_producer(run, 0, true);
}

static bool reached(const struct adc_async_run* run, enum adc_async_milestone milestone, int tasks) {
  const struct adc_async_observed* seen = &run->seen;
  bool ended = seen->ends > 0 || seen->on_error_calls > 0 || run->released;
  switch (milestone) {
    case ADC_ASYNC_SCHEMA_SEEN:
      return seen->on_schema_calls > 0 || ended;
    case ADC_ASYNC_TASK_SEEN:
      return seen->tasks >= tasks || ended;
    case ADC_ASYNC_ENDED:
      return ended;
    case ADC_ASYNC_RELEASED:
      return run->released;
  }
  return true;
}

bool adc_async_wait_for(struct adc_async_run* run, enum adc_async_milestone milestone, int tasks,
                        double window) {
  adc_quiescence_begin_waiting();
  struct adc_activity_watch watch;
  pthread_mutex_lock(&run->lock);
  int callbacks = -1;
  enum adc_watch_state watched = ADC_WATCH_GOES_ON;
  while (!reached(run, milestone, tasks)) {
    if (run->seen.callbacks != callbacks) {
      /* A callback came: the producer is under way, and the watch starts
       * again. */
      callbacks = run->seen.callbacks;
      adc_watch_begin(&watch, window, ADC_ASYNC_QUIET_SECONDS);
      watched = ADC_WATCH_GOES_ON;
    } else if (watched != ADC_WATCH_GOES_ON) {
      run->seen.went_quiet = watched == ADC_WATCH_QUIET;
      break;
    }
    watched = wait_and_look(run, &watch);
  }
  bool came = reached(run, milestone, tasks);
  pthread_mutex_unlock(&run->lock);
  adc_quiescence_end_waiting();
  return came;
}

bool adc_async_watch(double window, bool (*done)(void* context), void* context) {
  adc_quiescence_begin_waiting();
  struct adc_activity_watch watch;
  adc_watch_begin(&watch, window, ADC_ASYNC_QUIET_SECONDS);
  enum adc_watch_state watched = ADC_WATCH_GOES_ON;
  bool came = false;
  while (!(came = done != NULL && done(context)) && watched == ADC_WATCH_GOES_ON) {
    adc_sleep_seconds(adc_watch_pause(&watch));
    watched = adc_watch_look(&watch);
  }
  adc_quiescence_end_waiting();
  return came;
}

const char* adc_async_how_silent(const struct adc_async_observed* seen) {
  return seen->went_quiet ? "every thread of its process waited, none on its way to a callback"
                          : "it made no callback for 1 s";
}

struct adc_async_observed adc_async_snapshot(struct adc_async_run* run) {
  pthread_mutex_lock(&run->lock);
  struct adc_async_observed copy = run->seen;
  pthread_mutex_unlock(&run->lock);
  return copy;
}

struct ArrowSchema* adc_async_schema(struct adc_async_run* run) {
  pthread_mutex_lock(&run->lock);
  struct ArrowSchema* schema = run->has_schema ? &run->schema : NULL;
  pthread_mutex_unlock(&run->lock);
  return schema;
}

struct ArrowDeviceArray* adc_async_array(struct adc_case_context* ctx, struct adc_async_run* run, int task) {
  struct adc_async_observed seen = adc_async_snapshot(run);
  if (task >= seen.tasks || task >= run->n_slots) return NULL;
  if (!adc_output_slot_intact(ctx, run->arrays[task])) return NULL;
  pthread_mutex_lock(&run->lock);
  bool extracted = run->extracted[task];
  pthread_mutex_unlock(&run->lock);
  if (!extracted) return NULL;
  return run->arrays[task];
}

bool adc_async_event_still_live(struct adc_case_context* ctx, struct adc_async_run* run, int task,
                                struct ArrowDeviceArray* array) {
  if (array->sync_event == NULL || !adc_device_can_check_events(ctx->device->driver)) return true;
  pthread_mutex_lock(&run->lock);
  bool was_live = task < run->n_slots && run->event_live_at_extract[task];
  pthread_mutex_unlock(&run->lock);
  struct adc_error error;
  if (!was_live || adc_device_check_event(ctx->device, array->sync_event, &error) == 0) return true;
  adc_unresolved(ctx,
                 "async task %d: its sync_event, live when extract_data returned, is not once the stream "
                 "ended (see %s): %s",
                 task, ADC_RULE_ASYNC_EVENTS_OUTLIVE, error.message);
  return false;
}

bool adc_async_event_live_at_extract(struct adc_async_run* run, int task) {
  pthread_mutex_lock(&run->lock);
  bool live = task < run->n_slots && run->event_live_at_extract[task];
  pthread_mutex_unlock(&run->lock);
  return live;
}

void adc_async_release_results(struct adc_async_run* run) {
  pthread_mutex_lock(&run->lock);
  int tasks = run->seen.tasks < run->n_slots ? run->seen.tasks : run->n_slots;
  struct ArrowSchema* schema = run->has_schema && run->schema.release != NULL ? &run->schema : NULL;
  pthread_mutex_unlock(&run->lock);
  if (schema != NULL) schema->release(schema);
  for (int i = 0; i < tasks; i++) {
    struct ArrowDeviceArray* array = run->arrays[i];
    if (run->extracted[i] && array->array.release != NULL) array->array.release(&array->array);
  }
}

bool adc_async_wait_for_release(struct adc_async_run* run) {
  adc_async_wait_for(run, ADC_ASYNC_SCHEMA_SEEN, 0, ADC_ASYNC_QUIET_SECONDS);
  struct adc_async_observed seen = adc_async_snapshot(run);
  if (seen.on_schema_calls > 0 && !seen.producer_set_at_on_schema) return false;
  return adc_async_wait_for(run, ADC_ASYNC_ENDED, 0, ADC_ASYNC_QUIET_SECONDS) &&
         adc_async_wait_for(run, ADC_ASYNC_RELEASED, 0, ADC_ASYNC_RELEASE_GRACE_SECONDS);
}

void adc_async_explain_stall(struct adc_case_context* ctx, struct adc_async_run* run) {
  struct adc_async_observed seen = adc_async_snapshot(run);
  bool ended = seen.ends > 0 || seen.on_error_calls > 0 || seen.release_calls > 0;
  if (seen.on_schema_calls > 0 && !seen.producer_set_at_on_schema) {
    adc_unresolved(ctx,
                   "handler->producer was not set when on_schema came: nothing could be requested (see %s)",
                   ADC_RULE_ASYNC_PRODUCER_SET);
  } else if (seen.on_schema_calls == 0 && !ended) {
    adc_unresolved(ctx, "on_schema never came: %s (see %s)", adc_async_how_silent(&seen),
                   ADC_RULE_ASYNC_SCHEMA);
  } else if (seen.request_stuck_in != NULL) {
    adc_unresolved(ctx, "request() called from inside %s never returned (see %s)", seen.request_stuck_in,
                   ADC_RULE_ASYNC_REENTRANT);
  } else if (!ended) {
    adc_unresolved(ctx,
                   "the producer stopped after %d task(s) with %lld requested, without ending the stream: "
                   "%s (see %s)",
                   seen.tasks, (long long)seen.requested, adc_async_how_silent(&seen), ADC_RULE_ASYNC_END);
  } else if (seen.release_calls == 0) {
    adc_unresolved(ctx, "the producer did not release the handler once the stream ended (see %s)",
                   ADC_RULE_ASYNC_RELEASE);
  }
}

bool adc_async_finish(struct adc_case_context* ctx, struct adc_async_run* run) {
  if (adc_async_wait_for_release(run)) return true;
  adc_async_explain_stall(ctx, run);
  return false;
}

struct adc_async_run* adc_async_run_to_release(struct adc_case_context* ctx,
                                               const struct adc_async_script* script) {
  struct adc_async_run* run = adc_async_start(ctx, script);
  if (run == NULL) return NULL;
  if (adc_async_finish(ctx, run)) return run;
  adc_async_release_results(run);
  return NULL;
}

void adc_async_wind_down(struct adc_async_run* run) {
  adc_async_wait_for_release(run);
  adc_async_release_results(run);
}

void adc_async_runs_forget(void) {
  for (int r = 0; r < n_runs; r++) {
    pthread_mutex_destroy(&runs[r].lock);
    pthread_cond_destroy(&runs[r].changed);
    pthread_mutex_destroy(&runs[r].producer_calls);
  }
  memset(runs, 0, sizeof(runs));
  n_runs = 0;
}
