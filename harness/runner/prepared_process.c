#include "runner/prepared_process.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>

#include "runner/kept_threads.h"
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

/* Whether `after` differs from `before` in nothing but the memory held. */
static bool only_memory_grew(const struct adc_process_state* before, const struct adc_process_state* after) {
  static struct adc_process_state same_memory; /* large: off the stack */
  same_memory = *after;
  same_memory.memory_in_use = before->memory_in_use;
  char unused[8];
  return !adc_process_state_differs(before, &same_memory, unused, sizeof(unused));
}

/* Appends "; " and `phrase` to the phrases in `text`. */
static void add_phrase(char* text, size_t size, const char* phrase) {
  size_t used = strlen(text);
  if (used + 3 < size) snprintf(text + used, size - used, "%s%s", used > 0 ? "; " : "", phrase);
}

/* What the task left: threads of the library still running once they have
 * had their chance to block (kept_threads.h), the process's own state
 * against the snapshot taken before it, its children, and what the group
 * sees.  Memory the process's first task left is the library's first use,
 * not a leak: a library that sets up its device lazily does it in its
 * first call there (nanoarrow's CUDA device retains CUDA's primary context
 * and allocates about 14 MB in its first ArrowDeviceCuda), and would
 * otherwise end every process after one task and pay a device start per
 * case.  The state after that task is where the next one starts from;
 * memory any later task leaves ends the process as before. */
static bool left_behind(const struct adc_task_group* group, struct adc_process_state* before, bool first_task,
                        char* text, size_t size) {
  char running[256] = "";
  bool threads_left = adc_kept_threads_settle(running, sizeof(running));
  static struct adc_process_state after; /* large: off the stack */
  adc_process_state_take(&after);
  bool left = adc_process_state_differs(before, &after, text, size);
  if (left && first_task && only_memory_grew(before, &after)) {
    left = false;
    text[0] = '\0';
  }
  if (!left) *before = after; /* the next task starts from it */
  if (adc_process_has_children()) {
    add_phrase(text, size, "left a child process behind");
    left = true;
  }
  char more[512];
  if (group->left_behind != NULL && group->left_behind(group->argument, more, sizeof(more))) {
    add_phrase(text, size, more);
    left = true;
  }
  /* The group's look called the library (BytesAllocated, a device's
   * synchronisation): what it woke blocks again before the next task. */
  if (!threads_left) threads_left = adc_kept_threads_settle(running, sizeof(running));
  if (threads_left) add_phrase(text, size, running);
  return left || threads_left;
}

/* A verdict a thread of the library may have changed by itself (it ran
 * during the task when its wait could have ended by itself): the task is
 * not judged here, and runs again alone. */
static bool distrust(struct adc_task_verdict* verdict, const char* why) {
  if (!adc_status_found_nothing_wrong(verdict->status)) return false; /* its own */
  char given[sizeof(verdict->message)];
  snprintf(given, sizeof(given), "%s", verdict->message);
  snprintf(verdict->message, sizeof(verdict->message),
           "not judged in the prepared process, where it gave %s (%.300s): %.600s",
           adc_status_name(verdict->status), given, why);
  verdict->status = ADC_UNRESOLVED;
  return true;
}

/* A task the process does not run: a thread of the library ran between the
 * tasks, with no call in progress.  It runs alone; the process ends. */
static void decline_task(int fd, const char* why) {
  char message[sizeof(((struct adc_wire_record*)0)->message)];
  snprintf(message, sizeof(message), "not run in the prepared process: %.900s", why);
  adc_wire_send_kind(fd, ADC_WIRE_LEFT_BEHIND, why);
  adc_wire_send_kind(fd, ADC_WIRE_NOT_JUDGED, "");
  adc_wire_send(fd, ADC_UNRESOLVED, message);
}

void adc_serve_prepared(const struct adc_task_group* group, const struct adc_task* tasks, size_t n_tasks,
                        int fd) {
  /* A daemon a library double-forks becomes this process's child, and so
   * shows as left behind; the harness kills it with the process. */
  prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
  /* Until the group's prepare says otherwise, the threads now are the
   * process's own. */
  adc_kept_threads_begin();
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
  /* Threads the library started as it loaded are its own, and block
   * before its first task as after every task. */
  char unused[256];
  adc_kept_threads_settle(unused, sizeof(unused));
  adc_wire_send_kind(fd, ADC_WIRE_READY, "");
  /* The state each task starts from: taken once, then the state the task
   * before left, which was the same but for memory within the tolerance. */
  static struct adc_process_state before; /* large: off the stack */
  adc_process_state_take(&before);
  uint64_t task;
  bool first_task = true;
  while (next_command(fd, n_tasks, &task)) {
    adc_wire_set_task(task);
    char left[sizeof(((struct adc_wire_record*)0)->message)] = "";
    if (adc_kept_threads_ran_between(left, sizeof(left))) {
      decline_task(fd, left);
      break;
    }
    struct adc_task_verdict verdict = {ADC_PASS, ""};
    tasks[task].run_prepared(tasks[task].argument, &verdict);
    bool ends = left_behind(group, &before, first_task, left, sizeof(left));
    first_task = false;
    char woke[512];
    bool not_judged = false;
    if (adc_kept_threads_woke_by_themselves(woke, sizeof(woke))) {
      add_phrase(left, sizeof(left), woke);
      not_judged = distrust(&verdict, woke);
      ends = true;
    }
    char kept[sizeof(((struct adc_task_result*)0)->shared.kept_threads)];
    if (adc_kept_threads_name_new(kept, sizeof(kept))) adc_wire_send_kind(fd, ADC_WIRE_KEPT, kept);
    /* Said before the verdict, so that the parent gives this process no
     * next task. */
    if (ends) adc_wire_send_kind(fd, ADC_WIRE_LEFT_BEHIND, left);
    if (not_judged) adc_wire_send_kind(fd, ADC_WIRE_NOT_JUDGED, "");
    adc_wire_send(fd, verdict.status, verdict.message);
    if (ends) break;
  }
  /* exit(), not _exit(): the library's destructors run, and a leak
   * checker's report, as at the end of a process of its own. */
  exit(0);
}
