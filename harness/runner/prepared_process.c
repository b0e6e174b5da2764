#include "runner/prepared_process.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <time.h>

#include "runner/process_state.h"
#include "wire/wire.h"

/* Reads the next command; false at the end of the channel or on anything
 * that is not one whole command. */
static bool next_command(int fd, size_t n_tasks, uint64_t* task) {
  struct adc_prepared_command command;
  ssize_t n;
  do {
    n = recv(fd, &command, sizeof(command), 0);
  } while (n < 0 && errno == EINTR);
  if (n != (ssize_t)sizeof(command) || command.task >= n_tasks) return false;
  *task = command.task;
  return true;
}

/* How long, at most, threads a task started are given to finish exiting
 * (a producer's detached thread that has just released what it held), in
 * looks a short sleep apart.  Past it they count as left behind, which
 * ends the process after the task's verdict: it costs a process, never a
 * verdict. */
#define THREAD_EXIT_LOOKS 50
#define THREAD_EXIT_LOOK_NANOSECONDS 100000L

/* The process's state once the threads the task started have had their
 * chance to end. */
static void take_settled_state(const struct adc_process_state* before, struct adc_process_state* after) {
  adc_process_state_take(after);
  for (int look = 0; look < THREAD_EXIT_LOOKS && after->threads > before->threads; look++) {
    nanosleep(&(struct timespec){0, THREAD_EXIT_LOOK_NANOSECONDS}, NULL);
    adc_process_state_take(after);
  }
}

/* Whether `after` differs from `before` in nothing but the memory held. */
static bool only_memory_grew(const struct adc_process_state* before, const struct adc_process_state* after) {
  static struct adc_process_state same_memory; /* large: off the stack */
  same_memory = *after;
  same_memory.memory_in_use = before->memory_in_use;
  char unused[8];
  return !adc_process_state_differs(before, &same_memory, unused, sizeof(unused));
}

/* What the task left: the process's own state against the snapshot taken
 * before it, its children, and what the group sees.  Memory the process's
 * first task left is the library's first use, not a leak: a library that
 * sets up its device lazily does it in its first call there (nanoarrow's
 * CUDA device retains CUDA's primary context and allocates about 14 MB in
 * its first ArrowDeviceCuda), and would otherwise end every process after
 * one task and pay a device start per case.  The state after that task is
 * where the next one starts from; memory any later task leaves ends the
 * process as before. */
static bool left_behind(const struct adc_task_group* group, struct adc_process_state* before, bool first_task,
                        char* text, size_t size) {
  static struct adc_process_state after; /* large: off the stack */
  take_settled_state(before, &after);
  bool left = adc_process_state_differs(before, &after, text, size);
  if (left && first_task && only_memory_grew(before, &after)) {
    left = false;
    text[0] = '\0';
  }
  if (!left) *before = after; /* the next task starts from it */
  size_t used = strlen(text);
  if (adc_process_has_children() && used + 40 < size) {
    used += (size_t)snprintf(text + used, size - used, "%sleft a child process behind", left ? "; " : "");
    left = true;
  }
  if (group->left_behind != NULL && used + 3 < size) {
    char more[512];
    if (group->left_behind(group->argument, more, sizeof(more))) {
      snprintf(text + used, size - used, "%s%s", left ? "; " : "", more);
      left = true;
    }
  }
  return left;
}

void adc_serve_prepared(const struct adc_task_group* group, const struct adc_task* tasks, size_t n_tasks,
                        int fd) {
  /* A daemon a library double-forks becomes this process's child, and so
   * shows as left behind; the harness kills it with the process. */
  prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
  struct adc_error error;
  bool refused = false;
  if (group->prepare(group->argument, &refused, &error) != 0) {
    if (refused) {
      adc_wire_send_kind(fd, ADC_WIRE_REFUSED, error.message);
    } else {
      adc_wire_send(fd, ADC_UNRESOLVED, error.message);
    }
    exit(0);
  }
  adc_wire_send_kind(fd, ADC_WIRE_READY, "");
  /* The state each task starts from: taken once, then the state the task
   * before left, which was the same but for memory within the tolerance. */
  static struct adc_process_state before; /* large: off the stack */
  adc_process_state_take(&before);
  uint64_t task;
  bool first_task = true;
  while (next_command(fd, n_tasks, &task)) {
    adc_wire_set_task(task);
    struct adc_task_verdict verdict = {ADC_PASS, ""};
    tasks[task].run_prepared(tasks[task].argument, &verdict);
    char left[sizeof(((struct adc_wire_record*)0)->message)];
    bool ends = left_behind(group, &before, first_task, left, sizeof(left));
    first_task = false;
    /* Said before the verdict, so that the parent gives this process no
     * next task. */
    if (ends) adc_wire_send_kind(fd, ADC_WIRE_LEFT_BEHIND, left);
    adc_wire_send(fd, verdict.status, verdict.message);
    if (ends) break;
  }
  /* exit(), not _exit(): the library's destructors run, and a leak
   * checker's report, as at the end of a process of its own. */
  exit(0);
}
