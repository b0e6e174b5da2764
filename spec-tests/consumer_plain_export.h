/* What the consumer rules that hand over a batch laid out otherwise share:
 * whether the consumer declines the batch even exported as the fixture has
 * it (spec-tests/consumer_plain_export.c).  Then its answer to the rule's
 * layout says nothing of the layout, and the case is not_supported,
 * pointing at the baseline rule. */
#ifndef ADC_CONSUMER_PLAIN_EXPORT_H
#define ADC_CONSUMER_PLAIN_EXPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "rule_api/case_context.h"
#include "rule_api/consumer_answer.h"

/* Whether the consumer rejects batch `batch` exported as the fixture has
 * it, with no layout of the rule's; its message into `message`, and its
 * answer in adc_last_consumer_answer() until the next Import. */
bool adc_consumer_declines_plain_export(struct adc_case_context* ctx, int batch, char* message, size_t size);

/* Where the consumer declines batch `batch` exported plainly: the case's
 * not_supported, naming the decline and the baseline rule, and true; where
 * it accepts it and hands on other data (rule_api/consumer_answer.h):
 * unresolved, naming consumer.accepted.values_kept, and true; false (no
 * verdict) where it imports it. */
bool adc_not_supported_if_declined_plainly(struct adc_case_context* ctx, int batch);

/* Where `answer` (an Import's: adc_last_consumer_answer) says the consumer
 * accepted what it was handed and handed on other data: the case
 * unresolved, naming consumer.accepted.values_kept, which fails that, and
 * true; `what` names the hand-over ("batch 0, exported as it is"),
 * `message` is the Import's. */
bool adc_unresolved_if_handed_on_other(struct adc_case_context* ctx, enum adc_consumer_answer answer,
                                       const char* what, const char* message);

#endif /* ADC_CONSUMER_PLAIN_EXPORT_H */
