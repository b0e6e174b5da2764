/* What the consumer rules that hand over altered data share: the batch the
 * consumer feed can alter (spec-tests/consumer_alteration.c). */
#ifndef ADC_CONSUMER_ALTERATION_H
#define ADC_CONSUMER_ALTERATION_H

#include <stdint.h>

#include "rule_api/case_context.h"

/* The first batch of the fixture the consumer feed can alter a value of (one
 * with a valid integer or non-empty string), found by exporting each
 * altered and comparing it with the fixture; -1, with the case left
 * unresolved, when there is none or the feed cannot export a batch. */
int64_t adc_alterable_batch(struct adc_case_context* ctx);

#endif /* ADC_CONSUMER_ALTERATION_H */
