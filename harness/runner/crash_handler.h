/* The handler of fatal signals in a case's process (SIGSEGV, SIGBUS,
 * SIGFPE, SIGILL, SIGABRT).  A fault on a page the guard holds ends the
 * case with the guard's verdict (rule_api/guard.h); any other fatal
 * signal sends the parent where the process was (a CRASH_SITE record,
 * wire/crash_record.h), then kills the process as the signal would have
 * without the handler, so that the parent sees the same death.  It runs on
 * an alternate stack, so that a stack overflow is caught too (on the
 * thread that installed it; another thread's runs on that thread's own
 * stack).  A process the library forks inherits it and dies of the signal
 * without a record: the record is about the case's process. */
#ifndef ADC_CRASH_HANDLER_H
#define ADC_CRASH_HANDLER_H

#include "rule_api/guard.h"

/* Installs the handler in this process: records go to `channel_fd`, the
 * guard's verdicts to `guard_report`. */
void adc_crash_handler_install(int channel_fd, adc_guard_report_fn guard_report);

#endif /* ADC_CRASH_HANDLER_H */
