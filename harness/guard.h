/* Guarded memory: regions the harness has made inaccessible (a moved-from
 * structure) or read-only (exported buffers), each with the verdict a fault
 * inside it means.  A SIGSEGV or SIGBUS inside a region ends the case with
 * that verdict; any other fault stays a crash. */
#ifndef ADC_GUARD_H
#define ADC_GUARD_H

#include <stddef.h>

#include "status.h"

/* Install the fault handler for this (child) process; verdicts go to `fd`. */
void adc_guard_install(int verdict_fd);

/* Attribute faults in [start, start + size) to `status` with `message`.
 * The message must stay valid while the region is registered. */
void adc_guard_add(const void* start, size_t size, enum adc_status status, const char* message);
void adc_guard_remove_all(void);

/* A zeroed, writable block on pages of its own, big enough for `size`. */
void* adc_guard_pages_new(size_t size);
/* Make the pages of a block inaccessible and register them. */
void adc_guard_pages_seal(void* pages, size_t size, enum adc_status status, const char* message);
void adc_guard_pages_free(void* pages, size_t size);

#endif /* ADC_GUARD_H */
