/* --valgrind and --preload: the harness starts itself again under what was
 * asked (memcheck, or a library preloaded into it), before it settles
 * anything.  Every process it then forks, the throw-away loads of the
 * libraries and each case's process, runs under it too, so a case's
 * memcheck report or sanitizer report lands in that case's own output and
 * becomes its verdict (runner/output_capture.c).  Wrapping the harness,
 * not exec'ing each case, keeps a case's start a fork: memcheck's start-up
 * is paid once per run, not once per case.  The parent still never loads
 * a library under test nor a GPU runtime; memcheck only watches it. */
#ifndef ADC_WRAPPED_HARNESS_H
#define ADC_WRAPPED_HARNESS_H

#include "cli/options.h"
#include "support/error.h"

enum adc_harness_wrapper {
  ADC_UNWRAPPED,
  ADC_WRAPPED_BY_VALGRIND,
  ADC_WRAPPED_WITH_PRELOAD,
};

/* What this process runs under, as the harness that started it again said
 * (the environment variable it set names this very process, so a stale
 * value inherited from elsewhere does not count). */
enum adc_harness_wrapper adc_harness_wrapper(void);

/* When `options` ask for a wrapper this process does not run under yet:
 * for --preload, replaces the process with the harness again, same
 * arguments `argv`, the library preloaded (returns only on failure); for
 * --valgrind, runs the harness again under memcheck as a child process,
 * waits for it, passes on memcheck's report on the harness process itself
 * (there should be none), and returns 1 with the exit status a shell would
 * give in `exit_status`.  Returns 0 when there is nothing to do, and -1
 * with the reason when the wrapper cannot be started (no valgrind on PATH,
 * a --preload library that cannot be read). */
int adc_wrap_harness_if_asked(const struct adc_options* options, char** argv, int* exit_status,
                              struct adc_error* error);

/* Under --valgrind, the folder where memcheck writes one log per process,
 * under the name adc_process_log_path gives (the runner reads a case's log
 * when it ends); NULL otherwise. */
const char* adc_memcheck_log_dir(void);

/* A human description of the wrapper, for the report's environment: e.g.
 * "valgrind memcheck" or "LD_PRELOAD=/usr/lib/.../libasan.so.8"; NULL when
 * unwrapped.  Points into static or environment storage. */
const char* adc_harness_wrapper_description(void);

#endif /* ADC_WRAPPED_HARNESS_H */
