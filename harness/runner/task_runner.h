/* Runs tasks, each in a child process of its own, up to `jobs` at a time.
 *
 * A task's process is the leader of its own process group, so that what
 * it starts can be killed with it, and nothing it does to "its" group
 * reaches the harness.  When a task ends, for any reason, its whole group
 * is killed; the harness is a child subreaper and kills the orphans that
 * reach it, so no process outlives the run.  The runner learns of a
 * child's end at once (SIGCHLD, read from a signalfd, wakes its poll) and
 * of a time limit at its deadline.  A task's process holds none of the
 * harness's descriptors: only standard input (/dev/null), output and error
 * (one pipe, captured) and its verdict pipe.
 *
 * A task's verdict is the record it sends (wire.h), validated; a process
 * that dies, stops itself, sends a malformed record or runs past its limit
 * gets crash or timeout, explained by the most telling line of its output.
 * SIGINT and SIGTERM to the harness end the run: running tasks are killed,
 * and they and those not started end unresolved. */
#ifndef ADC_TASK_RUNNER_H
#define ADC_TASK_RUNNER_H

#include <stdbool.h>
#include <stddef.h>

#include "rule_api/status.h"
#include "support/error.h"

struct adc_task {
  /* Runs in the child; sends the verdict on `verdict_fd` (adc_wire_send). */
  void (*run)(const void* argument, int verdict_fd);
  const void* argument;
  double timeout_seconds;
  /* The task's process sleeps most of its time by design, watching for
   * something a conforming library never does: it may run in one of the
   * run's waiting slots, beside the tasks that use the CPU. */
  bool mostly_waits;
  /* The task's process is forked by the run's preloading server, which
   * has mapped what `adc_task_run.preload` maps (runner/preload_server.h),
   * rather than by the harness; the harness is its parent either way. */
  bool preloaded;
};

struct adc_task_result {
  enum adc_status status;
  char message[1400];
  double seconds;
};

struct adc_task_run {
  int jobs; /* tasks at a time */
  /* Tasks that mostly wait may run beside those `jobs`, this many at a time
   * (0: they take their turn in the `jobs` like the others).  A task that
   * uses the CPU never runs in these slots. */
  int waiting_jobs;
  /* The address space each task's process may take (RLIMIT_AS); 0: no limit. */
  size_t memory_limit_bytes;
  /* A folder where a tool wrapping the harness writes each process's log
   * apart, as adc_process_log_path names it (--valgrind): a task's log is added to
   * its output when it ends, then removed.  NULL: none. */
  const char* process_log_dir;
  /* Where not NULL, and some task is `preloaded`: called once, in a
   * process of the run's own that forks those tasks, to map the
   * libraries they would otherwise each load.  It must start nothing
   * (no thread, no runtime): the tasks are forked after it. */
  void (*preload)(void* context);
  void* preload_context;
  /* How long that process may take to answer a request, its preload
   * included (0: ADC_PRELOAD_ANSWER_SECONDS).  Past it, the process is
   * stopped and the tasks start from the harness. */
  double preload_answer_seconds;
  /* Called in the parent as each task ends, in the order they end. */
  void (*on_result)(size_t index, const struct adc_task_result* result, void* context);
  void* context;
};

/* Loading a runtime takes 30 ms natively and 7 s under Valgrind. */
#define ADC_PRELOAD_ANSWER_SECONDS 120.0

/* A process's log in the folder `process_log_dir` of a wrapper of the
 * harness: PREFIX, the pid, SUFFIX ("memcheck.<pid>.log"). */
#define ADC_PROCESS_LOG_PREFIX "memcheck."
#define ADC_PROCESS_LOG_SUFFIX ".log"

/* The path of process `pid`'s log in `log_dir`, into `path`. */
void adc_process_log_path(char* path, size_t size, const char* log_dir, long pid);

/* Fills results[i] for tasks[i].  Returns 0, or -1 with the reason when the
 * harness itself could not go on (no pipe or process could be made); the
 * tasks already started still end with their verdicts. */
int adc_run_tasks(const struct adc_task* tasks, size_t n_tasks, const struct adc_task_run* run,
                  struct adc_task_result* results, struct adc_error* error);

/* The signal (SIGINT or SIGTERM) that interrupted the last run; 0 if none. */
int adc_run_interrupted_by(void);

#endif /* ADC_TASK_RUNNER_H */
