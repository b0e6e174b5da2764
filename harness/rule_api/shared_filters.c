/* Filters more than one family of rules uses, written once so that their
 * descriptions (printed in the catalogue) cannot drift apart. */
#include "rule_api/rule.h"

const struct adc_fixture_filter adc_fixtures_with_values = {arrow_json_has_values,
                                                            "at least one non-null value"};
