/* What a rule declares it needs (rule.h), checked: before the body runs, and
 * again at each call, so that a body calling what it did not declare is a
 * harness error the tests catch, never a silent pass. */
#ifndef ADC_NEEDS_H
#define ADC_NEEDS_H

#include <stdbool.h>
#include <stddef.h>

#include "rule_api/case_context.h"

/* Whether the case's library and device meet every need of its rule;
 * otherwise gives not_supported naming every missing symbol (or what the
 * device lacks) and returns false.  The child calls it before the body.
 * Missing entry points are left to the body of a rule that judges them
 * (adc_rule.judges_missing_entry_points). */
bool adc_needs_met(struct adc_case_context* ctx);

/* Whether `driver`'s devices have what `rule` needs of a device (memory it can make
 * read-only, for a rule that write-protects buffers); otherwise the
 * reason, as the case's not_supported gives it, into `why`.  The one test
 * of it: the child's (adc_needs_met) and the tests' that expect a case
 * not_supported on a device lacking it. */
bool adc_device_meets_needs(const struct adc_rule* rule, const struct adc_device_driver* driver, char* why,
                            size_t size);

/* The entry points a rule needs in their C Data Interface form (on `cpu`,
 * device_form false) or their device form (every other device). */
adc_entry_point_set adc_needs_in_form(const struct adc_rule* rule, bool device_form);
/* The same for a set of entry points of the rule's own choosing. */
adc_entry_point_set adc_set_in_form(adc_entry_point_set needs, bool device_form);

/* Whether the body may call `entry_point` (by its CPU name; the call goes to
 * its device form where adc_entry_point_on_device says so).  Otherwise gives
 * a verdict and returns false. */
bool adc_can_call(struct adc_case_context* ctx, enum adc_entry_point entry_point);

#endif /* ADC_NEEDS_H */
