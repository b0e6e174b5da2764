/* Rules for the error path of async device stream producers (spec: "Error
 * Handling" and "ArrowAsyncDeviceStreamHandler.on_error"): what on_error
 * carries, and what may follow it.
 *
 * A producer cannot be made to fail from outside, so these rules need the
 * optional ExportFailingAsyncFromJson (plugin ABI): the same stream, except
 * that the batch adc_failing_batch() is replaced by on_error once the
 * harness has requested it.  The harness's instrumented handler
 * (harness/rule_api/async_handler.h) reads the code, the message and the
 * metadata inside on_error, with bounds, since they live only during that
 * call; and, holding callbacks open, whether they are serialised there. */
#include <errno.h>

#include "rule_api/async_handler.h"
#include "support/errno_value.h"

#define RULE_RELEASE_FOLLOWS "async.on_error.release_follows"

/* Runs a failing stream until release, or until it goes quiet; the run and
 * its observations, or NULL with a verdict when it could not be started,
 * or when on_error never came, so that there is nothing to judge. */
static struct adc_async_run* run_failing(struct adc_case_context* ctx, struct adc_async_observed* seen) {
  const struct adc_async_script script = adc_async_script_request_all(ctx->fixture);
  int fail_at = adc_failing_batch(ctx->fixture);
  struct adc_async_run* run = adc_async_start_failing(ctx, &script, fail_at);
  if (run == NULL) return NULL;
  adc_async_wait_for_release(run);
  *seen = adc_async_snapshot(run);
  if (seen->on_error_calls > 0) return run;
  if (seen->ends > 0 || seen->release_calls > 0) {
    adc_unresolved(ctx,
                   "the stream ended without on_error where ExportFailingAsyncFromJson was asked to fail it "
                   "(batch %d, after %d task(s)); the producer does not honour that entry point",
                   fail_at, seen->tasks);
  } else {
    adc_async_explain_stall(ctx, run);
  }
  adc_async_release_results(run);
  return NULL;
}

static void release_follows(struct adc_case_context* ctx) {
  struct adc_async_observed seen;
  struct adc_async_run* run = run_failing(ctx, &seen);
  if (run == NULL) return;
  if (seen.after_error.count > 0) {
    adc_violation(ctx, "%d call(s) other than release came after on_error, the first %s",
                  seen.after_error.count, seen.after_error.first);
  } else if (seen.release_calls == 0) {
    adc_timed_out(ctx, "release never came after on_error(%d): %s", seen.error_code,
                  adc_async_how_silent(&seen));
  } else if (seen.release_calls > 1 || seen.after_release.count > 0) {
    adc_violation(ctx, "release was not the last call, made once: %d release call(s), %d call(s) after it",
                  seen.release_calls, seen.after_release.count);
  } else {
    adc_note(ctx, "on_error(%d) after %d task(s), then release alone", seen.error_code, seen.tasks);
  }
  adc_async_release_results(run);
}

/* The three rules on what on_error carries judge only the first on_error,
 * and leave what follows it to RULE_RELEASE_FOLLOWS. */

static void errno_code(struct adc_case_context* ctx) {
  struct adc_async_observed seen;
  struct adc_async_run* run = run_failing(ctx, &seen);
  if (run == NULL) return;
  if (!adc_is_errno_value(seen.error_code)) {
    adc_violation(ctx,
                  "on_error was given %d, which is not an errno value (EINVAL %d, ENOMEM %d, EIO %d, ...)",
                  seen.error_code, EINVAL, ENOMEM, EIO);
  } else {
    adc_note(ctx, "on_error(%d)", seen.error_code);
  }
  adc_async_release_results(run);
}

static void message_text(struct adc_case_context* ctx) {
  struct adc_async_observed seen;
  struct adc_async_run* run = run_failing(ctx, &seen);
  if (run == NULL) return;
  if (seen.error_message_null) {
    adc_note(ctx, "on_error(%d) gave no message (NULL)", seen.error_code);
  } else if (!seen.error_message_well_formed) {
    adc_violation(ctx, "on_error(%d)'s message: %s", seen.error_code, seen.error_message);
  } else {
    adc_note(ctx, "on_error(%d): %s", seen.error_code, seen.error_message);
  }
  adc_async_release_results(run);
}

static void metadata_encoding(struct adc_case_context* ctx) {
  struct adc_async_observed seen;
  struct adc_async_run* run = run_failing(ctx, &seen);
  if (run == NULL) return;
  if (seen.error_metadata_problem[0] != '\0') {
    adc_violation(ctx, "on_error(%d)'s metadata: %s", seen.error_code, seen.error_metadata_problem);
  } else {
    adc_note(ctx, "on_error(%d) gave %s", seen.error_code,
             seen.error_metadata_null ? "no metadata (NULL)" : "well-formed metadata");
  }
  adc_async_release_results(run);
}

/* spec: "Thread safety", on the error path: the on_next_task of the task
 * before the failing batch is held open (on_error may come beside it from
 * another thread), then on_error itself (release, or a task, may come
 * beside it), as async.callbacks.serialised holds the callbacks of the
 * usual course (rules_async_protocol.c says why a hold is needed). */
static void error_path_serialised(struct adc_case_context* ctx) {
  struct adc_async_script script = adc_async_script_request_all(ctx->fixture);
  int fail_at = adc_failing_batch(ctx->fixture);
  script.hold = ADC_ASYNC_HOLD_TASK | ADC_ASYNC_HOLD_ERROR;
  script.hold_task = fail_at - 1; /* -1, no task held, where the first batch fails */
  script.hold_seconds = ADC_ASYNC_OVERLAP_WATCH_SECONDS;
  struct adc_async_run* run = adc_async_start_failing(ctx, &script, fail_at);
  if (run == NULL) return;
  adc_async_wait_for_release(run);
  struct adc_async_observed seen = adc_async_snapshot(run);
  if (seen.overlapping.count > 0) {
    adc_violation(
        ctx,
        "%s was called while another handler callback was still running, on the error path (%d such "
        "call(s))",
        seen.overlapping.first, seen.overlapping.count);
  } else if (seen.on_error_calls == 0 && (seen.ends > 0 || seen.release_calls > 0)) {
    adc_unresolved(ctx,
                   "the stream ended without on_error where ExportFailingAsyncFromJson was asked to fail it "
                   "(batch %d, after %d task(s)); the producer does not honour that entry point",
                   fail_at, seen.tasks);
  } else if (seen.release_calls == 0) {
    adc_async_explain_stall(ctx, run);
  }
  adc_async_release_results(run);
}

/* clang-format off */
#define ERROR_RULE(rule_id, rule_clause, rule_sentence, rule_method, body) \
  {                                                                        \
      .id = rule_id,                                                       \
      .clause = rule_clause,                                               \
      .sentence = rule_sentence,                                           \
      .method = rule_method,                                               \
      .role = ADC_ROLE_PRODUCER,                                           \
      .severity = ADC_MUST,                                                \
      .needs = ADC_NEED(ExportFailingAsyncFromJson),                       \
      .devices = &adc_devices_for_streams,                                 \
      .fixtures = &adc_fixtures_with_batches,                              \
      .run = body,                                                         \
  }
/* clang-format on */

static const struct adc_rule rules[] = {
    ERROR_RULE(RULE_RELEASE_FOLLOWS, "ArrowAsyncDeviceStreamHandler.on_error",
               "After calling this, the release callback will be called as the last call on this struct.",
               "Has the producer fail mid-stream (ExportFailingAsyncFromJson), requesting every batch: after "
               "on_error comes release, exactly once, and nothing else (a producer whose threads all wait "
               "without it, or that makes no callback for a second, ends the case as timeout).",
               release_follows),
    ERROR_RULE(
        "async.on_error.errno_code", "ArrowAsyncDeviceStreamHandler.on_error",
        "The parameters are an errno-compatible error code and an optional error message and metadata.",
        "Has the producer fail mid-stream (ExportFailingAsyncFromJson), requesting every batch, and "
        "checks on_error's code is an errno value of this platform.",
        errno_code),
    ERROR_RULE(
        "async.on_error.message_text", "ArrowAsyncDeviceStreamHandler.on_error",
        "The parameters are an errno-compatible error code and an optional error message and metadata.",
        "Has the producer fail mid-stream (ExportFailingAsyncFromJson), requesting every batch, and "
        "reads on_error's message inside the call, with a bound: NULL, or NUL-terminated UTF-8 "
        "(erratum E10).",
        message_text),
    ERROR_RULE(
        "async.on_error.metadata_encoding", "ArrowAsyncDeviceStreamHandler.on_error",
        "If the metadata parameter is not NULL, to provide key-value error metadata, then it should be "
        "encoded identically to the way that metadata is encoded in ArrowSchema.metadata.",
        "Has the producer fail mid-stream (ExportFailingAsyncFromJson), requesting every batch, and "
        "parses on_error's metadata inside the call, with a bound: NULL, or encoded as "
        "ArrowSchema.metadata is (erratum E10).",
        metadata_encoding),
    {
        .id = "async.on_error.serialised",
        .clause = "Thread safety",
        .sentence = "A producer should wait for handler callbacks to return before calling the next handler "
                    "callback, and before calling the release callback.",
        .method = "Has the producer fail mid-stream (ExportFailingAsyncFromJson), requesting every batch, "
                  "counting the handler callbacks running: the on_next_task of the task before the failing "
                  "batch, then on_error, is held open until every other thread of the process waits (0.02 s "
                  "where they never all do, while none runs; a callback starting meanwhile ends the hold); "
                  "no callback may start beside them, on any thread.",
        .role = ADC_ROLE_PRODUCER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ExportFailingAsyncFromJson),
        .devices = &adc_devices_for_streams,
        .fixtures = &adc_fixtures_with_several_batches,
        .waits_by_design = true,
        .run = error_path_serialised,
    },
};

const struct adc_rule_family adc_async_error_rules = ADC_RULE_FAMILY(rules);
