#include "support/pages.h"

#include <stdint.h>
#include <unistd.h>

size_t adc_page_size(void) {
  return (size_t)sysconf(_SC_PAGESIZE);
}

size_t adc_pages_round_up(size_t size) {
  size_t page = adc_page_size();
  return ((size ? size : 1) + page - 1) / page * page;
}

struct adc_page_span adc_pages_covering(const void* start, size_t size) {
  uintptr_t page = adc_page_size();
  uintptr_t first = (uintptr_t)start / page * page;
  uintptr_t end = ((uintptr_t)start + (size ? size : 1) + page - 1) / page * page;
  struct adc_page_span span = {(void*)first, (size_t)(end - first)};
  return span;
}
