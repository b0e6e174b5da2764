#include "runner/deliberate_suite_crash.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Kept out of line and distinct, so that each names the frame it dies in. */

/* A page mapped, then unmapped, rather than NULL: a sanitizer build
 * reports a null pointer's use itself, before any fault. */
__attribute__((noinline)) static void write_to_unmapped_memory(void) {
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  void* mapped = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapped == MAP_FAILED) abort();
  munmap(mapped, page);
  volatile int* volatile nowhere = mapped;
  *nowhere = 1;
}

__attribute__((noinline)) static void fail_an_assertion(void) {
  abort();
}

/* Deeper than any stack: the recursion ends by overflowing it. */
static volatile long unreachable_depth = 1L << 40;

/* Each call keeps a frame (the volatile array, read after the call), so
 * that the compiler cannot turn the recursion into a loop. */
__attribute__((noinline)) static long recurse_without_end(long depth) {
  volatile char frame[256];
  frame[0] = (char)depth;
  if (depth == unreachable_depth) return 0;
  return recurse_without_end(depth + 1) + frame[0];
}

void adc_deliberate_suite_crash(void) {
  const char* crash = getenv("ADC_DELIBERATE_SUITE_CRASH");
  if (crash == NULL) return;
  if (strcmp(crash, "segv") == 0) write_to_unmapped_memory();
  if (strcmp(crash, "abort") == 0) fail_an_assertion();
  if (strcmp(crash, "overflow") == 0) recurse_without_end(0);
}
