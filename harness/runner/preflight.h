/* Loads a library once, in a throw-away process on the task runner, before
 * any case: a path that does not load or a wrong prefix gets one clear error
 * line instead of a report full of unresolved cases, and a library whose
 * loading crashes or hangs (a constructor) gets that verdict for every case
 * without running them.  The parent never loads the library under test. */
#ifndef ADC_PREFLIGHT_H
#define ADC_PREFLIGHT_H

#include <stdbool.h>
#include <stddef.h>

#include "runner/task.h"
#include "support/error.h"

/* What a case's process is held to, which a load in preflight is held to
 * too: a library that cannot be loaded within them in a case cannot be
 * loaded in preflight either, and is refused before any case. */
struct adc_load_limits {
  double timeout_seconds;
  size_t memory_limit_mib; /* --memory-limit; 0: none */
};

/* Loading crashed or hung; see the verdict. */
#define ADC_LOAD_MISBEHAVED (-2)

/* Returns the number of entry points found (>= 0), with
 * `*forked_after_load` true where the library may be loaded once and each
 * case's process forked after (adc/fork_protocol.h: it exports the
 * protocol, and loading it started no thread); -1 with the loader's
 * message when the library cannot be loaded; or ADC_LOAD_MISBEHAVED with
 * the crash or timeout in `verdict`. */
int adc_preflight_library(const char* path, const char* prefix, const struct adc_load_limits* limits,
                          bool* forked_after_load, struct adc_task_result* verdict, struct adc_error* error);

#endif /* ADC_PREFLIGHT_H */
