/* What the consumer rules on waiting share, one per interface a consumer
 * receives device arrays through: a batch, a device stream, an async
 * stream (spec-tests/consumer_waiting.c).
 *
 * spec, "ArrowDeviceArray.sync_event": "If this is non-null then it MUST be
 * used to call the appropriate sync method for the device ... before
 * attempting to access the memory in the buffers."  Each rule hands the
 * consumer its data twice through the consumer feed: first complete, with
 * no event (a consumer that declines that cannot be judged on waiting: not
 * supported, as the baseline rule judges a decline), then
 * with every batch's values not yet written and a sync_event that completes
 * once they are (adc_feed_layout.late_write_seconds).  A consumer that
 * reads before its synchronisation began finds the fill bytes. */
#ifndef ADC_CONSUMER_WAITING_H
#define ADC_CONSUMER_WAITING_H

#include <stdbool.h>

#include "rule_api/case_context.h"

/* The sentence every one of them enforces (a MUST: erratum E6). */
#define ADC_SYNC_EVENT_CONSUMER_SENTENCE                                                               \
  "If this is non-null then it MUST be used to call the appropriate sync method for the device (e.g. " \
  "cudaStreamWaitEvent or hipStreamWaitEvent) before attempting to access the memory in the buffers."

/* The devices the rules run on: those with an event type and a queue the
 * consumer feed can write late with (device.h). */
extern const struct adc_device_filter adc_devices_for_late_writes;

/* Hands the consumer what the rule judges, every batch exported with
 * `late_write_seconds` (0: complete, with no event) and
 * `patience_seconds` (adc_feed_layout: 0, or a hold longer than a
 * consumer's patience).  Returns false when the case got a verdict (the
 * harness could not hand it over, or the consumer could not be judged);
 * else true with `*message` the consumer's report, NULL when it found
 * everything equal to the fixture. */
typedef bool (*adc_hand_to_consumer)(struct adc_case_context* ctx, void* context, double late_write_seconds,
                                     double patience_seconds, const char** message);

/* Judges one rule: `what` names what is handed over ("batch 1", "the
 * stream"), `hand` hands it over with `context`. */
void adc_judge_waiting(struct adc_case_context* ctx, const char* what, adc_hand_to_consumer hand,
                       void* context);

/* The same, the values written only ADC_PATIENCE_SECONDS after the
 * consumer begins to synchronise (on the simulated device; after the
 * export elsewhere): a consumer that gives up on the event (a poll with a
 * deadline, a timed wait whose timeout it ignores) and reads finds the
 * fill bytes; one that fails the plain late write first (`plain_rule`,
 * adc_judge_waiting's) ends unresolved, naming it.  Why that long:
 * CONFORMANCE.md, "A hold longer than patience". */
#define ADC_PATIENCE_SECONDS 1.0
void adc_judge_patience(struct adc_case_context* ctx, const char* what, const char* plain_rule,
                        adc_hand_to_consumer hand, void* context);

/* A patience rule of the catalogue, written once for the three interfaces:
 * `what` is what it hands over ("its batch"), `entry_point` the Import it
 * needs, `run` its function (adc_judge_patience). */
#define ADC_PATIENCE_RULE(rule_id, what, entry_point, run_function)                                          \
  {                                                                                                          \
    .id = rule_id, .clause = "ArrowDeviceArray.sync_event", .sentence = ADC_SYNC_EVENT_CONSUMER_SENTENCE,    \
    .method = "Hands the consumer " what                                                                     \
              " with its values not yet written and a sync_event that completes once they are, written "     \
              "only 1 s after the consumer begins to synchronise on the event on the simulated device (1 s " \
              "after the export on OpenCL and GPUs), a hold longer than a consumer's patience. The "         \
              "consumer must find it equal to the fixture: one that gives up on the event (a poll with a "   \
              "deadline, a timed wait whose timeout it ignores) and reads finds the fill bytes (MUST: "      \
              "erratum E6). One fixture, as each case waits that long.",                                     \
    .role = ADC_ROLE_CONSUMER, .severity = ADC_MUST, .needs = ADC_NEED(entry_point),                         \
    .devices = &adc_devices_for_late_writes, .writes_late = true, .waits_by_design = true,                   \
    .fixtures = &adc_fixtures_for_patience, .run = run_function,                                             \
  }

/* The one fixture the patience rules hand over (each case holds its
 * batches ADC_PATIENCE_SECONDS): a single batch of a single int32 column
 * with a value (int32_nulls among the bundled ones). */
extern const struct adc_fixture_filter adc_fixtures_for_patience;

#endif /* ADC_CONSUMER_WAITING_H */
