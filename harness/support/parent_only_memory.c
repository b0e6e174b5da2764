#include "support/parent_only_memory.h"

#include <stdint.h>
#include <sys/mman.h>

#if defined(__SANITIZE_ADDRESS__)
#define ADC_LEAK_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(leak_sanitizer)
#define ADC_LEAK_SANITIZER 1
#endif
#endif
#ifdef ADC_LEAK_SANITIZER
#include <sanitizer/lsan_interface.h>
#endif

/* The mapping's length, kept in front of the block (16 bytes, so that the
 * block keeps malloc's alignment). */
#define HEADER_BYTES 16

void* adc_parent_only_calloc(size_t count, size_t size) {
  if (size != 0 && count > (SIZE_MAX - HEADER_BYTES) / size) return NULL;
  size_t length = HEADER_BYTES + count * size;
  /* Anonymous pages read as zeros: no memset, so untouched pages stay unmapped. */
  unsigned char* mapping = mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapping == MAP_FAILED) return NULL;
  if (madvise(mapping, length, MADV_DONTFORK) != 0) {
    munmap(mapping, length);
    return NULL;
  }
  *(size_t*)mapping = length;
  return mapping + HEADER_BYTES;
}

void adc_parent_only_free(void* block) {
  if (block == NULL) return;
  unsigned char* mapping = (unsigned char*)block - HEADER_BYTES;
  munmap(mapping, *(size_t*)mapping);
}

void adc_parent_only_hold(const void* object) {
#ifdef ADC_LEAK_SANITIZER
  if (object != NULL) __lsan_ignore_object(object);
#else
  (void)object;
#endif
}
