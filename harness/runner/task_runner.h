/* Runs tasks in child processes, up to `jobs` at a time: each task in a
 * process of its own, or, for tasks of a group (struct adc_task_group), in
 * prepared processes that each run many of them one after another, any
 * task that does not pass there being run again alone.
 *
 * A task's process is the leader of its own process group, so that what
 * it starts can be killed with it, and nothing it does to "its" group
 * reaches the harness.  When a process ends, for any reason, its whole
 * group is killed; the harness is a child subreaper and kills the orphans
 * that reach it, so no process outlives the run.  The runner learns of a
 * child's end at once (SIGCHLD, read from a signalfd, wakes its poll) and
 * of a time limit at its deadline.  A task's process holds none of the
 * harness's descriptors: only standard input (/dev/null), output and error
 * (one pipe, captured) and its record channel (wire.h), on which a
 * prepared process also reads which task to run next.
 *
 * A task's verdict is the record it sends, validated; a process that dies,
 * stops itself, sends a malformed record or runs past its limit gets crash
 * or timeout, explained by the most telling line of its output and, for a
 * fatal signal, where it struck (runner/crash_site.h: unresolved where
 * that was the harness's own code).  A
 * process's start may be timed apart from its task (READY: a device's
 * runtime), and processes that hold one device are admitted together
 * (struct adc_task_resource).  SIGINT and SIGTERM to the harness end the
 * run: running processes are killed, and their tasks and those not
 * started end unresolved. */
#ifndef ADC_TASK_RUNNER_H
#define ADC_TASK_RUNNER_H

#include <stddef.h>

#include "runner/task.h"
#include "support/error.h"

/* Fills results[i] for tasks[i].  Returns 0, or -1 with the reason when the
 * harness itself could not go on (no pipe or process could be made); the
 * tasks already started still end with their verdicts. */
int adc_run_tasks(const struct adc_task* tasks, size_t n_tasks, const struct adc_task_run* run,
                  struct adc_task_result* results, struct adc_error* error);

/* Frees what results[0..n) hold (their crash sites), then the array,
 * parent-only memory (support/parent_only_memory.h). */
void adc_task_results_free(struct adc_task_result* results, size_t n);

/* The signal (SIGINT or SIGTERM) that interrupted the last run; 0 if none. */
int adc_run_interrupted_by(void);

#endif /* ADC_TASK_RUNNER_H */
