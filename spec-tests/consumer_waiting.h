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
 * `late_write_seconds` (0: complete, with no event).  Returns false when
 * the case got a verdict (the harness could not hand it over, or the
 * consumer could not be judged); else true with `*message` the consumer's
 * report, NULL when it found everything equal to the fixture. */
typedef bool (*adc_hand_to_consumer)(struct adc_case_context* ctx, void* context, double late_write_seconds,
                                     const char** message);

/* Judges one rule: `what` names what is handed over ("batch 1", "the
 * stream"), `hand` hands it over with `context`. */
void adc_judge_waiting(struct adc_case_context* ctx, const char* what, adc_hand_to_consumer hand,
                       void* context);

#endif /* ADC_CONSUMER_WAITING_H */
