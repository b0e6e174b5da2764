/* A growing list of one-line reasons, for a check that reports every
 * shortfall it finds rather than stopping at the first (adc-conform
 * verify). */
#ifndef ADC_SUPPORT_REASON_LIST_H
#define ADC_SUPPORT_REASON_LIST_H

#include <stddef.h>

/* Zero-initialise it ({0}); it owns its lines; free with
 * adc_reason_list_free. */
struct adc_reason_list {
  char** lines;
  size_t count;
  size_t capacity;
};

/* Adds one formatted line (copied).  Out of memory, the line is dropped and
 * "out of memory" takes its place where one more fits. */
void adc_reason_add(struct adc_reason_list* list, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
void adc_reason_list_free(struct adc_reason_list* list);

#endif /* ADC_SUPPORT_REASON_LIST_H */
