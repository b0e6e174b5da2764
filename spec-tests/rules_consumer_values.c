/* What a consumer accepts, it hands on as it was exported.
 *
 * "Consumers MAY decide not to support non-0-offset arrays" lets a
 * consumer decline what it does not support; nothing lets it import an
 * array and hand on other values.  A decline is loud (an error before
 * anything is handed on) and judged elsewhere (consumer.offset.handled,
 * the baseline rule); an acceptance that hands on other data is the quiet
 * kind of wrong, and this rule's.  The suite tells the two apart where it
 * sees what the consumer hands on: through the round-trip ABI and the
 * Python route (rule_api/consumer_answer.h).  Through the JSON ABI the
 * consumer compares itself and one message serves both: the rule could
 * only pass it, and is not_supported there (CONFORMANCE.md, "What a
 * consumer accepts"). */
#include <stdio.h>

#include "consumer_feed/consumer_feed.h"
#include "feed_again.h"
#include "rule_api/consumer_calls.h"
#include "rule_api/needs.h"

/* A consumer's answers to exports equal to the fixture. */
struct answers {
  int accepted;         /* found equal */
  char not_taken[1024]; /* the first decline, own-types or invalid hand-on: "" where none */
  char untold[1024];    /* the first message that tells no decline from a difference */
};

/* Files the answer to the hand-over `what`, whose Import returned
 * `message`: other data handed on is the violation. */
static void file_answer(struct adc_case_context* ctx, struct answers* answers, const char* what,
                        const char* message) {
  if (ctx->has_verdict) return; /* the call could not be made */
  switch (message == NULL ? ADC_CONSUMER_FOUND_EQUAL : adc_last_consumer_answer()) {
    case ADC_CONSUMER_FOUND_EQUAL:
      answers->accepted++;
      break;
    case ADC_CONSUMER_HANDED_ON_OTHER:
      adc_violation(ctx, "%s: the consumer accepted it and handed on other data: %s", what, message);
      break;
    case ADC_CONSUMER_DECLINED:
    case ADC_CONSUMER_OWN_TYPES:
    case ADC_CONSUMER_HANDED_ON_INVALID:
      if (answers->not_taken[0] == '\0') {
        snprintf(answers->not_taken, sizeof(answers->not_taken), "%s: %s", what, message);
      }
      break;
    case ADC_CONSUMER_REPORTED:
      if (answers->untold[0] == '\0')
        snprintf(answers->untold, sizeof(answers->untold), "%s: %s", what, message);
      break;
  }
}

static void hand_schema(struct adc_case_context* ctx, struct answers* answers) {
  struct adc_feed* feed = adc_feed_new(ctx->device);
  const char* message;
  if (adc_feed_schema_to_consumer(ctx, feed, &message)) file_answer(ctx, answers, "the schema", message);
  adc_feed_free(feed);
}

/* Batch `batch` laid out as `layout` (NULL: as the fixture has it). */
static void hand_batch(struct adc_case_context* ctx, struct answers* answers, int batch,
                       const struct adc_feed_layout* layout, const char* described) {
  struct adc_feed* feed = adc_feed_new(ctx->device);
  struct ArrowDeviceArray array;
  struct adc_error error;
  if (adc_feed_export_batch(feed, ctx->fixture, batch, layout, &array, &error) != 0) {
    adc_unresolved(ctx, "the consumer feed could not export batch %d: %s", batch, error.message);
  } else {
    struct adc_feed_input input;
    char what[128];
    snprintf(what, sizeof(what), "batch %d%s", batch, described);
    file_answer(ctx, answers, what,
                adc_import_batch(ctx, batch, &array,
                                 adc_feed_batch_again(&input, feed, ctx->fixture, batch, layout)));
  }
  adc_feed_free(feed);
}

static void hand_stream(struct adc_case_context* ctx, struct answers* answers) {
  static const struct adc_feed_stream_options clean = {.fail_at_batch = -1, .altered_batch = -1};
  struct adc_feed* feed = adc_feed_new(ctx->device);
  struct ArrowDeviceArrayStream stream;
  struct adc_error error;
  if (adc_feed_export_stream(feed, ctx->fixture, &clean, &stream, &error) != 0) {
    adc_unresolved(ctx, "the consumer feed could not export a stream: %s", error.message);
  } else {
    struct adc_feed_input input;
    file_answer(
        ctx, answers, "the stream",
        adc_import_device_stream(ctx, &stream, adc_feed_stream_again(&input, feed, ctx->fixture, &clean)));
  }
  adc_feed_free(feed);
}

/* Whether the suite sees what the consumer hands on of a batch on the
 * case's device: its batch Import is made by the round trip. */
static bool hands_on_what_it_imports(const struct adc_case_context* ctx) {
  enum adc_entry_point import =
      adc_entry_point_on_device(ADC_EP_ImportBatchAndCompareToJson, ctx->device->driver);
  return (ctx->library->made_by_round_trip & ADC_ENTRY_POINT_BIT(import)) != 0;
}

static void values_kept(struct adc_case_context* ctx) {
  static const struct adc_feed_layout padded = {.offset_padding = 3};
  if (!hands_on_what_it_imports(ctx)) {
    /* Its answers could only pass: judged, this rule could not fail it. */
    adc_not_supported(
        ctx,
        "the consumer compares what it imports itself (its own Import of the JSON ABI) and hands "
        "nothing on: a decline and a difference look alike in its message. This rule judges a "
        "consumer through the round-trip ABI or the Python route (CONFORMANCE.md, \"What a "
        "consumer accepts\")");
    return;
  }
  struct answers answers = {0, "", ""};
  hand_schema(ctx, &answers);
  ADC_FOR_EACH_BATCH(ctx, batch) {
    hand_batch(ctx, &answers, batch, NULL, "");
    if (arrow_json_has_rows(ctx->fixture))
      hand_batch(ctx, &answers, batch, &padded, ", exported with offset 3 on its columns");
  }
  /* The stream too, where the consumer takes one: an engine may read a
   * stream by another path than a batch. */
  if (ctx->library->present[ADC_EP_ImportDeviceStreamAndCompareToJson]) hand_stream(ctx, &answers);
  if (ctx->has_verdict) return;
  if (answers.untold[0] != '\0') {
    adc_unresolved(ctx, "%s: a message in which the suite cannot tell a decline from a difference",
                   answers.untold);
  } else if (answers.accepted == 0) {
    adc_not_supported(
        ctx,
        "the consumer took no hand-over of the fixture as it is: it declined it, handed it on in "
        "its own model's types, or exported a batch the columnar format forbids (its export's "
        "defect, which the producer rules judge), the first %s (none is this rule's: %s judges "
        "declines of the baseline fixtures)",
        answers.not_taken, ADC_RULE_CONSUMER_BASELINE);
  }
}

static const struct adc_rule rules[] = {
    {
        .id = ADC_RULE_CONSUMER_VALUES_KEPT,
        .clause = "The ArrowArray structure",
        .sentence = "The ArrowArray describes the data of an exported array or record batch.",
        .method = "Hands the consumer the schema, each batch as the fixture has it and again with offset 3 "
                  "on its columns, and the stream (where it takes one), all equal to the fixture. Where it "
                  "accepts one and hands data on (through the round-trip ABI and the Python route its "
                  "import and its export back succeed), what it hands on must be the fixture's: the "
                  "values, and a dictionary's ordered flag where it keeps the dictionary. A decline (an "
                  "error before anything is handed on) is not this rule's. A consumer whose own Import of "
                  "the JSON ABI compares what it imported hands nothing on: not_supported.",
        .role = ADC_ROLE_CONSUMER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ImportSchemaAndCompareToJson) | ADC_NEED(ImportBatchAndCompareToJson) |
                 ADC_NEED(ImportDeviceStreamAndCompareToJson),
        /* The stream is handed only to a consumer that takes one (the body
         * asks); the schema and the batches are needed as ever (adc_can_call). */
        .judges_missing_entry_points = true,
        .run = values_kept,
    },
};

const struct adc_rule_family adc_consumer_value_rules = ADC_RULE_FAMILY(rules);
