/* Rules for consumers.  The harness exports with its consumer feed
 * (harness/consumer_feed) and hands the result to the consumer's Import
 * entry point, which must compare it with the fixture and release it before
 * returning.  Every structure of the feed has a record, so that a consumer
 * releasing twice is counted, never undefined behaviour. */
#include <stdio.h>
#include <stdlib.h>

#include "consumer_feed/consumer_feed.h"
#include "consumer_plain_export.h"
#include "feed_again.h"
#include "rule_api/consumer_calls.h"
#include "rule_api/fixture_compare.h"
#include "rule_api/guard.h"

/* Exports batch `batch` laid out as `layout`, giving unresolved on failure. */
static bool feed_batch(struct adc_case_context* ctx, struct adc_feed* feed, int batch,
                       const struct adc_feed_layout* layout, struct ArrowDeviceArray* out) {
  struct adc_error error;
  if (adc_feed_export_batch(feed, ctx->fixture, batch, layout, out, &error) == 0) return true;
  adc_unresolved(ctx, "the consumer feed could not export batch %d: %s", batch, error.message);
  return false;
}

/* Hands the consumer every batch, each from a fresh feed, and lets `judge`
 * read the feed's records once Import has returned. */
static void judge_records(struct adc_case_context* ctx,
                          void (*judge)(struct adc_case_context*, int, const struct adc_feed*)) {
  ADC_FOR_EACH_BATCH(ctx, batch) {
    struct adc_feed* feed = adc_feed_new(ctx->device);
    struct ArrowDeviceArray array;
    struct adc_feed_input input;
    if (feed_batch(ctx, feed, batch, NULL, &array)) {
      adc_import_batch(ctx, batch, &array, adc_feed_batch_again(&input, feed, ctx->fixture, batch, NULL));
      judge(ctx, batch, feed);
    }
    adc_feed_free(feed);
  }
}

/* Each base structure handed out (one, or more where the consumer asked
 * again: feed_again.h) released exactly once; `what` names it ("the
 * batch", "the schema"). */
static void judge_released_once(struct adc_case_context* ctx, const char* where, const char* what,
                                const struct adc_feed* feed) {
  int exports = adc_feed_bases_exported(feed);
  int kept = adc_feed_bases_never_released(feed);
  int overfreed = adc_feed_bases_released_more_than_once(feed);
  if (kept > 0 && exports == 1) {
    adc_violation(ctx, "%sthe consumer returned without releasing %s", where, what);
  } else if (kept > 0) {
    adc_violation(ctx, "%sthe consumer returned without releasing %d of the %d exports of %s it asked for",
                  where, kept, exports, what);
  }
  if (overfreed > 0 && exports == 1) {
    adc_violation(ctx, "%sthe consumer called %s's release callback %d times", where, what,
                  adc_feed_base_release_calls(feed));
  } else if (overfreed > 0) {
    adc_violation(ctx, "%sthe consumer released %d of the %d exports of %s it asked for more than once",
                  where, overfreed, exports, what);
  }
}

static void released_once(struct adc_case_context* ctx, int batch, const struct adc_feed* feed) {
  char where[32];
  snprintf(where, sizeof(where), "batch %d: ", batch);
  judge_released_once(ctx, where, "the batch", feed);
}

static void release_exactly_once(struct adc_case_context* ctx) {
  judge_records(ctx, released_once);
}

static void children_left_alone(struct adc_case_context* ctx, int batch, const struct adc_feed* feed) {
  int in_place = adc_feed_children_released_in_place(feed);
  if (in_place > 0) {
    adc_violation(ctx,
                  "batch %d: the consumer called the release callback of %d child or dictionary "
                  "structure(s) in place; only the base structure's may be called",
                  batch, in_place);
  }
}

static void release_not_on_children(struct adc_case_context* ctx) {
  judge_records(ctx, children_left_alone);
}

static void schema_release_exactly_once(struct adc_case_context* ctx) {
  struct adc_feed* feed = adc_feed_new(ctx->device);
  const char* message;
  if (adc_feed_schema_to_consumer(ctx, feed, &message)) judge_released_once(ctx, "", "the schema", feed);
  adc_feed_free(feed);
}

/* A consumer that rejected a valid export (read-only, or watched): where
 * it declines the fixture even exported plainly, its answer says nothing
 * of the rule (not_supported, pointing at the baseline rule, which judges
 * a decline of the baseline fixtures); otherwise the rule cannot tell. */
static void rejected_valid_export(struct adc_case_context* ctx, int batch, const char* error) {
  char reported[1024];
  snprintf(reported, sizeof(reported), "%s", error);
  if (!adc_not_supported_if_declined_plainly(ctx, batch) && !ctx->has_verdict) {
    adc_unresolved(ctx, "batch %d: the consumer rejected a valid export: %s", batch, reported);
  }
}

static const char wrote_message[] =
    "the consumer wrote to an exported buffer, which both sides should "
    "treat as immutable";

/* The feed's read-only regions guarded so far: those of the export handed
 * over, and of each one the consumer asked for again. */
struct read_only_guards {
  struct adc_case_context* ctx;
  struct adc_feed* feed;
  size_t count; /* regions guarded, the feed's first */
  int* handles;
};

static void guard_new_regions(void* context) {
  struct read_only_guards* guards = context;
  const struct adc_region* regions;
  size_t n = adc_feed_read_only_regions(guards->feed, &regions);
  int* grown = realloc(guards->handles, (n + 1) * sizeof(*grown));
  if (grown == NULL) return; /* left unguarded: a write there is a plain crash */
  guards->handles = grown;
  for (; guards->count < n; guards->count++) {
    guards->handles[guards->count] = adc_guard_add(regions[guards->count].start, regions[guards->count].size,
                                                   adc_violation_status(guards->ctx->rule), wrote_message);
  }
}

/* Where the harness can make the device's memory read-only: a write
 * faults as it happens, inside the consumer, even one that stores the byte
 * that was there. */
static void guard_read_only_batch(struct adc_case_context* ctx, int batch) {
  static const struct adc_feed_layout read_only = {.read_only_buffers = true};
  struct adc_feed* feed = adc_feed_new(ctx->device);
  struct ArrowDeviceArray array;
  if (feed_batch(ctx, feed, batch, &read_only, &array)) {
    struct read_only_guards guards = {ctx, feed, 0, NULL};
    guard_new_regions(&guards);
    struct adc_feed_input input;
    const struct adc_input_again* again = adc_feed_batch_again(&input, feed, ctx->fixture, batch, &read_only);
    input.exported = guard_new_regions;
    input.exported_context = &guards;
    const char* error = adc_import_batch(ctx, batch, &array, again);
    /* The regions are unmapped by the release: forget them before anything
     * else can be mapped there. */
    for (size_t i = 0; i < guards.count; i++) adc_guard_remove(guards.handles[i]);
    free(guards.handles);
    if (error != NULL) rejected_valid_export(ctx, batch, error);
  }
  adc_feed_free(feed);
}

/* Elsewhere (a GPU's memory): every buffer is read back through the
 * device's copies before the consumer is called and again once it has
 * returned, the feed keeping the buffers allocated until then
 * (watch_buffers); bytes that changed were written.  A consumer's import
 * is synchronous (plugin ABI: it compares and releases before returning),
 * so every write it waited for has landed by then. */
static void compare_watched_batch(struct adc_case_context* ctx, int batch) {
  static const struct adc_feed_layout watched = {.watch_buffers = true};
  struct adc_feed* feed = adc_feed_new(ctx->device);
  struct ArrowDeviceArray array;
  if (feed_batch(ctx, feed, batch, &watched, &array)) {
    struct adc_feed_input input;
    const char* error = adc_import_batch(ctx, batch, &array,
                                         adc_feed_batch_again(&input, feed, ctx->fixture, batch, &watched));
    struct adc_feed_written first = {0};
    struct adc_error problem;
    int written = ctx->has_verdict ? 0 : adc_feed_written_buffers(feed, &first, &problem);
    if (written < 0) {
      adc_unresolved(ctx, "batch %d: the exported buffers could not be read back: %s", batch,
                     problem.message);
    } else if (written > 0) {
      adc_violation(ctx,
                    "batch %d: %s: %d of the batch's %zu buffers hold other bytes once Import returned "
                    "(the first: buffer %zu, of %zu bytes, from byte %zu), read back through the "
                    "device's copies",
                    batch, wrote_message, written, first.n_buffers, first.buffer, first.size,
                    first.first_byte);
    } else if (error != NULL) {
      rejected_valid_export(ctx, batch, error);
    }
  }
  adc_feed_free(feed);
}

static void buffers_not_written(struct adc_case_context* ctx) {
  bool read_only = adc_device_can_protect(ctx->device->driver);
  ADC_FOR_EACH_BATCH(ctx, batch) {
    if (read_only) {
      guard_read_only_batch(ctx, batch);
    } else {
      compare_watched_batch(ctx, batch);
    }
  }
}

/* Hands the consumer a batch that equals the fixture but is laid out as
 * `layout` says; the consumer must find it equal.  Where
 * `misreading_judged_elsewhere`, a consumer that accepted the batch and
 * handed on other data is consumer.accepted.values_kept's to fail, and the
 * case ends unresolved naming it: the layout's rule judges the consumer's
 * support (a decline, or a message the suite cannot read further). */
static void expect_equal(struct adc_case_context* ctx, const struct adc_feed_layout* layout,
                         const char* described, bool misreading_judged_elsewhere) {
  ADC_FOR_EACH_BATCH(ctx, batch) {
    struct adc_feed* feed = adc_feed_new(ctx->device);
    struct ArrowDeviceArray array;
    struct adc_feed_input input;
    if (feed_batch(ctx, feed, batch, layout, &array)) {
      char with_layout[160];
      snprintf(with_layout, sizeof(with_layout), "batch %d, exported with %s", batch, described);
      const char* error = adc_import_batch(ctx, batch, &array,
                                           adc_feed_batch_again(&input, feed, ctx->fixture, batch, layout));
      enum adc_consumer_answer answer = adc_last_consumer_answer();
      char reported[1024];
      if (error != NULL) snprintf(reported, sizeof(reported), "%s", error);
      if (error == NULL || ctx->has_verdict) {
        /* equal, or the call could not be made (verdict given) */
      } else if (adc_not_supported_if_declined_plainly(ctx, batch)) {
        /* its answer to the plain export says it all */
      } else if (!misreading_judged_elsewhere ||
                 !adc_unresolved_if_handed_on_other(ctx, answer, with_layout, reported)) {
        adc_violation(ctx, "%s, equals the fixture but the consumer reported: %s", with_layout, reported);
      }
    }
    adc_feed_free(feed);
  }
}

static void offset_handled(struct adc_case_context* ctx) {
  static const struct adc_feed_layout padded = {.offset_padding = 3};
  expect_equal(ctx, &padded, "offset 3 on its columns", true);
}

static void null_count_unknown(struct adc_case_context* ctx) {
  static const struct adc_feed_layout unknown = {.unknown_null_count = true};
  expect_equal(ctx, &unknown, "null_count -1 wherever a validity buffer is present", false);
}

static void detects_mismatch(struct adc_case_context* ctx) {
  static const struct adc_feed_layout altered = {.alter_one_value = true};
  bool altered_any = false;
  ADC_FOR_EACH_BATCH(ctx, batch) {
    struct adc_feed* feed = adc_feed_new(ctx->device);
    struct ArrowDeviceArray array;
    char difference[512];
    if (!feed_batch(ctx, feed, batch, &altered, &array)) {
      /* verdict given */
    } else if (adc_compare_batch(ctx, batch, &array.array, difference, sizeof(difference)) == 0) {
      array.array.release(&array.array); /* nothing in this batch could be altered */
    } else {
      altered_any = true;
      struct adc_feed_input input;
      if (adc_import_batch(ctx, batch, &array,
                           adc_feed_batch_again(&input, feed, ctx->fixture, batch, &altered)) == NULL) {
        adc_violation(ctx, "batch %d: the consumer reported the batch equal to the fixture, yet %s", batch,
                      difference);
      }
    }
    adc_feed_free(feed);
  }
  if (!altered_any) adc_unresolved(ctx, "the fixture has no value the consumer feed can alter");
}

static const struct adc_fixture_filter with_rows = {arrow_json_has_rows, "a column with rows"};

static const struct adc_fixture_filter with_nulls = {arrow_json_has_nulls, "nulls"};

static const char release_base_sentence[] =
    "Consumers MUST call a base structure's release callback when "
    "they won't be using it anymore";

static const struct adc_rule rules[] = {
    {
        .id = "consumer.release.exactly_once",
        .clause = "Release callback semantics -- for consumers",
        .sentence = release_base_sentence,
        .method = "Hands the consumer an instrumented export and counts calls of its release callback when "
                  "Import returns: exactly one.",
        .role = ADC_ROLE_CONSUMER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ImportBatchAndCompareToJson),
        .run = release_exactly_once,
    },
    {
        .id = "consumer.release.not_on_children",
        .clause = "Release callback semantics -- for consumers",
        .sentence = "they MUST not call any of its children's release callbacks (including the optional "
                    "dictionary).",
        .method = "Hands the consumer an instrumented export and checks no child or dictionary was "
                  "released in place other than by its parent.",
        .role = ADC_ROLE_CONSUMER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ImportBatchAndCompareToJson),
        .run = release_not_on_children,
    },
    {
        .id = "consumer.schema.release.exactly_once",
        .clause = "Release callback semantics -- for consumers",
        .sentence = release_base_sentence,
        .method = "Hands the consumer an instrumented schema and counts calls of its release callback when "
                  "Import returns: exactly one.",
        .role = ADC_ROLE_CONSUMER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ImportSchemaAndCompareToJson),
        .run = schema_release_exactly_once,
    },
    {
        .id = "consumer.buffers.not_written",
        .clause = "Mutability",
        .sentence = "Both the producer and the consumer SHOULD consider the exported data (that is, the "
                    "data reachable on the device through the buffers member of the embedded ArrowArray) "
                    "to be immutable",
        .method = "Exports every buffer on read-only pages where the device's memory can be made "
                  "read-only (the CPU, the simulated device): a write faults and is reported. Elsewhere "
                  "(a GPU's memory) reads every buffer back through the device's copies before Import "
                  "and again once it returned, the buffers kept allocated past the release: a buffer "
                  "whose bytes changed was written (a write of the byte that was there is not seen).",
        .role = ADC_ROLE_CONSUMER,
        .severity = ADC_SHOULD,
        .needs = ADC_NEED(ImportBatchAndCompareToJson),
        .run = buffers_not_written,
    },
    {
        .id = "consumer.offset.handled",
        .clause = "The ArrowArray structure",
        .sentence = "Consumers MAY decide not to support non-0-offset arrays, but they should document "
                    "this limitation.",
        .method = "Exports each column with 3 padding rows and offset 3 (children padded with their "
                  "parent where its offset reaches them); the consumer must find the batch equal to the "
                  "fixture.",
        .role = ADC_ROLE_CONSUMER,
        .severity = ADC_SHOULD,
        .needs = ADC_NEED(ImportBatchAndCompareToJson),
        .fixtures = &with_rows,
        .run = offset_handled,
    },
    {
        .id = "consumer.null_count.unknown_handled",
        .clause = "The ArrowArray structure",
        .sentence = "Mandatory. The number of null items in the array. MAY be -1 if not yet computed.",
        .method = "Exports null_count -1 wherever a validity buffer is present; the consumer must find the "
                  "batch equal to the fixture.",
        .role = ADC_ROLE_CONSUMER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ImportBatchAndCompareToJson),
        .fixtures = &with_nulls,
        .run = null_count_unknown,
    },
    {
        .id = "consumer.compare.detects_mismatch",
        .clause = "Integration testing (C Data Interface)",
        .sentence = "It validates that both record batches are equal, and then releases the imported "
                    "record batch.",
        .method = "Exports a batch with one value altered; the consumer must report a difference (else no "
                  "consumer verdict can be trusted).",
        .role = ADC_ROLE_CONSUMER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ImportBatchAndCompareToJson),
        .fixtures = &adc_fixtures_with_values,
        .run = detects_mismatch,
    },
};

const struct adc_rule_family adc_consumer_rules = ADC_RULE_FAMILY(rules);
