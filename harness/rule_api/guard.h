/* Guarded memory: pages the harness has made inaccessible (a moved-from
 * structure) or read-only (buffers fed to a consumer), each with the verdict
 * a fault on them means.  A SIGSEGV or SIGBUS on those pages ends the case
 * with that verdict; any other fault stays a crash. */
#ifndef ADC_GUARD_H
#define ADC_GUARD_H

#include <stddef.h>

#include "rule_api/status.h"

/* Sends a verdict out of the process; called from the signal handler, so it
 * must be async-signal-safe. */
typedef void (*adc_guard_report_fn)(enum adc_status status, const char* message);

/* Installs the fault handler for this (child) process. */
void adc_guard_install(adc_guard_report_fn report);

/* Attributes faults on the pages covering [start, start + size) to `status`
 * with `message`, which must stay valid while the region is registered. */
void adc_guard_add(const void* start, size_t size, enum adc_status status, const char* message);
void adc_guard_remove_all(void);

/* A zeroed, writable block on pages of its own, big enough for `size`. */
void* adc_guard_pages_new(size_t size);
/* Makes the pages of a block inaccessible and registers them. */
void adc_guard_pages_seal(void* pages, size_t size, enum adc_status status, const char* message);
void adc_guard_pages_free(void* pages, size_t size);

#endif /* ADC_GUARD_H */
