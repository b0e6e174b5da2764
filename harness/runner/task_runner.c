#include "runner/task_runner.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runner/orphans.h"
#include "runner/preload_server.h"
#include "runner/prepared_process.h"
#include "runner/task_outcome.h"
#include "runner/task_process.h"
#include "runner/task_queue.h"
#include "support/clock.h"
#include "support/parent_only_memory.h"
#include "wire/wire.h"

/* How often, at least, processes left behind are looked for during a run. */
#define SWEEP_SECONDS 0.5
/* How long a prepared process told to end may take to exit: its library's
 * destructors run, and a leak checker's report where there is one. */
#define CLOSE_SECONDS 30.0

/* SIGCHLD, SIGINT and SIGTERM are blocked while tasks run and read from
 * this descriptor, which poll() watches with the tasks' output: a child's
 * end wakes the loop at once, without a signal handler, and a task's
 * process has no handler to undo. */
static int signal_fd = -1;
/* /dev/null, opened once per run: every task's standard input. */
static int null_input = -1;
static int interrupting_signal;
static int last_interruption;

struct saved_signals {
  struct sigaction child, interrupt, terminate;
  sigset_t mask;
};

/* A run's own descriptors must not take the numbers 0, 1 and 2, which a
 * task's process replaces: where the harness was started with one of
 * them closed, /dev/null takes its place. */
static void keep_standard_descriptors_taken(void) {
  for (int fd = STDIN_FILENO; fd <= STDERR_FILENO; fd++) {
    if (fcntl(fd, F_GETFD) == -1 && errno == EBADF) {
      int opened = open("/dev/null", O_RDWR);
      if (opened >= 0 && opened != fd) close(opened);
    }
  }
}

static int install_signals(struct saved_signals* saved, struct adc_error* error) {
  keep_standard_descriptors_taken();
  sigset_t run_signals;
  sigemptyset(&run_signals);
  sigaddset(&run_signals, SIGCHLD);
  sigaddset(&run_signals, SIGINT);
  sigaddset(&run_signals, SIGTERM);
  /* Default actions while blocked: an ignored signal would be discarded
   * rather than read, and a task's process starts with the default. */
  struct sigaction default_action;
  memset(&default_action, 0, sizeof(default_action));
  default_action.sa_handler = SIG_DFL;
  sigemptyset(&default_action.sa_mask);
  sigaction(SIGCHLD, &default_action, &saved->child);
  sigaction(SIGINT, &default_action, &saved->interrupt);
  sigaction(SIGTERM, &default_action, &saved->terminate);
  sigprocmask(SIG_BLOCK, &run_signals, &saved->mask);
  interrupting_signal = 0;
  signal_fd = signalfd(-1, &run_signals, SFD_NONBLOCK | SFD_CLOEXEC);
  null_input = open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (signal_fd < 0) return adc_fail(error, "cannot read signals from a descriptor: %s", strerror(errno));
  return 0;
}

/* Reads the signals that arrived; notes SIGINT or SIGTERM. */
static void take_signals(void) {
  struct signalfd_siginfo arrived[4];
  ssize_t n;
  while ((n = read(signal_fd, arrived, sizeof(arrived))) > 0) {
    for (size_t i = 0; i < (size_t)n / sizeof(arrived[0]); i++) {
      int number = (int)arrived[i].ssi_signo;
      if (number == SIGINT || number == SIGTERM) interrupting_signal = number;
    }
    /* Each signal is pending once at most: a short read took them all. */
    if ((size_t)n < sizeof(arrived)) return;
  }
}

static void restore_signals(const struct saved_signals* saved) {
  /* A SIGINT or SIGTERM that came after the last task ended is taken
   * here, as a handler would have taken it: once the mask is restored, it
   * would end the harness before its report is written. */
  if (signal_fd >= 0) {
    take_signals();
    close(signal_fd);
  }
  signal_fd = -1;
  sigaction(SIGCHLD, &saved->child, NULL);
  sigaction(SIGINT, &saved->interrupt, NULL);
  sigaction(SIGTERM, &saved->terminate, NULL);
  sigprocmask(SIG_SETMASK, &saved->mask, NULL);
  if (null_input >= 0) close(null_input);
  null_input = -1;
}

/* ---- the run's state ------------------------------------------------------ */

struct run_state {
  const struct adc_task* tasks;
  size_t n_tasks;
  const struct adc_task_run* run;
  struct adc_task_result* results;
  struct adc_task_queue queue;
  struct adc_slot* slots; /* parent-only memory: `jobs`, then the waiting slots */
  int n_slots;
  int n_waiting_slots; /* the last slots, for tasks that mostly wait */
  pid_t* running;      /* scratch: the pids of the running processes */
  pid_t harness;       /* this process, which a task's process checks is its parent */
  /* Forks the processes of preloaded tasks and groups; pid 0 when there is none. */
  struct adc_preload_server server;
  /* What prepared processes ran where a task did not pass after others. */
  struct adc_replay_book replays;
  bool interrupted;
  int status; /* 0, or -1 once the harness itself could not go on */
  struct adc_error* error;
};

/* The preloading server's requests name a task, or a group's prepared
 * process as n_tasks + the index of one of the group's tasks (the queue,
 * parent-only memory, is not the child's to read: the task is). */
static size_t request_for_group(const struct run_state* state, size_t group) {
  return state->n_tasks + state->queue.group_tasks[state->queue.group_first[group]];
}

/* Says once, on standard error, why the preloading server is gone: the
 * run goes on, its processes then starting from the harness, slower. */
static void say_server_lost(const char* why) {
  fprintf(stderr, "adc-conform: warning: %s; the cases it would have forked start from the harness\n", why);
}

/* A task's verdict is final: the caller hears of it.  But a task run
 * again that passed where it had not after other tasks waits, its verdict
 * open, for the replay of the process where it had not (replay.h). */
static void conclude(struct run_state* state, size_t index) {
  enum adc_status status = state->results[index].status;
  bool passed = adc_status_found_nothing_wrong(status);
  if (!state->interrupted && adc_history_rerun_settled(&state->replays, index, passed)) return;
  adc_task_queue_done(&state->queue, index);
  if (state->run->on_result != NULL)
    state->run->on_result(index, &state->results[index], state->run->context);
}

/* A task a refusing device gave up on ends unresolved without a process. */
static void give_up_task(size_t index, const char* reason, void* context) {
  struct run_state* state = context;
  const struct adc_task_resource* resource = state->tasks[index].resource;
  struct adc_task_result* result = &state->results[index];
  result->status = ADC_UNRESOLVED;
  result->seconds = 0;
  snprintf(result->message, sizeof(result->message),
           "not run: %s refused %d processes in a row after the run's probe found it: %.900s",
           resource != NULL ? resource->name : "the device", ADC_RESOURCE_REFUSALS_TOLERATED, reason);
  conclude(state, index);
}

/* ---- starting a process --------------------------------------------------- */

/* In a process forked by the harness or the preloading server: runs task
 * `request` in a process of its own, or serves a prepared process. */
static _Noreturn void run_in_process(const struct run_state* state, size_t request, int channel_fd) {
  if (request >= state->n_tasks) {
    adc_serve_prepared(state->tasks[request - state->n_tasks].group, state->tasks, state->n_tasks,
                       channel_fd);
  }
  const struct adc_task* task = &state->tasks[request];
  task->run(task->argument, channel_fd);
  /* exit(), not _exit(): library destructors run, and so do leak
   * checkers, whose reports then become this case's verdict. */
  exit(0);
}

/* In a process forked by the preloading server (preload_server.h). */
static void run_served(void* context, size_t request, int channel_fd, int output_fd, pid_t forked_by) {
  const struct run_state* state = context;
  size_t task = request < state->n_tasks ? request : 0;
  adc_become_task_process(state->harness, forked_by, state->run, null_input, channel_fd, output_fd, task);
  run_in_process(state, request, ADC_TASK_CHANNEL_FD);
}

/* Forks request `request`'s process from the harness; its pid, or -1 with errno. */
static pid_t fork_from_harness(const struct run_state* state, size_t request, int channel_fd, int output_fd) {
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    size_t task = request < state->n_tasks ? request : 0;
    adc_become_task_process(state->harness, state->harness, state->run, null_input, channel_fd, output_fd,
                            task);
    run_in_process(state, request, ADC_TASK_CHANNEL_FD);
  }
  /* Also from this side, so that the group exists before either goes on. */
  if (pid > 0) setpgid(pid, pid);
  return pid;
}

/* Starts request `request` (a task, or a group's prepared process) in
 * slot `slot`, by the preloading server where `preloaded`.  0, or -1 with
 * the reason when no process could be made. */
static int start_process(struct run_state* state, struct adc_slot* slot, size_t request, bool preloaded) {
  int channel[2];
  int output[2];
  if (adc_make_channels(channel, output, state->error) != 0) return -1;
  pid_t pid = -1;
  /* A server that fails is stopped; the process, and those after it, then
   * start from the harness, loading their runtime themselves. */
  struct adc_error server_error;
  bool served = preloaded && state->server.pid != 0;
  if (served &&
      adc_preload_server_spawn(&state->server, request, channel[1], output[1], &pid, &server_error) != 0) {
    say_server_lost(server_error.message);
    served = false;
    /* A middle process may outlive the server and fork the process after
     * all: new channels, so that nothing it writes reaches the one started
     * here (the harness kills it as a process left behind). */
    adc_close_pair(channel);
    adc_close_pair(output);
    if (adc_make_channels(channel, output, state->error) != 0) return -1;
  }
  if (!served) pid = fork_from_harness(state, request, channel[1], output[1]);
  if (pid < 0) {
    int fork_errno = errno;
    adc_close_pair(channel);
    adc_close_pair(output);
    return adc_fail(state->error, "cannot start a case process: %s", strerror(fork_errno));
  }
  close(channel[1]);
  bool waiting = slot->waiting;
  memset(slot, 0, offsetof(struct adc_slot, output));
  slot->waiting = waiting;
  slot->pid = pid;
  slot->channel_fd = channel[0];
  slot->output_fd = output[0];
  slot->output_write_fd = output[1];
  slot->started = adc_now_seconds();
  slot->task_started = slot->started;
  slot->resource = -1;
  adc_capture_reset(&slot->output);
  return 0;
}

/* Starts task `index` in a process of its own. */
static int start_alone(struct run_state* state, struct adc_slot* slot, size_t index) {
  const struct adc_task* task = &state->tasks[index];
  if (start_process(state, slot, index, task->preloaded) != 0) return -1;
  slot->has_task = true;
  slot->index = index;
  slot->resource = adc_task_queue_resource_of(&state->queue, index);
  slot->alone_on_resource = adc_task_queue_hold(&state->queue, slot->resource);
  bool timed_start = task->start_seconds > 0;
  slot->phase = timed_start ? ADC_PHASE_STARTING : ADC_PHASE_RUNNING;
  slot->deadline = slot->started + (timed_start ? task->start_seconds : task->timeout_seconds);
  return 0;
}

/* Starts a prepared process of group `group`, which holds the device of
 * the group's tasks. */
static int start_prepared(struct run_state* state, struct adc_slot* slot, size_t group) {
  const struct adc_task_group* task_group = state->queue.groups[group];
  if (start_process(state, slot, request_for_group(state, group), task_group->preloaded) != 0) return -1;
  slot->prepared = true;
  slot->group = group;
  const size_t* tasks = state->queue.group_tasks + state->queue.group_first[group];
  slot->resource = adc_task_queue_resource_of(&state->queue, tasks[0]);
  slot->alone_on_resource = adc_task_queue_hold(&state->queue, slot->resource);
  slot->phase = ADC_PHASE_STARTING;
  slot->deadline = slot->started + task_group->start_seconds;
  return 0;
}

/* ---- a prepared process's tasks -------------------------------------------- */

/* Tells a prepared process to end: it exits once it reads the end of its
 * channel, which confirms the tasks it passed. */
static void close_prepared(struct adc_slot* slot) {
  shutdown(slot->channel_fd, SHUT_WR);
  slot->phase = ADC_PHASE_CLOSING;
  slot->deadline = adc_now_seconds() + CLOSE_SECONDS;
}

/* Gives a ready prepared process its next task, or tells it to end.  Its
 * first may be a task waiting to run again alone (task_queue.h). */
static void dispatch(struct run_state* state, struct adc_slot* slot) {
  size_t index;
  bool goes_on = !state->interrupted && state->status == 0 && !slot->left_behind &&
                 slot->tasks_run < ADC_TASKS_PER_PREPARED_PROCESS;
  struct adc_task_queue* queue = &state->queue;
  if (slot->replaying != NULL) {
    /* A replay's: the history's tasks in order, up to the last it is for. */
    const struct adc_process_history* history = slot->replaying;
    goes_on = goes_on && slot->replay_next < history->replay_end && slot->replay_next < history->n_tasks;
    if (goes_on) index = history->tasks[slot->replay_next++];
  } else if (goes_on) {
    /* After its first task, a process goes on only once no family of its
     * group waits for its first judgement (adc_task_queue_families_unjudged). */
    goes_on = (slot->tasks_run == 0 &&
               adc_task_queue_next_first_of_group(queue, slot->group, slot->waiting, &index)) ||
              ((slot->tasks_run == 0 || !adc_task_queue_families_unjudged(queue, slot->group)) &&
               adc_task_queue_next_of_group(queue, slot->group, slot->waiting, &index));
  }
  if (!goes_on) {
    close_prepared(slot);
    return;
  }
  struct adc_prepared_command command = {index};
  /* A process that died meanwhile is settled when it is reaped: its task
   * then runs alone. */
  send(slot->channel_fd, &command, sizeof(command), MSG_NOSIGNAL | MSG_DONTWAIT);
  slot->has_task = true;
  slot->index = index;
  slot->phase = ADC_PHASE_RUNNING;
  slot->task_started = adc_now_seconds();
  slot->deadline = slot->task_started + state->tasks[index].timeout_seconds;
  adc_capture_reset(&slot->output); /* what it prints from now on is this task's */
}

/* A task that did not pass in a prepared process runs again alone; what
 * it did there is kept with its result. */
static void run_again_alone(struct run_state* state, size_t index, enum adc_status status,
                            const char* message) {
  struct adc_shared_attempt* shared = &state->results[index].shared;
  shared->ran = true;
  /* A task run again more than once (its second process too did not end
   * cleanly) keeps what its first prepared process gave. */
  if (!shared->rerun_alone) {
    shared->status = status;
    snprintf(shared->message, sizeof(shared->message), "%.*s", (int)sizeof(shared->message) - 1, message);
  }
  shared->rerun_alone = true;
  adc_task_queue_run_alone(&state->queue, index);
}

/* Task `index` did not pass (a verdict of its own) at `place` in the
 * slot's prepared process: where tasks ran before it, its process's
 * history is kept for a replay. */
static void note_not_passing(struct run_state* state, struct adc_slot* slot, size_t index, size_t place) {
  if (place == 0) return;
  if (slot->history == NULL) slot->history = adc_history_new(slot->group);
  if (slot->history != NULL) adc_history_add_failure(&state->replays, slot->history, index, place);
}

/* The verdict on the first task a prepared process ran, which had nothing
 * of the library's run before it, as in a process of its own: it stands,
 * without a second run. */
static void settle_first_task(struct run_state* state, struct adc_slot* slot, enum adc_status status,
                              const char* message) {
  struct adc_task_result* result = &state->results[slot->index];
  result->status = status;
  snprintf(result->message, sizeof(result->message), "%s", message);
  result->seconds = adc_now_seconds() - slot->task_started;
  result->shared.ran = true;
  result->shared.first_in_process = true;
  conclude(state, slot->index);
}

/* ---- replays (replay.h) ---------------------------------------------------- */

static const char* task_name(const struct run_state* state, size_t index, char* buffer, size_t size) {
  if (index < state->n_tasks && state->tasks[index].name != NULL) return state->tasks[index].name;
  snprintf(buffer, size, "task %zu", index);
  return buffer;
}

/* The replay of `history` gave task `index` its verdict (`reached`, with
 * `status` and `message`), `earlier_wrong` the first task before it there
 * that did not pass (ADC_NO_TASK: every one passed), or could not reach it
 * (`message` says why).  A failure given again after earlier tasks that
 * all passed is the task's verdict, a finding of the library's; one given
 * again after an earlier task went wrong is that task's consequence (its
 * own verdict judges it), said beside the pass the task's run alone gave,
 * naming it; one not given again is said beside that pass too. */
static void settle_replayed(struct run_state* state, struct adc_process_history* history, size_t index,
                            bool reached, enum adc_status status, const char* message, size_t earlier_wrong) {
  struct adc_task_result* result = &state->results[index];
  struct adc_shared_attempt* shared = &result->shared;
  size_t earlier = state->replays.place[index];
  char first_buffer[32];
  const char* first = earlier_wrong == ADC_NO_TASK
                          ? "this one"
                          : task_name(state, earlier_wrong, first_buffer, sizeof(first_buffer));
  shared->replayed = true;
  shared->earlier_tasks = earlier;
  snprintf(shared->first_to_go_wrong, sizeof(shared->first_to_go_wrong), "%s", first);
  shared->reproduced = reached && !adc_status_found_nothing_wrong(status);
  if (shared->reproduced && earlier_wrong == ADC_NO_TASK) {
    result->status = status;
    snprintf(result->message, sizeof(result->message),
             "%.700s [only after %zu earlier case(s) in one process, each of which passed: alone it passed, "
             "and a fresh process that ran those cases again, in order, then this one, gave it again]",
             message, earlier);
  } else {
    /* Said beside the pass its run alone gave. */
    char note[sizeof(result->message)];
    if (shared->reproduced) {
      snprintf(note, sizeof(note),
               "alone it passed; it gives %s (%.400s) only after %zu earlier case(s) in one process, one of "
               "which went wrong first, %.256s, whose own verdict judges that (a replay of the process gave "
               "it again)",
               adc_status_name(status), message, earlier, first);
    } else {
      snprintf(
          note, sizeof(note),
          "failed once, not again: in a prepared process, after %zu earlier case(s), it gave %s (%.300s); "
          "alone it passed, and a fresh process that ran those cases again, in order, then this one, "
          "%s%.300s",
          earlier, adc_status_name(shared->status), shared->message,
          reached ? "passed it too" : "did not reach it: ", reached ? "" : message);
    }
    size_t used = strlen(result->message);
    snprintf(result->message + used, sizeof(result->message) - used, "%s%s", used > 0 ? "; " : "", note);
  }
  adc_replay_settled(&state->replays, history, index);
  conclude(state, index);
}

/* A replay's process gave a verdict: the task's, where it waits for it. */
static void take_replay_verdict(struct run_state* state, struct adc_slot* slot,
                                const struct adc_wire_record* record, bool judged) {
  size_t index = slot->index;
  slot->has_task = false;
  slot->tasks_run++;
  slot->kept_named = false;
  enum adc_status status = (enum adc_status)record->status;
  size_t earlier_wrong = slot->first_wrong;
  if (!adc_status_found_nothing_wrong(status) && slot->first_wrong == ADC_NO_TASK) slot->first_wrong = index;
  if (adc_replay_wants(&state->replays, slot->replaying, index))
    settle_replayed(state, slot->replaying, index, judged, status, record->message, earlier_wrong);
  slot->phase = ADC_PHASE_IDLE;
  dispatch(state, slot);
}

/* The tasks still waiting for the replay of `history` are settled as not
 * reached, for `why`; the history is freed. */
static void abandon_replay(struct run_state* state, struct adc_process_history* history, const char* why) {
  for (size_t index = 0; index < state->n_tasks && history->wanting > 0; index++) {
    if (adc_replay_wants(&state->replays, history, index))
      settle_replayed(state, history, index, false, 0, why, ADC_NO_TASK);
  }
  adc_replay_free(history);
}

/* A replay's process ended: the tasks it did not reach (or did not judge)
 * are settled so; the one it was running when it died or was killed has
 * that for its verdict there. */
static void finish_replay(struct run_state* state, struct adc_slot* slot, int wait_status) {
  struct adc_process_history* history = slot->replaying;
  char why[300];
  if (!slot->ready) {
    snprintf(why, sizeof(why), "its process could not be prepared%s%.200s", slot->refused ? ": " : "",
             slot->refused ? slot->refusal : "");
  } else {
    adc_describe_unclean_end(slot, wait_status, why, sizeof(why));
  }
  if (slot->ready && slot->has_task && adc_replay_wants(&state->replays, history, slot->index)) {
    enum adc_status status;
    char message[sizeof(((struct adc_task_result*)0)->message)];
    adc_settle_interrupted_task(slot, wait_status, &state->tasks[slot->index], last_interruption, &status,
                                message, sizeof(message));
    settle_replayed(state, history, slot->index, slot->cause != ADC_INTERRUPTED, status, message,
                    slot->first_wrong);
  }
  abandon_replay(state, history, why);
  slot->replaying = NULL;
}

/* Starts the replay of the next history ready for one in `slot`, where
 * its device admits a process: true where it started one. */
static bool start_replay(struct run_state* state, struct adc_slot* slot) {
  struct adc_process_history* history = state->replays.n_ready > 0 ? state->replays.ready[0] : NULL;
  if (history == NULL || slot->waiting) return false;
  size_t group = history->group;
  const size_t* tasks = state->queue.group_tasks + state->queue.group_first[group];
  int resource = adc_task_queue_resource_of(&state->queue, tasks[0]);
  if (!adc_task_queue_admits(&state->queue, resource, adc_now_seconds())) return false;
  adc_replay_next(&state->replays);
  const struct adc_task_group* task_group = state->queue.groups[group];
  if (start_process(state, slot, request_for_group(state, group), task_group->preloaded) != 0) {
    /* Not replayed: its tasks keep their runs alone's verdicts, said so. */
    char why[sizeof(state->error->message) + 32];
    snprintf(why, sizeof(why), "its process could not start: %s", state->error->message);
    abandon_replay(state, history, why);
    return false;
  }
  slot->prepared = true;
  slot->group = group;
  slot->first_wrong = ADC_NO_TASK;
  slot->replaying = history;
  slot->replay_next = 0;
  slot->resource = resource;
  slot->alone_on_resource = adc_task_queue_hold(&state->queue, resource);
  slot->phase = ADC_PHASE_STARTING;
  slot->deadline = slot->started + task_group->start_seconds;
  return true;
}

/* The verdict a prepared process gave its task. */
static void take_prepared_verdict(struct run_state* state, struct adc_slot* slot,
                                  const struct adc_wire_record* record) {
  size_t index = slot->index;
  bool first = slot->tasks_run == 0;
  bool judged = !slot->not_judged;
  slot->not_judged = false;
  slot->ran[slot->tasks_run] = index;
  if (slot->replaying != NULL) {
    take_replay_verdict(state, slot, record, judged);
    return;
  }
  if (slot->left_behind) {
    char* left = state->results[index].shared.left_behind;
    size_t size = sizeof(state->results[index].shared.left_behind);
    snprintf(left, size, "%.*s", (int)size - 1, slot->left_what);
  }
  if (slot->kept_named) {
    char* kept = state->results[index].shared.kept_threads;
    size_t size = sizeof(state->results[index].shared.kept_threads);
    snprintf(kept, size, "%.*s", (int)size - 1, slot->kept_what);
    slot->kept_named = false;
  }
  slot->has_task = false;
  slot->tasks_run++;
  enum adc_status status = (enum adc_status)record->status;
  if (adc_status_found_nothing_wrong(status)) {
    if (first) {
      adc_task_queue_clear_family(&state->queue, index);
      adc_task_queue_first_call_passed(&state->queue, index);
    }
    struct adc_task_result* result = &state->results[index];
    result->status = status;
    snprintf(result->message, sizeof(result->message), "%s", record->message);
    result->seconds = adc_now_seconds() - slot->task_started;
    result->shared.ran = true;
    adc_task_queue_provisional(&state->queue, index);
    slot->provisional[slot->n_provisional++] = index;
  } else if (first && judged) {
    note_not_passing(state, slot, index, 0);
    settle_first_task(state, slot, status, record->message);
  } else {
    if (judged) note_not_passing(state, slot, index, slot->tasks_run - 1);
    run_again_alone(state, index, status, record->message);
  }
  slot->phase = ADC_PHASE_IDLE;
  dispatch(state, slot);
}

/* ---- records ---------------------------------------------------------------- */

static void out_of_place(struct adc_slot* slot, size_t bytes) {
  slot->malformed = true;
  slot->malformed_out_of_place = true;
  slot->malformed_bytes = bytes;
}

/* A record from a process of its own: [READY] then a verdict, or REFUSED. */
static void take_alone_record(struct run_state* state, struct adc_slot* slot,
                              const struct adc_wire_record* record) {
  bool about_its_task = record->task == slot->index;
  if (record->kind == ADC_WIRE_READY && !slot->ready && !slot->verdict_came && !slot->refused &&
      about_its_task) {
    slot->ready = true;
    slot->task_started = adc_now_seconds();
    slot->phase = ADC_PHASE_RUNNING;
    slot->deadline = slot->task_started + state->tasks[slot->index].timeout_seconds;
    adc_task_queue_accepted(&state->queue, slot->resource);
  } else if (record->kind == ADC_WIRE_REFUSED && !slot->ready && !slot->verdict_came && !slot->refused &&
             about_its_task) {
    slot->refused = true;
    snprintf(slot->refusal, sizeof(slot->refusal), "%s", record->message);
  } else if (record->kind == ADC_WIRE_VERDICT && !slot->verdict_came && !slot->refused && about_its_task) {
    slot->verdict_came = true;
    slot->verdict = *record;
  } else {
    out_of_place(slot, sizeof(*record));
  }
}

/* A record from a prepared process: READY (or a failed prepare's verdict,
 * or REFUSED), then per task [KEPT] [LEFT_BEHIND] and its verdict. */
static void take_prepared_record(struct run_state* state, struct adc_slot* slot,
                                 const struct adc_wire_record* record) {
  bool starting = slot->phase == ADC_PHASE_STARTING;
  bool about_its_task = slot->phase == ADC_PHASE_RUNNING && record->task == slot->index;
  if (starting && record->kind == ADC_WIRE_READY) {
    slot->ready = true;
    adc_task_queue_accepted(&state->queue, slot->resource);
    if (slot->replaying == NULL) adc_task_queue_prepared_ready(&state->queue, slot->group);
    slot->phase = ADC_PHASE_IDLE;
    dispatch(state, slot);
  } else if (starting && record->kind == ADC_WIRE_REFUSED && !slot->refused && !slot->verdict_came) {
    slot->refused = true;
    snprintf(slot->refusal, sizeof(slot->refusal), "%s", record->message);
  } else if (starting && record->kind == ADC_WIRE_VERDICT && !slot->refused && !slot->verdict_came) {
    slot->verdict_came = true; /* its prepare failed: the group's tasks will run alone */
    slot->verdict = *record;
  } else if (about_its_task && record->kind == ADC_WIRE_KEPT && !slot->kept_named && !slot->left_behind) {
    slot->kept_named = true;
    snprintf(slot->kept_what, sizeof(slot->kept_what), "%s", record->message);
  } else if (about_its_task && record->kind == ADC_WIRE_LEFT_BEHIND && !slot->left_behind) {
    slot->left_behind = true;
    snprintf(slot->left_what, sizeof(slot->left_what), "%s", record->message);
  } else if (about_its_task && record->kind == ADC_WIRE_NOT_JUDGED && !slot->not_judged) {
    slot->not_judged = true;
  } else if (about_its_task && record->kind == ADC_WIRE_VERDICT) {
    take_prepared_verdict(state, slot, record);
  } else {
    out_of_place(slot, sizeof(*record));
  }
}

static void kill_group(struct adc_slot* slot, enum adc_end_cause cause) {
  if (slot->killed) return;
  slot->killed = true;
  slot->cause = cause;
  kill(-slot->pid, SIGKILL);
}

static void take_record(struct adc_slot* slot, const struct adc_wire_record* record, void* context) {
  if (record->kind == ADC_WIRE_CRASH_SITE) {
    /* At any point of the process's life: it dies next. */
    if (!slot->crash_site_came) snprintf(slot->crash_site, sizeof(slot->crash_site), "%s", record->message);
    slot->crash_site_came = true;
  } else if (slot->prepared) {
    take_prepared_record(context, slot, record);
  } else {
    take_alone_record(context, slot, record);
  }
}

/* Reads what the slot's process sent; a process that sent what it must
 * not is killed at once (its task is then judged from that). */
static void read_records(struct run_state* state, struct adc_slot* slot) {
  adc_read_records(slot, take_record, state);
  if (slot->malformed) kill_group(slot, ADC_ENDED);
}

/* ---- settling a process's end --------------------------------------------- */

static void close_slot_descriptors(struct adc_slot* slot) {
  /* Whoever still holds the pipes (a process that left the group) is not
   * waited for. */
  close(slot->channel_fd);
  close(slot->output_fd);
  close(slot->output_write_fd);
  slot->channel_fd = slot->output_fd = slot->output_write_fd = -1;
}

/* A process of its own ended. */
static void finish_alone(struct run_state* state, struct adc_slot* slot, int wait_status) {
  size_t index = slot->index;
  const struct adc_task* task = &state->tasks[index];
  double now = adc_now_seconds();
  bool timed_start_hung = slot->cause == ADC_TIMED_OUT && task->start_seconds > 0 && !slot->ready;
  if (slot->refused && slot->cause != ADC_INTERRUPTED && !slot->malformed) {
    /* Not the task's verdict: the device's.  It runs again once the
     * device admits another process. */
    adc_task_queue_refused(&state->queue, slot->resource, now, slot->refusal, slot->alone_on_resource);
    adc_task_queue_run_alone(&state->queue, index);
    return;
  }
  if (timed_start_hung) {
    char reason[128];
    snprintf(reason, sizeof(reason), "a process's device did not open within %g s", task->start_seconds);
    adc_task_queue_refused(&state->queue, slot->resource, now, reason, slot->alone_on_resource);
  }
  adc_settle_alone(slot, wait_status, task, last_interruption, now, state->run->suite_objects,
                   &state->results[index]);
  conclude(state, index);
}

/* Whether a prepared process ended as told: exited 0 once its channel was
 * closed (or after a task that left something), nothing else amiss. */
static bool ended_cleanly(const struct adc_slot* slot, int wait_status) {
  return slot->phase == ADC_PHASE_CLOSING && !slot->killed && !slot->malformed && WIFEXITED(wait_status) &&
         WEXITSTATUS(wait_status) == 0;
}

/* A prepared process that never became ready: refused by its device, or
 * unable to prepare (its tasks then run alone, each getting its own
 * verdict for it). */
static void finish_unprepared(struct run_state* state, struct adc_slot* slot) {
  double now = adc_now_seconds();
  if (slot->cause == ADC_INTERRUPTED) {
    adc_task_queue_prepared_failed(&state->queue, slot->group, false);
  } else if (slot->refused && !slot->malformed) {
    adc_task_queue_refused(&state->queue, slot->resource, now, slot->refusal, slot->alone_on_resource);
    adc_task_queue_prepared_failed(&state->queue, slot->group, false);
  } else {
    if (slot->cause == ADC_TIMED_OUT) {
      char reason[160];
      snprintf(reason, sizeof(reason), "a prepared process was not ready within %g s",
               state->queue.groups[slot->group]->start_seconds);
      adc_task_queue_refused(&state->queue, slot->resource, now, reason, slot->alone_on_resource);
    }
    adc_task_queue_prepared_failed(&state->queue, slot->group, true);
  }
}

/* Whether the slot's prepared process, told to end, died as it ended, as
 * the process judging its library's end did (adc_task_group,
 * process_end_task). */
static bool died_as_the_library_exits(const struct run_state* state, const struct adc_slot* slot) {
  size_t judge = state->queue.groups[slot->group]->process_end_task;
  bool told_to_end = slot->phase == ADC_PHASE_CLOSING && !slot->killed && !slot->malformed;
  return told_to_end && judge != ADC_NO_TASK && judge < state->n_tasks &&
         state->queue.state[judge] == ADC_TASK_DONE && state->results[judge].after_verdict.died;
}

/* A prepared process ended: the task it was running, and those it passed. */
static void finish_prepared(struct run_state* state, struct adc_slot* slot, int wait_status) {
  if (!slot->ready) {
    finish_unprepared(state, slot);
    return;
  }
  if (slot->has_task) {
    enum adc_status status;
    char message[sizeof(((struct adc_task_result*)0)->message)];
    adc_settle_interrupted_task(slot, wait_status, &state->tasks[slot->index], last_interruption, &status,
                                message, sizeof(message));
    if (slot->cause != ADC_INTERRUPTED) adc_task_queue_suspect_family(&state->queue, slot->index);
    if (slot->cause == ADC_INTERRUPTED) {
      struct adc_task_result* result = &state->results[slot->index];
      result->status = status;
      snprintf(result->message, sizeof(result->message), "%s", message);
      result->seconds = adc_now_seconds() - slot->task_started;
      conclude(state, slot->index);
    } else if (slot->tasks_run == 0 && !slot->not_judged) {
      /* Its crash or its hang, with nothing run before it: as alone, and
       * so told (no verdict came for it: its process's end decides). */
      adc_settle_alone(slot, wait_status, &state->tasks[slot->index], last_interruption, adc_now_seconds(),
                       state->run->suite_objects, &state->results[slot->index]);
      state->results[slot->index].shared.ran = true;
      state->results[slot->index].shared.first_in_process = true;
      note_not_passing(state, slot, slot->index, 0);
      conclude(state, slot->index);
    } else {
      slot->ran[slot->tasks_run] = slot->index;
      if (!slot->not_judged) note_not_passing(state, slot, slot->index, slot->tasks_run);
      run_again_alone(state, slot->index, status, message);
    }
  }
  if (slot->history != NULL) {
    size_t ran = slot->tasks_run + (slot->has_task && slot->cause != ADC_INTERRUPTED ? 1 : 0);
    adc_history_ended(&state->replays, slot->history, slot->ran, ran);
    slot->history = NULL;
  }
  bool clean = ended_cleanly(slot, wait_status);
  char why[200];
  adc_describe_unclean_end(slot, wait_status, why, sizeof(why));
  bool library_exit = !clean && died_as_the_library_exits(state, slot);
  for (size_t p = 0; p < slot->n_provisional; p++) {
    size_t index = slot->provisional[p];
    struct adc_task_result* result = &state->results[index];
    if (clean) {
      conclude(state, index);
    } else if (library_exit) {
      struct adc_after_verdict* after = &result->after_verdict;
      after->died = true;
      after->status = ADC_CRASH;
      snprintf(after->message, sizeof(after->message), "%s", why);
      conclude(state, index);
    } else if (slot->cause == ADC_INTERRUPTED) {
      result->status = ADC_UNRESOLVED;
      snprintf(result->message, sizeof(result->message),
               "the run was interrupted by SIG%s before the prepared process that passed the case ended",
               adc_signal_abbreviation(last_interruption));
      conclude(state, index);
    } else {
      char message[sizeof(result->shared.message)];
      snprintf(message, sizeof(message), "%s, but %s", adc_status_name(result->status), why);
      run_again_alone(state, index, result->status, message);
    }
  }
}

/* A slot's process was reaped. */
static void finish(struct run_state* state, struct adc_slot* slot, int wait_status) {
  read_records(state, slot);
  adc_drain_output(slot);
  close_slot_descriptors(slot);
  if (state->run->process_log_dir != NULL) adc_take_process_log(slot, state->run->process_log_dir);
  adc_task_queue_release(&state->queue, slot->resource);
  if (slot->replaying != NULL) {
    finish_replay(state, slot, wait_status);
  } else if (slot->prepared) {
    adc_task_queue_prepared_ended(&state->queue, slot->group);
    finish_prepared(state, slot, wait_status);
  } else {
    finish_alone(state, slot, wait_status);
  }
  slot->pid = 0;
}

/* ---- the loop ------------------------------------------------------------- */

static struct adc_slot* slot_of(struct run_state* state, pid_t pid) {
  for (int s = 0; s < state->n_slots; s++) {
    if (state->slots[s].pid == pid) return &state->slots[s];
  }
  return NULL;
}

/* Handles every child whose state changed.  A process's group is killed
 * while its leader is still a zombie, which keeps the group's id from
 * being reused. */
static void reap(struct run_state* state) {
  for (;;) {
    siginfo_t info;
    memset(&info, 0, sizeof(info));
    if (waitid(P_ALL, 0, &info, WEXITED | WSTOPPED | WNOHANG | WNOWAIT) != 0 || info.si_pid == 0) return;
    pid_t pid = info.si_pid;
    struct adc_slot* slot = slot_of(state, pid);
    int wait_status = 0;
    if (pid == state->server.pid) {
      /* The preloading server ended before the run did: the processes
       * left start from the harness. */
      adc_preload_server_stop(&state->server);
      say_server_lost("the preloading server ended");
    }
    if (slot == NULL) {
      /* A process left behind by a task, handed over to the harness. */
      kill(pid, SIGKILL);
      waitpid(pid, &wait_status, WNOHANG | WUNTRACED);
      continue;
    }
    if (info.si_code == CLD_STOPPED || info.si_code == CLD_TRAPPED) {
      waitpid(pid, &wait_status, WNOHANG | WUNTRACED);
      if (!slot->killed) slot->stop_signal = info.si_status;
      kill_group(slot, ADC_STOPPED);
      continue;
    }
    kill(-pid, SIGKILL);
    waitpid(pid, &wait_status, 0);
    finish(state, slot, wait_status);
  }
}

static void start_free_slots(struct run_state* state) {
  for (int s = 0; s < state->n_slots && state->status == 0 && !state->interrupted; s++) {
    struct adc_slot* slot = &state->slots[s];
    if (slot->pid != 0) continue;
    if (start_replay(state, slot)) continue;
    size_t index;
    size_t group;
    if (!adc_task_queue_next_start(&state->queue, slot->waiting, adc_now_seconds(), &index, &group,
                                   give_up_task, state)) {
      continue;
    }
    state->status =
        group == ADC_NO_GROUP ? start_alone(state, slot, index) : start_prepared(state, slot, group);
    if (state->status != 0 && group == ADC_NO_GROUP) {
      /* Not started: it is judged unresolved by the caller's error. */
      adc_task_queue_run_alone(&state->queue, index);
    } else if (state->status != 0) {
      adc_task_queue_prepared_failed(&state->queue, group, false);
      adc_task_queue_prepared_ended(&state->queue, group);
    }
  }
}

/* Whether the slot's channel is read as records come (a prepared process,
 * a process whose start is timed apart), rather than once it has ended. */
static bool reads_records_as_they_come(const struct adc_slot* slot) {
  return slot->prepared || slot->phase == ADC_PHASE_STARTING;
}

/* Milliseconds until the nearest deadline, the next device pause's end,
 * or the next sweep. */
static int poll_timeout_ms(const struct run_state* state, double now) {
  double wait = SWEEP_SECONDS;
  for (int s = 0; s < state->n_slots; s++) {
    const struct adc_slot* slot = &state->slots[s];
    if (slot->pid != 0 && !slot->killed && slot->deadline - now < wait) wait = slot->deadline - now;
  }
  for (size_t r = 0; r < state->queue.n_resources; r++) {
    double pause = state->queue.not_before[r] - now;
    if (pause > 0 && pause < wait) wait = pause;
  }
  return wait <= 0 ? 0 : (int)(wait * 1000.0) + 1;
}

static void wait_for_events(struct run_state* state, struct pollfd* fds, struct adc_slot** owners) {
  int n_fds = 0;
  fds[n_fds++] = (struct pollfd){signal_fd, POLLIN, 0};
  /* Output is read as it comes, since a process can write more than a
   * pipe holds; a process of its own's verdict fits in its channel and is
   * read when it ends, which spares a wake-up per task. */
  for (int s = 0; s < state->n_slots; s++) {
    struct adc_slot* slot = &state->slots[s];
    if (slot->pid == 0) continue;
    fds[n_fds] = (struct pollfd){slot->output_fd, POLLIN, 0};
    owners[n_fds++] = slot;
    if (reads_records_as_they_come(slot) && slot->channel_fd >= 0) {
      fds[n_fds] = (struct pollfd){slot->channel_fd, POLLIN, 0};
      owners[n_fds++] = slot;
    }
  }
  poll(fds, (nfds_t)n_fds, poll_timeout_ms(state, adc_now_seconds()));
  if (fds[0].revents != 0) take_signals();
  for (int i = 1; i < n_fds; i++) {
    if (fds[i].revents == 0 || owners[i]->pid == 0) continue;
    if (fds[i].fd == owners[i]->output_fd) {
      adc_drain_output(owners[i]);
    } else {
      read_records(state, owners[i]);
    }
  }
}

static void enforce_deadlines(struct run_state* state) {
  double now = adc_now_seconds();
  for (int s = 0; s < state->n_slots; s++) {
    struct adc_slot* slot = &state->slots[s];
    bool timed = slot->phase != ADC_PHASE_IDLE;
    if (slot->pid != 0 && !slot->killed && timed && now >= slot->deadline) kill_group(slot, ADC_TIMED_OUT);
  }
}

/* An interrupted run replays nothing: each task waiting for a replay keeps
 * its run alone's verdict, said so. */
static void abandon_replays(struct run_state* state) {
  char why[96];
  snprintf(why, sizeof(why), "the run was interrupted by SIG%s first",
           adc_signal_abbreviation(last_interruption));
  struct adc_process_history* history;
  while ((history = adc_replay_next(&state->replays)) != NULL) abandon_replay(state, history, why);
  for (size_t index = 0; index < state->n_tasks; index++) {
    if (!state->replays.wants_replay[index]) continue;
    struct adc_process_history* waiting = state->replays.history_of[index];
    settle_replayed(state, waiting, index, false, 0, why, ADC_NO_TASK);
  }
}

/* Stops the run: kills what runs, and ends what never started. */
static void interrupt(struct run_state* state) {
  state->interrupted = true;
  last_interruption = interrupting_signal;
  for (int s = 0; s < state->n_slots; s++) {
    if (state->slots[s].pid != 0) kill_group(&state->slots[s], ADC_INTERRUPTED);
  }
  for (size_t index = 0; index < state->n_tasks; index++) {
    unsigned char task_state = state->queue.state[index];
    if (task_state != ADC_TASK_PENDING && task_state != ADC_TASK_ALONE) continue;
    struct adc_task_result* result = &state->results[index];
    result->status = ADC_UNRESOLVED;
    result->seconds = 0;
    snprintf(result->message, sizeof(result->message), "not run: the run was interrupted by SIG%s",
             adc_signal_abbreviation(last_interruption));
    conclude(state, index);
  }
  state->queue.n_alone = 0;
}

static void kill_orphans_now(const struct run_state* state) {
  size_t n = 0;
  if (state->server.pid != 0) state->running[n++] = state->server.pid;
  for (int s = 0; s < state->n_slots; s++) {
    if (state->slots[s].pid != 0) state->running[n++] = state->slots[s].pid;
  }
  adc_kill_orphans(state->running, n);
}

/* In the preloading server, before it serves. */
static void preload_for_run(void* context) {
  const struct run_state* state = context;
  state->run->preload(state->run->preload_context);
}

/* Starts the preloading server where the run has one and a task or a
 * group that asks for it.  Where it cannot start, those processes start
 * from the harness. */
static void start_preload_server(struct run_state* state) {
  bool wanted = false;
  for (size_t i = 0; i < state->n_tasks && !wanted; i++) wanted = state->tasks[i].preloaded;
  for (size_t g = 0; g < state->queue.n_groups && !wanted; g++) wanted = state->queue.groups[g]->preloaded;
  if (!wanted || state->run->preload == NULL) return;
  int keep[] = {null_input};
  struct adc_error error;
  double answer_seconds = state->run->preload_answer_seconds > 0 ? state->run->preload_answer_seconds
                                                                 : ADC_PRELOAD_ANSWER_SECONDS;
  if (adc_preload_server_start(&state->server, preload_for_run, run_served, state, keep, 1, answer_seconds,
                               &error) != 0) {
    say_server_lost(error.message);
  }
}

/* Whether every task's verdict is final and no process is left. */
static bool all_settled(const struct run_state* state) {
  if (state->queue.finished < state->n_tasks) return false;
  for (int s = 0; s < state->n_slots; s++) {
    if (state->slots[s].pid != 0) return false;
  }
  return true;
}

/* Whether a process is left running. */
static bool any_running(const struct run_state* state) {
  for (int s = 0; s < state->n_slots; s++) {
    if (state->slots[s].pid != 0) return true;
  }
  return false;
}

int adc_run_tasks(const struct adc_task* tasks, size_t n_tasks, const struct adc_task_run* run,
                  struct adc_task_result* results, struct adc_error* error) {
  struct run_state state = {
      .tasks = tasks,
      .n_tasks = n_tasks,
      .run = run,
      .results = results,
      .n_slots = (run->jobs > 0 ? run->jobs : 1) + (run->waiting_jobs > 0 ? run->waiting_jobs : 0),
      .n_waiting_slots = run->waiting_jobs > 0 ? run->waiting_jobs : 0,
      .harness = getpid(),
      .server = {.pid = 0, .socket_fd = -1},
      .error = error};
  last_interruption = 0;
  /* Every member of every result is written: a task settled early (a
   * library whose load misbehaved) leaves no field to the caller's stack. */
  memset(results, 0, n_tasks * sizeof(*results));
  if (adc_become_subreaper(error) != 0) return -1;
  if (adc_task_queue_init(&state.queue, tasks, n_tasks, run) != 0) return adc_fail(error, "out of memory");
  if (adc_replay_book_init(&state.replays, n_tasks) != 0) {
    adc_task_queue_free(&state.queue);
    return adc_fail(error, "out of memory");
  }
  /* What only this process reads and writes after each fork is kept out
   * of the tasks' processes: forks then neither copy nor write-protect it. */
  state.slots = adc_parent_only_calloc((size_t)state.n_slots, sizeof(*state.slots));
  /* The running processes and the preloading server. */
  state.running = adc_parent_only_calloc((size_t)state.n_slots + 1, sizeof(*state.running));
  /* The signal descriptor, then the output pipe and channel of each running process. */
  struct pollfd* fds = adc_parent_only_calloc(1 + 2 * (size_t)state.n_slots, sizeof(*fds));
  struct adc_slot** owners = adc_parent_only_calloc(1 + 2 * (size_t)state.n_slots, sizeof(*owners));
  bool allocated = state.slots && state.running && fds && owners;
  struct saved_signals saved;
  state.status = allocated ? install_signals(&saved, error) : adc_fail(error, "out of memory");
  bool signals_taken = state.status == 0;
  for (int s = 0; allocated && s < state.n_slots; s++) {
    state.slots[s].waiting = s >= state.n_slots - state.n_waiting_slots;
  }
  if (signals_taken) start_preload_server(&state);
  double last_sweep = adc_now_seconds();
  while (state.status == 0 && !all_settled(&state)) {
    start_free_slots(&state);
    wait_for_events(&state, fds, owners);
    reap(&state);
    enforce_deadlines(&state);
    if (interrupting_signal != 0 && !state.interrupted) interrupt(&state);
    if (state.interrupted) abandon_replays(&state);
    if (adc_now_seconds() - last_sweep > SWEEP_SECONDS) {
      kill_orphans_now(&state);
      last_sweep = adc_now_seconds();
    }
  }
  /* After a failure, the processes already started still end, each task
   * with its verdict. */
  while (signals_taken && any_running(&state)) {
    wait_for_events(&state, fds, owners);
    reap(&state);
    enforce_deadlines(&state);
  }
  adc_preload_server_stop(&state.server);
  if (allocated) restore_signals(&saved);
  adc_kill_all_orphans(2.0);
  adc_parent_only_free(owners);
  adc_parent_only_free(fds);
  adc_parent_only_free(state.running);
  adc_parent_only_free(state.slots);
  adc_replay_book_free(&state.replays);
  adc_task_queue_free(&state.queue);
  return state.status;
}

void adc_task_results_free(struct adc_task_result* results, size_t n) {
  for (size_t i = 0; results != NULL && i < n; i++) {
    cJSON_Delete(results[i].crash_site);
    cJSON_Delete(results[i].after_verdict.crash_site);
  }
  adc_parent_only_free(results);
}

int adc_run_interrupted_by(void) {
  return last_interruption;
}
