/* Rules for consumers of an async device stream (spec: "Async Device Stream
 * Interface").  The harness calls ImportAsyncAndCompareToJson, whose
 * consumer builds a handler and gives it, through the start callback, to
 * an async producer of the consumer feed (harness/consumer_feed/feed_async.c);
 * the consumer must request batches, compare the schema and every batch
 * with the fixture, release what it took, and return only once the
 * producer has released the handler.  The producer's task records outlive
 * the tasks, and its schema and arrays are the feed's instrumented exports,
 * so a second extract_data or release is counted, never undefined.
 *
 * Every rule but the one on altered data is about the sequence of calls and
 * the release of what was handed over: those run on fixtures with several
 * batches (adc_fixtures_with_several_batches), where every step happens. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "consumer_alteration.h"
#include "consumer_feed/consumer_feed.h"
#include "consumer_waiting.h"
#include "rule_api/consumer_calls.h"

/* What came of handing one async producer to the consumer. */
struct async_run {
  char described[96];  /* "the async stream", "the async stream failing at batch 1" */
  const char* message; /* the consumer's; NULL: it found everything equal */
  struct adc_feed_async_counts counts;
};

static void describe(const struct adc_feed_async_options* options, int cancel_after_batch,
                     struct async_run* run) {
  const char* timing = options->deliver_inside_start ? " (delivered from inside start)" : "";
  if (cancel_after_batch >= 0) {
    snprintf(run->described, sizeof(run->described), "the async stream cancelled after batch %d%s",
             cancel_after_batch, timing);
  } else if (options->fail_at_batch >= 0) {
    snprintf(run->described, sizeof(run->described), "the async stream failing at batch %" PRId64 "%s",
             options->fail_at_batch, timing);
  } else if (options->altered_batch >= 0) {
    snprintf(run->described, sizeof(run->described), "the async stream with batch %" PRId64 " altered%s",
             options->altered_batch, timing);
  } else {
    snprintf(run->described, sizeof(run->described), "the async stream%s", timing);
  }
}

/* Hands the consumer an async producer of a fresh feed and fills `run` once
 * Import has returned and the producer's thread has finished; through
 * ImportAsyncAndCancelAfterBatch when `cancel_after_batch` is not negative.
 * false, with the case unresolved, when the harness's own producer failed
 * or the consumer never took it. */
static bool hand_async_cancelling(struct adc_case_context* ctx, const struct adc_feed_async_options* options,
                                  int cancel_after_batch, struct async_run* run) {
  describe(options, cancel_after_batch, run);
  struct adc_feed* feed = adc_feed_new(ctx->device);
  struct adc_feed_async* producer = adc_feed_async_new(feed, ctx->fixture, options);
  run->message = cancel_after_batch >= 0
                     ? adc_import_async_cancelling(ctx, cancel_after_batch, adc_feed_async_start, producer)
                     : adc_import_async(ctx, adc_feed_async_start, producer);
  adc_feed_async_import_returned(producer);
  run->counts = adc_feed_async_counts(producer);
  bool judged = !ctx->has_verdict;
  if (judged && run->counts.feed_error != NULL) {
    judged = false;
    adc_unresolved(ctx, "%s: the consumer feed failed to export a result: %s", run->described,
                   run->counts.feed_error);
  } else if (judged && !run->counts.started) {
    judged = false;
    adc_unresolved(ctx, "%s: the consumer returned without calling start, reporting: %s", run->described,
                   run->message != NULL ? run->message : "(nothing)");
  }
  adc_feed_free(feed);
  return judged;
}

static bool hand_async(struct adc_case_context* ctx, const struct adc_feed_async_options* options,
                       struct async_run* run) {
  return hand_async_cancelling(ctx, options, -1, run);
}

static const struct adc_feed_async_options clean = {.fail_at_batch = -1, .altered_batch = -1};

static struct adc_feed_async_options failing_at(const struct arrow_json_file* fixture) {
  return (struct adc_feed_async_options){.fail_at_batch = adc_failing_batch(fixture), .altered_batch = -1};
}

/* Lets `judge` read the records of a clean stream, then of one failing
 * with on_error mid-stream: the consumer's duties hold on both paths.  The
 * feed watches for `release_watch_seconds` whether Import returns before
 * it releases the handler (adc_feed_async_options). */
static void judge_clean_and_failing_watching(struct adc_case_context* ctx, double release_watch_seconds,
                                             void (*judge)(struct adc_case_context*,
                                                           const struct async_run*)) {
  struct adc_feed_async_options plain = clean;
  struct adc_feed_async_options failing = failing_at(ctx->fixture);
  plain.release_watch_seconds = failing.release_watch_seconds = release_watch_seconds;
  struct async_run run;
  if (hand_async(ctx, &plain, &run)) judge(ctx, &run);
  if (!ctx->has_verdict && hand_async(ctx, &failing, &run)) judge(ctx, &run);
}

static void judge_clean_and_failing(struct adc_case_context* ctx,
                                    void (*judge)(struct adc_case_context*, const struct async_run*)) {
  judge_clean_and_failing_watching(ctx, 0, judge);
}

/* How the feed saw that the consumer stopped requesting. */
static const char* stall_seen(const struct adc_feed_async_counts* counts) {
  return counts->stalled_quiet ? "once every thread of the consumer's process waited (none could request)"
                               : "after 1 s without a request";
}

/* Rules that need the consumer to read up to a given point cannot judge a
 * consumer that stopped requesting: requests_batches judges that. */
static bool stalled(struct adc_case_context* ctx, const struct async_run* run) {
  if (!run->counts.stalled) return false;
  adc_unresolved(ctx,
                 "%s: the consumer stopped requesting batches, and the feed ended the stream %s (see "
                 "consumer.async.requests_batches)",
                 run->described, stall_seen(&run->counts));
  return true;
}

static void schema_released_once(struct adc_case_context* ctx, const struct async_run* run) {
  const struct adc_feed_async_counts* counts = &run->counts;
  if (!counts->schema_handed) return;
  if (counts->schema_release_calls == 0) {
    adc_violation(ctx, "%s: the consumer returned without releasing the schema given to on_schema",
                  run->described);
  } else if (counts->schema_release_calls > 1) {
    adc_violation(ctx, "%s: the consumer released the schema given to on_schema %d times", run->described,
                  counts->schema_release_calls);
  } else if (counts->schema_left_in_place) {
    adc_violation(ctx,
                  "%s: on_schema returned with the ArrowSchema it was given neither moved out nor released "
                  "(the consumer kept the producer's pointer)",
                  run->described);
  }
}

static void releases_schema(struct adc_case_context* ctx) {
  judge_clean_and_failing(ctx, schema_released_once);
}

static void tasks_extracted_once(struct adc_case_context* ctx, const struct async_run* run) {
  const struct adc_feed_async_counts* counts = &run->counts;
  if (counts->tasks_never_extracted > 0) {
    adc_violation(ctx, "%s: the consumer never called extract_data on %d of the %d tasks it was given",
                  run->described, counts->tasks_never_extracted, counts->tasks);
  } else if (counts->tasks_extracted_more_than_once > 0) {
    adc_violation(ctx,
                  "%s: the consumer called extract_data more than once on %d of the %d tasks it was given",
                  run->described, counts->tasks_extracted_more_than_once, counts->tasks);
  }
}

static void extracts_every_task_once(struct adc_case_context* ctx) {
  judge_clean_and_failing(ctx, tasks_extracted_once);
}

static void arrays_released_once(struct adc_case_context* ctx, const struct async_run* run) {
  const struct adc_feed_async_counts* counts = &run->counts;
  if (counts->arrays_never_released > 0) {
    adc_violation(ctx, "%s: the consumer returned without releasing %d of the %d arrays extract_data gave it",
                  run->described, counts->arrays_never_released, counts->arrays);
  } else if (counts->arrays_released_more_than_once > 0) {
    adc_violation(ctx, "%s: the consumer released %d of the %d arrays extract_data gave it more than once",
                  run->described, counts->arrays_released_more_than_once, counts->arrays);
  }
}

static void releases_arrays_once(struct adc_case_context* ctx) {
  judge_clean_and_failing(ctx, arrays_released_once);
}

static void batches_requested(struct adc_case_context* ctx, const struct async_run* run) {
  const struct adc_feed_async_counts* counts = &run->counts;
  if (counts->stalled) {
    adc_violation(ctx,
                  "%s: after %d task(s), the consumer requested no further batch while batches were left "
                  "(it made %d request(s) for %" PRId64 " batch(es) in all); the feed ended the stream %s",
                  run->described, counts->tasks, counts->requests, counts->requested, stall_seen(counts));
  } else if (counts->invalid_requests > 0) {
    adc_violation(ctx, "%s: the consumer called request with n <= 0 %d time(s) (spec: \"It is invalid\")",
                  run->described, counts->invalid_requests);
  }
}

static void requests_batches(struct adc_case_context* ctx) {
  judge_clean_and_failing(ctx, batches_requested);
}

static void copies_error_message(struct adc_case_context* ctx) {
  struct adc_feed_async_options options = failing_at(ctx->fixture);
  options.overwrite_error_text = true;
  struct async_run run;
  if (!hand_async(ctx, &options, &run) || stalled(ctx, &run)) return;
  if (!run.counts.injected_error_delivered) {
    adc_unresolved(ctx, "%s: the consumer stopped before the failing batch, reporting: %s", run.described,
                   run.message != NULL ? run.message : "(nothing)");
  } else if (run.message == NULL) {
    adc_unresolved(ctx,
                   "%s: the consumer reported no failure, so no message of its can be read (see "
                   "consumer.async.reports_error)",
                   run.described);
  } else if (strstr(run.message, ADC_FEED_ASYNC_OVERWRITTEN) != NULL) {
    adc_violation(ctx,
                  "%s: the consumer's message holds what the feed wrote over on_error's message after "
                  "on_error returned (it kept the pointer instead of copying the text): %s",
                  run.described, run.message);
  }
}

static void reports_error(struct adc_case_context* ctx) {
  const struct adc_feed_async_options failing = failing_at(ctx->fixture);
  struct async_run run;
  if (!hand_async(ctx, &failing, &run)) return;
  if (run.message == NULL && run.counts.on_error_calls > 0) {
    adc_violation(ctx,
                  "%s: on_error was called %d time(s), yet the consumer reported the stream equal to the "
                  "fixture",
                  run.described, run.counts.on_error_calls);
  } else if (run.message == NULL) {
    adc_violation(ctx,
                  "%s: the consumer reported the stream equal to the fixture after %d task(s), without the "
                  "stream ending",
                  run.described, run.counts.tasks);
  } else if (!run.counts.injected_error_delivered && !stalled(ctx, &run)) {
    adc_unresolved(ctx, "%s: the consumer stopped before the failing batch, reporting: %s", run.described,
                   run.message);
  }
}

static void detects_altered_data(struct adc_case_context* ctx) {
  const int64_t altered = adc_alterable_batch(ctx);
  if (altered < 0) return;
  const struct adc_feed_async_options options = {.fail_at_batch = -1, .altered_batch = altered};
  struct async_run run;
  if (!hand_async(ctx, &options, &run)) return;
  if (run.message == NULL) {
    adc_violation(ctx, "%s: one value is altered, yet the consumer reported %s", run.described,
                  run.counts.altered_batch_read
                      ? "it equal to the fixture"
                      : "the stream equal to the fixture without reading that batch");
  } else if (!run.counts.altered_batch_read && !stalled(ctx, &run)) {
    adc_unresolved(ctx, "%s: the consumer stopped before extracting the altered batch, reporting: %s",
                   run.described, run.message);
  }
}

static void ready_when_handed_over(struct adc_case_context* ctx) {
  /* The same clean stream, delivered from the feed's own thread first: a
   * consumer failing that one fails for another reason than readiness. */
  struct async_run run;
  if (!hand_async(ctx, &clean, &run) || stalled(ctx, &run)) return;
  if (run.message != NULL) {
    adc_unresolved(ctx, "%s: the consumer reported a failure on clean data: %s", run.described, run.message);
    return;
  }
  const struct adc_feed_async_options inside_start = {
      .fail_at_batch = -1, .altered_batch = -1, .deliver_inside_start = true};
  if (!hand_async(ctx, &inside_start, &run) || stalled(ctx, &run)) return;
  if (run.message != NULL) {
    adc_violation(ctx,
                  "%s: on_schema came before start returned, and the consumer reported a failure it does not "
                  "report when callbacks come later: %s",
                  run.described, run.message);
  }
}

/* The feed holds the handler's release back after the stream's last
 * callback, to see whether Import returns without waiting for it, until
 * every thread of the consumer's process waits (it can only be waiting for
 * the release: consumer_feed.h, release_watch_seconds).  A consumer that
 * does not wait is running back from Import meanwhile, never quiet, so it
 * is caught however long the machine makes it take (up to a second).  This
 * window holds for a consumer whose process cannot go quiet (a runtime's
 * thread on a timer) or whose threads cannot be seen: measured, the twin
 * consumer_async_returns_before_release was caught 50 runs of 50 on cpu
 * and simulated with --jobs 2 on 2 cores under a load average of 5 with
 * this window alone, and missed 1 of 20 at 1 ms. */
#define RELEASE_WATCH_SECONDS 0.01

static void release_waited_for(struct adc_case_context* ctx, const struct async_run* run) {
  if (run->counts.import_returned_before_release) {
    adc_violation(ctx,
                  "%s: Import returned before the producer released the handler (the feed holds release "
                  "back until the consumer's threads all wait, and then called nothing more)",
                  run->described);
  }
}

static void waits_for_release(struct adc_case_context* ctx) {
  judge_clean_and_failing_watching(ctx, RELEASE_WATCH_SECONDS, release_waited_for);
}

static void producer_left_alone(struct adc_case_context* ctx, const struct async_run* run) {
  const struct adc_feed_async_counts* counts = &run->counts;
  if (counts->producer_calls_inside_handler > 0) {
    adc_violation(
        ctx,
        "%s: the consumer called the producer %d time(s) from inside on_error or release (first %s, "
        "from inside %s)",
        run->described, counts->producer_calls_inside_handler, counts->first_producer_call,
        counts->first_producer_call_inside);
  }
}

static void no_producer_calls_from_on_error_or_release(struct adc_case_context* ctx) {
  judge_clean_and_failing(ctx, producer_left_alone);
}

static void producer_let_go(struct adc_case_context* ctx, const struct async_run* run) {
  const struct adc_feed_async_counts* counts = &run->counts;
  if (counts->producer_calls_after_release > 0) {
    adc_violation(
        ctx,
        "%s: the consumer called the producer %d time(s) once the producer had begun to release the "
        "handler (first %s), when a producer may be gone",
        run->described, counts->producer_calls_after_release, counts->first_producer_call_after_release);
  }
}

static void no_producer_calls_after_release(struct adc_case_context* ctx) {
  judge_clean_and_failing(ctx, producer_let_go);
}

/* The consumer cancels after the first batch, with (if it keeps requests
 * ahead, as the plugin ABI asks) more requested; the feed then hands out
 * every batch still requested, and an on_error, before release. */
static void accepts_callbacks_after_cancel(struct adc_case_context* ctx) {
  const struct adc_feed_async_options options = {
      .fail_at_batch = -1, .altered_batch = -1, .deliver_after_cancel = true};
  const int cancel_after = 0;
  struct async_run run;
  if (!hand_async_cancelling(ctx, &options, cancel_after, &run) || stalled(ctx, &run)) return;
  const struct adc_feed_async_counts* counts = &run.counts;
  if (counts->import_returned_before_release) {
    adc_unresolved(ctx, "%s: Import returned before the producer released the handler (see %s)",
                   run.described, "consumer.async.waits_for_release");
  } else if (counts->cancel_calls == 0) {
    adc_unresolved(
        ctx,
        "%s: the consumer never called cancel, after %d task(s), although "
        "ImportAsyncAndCancelAfterBatch asked it to cancel after batch %d; it does not honour that "
        "entry point",
        run.described, counts->tasks, cancel_after);
  } else if (counts->tasks_never_extracted > 0 || counts->tasks_extracted_more_than_once > 0) {
    adc_violation(ctx,
                  "%s: of the %d task(s) handed out after the consumer cancelled, and the %d before, %d were "
                  "never extracted and %d extracted more than once",
                  run.described, counts->tasks_after_cancel, counts->tasks_before_cancel,
                  counts->tasks_never_extracted, counts->tasks_extracted_more_than_once);
  } else if (counts->arrays_never_released > 0 || counts->arrays_released_more_than_once > 0) {
    adc_violation(
        ctx, "%s: of the %d array(s) extract_data gave it, %d were never released and %d more than once",
        run.described, counts->arrays, counts->arrays_never_released, counts->arrays_released_more_than_once);
  } else if (counts->schema_release_calls != 1) {
    adc_violation(ctx, "%s: the schema given to on_schema was released %d time(s)", run.described,
                  counts->schema_release_calls);
  } else if (!counts->error_after_cancel) {
    adc_unresolved(ctx, "%s: the stream ended before the feed could call on_error after the cancel",
                   run.described);
  } else {
    adc_note(ctx, "%s: %d task(s) and on_error after the cancel were taken; the consumer reported: %s",
             run.described, counts->tasks_after_cancel, run.message != NULL ? run.message : "(nothing)");
  }
}

/* Hands the consumer a clean async stream whose arrays are written late. */
static bool hand_async_late(struct adc_case_context* ctx, void* context, double late_write_seconds,
                            double patience_seconds, const char** message) {
  (void)context;
  struct adc_feed_async_options options = clean;
  options.late_write_seconds = late_write_seconds;
  options.patience_seconds = patience_seconds;
  struct async_run run;
  if (!hand_async(ctx, &options, &run) || stalled(ctx, &run)) return false;
  *message = run.message;
  return true;
}

static void waited_before_reading(struct adc_case_context* ctx) {
  adc_judge_waiting(ctx, "the async stream", hand_async_late, NULL);
}

static void waited_out_a_long_hold(struct adc_case_context* ctx) {
  adc_judge_patience(ctx, "the async stream", "consumer.async.sync_event.waited_before_reading",
                     hand_async_late, NULL);
}

static const struct adc_rule rules[] = {
    {
        .id = "consumer.async.releases_schema",
        .clause = "Result lifetimes",
        .sentence = "The ArrowSchema passed to the on_schema callback must be released independently, with "
                    "the object itself needing to be moved to a consumer owned ArrowSchema object.",
        .method = "Hands the consumer an instrumented async stream, clean and then failing mid-stream, and "
                  "checks the schema given to on_schema was moved out or released before on_schema returned, "
                  "and released exactly once when Import returns.",
        .role = ADC_ROLE_CONSUMER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ImportAsyncAndCompareToJson),
        .devices = &adc_devices_for_streams,
        .fixtures = &adc_fixtures_with_several_batches,
        .run = releases_schema,
    },
    {
        .id = "consumer.async.extracts_every_task_once",
        .clause = "ArrowAsyncTask.extract_data",
        .sentence = "If the consumer does not care about the data that is owned by this task, it must still "
                    "call extract_data so that the producer can perform any required cleanup. ... It is only "
                    "valid to call this method exactly once.",
        .method = "Hands the consumer an instrumented async stream, clean and then failing mid-stream, whose "
                  "task records count extract_data calls: exactly one per task when Import returns.",
        .role = ADC_ROLE_CONSUMER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ImportAsyncAndCompareToJson),
        .devices = &adc_devices_for_streams,
        .fixtures = &adc_fixtures_with_several_batches,
        .run = extracts_every_task_once,
    },
    {
        .id = "consumer.async.releases_arrays_once",
        .clause = "ArrowAsyncTask.extract_data",
        .sentence = "Ownership of the Array is given to the pointer passed in as a parameter, and this array "
                    "must be released separately.",
        .method = "Hands the consumer an instrumented async stream, clean and then failing mid-stream, and "
                  "checks each array extract_data handed out was released exactly once when Import returns.",
        .role = ADC_ROLE_CONSUMER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ImportAsyncAndCompareToJson),
        .devices = &adc_devices_for_streams,
        .fixtures = &adc_fixtures_with_several_batches,
        .run = releases_arrays_once,
    },
    {
        .id = "consumer.async.requests_batches",
        .clause = "ArrowAsyncProducer.request",
        .sentence = "This function must be called by a consumer to start receiving calls to "
                    "ArrowAsyncDeviceStreamHandler.on_next_task.",
        .method = "Hands the consumer an instrumented async stream, clean and then failing mid-stream, that "
                  "delivers a batch only against credit; the consumer must keep requesting (with n > 0) "
                  "until the end, the feed ending a stream left without a request once every thread of the "
                  "consumer's process waits (or after 1 s where its threads never all wait).",
        .role = ADC_ROLE_CONSUMER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ImportAsyncAndCompareToJson),
        .devices = &adc_devices_for_streams,
        .fixtures = &adc_fixtures_with_several_batches,
        .run = requests_batches,
    },
    {
        .id = "consumer.async.copies_error_message",
        .clause = "ArrowAsyncDeviceStreamHandler.on_error",
        .sentence = "If the message and metadata are not NULL, their lifetime is only valid during the scope "
                    "of this call. A consumer who wants to maintain these values past the return of this "
                    "function MUST copy the values themselves.",
        .method =
            "Calls on_error mid-stream, overwrites its message and metadata once it returns, and checks "
            "the message Import returns holds none of the overwritten text.",
        .role = ADC_ROLE_CONSUMER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ImportAsyncAndCompareToJson),
        .devices = &adc_devices_for_streams,
        .fixtures = &adc_fixtures_with_several_batches,
        .run = copies_error_message,
    },
    {
        .id = "consumer.async.reports_error",
        .clause = "ArrowAsyncDeviceStreamHandler.on_error",
        .sentence = "Handler to be called when an error is encountered by the producer.",
        .method = "Calls on_error(EIO) mid-stream; the consumer must report a failure, not a stream equal to "
                  "the fixture (plugin ABI: NULL only if \"on_error was never called\").",
        .role = ADC_ROLE_CONSUMER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ImportAsyncAndCompareToJson),
        .devices = &adc_devices_for_streams,
        .fixtures = &adc_fixtures_with_several_batches,
        .run = reports_error,
    },
    {
        .id = "consumer.async.detects_altered_data",
        .clause = "Integration testing (C Data Interface)",
        .sentence = "It validates that both record batches are equal, and then releases the imported "
                    "record batch.",
        .method = "Hands the consumer an async stream with one value altered in one batch; the consumer must "
                  "report a difference (else no async stream verdict can be trusted).",
        .role = ADC_ROLE_CONSUMER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ImportAsyncAndCompareToJson),
        .devices = &adc_devices_for_streams,
        .fixtures = &adc_fixtures_with_values,
        .run = detects_altered_data,
    },
    {
        .id = "consumer.async.ready_when_handed_over",
        .clause = "Thread safety",
        .sentence = "The ArrowAsyncDeviceStreamHandler object should be able to handle callbacks as soon as "
                    "it is passed to the producer, any initialization should be performed before it is "
                    "provided.",
        .method = "Hands the consumer a clean async stream from the feed's thread, then one whose on_schema "
                  "(and, while the consumer has credit, every later callback) is called from inside start; "
                  "the consumer must accept the second as it accepted the first.",
        .role = ADC_ROLE_CONSUMER,
        .severity = ADC_SHOULD,
        .needs = ADC_NEED(ImportAsyncAndCompareToJson),
        .devices = &adc_devices_for_streams,
        .fixtures = &adc_fixtures_with_several_batches,
        .run = ready_when_handed_over,
    },
    {
        .id = "consumer.async.waits_for_release",
        .clause = "Stream Handler Lifetime",
        .sentence = "Lifetime of the async stream handler is managed using a release callback with similar "
                    "usage as in C data interface.",
        .method = "Hands the consumer an instrumented async stream, clean and then failing mid-stream, that "
                  "holds release back after its last callback until every thread of the consumer's process "
                  "waits (10 ms where its threads never all wait, while none runs); Import must not return "
                  "before (plugin ABI: it blocks \"until the producer has released the handler\"). Only this "
                  "rule's feed waits: the others release at once.",
        .role = ADC_ROLE_CONSUMER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ImportAsyncAndCompareToJson),
        .devices = &adc_devices_for_streams,
        .fixtures = &adc_fixtures_with_several_batches,
        .run = waits_for_release,
    },
    {
        .id = "consumer.async.no_producer_calls_from_on_error_or_release",
        .clause = "ArrowAsyncDeviceStreamHandler.on_error",
        .sentence = "This callback MUST NOT call any methods of an ArrowAsyncProducer object.",
        .method = "Hands the consumer an instrumented async stream, clean and then failing mid-stream, whose "
                  "request and cancel count the calls made from inside on_error or the handler's release "
                  "(spec: release \"must not call any methods of an ArrowAsyncProducer object\"): none.",
        .role = ADC_ROLE_CONSUMER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ImportAsyncAndCompareToJson),
        .devices = &adc_devices_for_streams,
        .fixtures = &adc_fixtures_with_several_batches,
        .run = no_producer_calls_from_on_error_or_release,
    },
    {
        .id = "consumer.async.no_producer_calls_after_release",
        .clause = "ArrowAsyncProducer Lifetime",
        .sentence =
            "It MUST be populated before calling any methods other than release and MUST remain valid "
            "at least until just before calling release on the stream handler object.",
        .method =
            "Hands the consumer an instrumented async stream, clean and then failing mid-stream, whose "
            "producer stays valid to the end of the case and counts the request and cancel calls made once "
            "it has begun to release the handler, from outside the release: none (a producer may be gone "
            "by then; a call from inside release is consumer.async.no_producer_calls_from_on_error_or_"
            "release's).",
        .role = ADC_ROLE_CONSUMER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ImportAsyncAndCompareToJson),
        .devices = &adc_devices_for_streams,
        .fixtures = &adc_fixtures_with_several_batches,
        .run = no_producer_calls_after_release,
    },
    {
        .id = "consumer.async.accepts_callbacks_after_cancel",
        .clause = "ArrowAsyncProducer.cancel",
        .sentence = "As such, a consumer MUST be prepared to receive one or more calls to on_next_task or "
                    "on_error even after calling cancel if there are still requested arrays pending.",
        .method =
            "Has the consumer cancel after the first batch (ImportAsyncAndCancelAfterBatch), then hands "
            "it every batch still requested and an on_error before release: each task must be "
            "extracted once, each array and the schema released once, and Import must return.",
        .role = ADC_ROLE_CONSUMER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ImportAsyncAndCancelAfterBatch),
        .devices = &adc_devices_for_streams,
        .fixtures = &adc_fixtures_with_several_batches,
        .run = accepts_callbacks_after_cancel,
    },
    {
        .id = "consumer.async.sync_event.waited_before_reading",
        .clause = "ArrowDeviceArray.sync_event",
        .sentence = ADC_SYNC_EVENT_CONSUMER_SENTENCE,
        .method =
            "Hands the consumer a clean async stream, then one whose every extracted array comes with "
            "its values not yet written and a sync_event of its own that completes once they are "
            "(written as the consumer begins to synchronise on that event on the simulated device, "
            "exactly; on OpenCL once every other thread of the case's process waits, else 0.3 s after the "
            "export, as on a GPU); the consumer must find the stream equal to the "
            "fixture (MUST: erratum E6).",
        .role = ADC_ROLE_CONSUMER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ImportAsyncAndCompareToJson),
        .devices = &adc_devices_for_late_writes,
        .writes_late = true,
        .fixtures = &adc_fixtures_with_values,
        .run = waited_before_reading,
    },
    ADC_PATIENCE_RULE("consumer.async.sync_event.waited_out_a_long_hold", "an async stream of one batch",
                      ImportAsyncAndCompareToJson, waited_out_a_long_hold),
};

const struct adc_rule_family adc_consumer_async_rules = ADC_RULE_FAMILY(rules);
