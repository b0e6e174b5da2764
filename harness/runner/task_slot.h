/* A running process of the task runner, as the parent sees it (private to
 * task_runner.c, task_process.c and task_outcome.c).  Slots are
 * parent-only memory (support/parent_only_memory.h): a fork neither copies
 * nor write-protects them, and a task's process does not have them. */
#ifndef ADC_TASK_SLOT_H
#define ADC_TASK_SLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "runner/output_capture.h"
#include "runner/replay.h"
#include "runner/task.h"
#include "wire/wire.h"

enum adc_end_cause { ADC_ENDED, ADC_TIMED_OUT, ADC_STOPPED, ADC_INTERRUPTED };

/* Where a slot's process is. */
enum adc_slot_phase {
  ADC_PHASE_STARTING, /* not READY yet: its start (a device's runtime) is timed apart */
  ADC_PHASE_IDLE,     /* a prepared process between two tasks */
  ADC_PHASE_RUNNING,  /* running its task */
  ADC_PHASE_CLOSING,  /* a prepared process told to end, or ending after a task left something */
};

struct adc_slot {
  pid_t pid;              /* 0: the slot is free */
  bool waiting;           /* one of the run's waiting slots */
  bool prepared;          /* runs a prepared process, else a process of its own for one task */
  size_t group;           /* a prepared process's group (task_queue.h) */
  int resource;           /* the device it holds, or -1 */
  bool alone_on_resource; /* no other process held the device when it started */
  enum adc_slot_phase phase;
  bool has_task; /* `index` is running in it */
  size_t index;
  /* The parent's end of the record channel (a sequenced-packet socket;
   * commands go the other way to a prepared process) and of the output
   * pipe, -1 once closed.  The parent keeps the output pipe's write end
   * until the process is settled, so that the pipe never reaches end of
   * file: a process's exit closes its descriptors just before it becomes
   * a zombie, and an end of file would wake the parent once for that and
   * again for SIGCHLD.  What it wrote is in the pipe by the time SIGCHLD
   * comes. */
  int channel_fd;
  int output_fd;
  int output_write_fd;
  double started;      /* its fork */
  double task_started; /* READY, or its task's command */
  double deadline;
  bool killed; /* its process group was sent SIGKILL */
  enum adc_end_cause cause;
  int stop_signal;
  /* Records received (wire.h). */
  bool ready;
  bool verdict_came; /* a process of its own's verdict, or a prepare that failed */
  struct adc_wire_record verdict;
  bool refused;
  char refusal[sizeof(((struct adc_wire_record*)0)->message)];
  bool left_behind;
  char left_what[sizeof(((struct adc_wire_record*)0)->message)];
  /* Where a fatal signal reached it (CRASH_SITE, wire/crash_record.h):
   * the first such record. */
  bool crash_site_came;
  char crash_site[sizeof(((struct adc_wire_record*)0)->message)];
  /* The verdict its current task gets next is not the task's own
   * (NOT_JUDGED): the task runs again alone. */
  bool not_judged;
  /* The threads its current task left, kept for the next (KEPT). */
  bool kept_named;
  char kept_what[sizeof(((struct adc_wire_record*)0)->message)];
  /* Something came that was not the record expected next: so many bytes,
   * or a record out of place (`malformed_bytes` its size). */
  bool malformed;
  size_t malformed_bytes;
  bool malformed_out_of_place;
  /* A prepared process's tasks: how many it ran, and those that passed
   * there, whose verdicts stand once it has exited cleanly. */
  size_t tasks_run;
  size_t provisional[ADC_TASKS_PER_PREPARED_PROCESS];
  size_t n_provisional;
  /* Every task it ran, in order; the history kept once a task did not
   * pass after others (runner/replay.h), NULL until then. */
  size_t ran[ADC_TASKS_PER_PREPARED_PROCESS + 1];
  struct adc_process_history* history;
  /* A replay's process: the history it runs again, the place of the next
   * task to send, and the first task that did not pass in it (ADC_NO_TASK:
   * none yet); `replaying` NULL for any other. */
  struct adc_process_history* replaying;
  size_t replay_next;
  size_t first_wrong;
  struct adc_output_capture output;
  /* Where output is read into: here rather than on the stack, whose pages
   * every fork write-protects. */
  char read_buffer[ADC_CAPTURE_TAIL / 2];
};

#endif /* ADC_TASK_SLOT_H */
