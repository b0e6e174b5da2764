#include "consumer_waiting.h"

#include <stdio.h>
#include <string.h>

#include "consumer_plain_export.h"
#include "device/device.h"
#include "rule_api/consumer_calls.h"

/* How late the consumer feed writes the values on a device whose queue
 * cannot tell when the consumer synchronises (a GPU): the consumer has that
 * long to read the fill bytes if it does not wait.  On the simulated device
 * they are written as its synchronisation begins, whatever the load. */
#define LATE_WRITE_SECONDS 0.3

static bool has_event_type_and_queue(const struct adc_device_target* device) {
  return device->driver->kind->event_type != NULL && adc_device_has_queue(device->driver);
}
const struct adc_device_filter adc_devices_for_late_writes = {
    has_event_type_and_queue, "with an event type and a queue the harness can write late with"};

/* How the values of a late batch were written, for the rule's message. */
static void describe_late_write(const struct adc_device* device, char* out, size_t size) {
  if (device->driver->queue->hold_follows_synchronisation) {
    snprintf(out, size, "they were written only as a synchronisation on its sync_event began");
  } else {
    snprintf(out, size, "they were written %.1f s after the export", LATE_WRITE_SECONDS);
  }
}

/* Hands it over complete first: false (the case's verdict given) where
 * that could not be judged, or the consumer declined it. */
static bool takes_it_complete(struct adc_case_context* ctx, const char* what, adc_hand_to_consumer hand,
                              void* context) {
  const char* message = NULL;
  if (!hand(ctx, context, 0, 0, &message)) return false;
  if (message == NULL) return true;
  char complete[160];
  snprintf(complete, sizeof(complete), "%s, with its data complete and no event", what);
  if (adc_unresolved_if_handed_on_other(ctx, adc_last_consumer_answer(), complete, message)) return false;
  /* A consumer may decline what it does not support; whether it declines
   * what it must take is the baseline rule's to judge, as the other
   * consumer rules say (consumer_plain_export.h). */
  adc_not_supported(ctx,
                    "%s: the consumer declines it even with its data complete and no event (%s judges "
                    "that on the baseline fixtures): %s",
                    what, ADC_RULE_CONSUMER_BASELINE, message);
  return false;
}

void adc_judge_waiting(struct adc_case_context* ctx, const char* what, adc_hand_to_consumer hand,
                       void* context) {
  const char* message = NULL;
  if (!takes_it_complete(ctx, what, hand, context)) return;
  if (!hand(ctx, context, LATE_WRITE_SECONDS, 0, &message) || message == NULL) return;
  char how[128];
  describe_late_write(ctx->device, how, sizeof(how));
  adc_violation(ctx,
                "%s: each batch's values were not yet written when it was handed over; %s, and the event "
                "completed after them. The consumer reported: %s",
                what, how, message);
}

void adc_judge_patience(struct adc_case_context* ctx, const char* what, const char* plain_rule,
                        adc_hand_to_consumer hand, void* context) {
  const char* message = NULL;
  if (!takes_it_complete(ctx, what, hand, context)) return;
  /* A consumer that does not wait at all fails plain_rule: this rule
   * judges only one that waits, and then gives up. */
  if (!hand(ctx, context, LATE_WRITE_SECONDS, 0, &message)) return;
  if (message != NULL) {
    adc_unresolved(ctx,
                   "%s: the consumer read the batch before its event completed with no hold (see %s): %s",
                   what, plain_rule, message);
    return;
  }
  if (!hand(ctx, context, LATE_WRITE_SECONDS, ADC_PATIENCE_SECONDS, &message) || message == NULL) return;
  bool exact = ctx->device->driver->queue->hold_past_synchronisation != NULL;
  adc_violation(ctx,
                "%s: each batch's values were written only %.1f s after %s, and its event completed "
                "after them; a consumer that gave up on the event before then read them unwritten. The "
                "consumer reported: %s",
                what, ADC_PATIENCE_SECONDS,
                exact ? "a synchronisation on its sync_event began" : "the export", message);
}

/* A single batch of a single int32 column with a value. */
static bool one_int32_batch(const struct arrow_json_file* fixture) {
  return fixture->n_batches == 1 && fixture->n_fields == 1 && fixture->batches[0].length > 0 &&
         strcmp(arrow_json_format(&fixture->fields[0].type), "i") == 0 && arrow_json_has_values(fixture);
}
const struct adc_fixture_filter adc_fixtures_for_patience = {
    one_int32_batch, "one batch of one int32 column with a value (its batch is held 1 s)"};
