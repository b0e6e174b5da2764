/* Where a wrapper of the harness (--valgrind: wrapped_harness.h) has each
 * process write its log, for the runner to read a case's back. */
#ifndef ADC_PROCESS_LOG_H
#define ADC_PROCESS_LOG_H

#include <stdio.h>

/* A process's log in the folder `process_log_dir` of a wrapper of the
 * harness: PREFIX, the pid, SUFFIX ("memcheck.<pid>.log"). */
#define ADC_PROCESS_LOG_PREFIX "memcheck."
#define ADC_PROCESS_LOG_SUFFIX ".log"

/* The path of process `pid`'s log in `log_dir`, into `path`. */
static inline void adc_process_log_path(char* path, size_t size, const char* log_dir, long pid) {
  snprintf(path, size, "%s/" ADC_PROCESS_LOG_PREFIX "%ld" ADC_PROCESS_LOG_SUFFIX, log_dir, pid);
}

#endif /* ADC_PROCESS_LOG_H */
