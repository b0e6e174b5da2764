#include "support/allocator_threads.h"

#include <string.h>
#include <sys/types.h>

#include "support/thread_look.h"

/* The names their allocators give them. */
static const char* const ALLOCATOR_THREADS[] = {
    "jemalloc_bg_thd", /* jemalloc's background_thread.c names it so */
};

/* The threads counted at most: more than a process this suite forks from
 * has (a library whose load starts more is not forked after its load). */
#define MAX_COUNTED 64

bool adc_is_allocator_thread(const char* name) {
  for (size_t i = 0; i < sizeof(ALLOCATOR_THREADS) / sizeof(ALLOCATOR_THREADS[0]); i++) {
    if (strcmp(name, ALLOCATOR_THREADS[i]) == 0) return true;
  }
  return false;
}

int adc_count_threads_but_allocators(void) {
  pid_t tids[MAX_COUNTED];
  int n = adc_list_threads(tids, MAX_COUNTED);
  if (n < 0 || n > MAX_COUNTED) return n;
  int counted = 0;
  for (int i = 0; i < n; i++) {
    char name[32];
    adc_thread_name(tids[i], name, sizeof(name));
    counted += !adc_is_allocator_thread(name);
  }
  return counted;
}
