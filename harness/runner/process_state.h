/* What a task could leave behind in a prepared process (task_runner.h),
 * seen from inside the process: child processes
 * (alive or not yet reaped, the process being a child subreaper, so that
 * a daemon a library double-forks becomes its child too), a changed signal
 * disposition or mask, an interval timer left armed (alarm, setitimer),
 * and memory still held (glibc malloc's bytes in use,
 * every arena, or the sanitizer's allocator's under a sanitizer).  A snapshot is taken once the process is
 * prepared and again after each task; any difference ends the process once the task's verdict is sent, so
 * that the next task starts from what the first found (save memory the process's first task left: the
 * library's first use, runner/prepared_process.c). Reads only this process's own state; no allocation. */
#ifndef ADC_PROCESS_STATE_H
#define ADC_PROCESS_STATE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/time.h>

/* Growth of malloc's bytes in use over one task that counts as memory the
 * task left held: a library's lazy one-off allocations (a first use of
 * stdio, a thread's first buffer) stay below it; a prepared process runs
 * at most ADC_TASKS_PER_PREPARED_PROCESS tasks, which bounds what slower
 * growth adds up to. */
#define ADC_HELD_MEMORY_TOLERANCE ((size_t)256 * 1024)

/* Signals as the kernel shows them: one bit each, signal N at bit N - 1. */
typedef uint64_t adc_signal_bits;

struct adc_process_state {
  size_t memory_in_use; /* malloc's, every arena, mmapped chunks included */
  /* From /proc/self/status, read once: the calling thread's blocked
   * signals, the process's ignored ones and those it catches. */
  adc_signal_bits blocked, ignored, caught;
  bool timer_armed; /* ITIMER_REAL, ITIMER_VIRTUAL or ITIMER_PROF */
  /* Each caught signal's handler, flags and mask (sigaction asks only for
   * these: a case costs two system calls for the others, not sixty). */
  struct {
    void (*handler)(int);
    int flags;
    adc_signal_bits mask;
  } actions[65];
};

/* Takes the snapshot of the calling process. */
void adc_process_state_take(struct adc_process_state* state);

/* Whether the process has a child, alive or a zombie. */
bool adc_process_has_children(void);

/* Compares `after` with `before`; writes what differs, one phrase ("left an
 * interval timer armed; changed the disposition of SIGINT"), to `text`.
 * Returns whether anything does. */
bool adc_process_state_differs(const struct adc_process_state* before, const struct adc_process_state* after,
                               char* text, size_t size);

#endif /* ADC_PROCESS_STATE_H */
