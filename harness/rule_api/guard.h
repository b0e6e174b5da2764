/* Guarded memory: pages the harness has made inaccessible (a moved-from
 * structure, the pages around a structure handed to a library) or read-only
 * (buffers fed to a consumer), each with the verdict a fault on them means.
 * A SIGSEGV or SIGBUS on those pages ends the case with that verdict; any
 * other fault stays a crash, and a SIGSEGV or SIGBUS sent rather than
 * caused (raise, kill) ends the process as it would without the guard.
 * The case's handler of fatal signals (runner/crash_handler.h) asks the
 * guard first. */
#ifndef ADC_GUARD_H
#define ADC_GUARD_H

#include <signal.h>
#include <stddef.h>

#include "rule_api/status.h"

/* Sends a verdict out of the process; called from the signal handler, so it
 * must be async-signal-safe. */
typedef void (*adc_guard_report_fn)(enum adc_status status, const char* message);

/* Where this (child) process's guarded faults send their verdicts. */
void adc_guard_report_to(adc_guard_report_fn report);

/* In a SIGSEGV or SIGBUS handler: where the fault is on a guarded page,
 * sends that region's verdict and ends the process (exit status 0);
 * otherwise (a fault elsewhere, a signal sent) returns. */
void adc_guard_claim_fault(const siginfo_t* info);

/* Attributes faults on the pages covering [start, start + size) to `status`
 * with `message`, which must stay valid while the region is registered.
 * Returns a handle for adc_guard_remove, or -1 when no more regions fit
 * (faults there then stay plain crashes). */
int adc_guard_add(const void* start, size_t size, enum adc_status status, const char* message);
void adc_guard_remove(int handle);

/* Forgets every region: in a process that runs many cases (a prepared
 * process), what one case guarded is not the next one's. */
void adc_guard_forget_all(void);

#endif /* ADC_GUARD_H */
