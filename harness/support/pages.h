/* Memory pages: the unit in which the harness maps and protects memory. */
#ifndef ADC_SUPPORT_PAGES_H
#define ADC_SUPPORT_PAGES_H

#include <stddef.h>

/* The size of a memory page. */
size_t adc_page_size(void);

/* The whole pages covering [start, start + size): their first byte and
 * their length. */
struct adc_page_span {
  void* start;
  size_t size;
};
struct adc_page_span adc_pages_covering(const void* start, size_t size);

/* `size` rounded up to whole pages (at least one page). */
size_t adc_pages_round_up(size_t size);

#endif /* ADC_SUPPORT_PAGES_H */
