/* A task and what running it gives: the types the runner's files share
 * (task_runner.h runs tasks; each file of the runner works on one part of
 * a task's run and needs these, never the runner itself). */
#ifndef ADC_TASK_H
#define ADC_TASK_H

#include <stdbool.h>
#include <stddef.h>

#include "rule_api/status.h"
#include "support/error.h"

struct adc_task_group;
struct adc_task_resource;
struct cJSON;

/* A verdict given inside a prepared process. */
struct adc_task_verdict {
  enum adc_status status;
  char message[1012];
};

struct adc_task {
  /* Runs in a process of its own; sends the verdict on `verdict_fd`
   * (adc_wire_send), after READY where its start is timed apart, or
   * REFUSED when its device refused it (wire.h). */
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
  /* The prepared processes that may run it, one after another with the
   * other tasks of the group (struct adc_task_group); NULL: it always
   * runs in a process of its own. */
  const struct adc_task_group* group;
  /* In a prepared process of `group`: runs the task there and gives its
   * verdict (which the process sends once it has looked for what the task
   * left behind).  A fault the task's guard catches sends its own verdict
   * and ends the process, as it does in a process of its own. */
  void (*run_prepared)(const void* argument, struct adc_task_verdict* verdict);
  /* The device its process holds (an element of adc_task_run.resources),
   * admitted at so many processes at once; NULL: none. */
  const struct adc_task_resource* resource;
  /* Its process of its own sends READY once its device is open: until
   * then this bounds it (past it: unresolved, the device never opened),
   * and its time limit counts from READY.  0: the limit counts from the
   * fork. */
  double start_seconds;
  /* In messages: "cpu/array.release.sets_null/int32_nulls"; NULL: "task N". */
  const char* name;
  /* Tasks of one family (a rule's cases) tend to end alike: once one has
   * crashed or hung in a prepared process, the family's others each run
   * first in a prepared process (task_queue.h), where that verdict stands
   * without a second run.  0: none. */
  size_t family;
  /* What the task calls of its library, one bit per entry point (the
   * rule's needs): each is judged as a process's first call.  Until a
   * task of the group that calls it has passed first in a prepared
   * process (one calling it alone, where the group has such a task), a
   * task that calls it runs first in one (task_queue.h).  0: nothing. */
  unsigned calls;
  /* Its family (rule) too is judged as a process's first call: until a
   * task of the family has passed first in a prepared process of the
   * group, the family's tasks run first in one (a state of the library
   * that only one rule's check sees, as a current device kept per
   * thread).  Set where a process's start costs little (runner.c). */
  bool family_judged_first;
  /* How much of the library's output the task has its rule judge (its
   * fixture's columns times its batches that have rows): of the tasks
   * waiting to be taken first, the heaviest goes first, so that a family
   * or an entry point is judged first on a case that meets what it
   * judges, not one that passes for want of rows. */
  size_t weight;
};

/* Tasks that may share a prepared process: a process that makes once what
 * each of them would make anew (loads the library, opens the device's
 * runtime), then runs them one after another.  Isolation stays the
 * promise (CONFORMANCE.md, "How cases run"):
 *   - a task that does not pass (or not_supported) there is run again
 *     alone, in a process of its own, and that run gives its verdict;
 *   - a crash or a hang costs the prepared process, whose task is then run
 *     alone, and the tasks after it go on in a new one;
 *   - a task that leaves something behind (a thread running, a process, a
 *     signal disposition, memory, what the group's `left_behind` sees)
 *     ends its prepared process after its verdict; threads the library
 *     keeps blocked between tasks do not, but one that runs by itself ends
 *     it, and the task it ran in runs again alone (kept_threads.h);
 *   - the verdicts of a prepared process's tasks stand once it has exited
 *     cleanly, after its last task: a process that dies or is killed has
 *     every task it passed run again alone. */
struct adc_task_group {
  /* In the prepared process, before its first task: makes what its tasks
   * share.  0, or -1 with the reason; `*refused` set where the reason is
   * a device's refusal (wire.h, REFUSED), which the runner retries. */
  int (*prepare)(const void* argument, bool* refused, struct adc_error* error);
  /* Optional, in the prepared process after each task: writes what the
   * task left behind that only the group can see (a device's sticky
   * error, memory the library says it still holds) to `text`; whether
   * it left anything. */
  bool (*left_behind)(const void* argument, char* text, size_t size);
  const void* argument;
  /* Bounds `prepare`; past it the process is killed and its first task
   * runs alone. */
  double start_seconds;
  /* Its processes are forked by the preloading server (adc_task.preloaded). */
  bool preloaded;
  /* Its process's start costs as much as many of its tasks (a Python
   * interpreter importing an engine: 0.1-0.3 s, where a case takes
   * milliseconds): another process starts only for tasks enough, as on a
   * device whose start is costly (task_queue.h). */
  bool starts_slowly;
  const char* name; /* in messages: "reference on opencl" */
  /* The task, run in a process of its own, whose process's end judges how
   * every process of the group's library ends (rule_api/rule.h,
   * judges_process_end); ADC_NO_TASK: none.  Where that process died as
   * it ended, a prepared process of the group that dies so too, once
   * told to end, has its passes stand (the death said with each), rather
   * than each run again alone to die so once more. */
  size_t process_end_task;
};

/* A device that processes hold: at most `limit` of them at once, a number
 * the runner lowers when the device refuses one (REFUSED): then no
 * process asks for it again before one that held it has ended, or a pause
 * that doubles with each refusal in a row; after
 * ADC_RESOURCE_REFUSALS_TOLERATED refusals in a row with no process
 * holding it, its tasks end unresolved with the device's reason. */
struct adc_task_resource {
  int limit;
  const char* name; /* "cuda device 0" */
};
#define ADC_RESOURCE_REFUSALS_TOLERATED 5
/* The first pause after a refusal; it doubles with each refusal in a row. */
#define ADC_RESOURCE_FIRST_PAUSE_SECONDS 0.05

/* A prepared process runs at most this many tasks, then exits, which
 * confirms their verdicts: a run's journal and progress hear of them in
 * steps of at most this many, and whatever a library accumulates is
 * bounded. */
#define ADC_TASKS_PER_PREPARED_PROCESS 256

/* No task: SIZE_MAX as a task's index. */
#define ADC_NO_TASK ((size_t)-1)

/* How a task's verdict came about, where it ran in a prepared process. */
struct adc_shared_attempt {
  bool ran; /* the task ran in a prepared process first */
  /* It was the first task that process ran, with nothing of the library
   * run before it: its verdict there stands, as a process of its own's. */
  bool first_in_process;
  /* It did not pass there after `earlier_tasks` others, passed alone, and
   * a fresh prepared process ran those tasks again, in order, then it
   * (runner/replay.h): whether that gave its failure again (`status` and
   * `message` above are then the replay's), and the first task of the
   * process that had not passed. */
  bool replayed;
  bool reproduced;
  size_t earlier_tasks;
  char first_to_go_wrong[256];
  /* It was then run alone (what it did there was not a pass, or its
   * prepared process did not end cleanly), and `status` and `message`
   * are what the prepared process gave. */
  bool rerun_alone;
  enum adc_status status;
  char message[400];
  /* What the task left behind in the prepared process, which then ended
   * (LEFT_BEHIND: "left 1 thread(s) running"); "" where nothing. */
  char left_behind[400];
  /* The threads of the library the process kept after the task, blocked,
   * for the next (KEPT: "the library keeps 2 thread(s) between cases,
   * ..."), named once, after the task that started them; "" where none. */
  char kept_threads[400];
};

/* Where a process of its own died after its task's verdict was given (as
 * it ended: exit handlers, destructors, unloading): what that death makes
 * of the task where it is the task's, as a process dying so without a
 * verdict would be judged (crash, or unresolved where in the suite's own
 * code; its crash site).  Whether it is the task's or the library's exit,
 * reported once elsewhere, the caller decides (runner.c). */
struct adc_after_verdict {
  bool died;
  enum adc_status status;
  char message[1400];
  struct cJSON* crash_site; /* owned; NULL where none */
};

struct adc_task_result {
  enum adc_status status;
  char message[1400];
  double seconds;
  struct adc_shared_attempt shared;
  struct adc_after_verdict after_verdict;
  /* Where a fatal signal killed its process, as the JSON report writes it
   * (runner/crash_site.h); NULL where none did, or it could not be told.
   * Owned by the result (adc_task_results_free). */
  struct cJSON* crash_site;
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
  /* The devices tasks may hold (adc_task.resource points into it). */
  const struct adc_task_resource* resources;
  size_t n_resources;
  /* The files whose code is the harness's own (its executable, a shim of
   * its own that tasks load), as canonical paths, NULL-terminated: a task
   * whose process a fatal signal killed in their code ends unresolved, a
   * defect of the harness and not the task's crash (runner/crash_site.h).
   * NULL: none. */
  const char* const* suite_objects;
  /* Called in the parent as each task's verdict is final, in that order. */
  void (*on_result)(size_t index, const struct adc_task_result* result, void* context);
  void* context;
};

/* Loading a runtime takes 30 ms natively and 7 s under Valgrind. */
#define ADC_PRELOAD_ANSWER_SECONDS 120.0

#endif /* ADC_TASK_H */
