/* The child side of a prepared process (task_runner.h): prepares what the
 * tasks of its group share, says READY, then runs each task the parent
 * names, one after another, until the parent closes its end.  After each
 * task it waits for the library's threads to block, names those it keeps
 * for the next task (KEPT, kept_threads.h), and looks for what the task
 * left behind (process_state.h, the group's own `left_behind`, a kept
 * thread that ran by itself): it says so (LEFT_BEHIND) before the task's
 * verdict, and then ends.  A task it is given after a kept thread ran by
 * itself is not run there (its verdict says so: it runs alone). */
#ifndef ADC_PREPARED_PROCESS_H
#define ADC_PREPARED_PROCESS_H

#include <stddef.h>
#include <stdint.h>

#include "runner/task.h"

/* What the parent sends a prepared process: the next task to run. */
struct adc_prepared_command {
  uint64_t task;
};

/* Runs in the prepared process, on its channel `fd` (records out,
 * commands in); never returns: exits 0 when the parent closes its end or a
 * task left something behind, 1 when the channel fails. */
_Noreturn void adc_serve_prepared(const struct adc_task_group* group, const struct adc_task* tasks,
                                  size_t n_tasks, int fd);

#endif /* ADC_PREPARED_PROCESS_H */
