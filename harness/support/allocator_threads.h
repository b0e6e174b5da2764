/* Threads an allocator linked into a library starts to give memory already
 * freed back to the system, on a timer of its own (jemalloc's, which
 * polars, DataFusion and Arrow C++ link).  Such a thread runs none of the
 * library's code and reads nothing the library still holds.  A fork
 * leaves it in the parent alone, as its allocator intends: jemalloc holds
 * its own locks across fork() (its pthread_atfork handlers) and resets its
 * background threads to stopped in the child (background_thread.c,
 * background_thread_postfork_child: "reset to disabled for child"), where
 * freed memory then goes back to the system in the allocating thread. */
#ifndef ADC_SUPPORT_ALLOCATOR_THREADS_H
#define ADC_SUPPORT_ALLOCATOR_THREADS_H

#include <stdbool.h>

/* Whether a thread named `name` (its comm) is an allocator's. */
bool adc_is_allocator_thread(const char* name);

/* How many of this process's threads are not an allocator's (the calling
 * one among them); -1 where the listing cannot be read. */
int adc_count_threads_but_allocators(void);

#endif /* ADC_SUPPORT_ALLOCATOR_THREADS_H */
