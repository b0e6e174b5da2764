/* Rules for async device stream producers, on the order and threads of
 * their calls (spec: "Async Device Stream Interface"): the producer object
 * before on_schema, back-pressure, request and cancel that never call back
 * synchronously, re-entrant requests, the end of the stream, release, and
 * serialised callbacks.  The harness's instrumented handler
 * (harness/rule_api/async_handler.h) observes each call; every rule drives
 * the stream in the way that exposes its own violation and judges only it.
 *
 * These rules are about the sequence of calls, not about data: they run on
 * fixtures with several batches (adc_fixtures_with_several_batches). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "rule_api/async_handler.h"

/* How long the handler gives a producer to hand out what it was not asked
 * for, when it watches for that (async.tasks.within_requested only), where
 * the producer's process does not go quiet and none of its threads runs:
 * once every thread waits nothing more can come, and the watch ends at
 * once; while one runs it goes on (adc_async_watch), so a producer handing
 * out a task beyond demand is caught however busy the machine.  Measured
 * with this window alone: producer_async_task_beyond_request caught 50
 * runs of 50 on cpu and simulated with --jobs 2 under a load average of 5. */
#define UNASKED_WATCH_SECONDS 0.01

/* After a rule judged what it watches for: when nothing was wrong there
 * but the run stalled, unresolved naming the rule that explains it. */
static void explain_stall_unless_judged(struct adc_case_context* ctx, struct adc_async_run* run,
                                        const struct adc_async_observed* seen) {
  if (!ctx->has_verdict && seen->release_calls == 0) adc_async_explain_stall(ctx, run);
}

static void producer_set_before_on_schema(struct adc_case_context* ctx) {
  struct adc_async_run* run = adc_async_start_whole_stream(ctx);
  if (run == NULL) return;
  adc_async_wait_for(run, ADC_ASYNC_SCHEMA_SEEN, 0, ADC_ASYNC_QUIET_SECONDS);
  struct adc_async_observed seen = adc_async_snapshot(run);
  if (seen.on_schema_calls == 0) {
    adc_unresolved(ctx, "on_schema never came (see %s)", ADC_RULE_ASYNC_SCHEMA);
  } else if (!seen.producer_set_at_on_schema) {
    adc_violation(ctx, "handler->producer was NULL when on_schema was called");
  }
  adc_async_wind_down(run); /* at once without a producer: nothing can be requested */
}

/* Runs the whole stream with `script` until release (bounded); the run
 * and its observations, NULL when it could not be started. */
static struct adc_async_run* run_whole(struct adc_case_context* ctx, const struct adc_async_script* script,
                                       struct adc_async_observed* seen) {
  struct adc_async_run* run = adc_async_start(ctx, script);
  if (run == NULL) return NULL;
  adc_async_wait_for_release(run);
  *seen = adc_async_snapshot(run);
  adc_async_release_results(run);
  return run;
}

/* For rules judged on a complete run: the observations of a run taken to
 * release (adc_async_run_to_release), or false with a verdict. */
static bool run_to_release(struct adc_case_context* ctx, const struct adc_async_script* script,
                           struct adc_async_observed* seen) {
  struct adc_async_run* run = adc_async_run_to_release(ctx, script);
  if (run == NULL) return false;
  *seen = adc_async_snapshot(run);
  adc_async_release_results(run);
  return true;
}

static void on_schema_first_and_once(struct adc_case_context* ctx) {
  const struct adc_async_script script = adc_async_script_request_all(ctx->fixture);
  struct adc_async_observed seen;
  if (!run_to_release(ctx, &script, &seen)) return;
  bool error_first = seen.first_callback != NULL && strcmp(seen.first_callback, "on_error") == 0;
  if (seen.on_schema_calls == 0 && !error_first) {
    adc_violation(ctx, "on_schema was never called (the first callback was %s)", seen.first_callback);
  } else if (seen.on_schema_calls > 0 && strcmp(seen.first_callback, "on_schema") != 0 && !error_first) {
    adc_violation(ctx, "the first callback on the handler was %s, not on_schema", seen.first_callback);
  } else if (seen.on_schema_calls > 1) {
    adc_violation(ctx, "on_schema was called %d times", seen.on_schema_calls);
  }
}

/* The handler asks for nothing from inside its callbacks; the main thread
 * asks for one batch once on_schema came, then, once it came, for the
 * rest.  After each step it watches the producer hand out what it was not
 * asked for (adc_async_watch, `watch_seconds` its window; 0 for a rule
 * that does not judge that). */
static struct adc_async_run* run_in_small_steps(struct adc_case_context* ctx, double watch_seconds,
                                                struct adc_async_observed* seen) {
  const struct adc_async_script script = {.reject_task = -1};
  struct adc_async_run* run = adc_async_start(ctx, &script);
  if (run == NULL) return NULL;
  adc_async_wait_for(run, ADC_ASYNC_SCHEMA_SEEN, 0, ADC_ASYNC_QUIET_SECONDS);
  if (watch_seconds > 0) adc_async_watch(watch_seconds, NULL, NULL);
  adc_async_request(run, 1);
  adc_async_wait_for(run, ADC_ASYNC_TASK_SEEN, 1, ADC_ASYNC_QUIET_SECONDS);
  if (watch_seconds > 0) adc_async_watch(watch_seconds, NULL, NULL);
  adc_async_request(run, ctx->fixture->n_batches);
  adc_async_wait_for_release(run);
  *seen = adc_async_snapshot(run);
  adc_async_release_results(run);
  return run;
}

static void tasks_within_requested(struct adc_case_context* ctx) {
  struct adc_async_observed seen;
  struct adc_async_run* run = run_in_small_steps(ctx, UNASKED_WATCH_SECONDS, &seen);
  if (run == NULL) return;
  /* Judged before any stall: what came is what counts. */
  if (seen.most_tasks_beyond_requested > 0) {
    adc_violation(ctx,
                  "on_next_task handed out %lld task(s) more than the handler had requested at the time "
                  "(requests: none in on_schema, then 1, then the rest)",
                  (long long)seen.most_tasks_beyond_requested);
  }
  explain_stall_unless_judged(ctx, run, &seen);
}

static void request_no_synchronous_callbacks(struct adc_case_context* ctx) {
  struct adc_async_observed seen;
  /* A synchronous callback is caught on the calling thread: no watch. */
  struct adc_async_run* run = run_in_small_steps(ctx, 0, &seen);
  if (run == NULL) return;
  if (seen.inside_request.count > 0) {
    adc_violation(ctx, "request() called %s %d time(s) before returning, on the calling thread",
                  seen.inside_request.first, seen.inside_request.count);
  }
  explain_stall_unless_judged(ctx, run, &seen);
}

static void request_reentrant(struct adc_case_context* ctx) {
  const struct adc_async_script script = {
      .request_in_on_schema = 1, .request_in_on_next_task = 1, .reject_task = -1};
  struct adc_async_run* run = adc_async_start(ctx, &script);
  if (run == NULL) return;
  bool ended = adc_async_wait_for(run, ADC_ASYNC_ENDED, 0, ADC_ASYNC_QUIET_SECONDS);
  struct adc_async_observed seen = adc_async_snapshot(run);
  if (seen.on_schema_calls == 0 || !seen.producer_set_at_on_schema) {
    adc_async_explain_stall(ctx, run); /* nothing could be requested */
  } else if (seen.request_stuck_in != NULL) {
    adc_timed_out(ctx,
                  "request(1), called from inside %s, did not return (%s): the producer does not allow "
                  "request from inside its callbacks (a lock held across them?)",
                  seen.request_stuck_in, adc_async_how_silent(&seen));
  } else if (!ended) {
    adc_violation(ctx,
                  "the stream stalled after %d task(s) with %lld requested, one at a time from inside "
                  "on_schema and on_next_task: demand was lost",
                  seen.tasks, (long long)seen.requested);
  } else if (seen.ends > 0 && seen.tasks < ctx->fixture->n_batches) {
    adc_violation(ctx, "the stream ended after %d of %d batches when requested from inside the callbacks",
                  seen.tasks, (int)ctx->fixture->n_batches);
  }
  if (!ctx->has_verdict) adc_async_finish(ctx, run);
  adc_async_release_results(run);
}

static void invalid_request_reported(struct adc_case_context* ctx) {
  const struct adc_async_script script = {.reject_task = -1};
  struct adc_async_run* run = adc_async_start(ctx, &script);
  if (run == NULL) return;
  adc_async_wait_for(run, ADC_ASYNC_SCHEMA_SEEN, 0, ADC_ASYNC_QUIET_SECONDS);
  if (!adc_async_snapshot(run).producer_set_at_on_schema) {
    adc_async_explain_stall(ctx, run); /* request cannot be called */
    adc_async_release_results(run);
    return;
  }
  adc_async_request(run, 0);
  adc_async_wait_for(run, ADC_ASYNC_ENDED, 0, ADC_ASYNC_QUIET_SECONDS);
  struct adc_async_observed seen = adc_async_snapshot(run);
  if (seen.on_error_calls == 0) {
    adc_violation(ctx, "request(0) was followed by %s, not on_error (%s)",
                  seen.ends > 0 ? "the end of the stream" : "nothing",
                  seen.ends > 0 ? "the stream ended" : adc_async_how_silent(&seen));
    adc_async_cancel(run); /* the stream waits for valid demand: end it */
  }
  adc_async_wait_for(run, ADC_ASYNC_RELEASED, 0, ADC_ASYNC_QUIET_SECONDS);
  adc_async_release_results(run);
}

/* One batch is requested from inside on_schema; once it came, the main
 * thread (another thread than the producer's) cancels twice, as a consumer
 * may (spec: calls to cancel "must be idempotent and thread-safe"), and
 * waits for release. */
static bool run_cancelled(struct adc_case_context* ctx, struct adc_async_observed* seen) {
  const struct adc_async_script script = {.request_in_on_schema = 1, .reject_task = -1};
  struct adc_async_run* run = adc_async_start(ctx, &script);
  if (run == NULL) return false;
  adc_async_wait_for(run, ADC_ASYNC_TASK_SEEN, 1, ADC_ASYNC_QUIET_SECONDS);
  adc_async_cancel(run);
  adc_async_cancel(run);
  bool released = adc_async_wait_for(run, ADC_ASYNC_RELEASED, 0, ADC_ASYNC_QUIET_SECONDS);
  *seen = adc_async_snapshot(run);
  adc_async_release_results(run);
  return released;
}

static void cancel_no_synchronous_callbacks(struct adc_case_context* ctx) {
  struct adc_async_observed seen;
  run_cancelled(ctx, &seen);
  if (seen.inside_cancel.count > 0) {
    adc_violation(ctx, "cancel() called %s %d time(s) before returning, on the calling thread",
                  seen.inside_cancel.first, seen.inside_cancel.count);
  }
}

static void cancel_release_follows(struct adc_case_context* ctx) {
  struct adc_async_observed seen;
  if (!run_cancelled(ctx, &seen) && !ctx->has_verdict) {
    adc_timed_out(ctx,
                  "the producer never called the handler's release after cancel() (called twice, from "
                  "another thread than the producer's, after %d task(s)): %s",
                  seen.tasks, adc_async_how_silent(&seen));
  }
}

static void cancel_no_on_error(struct adc_case_context* ctx) {
  struct adc_async_observed seen;
  run_cancelled(ctx, &seen);
  if (seen.error_after_cancel.count > 0) {
    adc_violation(ctx, "after cancel() the producer called on_error (%d: %s)", seen.error_code,
                  seen.error_message);
  }
}

static void end_is_null_task(struct adc_case_context* ctx) {
  const struct adc_async_script script = adc_async_script_request_all(ctx->fixture);
  struct adc_async_observed seen;
  if (!run_to_release(ctx, &script, &seen)) return;
  if (seen.on_error_calls > 0) {
    adc_unresolved(ctx, "the producer called on_error (%d: %s) before the end", seen.error_code,
                   seen.error_message);
  } else if (seen.ends == 0) {
    adc_violation(ctx, "the handler was released after %d task(s) without on_next_task(NULL)", seen.tasks);
  } else if (seen.ends > 1) {
    adc_violation(ctx, "on_next_task(NULL) came %d times", seen.ends);
  } else if (seen.after_end.count > 0) {
    adc_violation(ctx, "%s came after on_next_task(NULL) ended the stream", seen.after_end.first);
  }
}

/* How long to watch for calls after release, where the producer's
 * process does not go quiet and none of its threads runs (adc_async_watch:
 * the watch ends once every thread waits, and goes on while one runs): a
 * second release comes right after the first.  Measured as
 * UNASKED_WATCH_SECONDS, with producer_async_releases_twice: 50 of 50. */
#define AFTER_RELEASE_WATCH_SECONDS 0.01

static void release_last_and_once(struct adc_case_context* ctx) {
  const struct adc_async_script script = adc_async_script_request_all(ctx->fixture);
  struct adc_async_run* run = adc_async_start(ctx, &script);
  if (run == NULL) return;
  bool ended = adc_async_wait_for(run, ADC_ASYNC_ENDED, 0, ADC_ASYNC_QUIET_SECONDS);
  bool released = ended && adc_async_wait_for(run, ADC_ASYNC_RELEASED, 0, ADC_ASYNC_QUIET_SECONDS);
  if (released) adc_async_watch(AFTER_RELEASE_WATCH_SECONDS, NULL, NULL);
  struct adc_async_observed seen = adc_async_snapshot(run);
  if (!ended) {
    adc_async_explain_stall(ctx, run);
  } else if (!released) {
    adc_timed_out(ctx, "the producer never called the handler's release after the stream ended: %s",
                  adc_async_how_silent(&seen));
  } else if (seen.release_calls > 1) {
    adc_violation(ctx, "release was called %d times on the handler", seen.release_calls);
  } else if (seen.after_release.count > 0) {
    adc_violation(ctx, "%s was called after release", seen.after_release.first);
  }
  adc_async_release_results(run);
}

/* Rejects on_schema, then (in a second stream) the first task. */
static void rejection_only_release_follows(struct adc_case_context* ctx) {
  struct adc_async_script rejecting_schema = adc_async_script_request_all(ctx->fixture);
  rejecting_schema.reject_schema = EINVAL;
  struct adc_async_script rejecting_task = adc_async_script_request_all(ctx->fixture);
  rejecting_task.reject_task = 0;
  const struct {
    const struct adc_async_script* script;
    const char* rejected;
  } runs[] = {{&rejecting_schema, "on_schema"}, {&rejecting_task, "on_next_task"}};
  for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]) && !ctx->has_verdict; i++) {
    struct adc_async_observed seen;
    if (!run_to_release(ctx, runs[i].script, &seen)) return;
    if (seen.after_rejection.count > 0) {
      adc_violation(ctx, "after %s returned EINVAL the producer called %s (%d call(s) besides release)",
                    runs[i].rejected, seen.after_rejection.first, seen.after_rejection.count);
    }
  }
}

/* spec: "Thread safety".  The handler's callbacks return within
 * microseconds, before a second thread of the producer can start a
 * callback beside them, so an overlap would go unseen.  A serialised
 * producer cannot show that it would have waited: a callback of each kind
 * the usual course has is held open in turn, once per case (async_handler.h,
 * adc_async_hold): on_schema once it requested every batch (a task, the
 * end or on_error may come beside it), the on_next_task of the last task
 * but one (the producer still has a task and the end to hand out), and the
 * end (release may come beside it); a callback starting meanwhile ends
 * the hold at once.  The error path's holds are async.on_error.serialised's
 * (rules_async_errors.c): it needs an optional entry point. */
static void callbacks_serialised(struct adc_case_context* ctx) {
  struct adc_async_script script = adc_async_script_request_all(ctx->fixture);
  script.hold = ADC_ASYNC_HOLD_SCHEMA | ADC_ASYNC_HOLD_TASK | ADC_ASYNC_HOLD_END;
  script.hold_task = ctx->fixture->n_batches - 2;
  script.hold_seconds = ADC_ASYNC_OVERLAP_WATCH_SECONDS;
  struct adc_async_observed seen;
  struct adc_async_run* run = run_whole(ctx, &script, &seen);
  if (run == NULL) return;
  if (seen.overlapping.count > 0) {
    adc_violation(ctx, "%s was called while another handler callback was still running (%d such call(s))",
                  seen.overlapping.first, seen.overlapping.count);
  }
  explain_stall_unless_judged(ctx, run, &seen);
}

static const struct adc_rule rules[] = {
    {
        .id = "async.producer.set_before_on_schema",
        .clause = "ArrowAsyncDeviceStreamHandler.producer",
        .sentence = "This object MUST be populated by the producer before calling the "
                    "ArrowAsyncDeviceStreamHandler.on_schema callback.",
        .method = "Reads handler->producer when on_schema is called: set.",
        .role = ADC_ROLE_PRODUCER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ExportAsyncFromJson),
        .devices = &adc_devices_for_streams,
        .fixtures = &adc_fixtures_with_several_batches,
        .run = producer_set_before_on_schema,
    },
    {
        .id = "async.on_schema.first_and_once",
        .clause = "ArrowAsyncDeviceStreamHandler.on_schema",
        .sentence =
            "Unless the on_error handler is called, this will always get called exactly once and will "
            "be the first method called on this object.",
        .method = "Runs the whole stream and checks the first handler callback was on_schema (or on_error) "
                  "and on_schema came once.",
        .role = ADC_ROLE_PRODUCER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ExportAsyncFromJson),
        .devices = &adc_devices_for_streams,
        .fixtures = &adc_fixtures_with_several_batches,
        .run = on_schema_first_and_once,
    },
    {
        .id = "async.tasks.within_requested",
        .clause = "ArrowAsyncProducer.request",
        .sentence =
            "A producer should only call the appropriate on_next_task callback up to a maximum of the "
            "total sum of calls to this method before propagating back-pressure / waiting.",
        .method = "Requests nothing in on_schema, then 1 from another thread, then the rest, watching after "
                  "each step until every thread of the producer waits (10 ms where they never all do, while "
                  "none runs): at no on_next_task may the tasks handed out exceed the sum requested.",
        .role = ADC_ROLE_PRODUCER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ExportAsyncFromJson),
        .devices = &adc_devices_for_streams,
        .fixtures = &adc_fixtures_with_several_batches,
        .waits_by_design = true,
        .run = tasks_within_requested,
    },
    {
        .id = "async.request.no_synchronous_callbacks",
        .clause = "ArrowAsyncProducer.request",
        .sentence =
            "As a result, this function MUST NOT synchronously call on_next_task or on_error to avoid "
            "recursive and reentrant callbacks.",
        .method = "Requests from another thread than the producer's, in small steps, marking the calling "
                  "thread: no on_next_task or on_error may arrive on it before request returns.",
        .role = ADC_ROLE_PRODUCER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ExportAsyncFromJson),
        .devices = &adc_devices_for_streams,
        .fixtures = &adc_fixtures_with_several_batches,
        .run = request_no_synchronous_callbacks,
    },
    {
        .id = "async.request.reentrant",
        .clause = "ArrowAsyncProducer.request",
        .sentence = "It MUST be valid to call this synchronously from within on_next_task or on_schema.",
        .method = "Requests one batch from inside on_schema and one from inside each on_next_task: every "
                  "request returns (one that does not, with the producer's threads all waiting or no "
                  "callback for a second, ends the case as timeout) and the stream reaches its end.",
        .role = ADC_ROLE_PRODUCER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ExportAsyncFromJson),
        .devices = &adc_devices_for_streams,
        .fixtures = &adc_fixtures_with_several_batches,
        .run = request_reentrant,
    },
    {
        .id = "async.request.invalid_n_reported",
        .clause = "ArrowAsyncProducer.request",
        .sentence = "It is invalid to call this function with a value of n that is <= 0. Producers should "
                    "error (e.g. call on_error) if receiving such a value for n.",
        .method = "Calls request(0) once on_schema came: on_error must follow (then release).",
        .role = ADC_ROLE_PRODUCER,
        .severity = ADC_SHOULD,
        .needs = ADC_NEED(ExportAsyncFromJson),
        .devices = &adc_devices_for_streams,
        .fixtures = &adc_fixtures_with_several_batches,
        .run = invalid_request_reported,
    },
    {
        .id = "async.cancel.no_synchronous_callbacks",
        .clause = "ArrowAsyncProducer.cancel",
        .sentence = "This MUST NOT call any consumer-side handlers other than on_error.",
        .method = "Cancels twice from another thread once the first task came, marking the calling thread: "
                  "no callback but on_error may arrive on it before cancel returns.",
        .role = ADC_ROLE_PRODUCER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ExportAsyncFromJson),
        .devices = &adc_devices_for_streams,
        .fixtures = &adc_fixtures_with_several_batches,
        .run = cancel_no_synchronous_callbacks,
    },
    {
        .id = "async.cancel.release_follows",
        .clause = "ArrowAsyncProducer.cancel",
        .sentence =
            "It is not required that calling cancel affect the producer immediately, only that it "
            "must eventually stop calling on_next_task and then subsequently call release on the async "
            "handler object.",
        .method = "Cancels twice from another thread once the first task came (calls to cancel must be "
                  "idempotent and thread-safe): release must follow; a producer whose threads all wait "
                  "without it, or that makes no callback for a second, ends the case as timeout.",
        .role = ADC_ROLE_PRODUCER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ExportAsyncFromJson),
        .devices = &adc_devices_for_streams,
        .fixtures = &adc_fixtures_with_several_batches,
        .run = cancel_release_follows,
    },
    {
        .id = "async.cancel.no_on_error",
        .clause = "ArrowAsyncProducer.cancel",
        .sentence =
            "Successful cancelling MUST NOT result in a producer calling "
            "ArrowAsyncDeviceStreamHandler.on_error, instead it should finish out any remaining tasks "
            "(calling on_next_task accordingly) and eventually just call release.",
        .method = "Cancels twice from another thread once the first task came: no on_error may follow.",
        .role = ADC_ROLE_PRODUCER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ExportAsyncFromJson),
        .devices = &adc_devices_for_streams,
        .fixtures = &adc_fixtures_with_several_batches,
        .run = cancel_no_on_error,
    },
    {
        .id = "async.end.null_task",
        .clause = "ArrowAsyncDeviceStreamHandler.on_next_task",
        .sentence = "The producer signals the end of the stream by passing NULL for the ArrowAsyncTask "
                    "pointer instead of a valid address.",
        .method = "Runs the whole stream: on_next_task(NULL) comes exactly once, and nothing but release "
                  "after it.",
        .role = ADC_ROLE_PRODUCER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ExportAsyncFromJson),
        .devices = &adc_devices_for_streams,
        .fixtures = &adc_fixtures_with_several_batches,
        .run = end_is_null_task,
    },
    {
        .id = "async.release.last_and_once",
        .clause = "ArrowAsyncDeviceStreamHandler.on_error",
        .sentence =
            "After calling this, the release callback will be called as the last call on this struct.",
        .method = "Runs the whole stream: release comes once the stream ended (a producer whose threads "
                  "all wait without it, or that makes no callback for a second, ends the case as timeout), "
                  "exactly once, and nothing after it (watched until every thread of the producer waits; "
                  "10 ms where they never all do, while none runs).",
        .role = ADC_ROLE_PRODUCER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ExportAsyncFromJson),
        .devices = &adc_devices_for_streams,
        .fixtures = &adc_fixtures_with_several_batches,
        .waits_by_design = true,
        .run = release_last_and_once,
    },
    {
        .id = "async.rejection.only_release_follows",
        .clause = "ArrowAsyncDeviceStreamHandler.on_schema",
        .sentence =
            "A producer that receives a non-zero result here must not subsequently call anything other "
            "than the release callback on this object.",
        .method = "Returns EINVAL from on_schema, then (a second stream) from the first on_next_task: only "
                  "release may follow.",
        .role = ADC_ROLE_PRODUCER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ExportAsyncFromJson),
        .devices = &adc_devices_for_streams,
        .fixtures = &adc_fixtures_with_several_batches,
        .run = rejection_only_release_follows,
    },
    {
        .id = "async.callbacks.serialised",
        .clause = "Thread safety",
        .sentence = "All handler functions on the ArrowAsyncDeviceStreamHandler should only be called in a "
                    "serialized manner, but are not guaranteed to be called from the same thread every time.",
        .method = "Runs the whole stream counting the handler callbacks running: no callback may start, on "
                  "any thread, while another is running. The handler's callbacks return within microseconds, "
                  "so a callback of each kind is held open in turn, once per case (on_schema once it has "
                  "requested every batch, the on_next_task of the last task but one, the end), until every "
                  "other thread of the process waits (0.02 s where they never all do, while none runs; a "
                  "callback starting meanwhile ends the hold).",
        .role = ADC_ROLE_PRODUCER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ExportAsyncFromJson),
        .devices = &adc_devices_for_streams,
        .fixtures = &adc_fixtures_with_several_batches,
        .waits_by_design = true,
        .run = callbacks_serialised,
    },
};

const struct adc_rule_family adc_async_protocol_rules = ADC_RULE_FAMILY(rules);
