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

/* Whether the consumer rejects batch `batch` exported as the fixture has
 * it, with no layout of the rule's; its message into `message`. */
bool adc_consumer_declines_plain_export(struct adc_case_context* ctx, int batch, char* message, size_t size);

#endif /* ADC_CONSUMER_PLAIN_EXPORT_H */
