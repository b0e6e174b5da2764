/* Reading memory of this process that may not all be readable (a string a
 * library under test returned without a terminating NUL) without faulting. */
#ifndef ADC_SUPPORT_SAFE_READ_H
#define ADC_SUPPORT_SAFE_READ_H

#include <stddef.h>

/* Copies up to `size` bytes from `source` to `destination`, stopping at the
 * first page that cannot be read; returns the bytes copied. */
size_t adc_copy_readable(void* destination, const void* source, size_t size);

#endif /* ADC_SUPPORT_SAFE_READ_H */
