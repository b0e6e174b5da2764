/* Which task runs next, and in what kind of process: the task runner's
 * bookkeeping, in the parent only (parent-only memory: a fork neither
 * copies nor write-protects it).
 *
 * Tasks start in plan order, each kind on its own (those that use the CPU,
 * those that mostly wait).  A task of a group (task_runner.h) is run by a
 * prepared process of that group, which takes the group's tasks in order;
 * a task without one, a task that must be run again alone, and every task
 * of a group whose processes cannot be prepared, runs in a process of its
 * own.  A task that holds a device (adc_task.resource) starts only while
 * the device admits another process (task_runner.h, struct
 * adc_task_resource). */
#ifndef ADC_TASK_QUEUE_H
#define ADC_TASK_QUEUE_H

#include <stdbool.h>
#include <stddef.h>

#include "runner/task.h"

enum adc_task_state {
  ADC_TASK_PENDING,     /* not started: by a prepared process of its group, or alone */
  ADC_TASK_ALONE,       /* waits to run in a process of its own */
  ADC_TASK_RUNNING,     /* in a process now */
  ADC_TASK_PROVISIONAL, /* passed in a prepared process that has not ended yet */
  ADC_TASK_DONE,        /* its verdict is final */
};

/* No group: SIZE_MAX as a group index. */
#define ADC_NO_GROUP ((size_t)-1)

struct adc_task_queue {
  const struct adc_task* tasks;
  size_t n_tasks;
  unsigned char* state; /* enum adc_task_state, per task */
  size_t finished;      /* tasks DONE */
  /* The next task, in plan order, that may still be PENDING, of each kind:
   * [0] those that use the CPU, [1] those that mostly wait. */
  size_t plan_cursor[2];
  /* Tasks waiting to run alone, in the order they came to. */
  size_t* alone;
  size_t n_alone;
  /* The groups of the tasks, each once, in the order of their first task. */
  const struct adc_task_group** groups;
  size_t n_groups;
  size_t* group_of;        /* per task: its group's index, or ADC_NO_GROUP */
  size_t* group_tasks;     /* the tasks of every group, group after group, in plan order */
  size_t* group_first;     /* per group: where its tasks begin in group_tasks */
  size_t* group_size;      /* per group: how many */
  size_t* group_cursor[2]; /* per group and kind: the next of its tasks that may be PENDING */
  size_t* group_pending;   /* per group: its PENDING tasks */
  int* group_starting;     /* per group: its prepared processes not yet ready */
  int* group_alive;        /* per group: its prepared processes started and not yet ended */
  bool* group_alone;       /* per group: its processes cannot be prepared; its tasks run alone */
  /* Per task: it was taken to run again as the first task of a prepared
   * process (adc_task_queue_next_first_of_group), which it is only once. */
  bool* first_tried;
  size_t* group_spared; /* scratch, per group: tasks next_alone left for processes starting */
  /* Per family (adc_task.family): a task of it crashed or hung in a
   * prepared process, and no task of it has passed first in one since. */
  bool* family_suspect;
  size_t n_families;
  /* Per group: the entry points (adc_task.calls bits) a task has passed
   * calling first in a prepared process, and those some task of the group
   * calls alone (only such a task's pass counts for them). */
  unsigned* group_verified;
  /* Per group and family (group * (n_families + 1) + family): whether a
   * task of the family has passed first in a prepared process of it. */
  bool* family_judged;
  unsigned* group_called_alone;
  /* Per resource (adc_task_run.resources): processes holding it now, how
   * many it admits, refusals in a row, no start before this moment, and
   * whether it has refused too often (its tasks then end unresolved with
   * the reason it gave). */
  const struct adc_task_resource* resources;
  size_t n_resources;
  int* holders;
  int* limit;
  int* refusals_in_row; /* of processes refused while alone on the device */
  double* not_before;
  bool* given_up;
  char (*refusal)[512];
};

/* Sets the queue up for the run's tasks; 0, or -1 when out of memory. */
int adc_task_queue_init(struct adc_task_queue* queue, const struct adc_task* tasks, size_t n_tasks,
                        const struct adc_task_run* run);
void adc_task_queue_free(struct adc_task_queue* queue);

/* The index of the resource a task holds, or -1. */
int adc_task_queue_resource_of(const struct adc_task_queue* queue, size_t task);

/* The group of a task that a prepared process may run now: its group's
 * index, or ADC_NO_GROUP when it runs alone. */
size_t adc_task_queue_shared_group(const struct adc_task_queue* queue, size_t task);

/* Tasks a prepared process on a device whose start is costly (a task's
 * resource: CUDA's context, which the driver creates one process at a
 * time) must have waiting before another process of its group starts: a
 * few tasks of milliseconds each end sooner in one process than in
 * several that each wait for their start (the self-test's runs of three
 * cases each paid three CUDA starts). */
#define ADC_TASKS_PER_COSTLY_START 8
/* The same for a group whose process starts slowly (adc_task_group,
 * starts_slowly: a Python interpreter importing an engine, 0.1-0.3 s,
 * where its cases take milliseconds each). */
#define ADC_TASKS_PER_SLOW_START 64

/* What a free slot starts next, for a slot of the waiting kind or not:
 * true with `*task` (taken: RUNNING, out of the alone list) to run alone,
 * or with `*group` set to the group a new prepared process serves (no
 * task taken: the process takes one once it is ready), while the group
 * has more tasks waiting than processes starting and, on a costly device,
 * more than ADC_TASKS_PER_COSTLY_START for each of its processes alive.  A task of a device
 * that gave up is ended first through `give_up` (the caller settles it).
 * False when nothing may start now. */
bool adc_task_queue_next_start(struct adc_task_queue* queue, bool waiting_slot, double now, size_t* task,
                               size_t* group, void (*give_up)(size_t task, const char* reason, void* context),
                               void* context);

/* The first task a ready prepared process of `group` runs, where one
 * waits to run again alone (it did not pass in another prepared process,
 * or that process did not end cleanly): the first task of a process has
 * nothing of the library's run before it, as a process of its own, so the
 * process serves for that run and then goes on with the group's others
 * (taken: RUNNING, out of the alone list).  A task is taken so once.  Else
 * a task no process takes but first: one calling an entry point not yet
 * judged as a process's first call (adc_task.calls), or of a suspect
 * family (adc_task_queue_suspect_family).  False where neither waits.  While a group's
 * processes are starting, tasks waiting to run alone are left for them
 * (as many as start), not started alone. */
bool adc_task_queue_next_first_of_group(struct adc_task_queue* queue, size_t group, bool waiting_slot,
                                        size_t* task);

/* A task of `task`'s family crashed or hung in a prepared process: the
 * family's tasks are run first in prepared processes from now on, each
 * where its crash or hang costs that process alone, and counts once.
 * One passed first in a process: its family runs as any other again. */
void adc_task_queue_suspect_family(struct adc_task_queue* queue, size_t task);
void adc_task_queue_clear_family(struct adc_task_queue* queue, size_t task);

/* Task `task` passed first in a prepared process: what it calls is
 * judged as a process's first call (adc_task.calls), and tasks calling
 * only that run anywhere in a process from now on. */
void adc_task_queue_first_call_passed(struct adc_task_queue* queue, size_t task);

/* Whether `group` has a PENDING task whose family waits for its first
 * judgement (adc_task.family_judged_first).  A prepared process that has
 * run its first task then ends rather than go on: the families are judged
 * first, each by a process that ends after it, and the group's other
 * tasks then run in processes that run many, as a library's users'
 * processes do (a state that goes bad after many calls shows there). */
bool adc_task_queue_families_unjudged(const struct adc_task_queue* queue, size_t group);

/* The next task a ready prepared process of `group` runs, in a slot of the
 * waiting kind or not (taken: RUNNING), but none taken only first (above);
 * false when it has none left. */
bool adc_task_queue_next_of_group(struct adc_task_queue* queue, size_t group, bool waiting_slot,
                                  size_t* task);

/* A prepared process of `group` is ready (it takes tasks from now on), or
 * ended before it was; with `run_alone`, the group's processes cannot be
 * prepared (its tasks run alone from now on). */
void adc_task_queue_prepared_ready(struct adc_task_queue* queue, size_t group);
void adc_task_queue_prepared_failed(struct adc_task_queue* queue, size_t group, bool run_alone);

/* A prepared process of `group` ended (reaped, or never started). */
void adc_task_queue_prepared_ended(struct adc_task_queue* queue, size_t group);

/* A task goes back to wait for a process of its own (run again alone). */
void adc_task_queue_run_alone(struct adc_task_queue* queue, size_t task);
/* A task passed in a prepared process that has not ended. */
void adc_task_queue_provisional(struct adc_task_queue* queue, size_t task);
/* A task's verdict is final. */
void adc_task_queue_done(struct adc_task_queue* queue, size_t task);

/* Whether resource `resource` (-1: none) admits another process now. */
bool adc_task_queue_admits(const struct adc_task_queue* queue, int resource, double now);

/* A process holding resource `resource` (>= 0) started (returns whether
 * it is alone on the device: no other process holds it), was ready
 * (accepted by the device), or ended. */
bool adc_task_queue_hold(struct adc_task_queue* queue, int resource);
void adc_task_queue_accepted(struct adc_task_queue* queue, int resource);
void adc_task_queue_release(struct adc_task_queue* queue, int resource);
/* The device of `resource` refused a process (which has ended and been
 * released), or its start hung: it admits no more processes than hold it
 * now, and none before a pause; `reason` is kept for when it gives up.
 * Only a process refused while it was `alone` on the device (no other
 * held it when it started) counts towards giving up: one refused beside
 * others was refused for them, and they may have ended since. */
void adc_task_queue_refused(struct adc_task_queue* queue, int resource, double now, const char* reason,
                            bool alone);

#endif /* ADC_TASK_QUEUE_H */
