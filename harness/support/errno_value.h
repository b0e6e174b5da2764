/* Error codes a library under test returns (spec: "Error codes": "Such
 * error codes should be interpreted like errno numbers (as defined by the
 * local platform)"). */
#ifndef ADC_SUPPORT_ERRNO_VALUE_H
#define ADC_SUPPORT_ERRNO_VALUE_H

#include <stdbool.h>

/* Whether `code` is an errno value this platform knows: positive, with a
 * description of its own in strerror. */
bool adc_is_errno_value(int code);

#endif /* ADC_SUPPORT_ERRNO_VALUE_H */
