/* Rules for consumers of a device stream (spec: "Device Stream Interface").
 * The harness hands the consumer a stream of its consumer feed
 * (harness/consumer_feed/feed_stream.c) through
 * ImportDeviceStreamAndCompareToJson, which must drain it, compare the
 * schema and every batch with the fixture, and release every result and the
 * stream before returning.  The stream and everything it hands out keep
 * records that outlive them, so that a second release, or a callback called
 * on a released stream, is counted, never undefined behaviour. */
#include <inttypes.h>
#include <stdio.h>

#include "consumer_alteration.h"
#include "consumer_feed/consumer_feed.h"
#include "consumer_plain_export.h"
#include "consumer_waiting.h"
#include "feed_again.h"
#include "rule_api/consumer_calls.h"

/* What came of handing one stream to the consumer. */
struct stream_run {
  char described[96];  /* "the stream", "the stream failing at batch 1" */
  const char* message; /* the consumer's; NULL: it found everything equal */
  struct adc_feed_stream_counts stream;
  int results;           /* schemas and arrays the stream handed out */
  int results_kept;      /* never released */
  int results_overfreed; /* released more than once */
};

/* Hands the consumer a stream of a fresh feed and fills `run` once Import
 * has returned.  false, with the case unresolved, when the harness's own
 * stream failed. */
static bool hand_stream(struct adc_case_context* ctx, const struct adc_feed_stream_options* options,
                        struct stream_run* run) {
  if (options->fail_at_batch >= 0) {
    snprintf(run->described, sizeof(run->described), "the stream failing at batch %" PRId64,
             options->fail_at_batch);
  } else {
    snprintf(run->described, sizeof(run->described), "the stream");
  }
  struct adc_feed* feed = adc_feed_new(ctx->device);
  struct ArrowDeviceArrayStream stream;
  struct adc_error error;
  bool handed = adc_feed_export_stream(feed, ctx->fixture, options, &stream, &error) == 0;
  if (!handed) {
    adc_unresolved(ctx, "the consumer feed could not export a stream: %s", error.message);
  } else {
    struct adc_feed_input input;
    run->message =
        adc_import_device_stream(ctx, &stream, adc_feed_stream_again(&input, feed, ctx->fixture, options));
    run->stream = adc_feed_stream_counts(feed);
    run->results = adc_feed_bases_exported(feed);
    run->results_kept = adc_feed_bases_never_released(feed);
    run->results_overfreed = adc_feed_bases_released_more_than_once(feed);
    if (run->stream.feed_error != NULL) {
      handed = false;
      adc_unresolved(ctx, "%s: the consumer feed failed to export a result: %s", run->described,
                     run->stream.feed_error);
    }
  }
  adc_feed_free(feed);
  return handed;
}

static const struct adc_feed_stream_options clean = {.fail_at_batch = -1, .altered_batch = -1};

/* Lets `judge` read the records of a clean stream, then of one whose
 * get_next fails mid-stream: the consumer's duties hold on both paths. */
static void judge_clean_and_failing(struct adc_case_context* ctx,
                                    void (*judge)(struct adc_case_context*, const struct stream_run*)) {
  const struct adc_feed_stream_options failing = {.fail_at_batch = adc_failing_batch(ctx->fixture),
                                                  .altered_batch = -1};
  struct stream_run run;
  if (hand_stream(ctx, &clean, &run)) judge(ctx, &run);
  if (!ctx->has_verdict && hand_stream(ctx, &failing, &run)) judge(ctx, &run);
}

/* Each stream handed out (one, or more where the consumer asked again:
 * feed_again.h) released exactly once. */
static void stream_released_once(struct adc_case_context* ctx, const struct stream_run* run) {
  const struct adc_feed_stream_counts* counts = &run->stream;
  if (counts->streams_never_released > 0 && counts->streams == 1) {
    adc_violation(ctx, "%s: the consumer returned without releasing the stream", run->described);
  } else if (counts->streams_never_released > 0) {
    adc_violation(ctx, "%s: the consumer returned without releasing %d of the %d streams it asked for",
                  run->described, counts->streams_never_released, counts->streams);
  }
  if (counts->streams_released_more_than_once > 0 && counts->streams == 1) {
    adc_violation(ctx, "%s: the consumer called the stream's release callback %d times", run->described,
                  counts->release_calls);
  } else if (counts->streams_released_more_than_once > 0) {
    adc_violation(ctx, "%s: the consumer released %d of the %d streams it asked for more than once",
                  run->described, counts->streams_released_more_than_once, counts->streams);
  }
}

static void releases_stream_once(struct adc_case_context* ctx) {
  judge_clean_and_failing(ctx, stream_released_once);
}

static void results_released_once(struct adc_case_context* ctx, const struct stream_run* run) {
  if (run->results_kept > 0) {
    adc_violation(ctx, "%s: the consumer returned without releasing %d of the %d schemas and arrays it took",
                  run->described, run->results_kept, run->results);
  }
  if (run->results_overfreed > 0) {
    adc_violation(ctx, "%s: the consumer released %d of the %d schemas and arrays it took more than once",
                  run->described, run->results_overfreed, run->results);
  }
}

static void releases_results_once(struct adc_case_context* ctx) {
  judge_clean_and_failing(ctx, results_released_once);
}

static void nothing_called_after_release(struct adc_case_context* ctx, const struct stream_run* run) {
  if (run->stream.calls_after_release > 0) {
    adc_violation(ctx,
                  "%s: the consumer called the stream's callbacks %d time(s) after releasing it (first %s)",
                  run->described, run->stream.calls_after_release, run->stream.first_call_after_release);
  }
}

static void no_call_after_release(struct adc_case_context* ctx) {
  judge_clean_and_failing(ctx, nothing_called_after_release);
}

static void last_error_asked_after_errors(struct adc_case_context* ctx, const struct stream_run* run) {
  if (run->stream.last_error_without_error > 0) {
    adc_violation(ctx,
                  "%s: the consumer called get_last_error %d time(s) when the stream's last get_schema or "
                  "get_next call had not returned an error",
                  run->described, run->stream.last_error_without_error);
  }
}

static void last_error_only_after_error(struct adc_case_context* ctx) {
  judge_clean_and_failing(ctx, last_error_asked_after_errors);
}

/* get_next calls a consumer made before reaching batch `batch`: it read
 * that batch (or met its failure) only if it made more. */
static bool reached(const struct stream_run* run, int64_t batch) {
  return run->stream.get_next_calls > batch;
}

/* A consumer that stopped early with a message may decline the fixture
 * whatever the stream does (a type it does not support: DuckDB 2.0.0
 * refuses 256-bit decimals): where it declines a clean stream of the
 * fixture too, its answer to the rule's stream says nothing of the rule,
 * and the case is not_supported, naming the decline (the baseline rules
 * judge a decline of the baseline fixtures).  True with that verdict. */
static bool declines_the_fixture(struct adc_case_context* ctx) {
  struct stream_run clean_run;
  if (!hand_stream(ctx, &clean, &clean_run) || clean_run.message == NULL) return false;
  if (adc_unresolved_if_handed_on_other(ctx, adc_last_consumer_answer(),
                                        "the fixture's stream, exported clean", clean_run.message))
    return true;
  adc_not_supported(ctx,
                    "the consumer declines the fixture's stream even exported clean (%s judges that on the "
                    "baseline fixtures): %s",
                    ADC_RULE_CONSUMER_BASELINE, clean_run.message);
  return true;
}

static void reports_error_mid_stream(struct adc_case_context* ctx) {
  const int64_t fail_at = adc_failing_batch(ctx->fixture);
  const struct adc_feed_stream_options failing = {.fail_at_batch = fail_at, .altered_batch = -1};
  struct stream_run run;
  if (!hand_stream(ctx, &failing, &run)) return;
  if (run.message == NULL && reached(&run, fail_at)) {
    adc_violation(ctx, "%s: get_next returned EIO, yet the consumer reported the stream equal to the fixture",
                  run.described);
  } else if (run.message == NULL) {
    adc_violation(ctx,
                  "%s: the consumer reported the stream equal to the fixture after %d get_next call(s), "
                  "without reading it to its end",
                  run.described, run.stream.get_next_calls);
  } else if (!reached(&run, fail_at) && !declines_the_fixture(ctx)) {
    adc_unresolved(ctx, "%s: the consumer stopped before the failing get_next call, reporting: %s",
                   run.described, run.message);
  }
}

static void detects_altered_data(struct adc_case_context* ctx) {
  const int64_t altered = adc_alterable_batch(ctx);
  if (altered < 0) return;
  const struct adc_feed_stream_options options = {.fail_at_batch = -1, .altered_batch = altered};
  struct stream_run run;
  if (!hand_stream(ctx, &options, &run)) return;
  if (run.message == NULL) {
    adc_violation(ctx, "batch %" PRId64 " of the stream has one value altered, yet the consumer reported %s",
                  altered,
                  reached(&run, altered) ? "it equal to the fixture"
                                         : "the stream equal to the fixture without reading that batch");
  } else if (!reached(&run, altered) && !declines_the_fixture(ctx)) {
    adc_unresolved(ctx, "the consumer stopped before batch %" PRId64 ", the altered one, reporting: %s",
                   altered, run.message);
  }
}

/* Hands the consumer a clean stream whose batches are written late. */
static bool hand_stream_late(struct adc_case_context* ctx, void* context, double late_write_seconds,
                             double patience_seconds, const char** message) {
  (void)context;
  struct adc_feed_stream_options options = clean;
  options.late_write_seconds = late_write_seconds;
  options.patience_seconds = patience_seconds;
  struct stream_run run;
  if (!hand_stream(ctx, &options, &run)) return false;
  *message = run.message;
  return true;
}

static void waited_before_reading(struct adc_case_context* ctx) {
  adc_judge_waiting(ctx, "the stream", hand_stream_late, NULL);
}

static void waited_out_a_long_hold(struct adc_case_context* ctx) {
  adc_judge_patience(ctx, "the stream", "consumer.device_stream.sync_event.waited_before_reading",
                     hand_stream_late, NULL);
}

static const struct adc_rule rules[] = {
    {
        .id = "consumer.device_stream.releases_stream_once",
        .clause = "Stream lifetime",
        .sentence = "Lifetime of the C stream is managed using a release callback with similar usage as in "
                    "C data interface.",
        .method = "Hands the consumer an instrumented stream, clean and then failing mid-stream, and counts "
                  "calls of the stream's release callback when Import returns: exactly one.",
        .role = ADC_ROLE_CONSUMER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ImportDeviceStreamAndCompareToJson),
        .devices = &adc_devices_for_streams,
        .run = releases_stream_once,
    },
    {
        .id = "consumer.device_stream.releases_results_once",
        .clause = "Result lifetimes",
        .sentence = "The data returned by the get_schema and get_next callbacks must be released "
                    "independently.",
        .method = "Hands the consumer an instrumented stream, clean and then failing mid-stream, and checks "
                  "each schema and array it handed out was released exactly once when Import returns.",
        .role = ADC_ROLE_CONSUMER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ImportDeviceStreamAndCompareToJson),
        .devices = &adc_devices_for_streams,
        .run = releases_results_once,
    },
    {
        .id = "consumer.device_stream.no_call_after_release",
        .clause = "The ArrowDeviceArrayStream structure",
        .sentence = "This callback must NOT be called on a released ArrowDeviceArrayStream.",
        .method = "Hands the consumer an instrumented stream, clean and then failing mid-stream, whose "
                  "callbacks count the calls made after its release: none.",
        .role = ADC_ROLE_CONSUMER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ImportDeviceStreamAndCompareToJson),
        .devices = &adc_devices_for_streams,
        .run = no_call_after_release,
    },
    {
        .id = "consumer.device_stream.last_error_only_after_error",
        .clause = "ArrowDeviceArrayStream.get_last_error",
        .sentence = "This callback must ONLY be called if the last operation on the ArrowDeviceArrayStream "
                    "returned an error.",
        .method = "Hands the consumer an instrumented stream, clean and then failing mid-stream, and counts "
                  "get_last_error calls not preceded by a failed get_schema or get_next: none.",
        .role = ADC_ROLE_CONSUMER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ImportDeviceStreamAndCompareToJson),
        .devices = &adc_devices_for_streams,
        .run = last_error_only_after_error,
    },
    {
        .id = "consumer.device_stream.reports_error_mid_stream",
        .clause = "ArrowDeviceArrayStream.get_next",
        .sentence = "Return value: 0 on success, a non-zero error code otherwise.",
        .method = "Hands the consumer a stream whose get_next fails with EIO mid-stream; the consumer must "
                  "report a failure, not a stream equal to the fixture.",
        .role = ADC_ROLE_CONSUMER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ImportDeviceStreamAndCompareToJson),
        .devices = &adc_devices_for_streams,
        .run = reports_error_mid_stream,
    },
    {
        .id = "consumer.device_stream.detects_altered_data",
        .clause = "Integration testing (C Data Interface)",
        .sentence = "It validates that both record batches are equal, and then releases the imported "
                    "record batch.",
        .method = "Hands the consumer a stream with one value altered in one batch; the consumer must report "
                  "a difference (else no stream verdict can be trusted).",
        .role = ADC_ROLE_CONSUMER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ImportDeviceStreamAndCompareToJson),
        .devices = &adc_devices_for_streams,
        .fixtures = &adc_fixtures_with_values,
        .run = detects_altered_data,
    },
    {
        .id = "consumer.device_stream.sync_event.waited_before_reading",
        .clause = "ArrowDeviceArray.sync_event",
        .sentence = ADC_SYNC_EVENT_CONSUMER_SENTENCE,
        .method =
            "Hands the consumer a clean stream, then one whose every batch comes with its values not yet "
            "written and a sync_event of its own that completes once they are (written as the "
            "consumer begins to synchronise on that event on the simulated device, exactly; on OpenCL "
            "once every other thread of the case's process waits, after the batch before was written, "
            "else 0.3 s after the export, as on a GPU); the consumer must find the stream equal to the "
            "fixture. A batch fetched ahead stays unwritten until its own event is synchronised on (MUST: "
            "erratum E6).",
        .role = ADC_ROLE_CONSUMER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ImportDeviceStreamAndCompareToJson),
        .devices = &adc_devices_for_late_writes,
        .writes_late = true,
        .fixtures = &adc_fixtures_with_values,
        .run = waited_before_reading,
    },
    ADC_PATIENCE_RULE("consumer.device_stream.sync_event.waited_out_a_long_hold", "a stream of one batch",
                      ImportDeviceStreamAndCompareToJson, waited_out_a_long_hold),
};

const struct adc_rule_family adc_consumer_stream_rules = ADC_RULE_FAMILY(rules);
