#include "runner/task_runner.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runner/orphans.h"
#include "runner/output_capture.h"
#include "runner/preload_server.h"
#include "runner/wire.h"
#include "support/clock.h"
#include "support/parent_only_memory.h"

/* Bytes read from one pipe per wake-up, so that a process flooding its
 * output cannot starve the others or their deadlines. */
#define DRAIN_BUDGET (64 * 1024)
/* How often, at least, processes left behind are looked for during a run. */
#define SWEEP_SECONDS 0.5

enum end_cause { ENDED, TIMED_OUT, STOPPED, INTERRUPTED };

/* A running task, as the parent sees it.  Slots are parent-only memory
 * (support/parent_only_memory.h): a fork neither copies nor
 * write-protects them, and a task's process does not have them. */
struct slot {
  size_t index;
  pid_t pid; /* 0: the slot is free */
  /* The parent's ends of the task's pipes, -1 once closed.  The parent
   * also keeps the output pipe's write end until the task is settled, so
   * that the pipe never reaches end of file: a process's exit closes its
   * descriptors just before it becomes a zombie, and an end of file would
   * wake the parent once for that and again for SIGCHLD.  What the task
   * wrote is in the pipe by the time SIGCHLD comes. */
  int verdict_fd;
  int output_fd;
  int output_write_fd;
  double started;
  double deadline;
  bool killed; /* its process group was sent SIGKILL */
  enum end_cause cause;
  int stop_signal;
  /* One byte more than a record, so that one read tells a record from more. */
  unsigned char verdict[sizeof(struct adc_wire_verdict) + 1];
  size_t verdict_bytes;
  struct adc_output_capture output;
  /* Where drain_output() reads into: here rather than on the stack, whose pages
   * every fork write-protects. */
  char read_buffer[ADC_CAPTURE_TAIL / 2];
};

/* Where a task's process finds its verdict pipe: the first descriptor
 * after standard input, output and error.  It has no other. */
#define TASK_VERDICT_FD 3

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

/* ---- starting a task ---------------------------------------------------- */

/* Closes every descriptor from `first` on. */
static void close_from(int first) {
  if (close_range((unsigned)first, ~0U, 0) == 0) return;
  /* Kernels before 5.9: the descriptors this process has. */
  DIR* open_fds = opendir("/proc/self/fd");
  if (open_fds == NULL) return;
  struct dirent* entry;
  while ((entry = readdir(open_fds)) != NULL) {
    int fd = atoi(entry->d_name);
    if (fd >= first && fd != dirfd(open_fds)) close(fd);
  }
  closedir(open_fds);
}

/* In the child: a process group of its own, no blocked signal, standard
 * input from /dev/null, standard output and error into the output pipe,
 * the verdict pipe as TASK_VERDICT_FD and no other descriptor, and death
 * with the harness.  `forked_by` is the process that forked it: the
 * harness, or the preloading server's middle process, in which case the
 * harness becomes its parent once that has exited. */
static void become_task_process(pid_t harness, pid_t forked_by, const struct adc_task_run* run,
                                int verdict_fd, int output_fd) {
  setpgid(0, 0);
  /* The death signal is sent when the parent exits: it is asked for once
   * the harness is the parent, not while the middle process still is. */
  if (forked_by != harness) adc_preload_server_await_handover(forked_by);
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != harness) _exit(1); /* the harness died before the line above */
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, NULL);
  /* None of these is 0, 1 or 2 (keep_standard_descriptors_taken). */
  if (null_input >= 0) dup2(null_input, STDIN_FILENO);
  dup2(output_fd, STDOUT_FILENO);
  dup2(output_fd, STDERR_FILENO);
  if (verdict_fd != TASK_VERDICT_FD) dup2(verdict_fd, TASK_VERDICT_FD);
  /* Whatever else the harness holds (the signal descriptor, other tasks'
   * pipes, report files) is not the library's to touch. */
  close_from(TASK_VERDICT_FD + 1);
  if (run->memory_limit_bytes > 0) {
    struct rlimit limit = {run->memory_limit_bytes, run->memory_limit_bytes};
    setrlimit(RLIMIT_AS, &limit);
  }
}

static void close_pair(int pipe_ends[2]) {
  close(pipe_ends[0]);
  close(pipe_ends[1]);
}

/* Says once, on standard error, why the preloading server is gone: the
 * run goes on, its cases then starting from the harness, slower. */
static void say_server_lost(const char* why) {
  fprintf(stderr, "adc-conform: warning: %s; the cases it would have forked start from the harness\n", why);
}

/* Forks the task's process from the harness; its pid, or -1 with errno. */
static pid_t fork_task(const struct adc_task* task, const struct adc_task_run* run, pid_t harness,
                       int verdict_fd, int output_fd) {
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    become_task_process(harness, harness, run, verdict_fd, output_fd);
    task->run(task->argument, TASK_VERDICT_FD);
    /* exit(), not _exit(): library destructors run, and so do leak
     * checkers, whose reports then become this case's verdict. */
    exit(0);
  }
  /* Also from this side, so that the group exists before either goes on. */
  if (pid > 0) setpgid(pid, pid);
  return pid;
}

/* A task's two pipes.  Both ends of the verdict pipe may be non-blocking:
 * a record is far smaller than a pipe holds.  The output pipe's write end
 * blocks, as a library that prints expects. */
static int make_pipes(int verdict_pipe[2], int output_pipe[2], struct adc_error* error) {
  if (pipe2(verdict_pipe, O_NONBLOCK | O_CLOEXEC) != 0) {
    return adc_fail(error, "cannot create a pipe: %s", strerror(errno));
  }
  if (pipe2(output_pipe, O_CLOEXEC) != 0) {
    close_pair(verdict_pipe);
    return adc_fail(error, "cannot create a pipe: %s", strerror(errno));
  }
  fcntl(output_pipe[0], F_SETFL, O_NONBLOCK);
  return 0;
}

static int start(const struct adc_task* task, const struct adc_task_run* run, size_t index, struct slot* slot,
                 pid_t harness, struct adc_preload_server* server, struct adc_error* error) {
  int verdict_pipe[2];
  int output_pipe[2];
  if (make_pipes(verdict_pipe, output_pipe, error) != 0) return -1;
  pid_t pid = -1;
  /* A server that fails is stopped; the task, and those after it, then
   * start from the harness, loading their runtime themselves. */
  struct adc_error server_error;
  bool served = task->preloaded && server->pid != 0;
  if (served &&
      adc_preload_server_spawn(server, index, verdict_pipe[1], output_pipe[1], &pid, &server_error) != 0) {
    say_server_lost(server_error.message);
    served = false;
    /* A middle process may outlive the server and fork the case after all:
     * new pipes, so that nothing it writes reaches the task started here
     * (the harness kills it as a process left behind). */
    close_pair(verdict_pipe);
    close_pair(output_pipe);
    if (make_pipes(verdict_pipe, output_pipe, error) != 0) return -1;
  }
  if (!served) pid = fork_task(task, run, harness, verdict_pipe[1], output_pipe[1]);
  if (pid < 0) {
    int fork_errno = errno;
    close_pair(verdict_pipe);
    close_pair(output_pipe);
    return adc_fail(error, "cannot start a case process: %s", strerror(fork_errno));
  }
  close(verdict_pipe[1]);
  memset(slot, 0, sizeof(*slot));
  slot->index = index;
  slot->pid = pid;
  slot->verdict_fd = verdict_pipe[0];
  slot->output_fd = output_pipe[0];
  slot->output_write_fd = output_pipe[1];
  slot->started = adc_now_seconds();
  slot->deadline = slot->started + task->timeout_seconds;
  adc_capture_reset(&slot->output);
  return 0;
}

/* ---- reading what a task sends ------------------------------------------ */

/* The verdict, read once the task has ended, when all it sent is in the
 * pipe: one read takes it all, up to a byte more than a record. */
static void read_verdict(struct slot* slot) {
  ssize_t n = read(slot->verdict_fd, slot->verdict, sizeof(slot->verdict));
  slot->verdict_bytes = n > 0 ? (size_t)n : 0;
}

/* Reads the output that is available, within the budget. */
static void drain_output(struct slot* slot) {
  for (size_t budget = DRAIN_BUDGET; budget > 0;) {
    ssize_t n = read(slot->output_fd, slot->read_buffer, sizeof(slot->read_buffer));
    if (n <= 0) return; /* nothing more for now: the parent holds a write end */
    adc_capture_append(&slot->output, slot->read_buffer, (size_t)n);
    budget = (size_t)n < budget ? budget - (size_t)n : 0;
  }
}

void adc_process_log_path(char* path, size_t size, const char* log_dir, long pid) {
  snprintf(path, size, "%s/" ADC_PROCESS_LOG_PREFIX "%ld" ADC_PROCESS_LOG_SUFFIX, log_dir, pid);
}

/* The log a wrapper of the harness wrote for the task's process, added to
 * its output (so that its headline can explain the end), then removed. */
static void take_process_log(struct slot* slot, const char* log_dir) {
  char path[4200];
  adc_process_log_path(path, sizeof(path), log_dir, (long)slot->pid);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  ssize_t n;
  while ((n = read(fd, slot->read_buffer, sizeof(slot->read_buffer))) > 0) {
    adc_capture_append(&slot->output, slot->read_buffer, (size_t)n);
  }
  close(fd);
  unlink(path);
}

/* ---- settling a task's end ------------------------------------------------ */

static const char* signal_name(int signal_number) {
  const char* name = sigabbrev_np(signal_number);
  return name != NULL ? name : "?";
}

static void describe_death(int wait_status, char* text, size_t size) {
  if (WIFSIGNALED(wait_status)) {
    snprintf(text, size, "was killed by signal %d (SIG%s: %s)", WTERMSIG(wait_status),
             signal_name(WTERMSIG(wait_status)), strsignal(WTERMSIG(wait_status)));
  } else {
    snprintf(text, size, "exited with status %d", WEXITSTATUS(wait_status));
  }
}

static void settle(const struct slot* slot, int wait_status, double timeout_seconds,
                   struct adc_task_result* result) {
  result->seconds = adc_now_seconds() - slot->started;
  char detail[ADC_CAPTURE_LINE];
  adc_capture_explain(&slot->output, detail, sizeof(detail));
  const char* sep = detail[0] ? ": " : "";
  char* message = result->message;
  size_t size = sizeof(result->message);
  struct adc_wire_verdict verdict;
  bool sent = slot->verdict_bytes > 0;
  bool more_than_a_record = slot->verdict_bytes > sizeof(verdict);
  bool accepted = !more_than_a_record && adc_wire_accept(slot->verdict, slot->verdict_bytes, &verdict);
  char death[160];
  describe_death(wait_status, death, sizeof(death));
  bool clean_exit = WIFEXITED(wait_status) && WEXITSTATUS(wait_status) == 0;

  if (slot->cause == INTERRUPTED) {
    result->status = ADC_UNRESOLVED;
    snprintf(message, size, "the run was interrupted by SIG%s after %.1f s", signal_name(last_interruption),
             result->seconds);
  } else if (slot->cause == TIMED_OUT) {
    result->status = ADC_TIMEOUT;
    snprintf(message, size, "no verdict within %.0f s; the case was killed%s%s", timeout_seconds, sep,
             detail);
  } else if (slot->cause == STOPPED) {
    result->status = ADC_TIMEOUT;
    snprintf(message, size, "the case stopped itself (signal %d, SIG%s) and was killed%s%s",
             slot->stop_signal, signal_name(slot->stop_signal), sep, detail);
  } else if (sent && !accepted) {
    result->status = ADC_CRASH;
    snprintf(message, size,
             "the case sent a malformed verdict (%zu%s bytes on the verdict channel); the case %s%s%s",
             slot->verdict_bytes, more_than_a_record ? " or more" : "", death, sep, detail);
  } else if (accepted && clean_exit) {
    result->status = (enum adc_status)verdict.status;
    snprintf(message, size, "%s", verdict.message);
  } else if (accepted && verdict.status != ADC_PASS) {
    /* The rule had already judged; the death came after. */
    result->status = (enum adc_status)verdict.status;
    snprintf(message, size, "%.800s (then the case %s%s%s)", verdict.message, death, sep, detail);
  } else {
    result->status = ADC_CRASH;
    snprintf(message, size, "%s %s%s%s", accepted ? "after passing, the case" : "the case", death, sep,
             detail);
  }
}

/* ---- the loop ------------------------------------------------------------- */

struct run_state {
  const struct adc_task* tasks;
  size_t n_tasks;
  const struct adc_task_run* run;
  struct adc_task_result* results;
  struct slot* slots; /* parent-only memory: `jobs`, then the waiting slots */
  int n_slots;
  int n_waiting_slots; /* the last slots, for tasks that mostly wait */
  /* The next task not started of each kind: [0] those that use the CPU,
   * [1] those that mostly wait (n_tasks where none is left). */
  size_t next[2];
  pid_t* running; /* scratch: the pids of the running tasks */
  pid_t harness;  /* this process, which a task's process checks is its parent */
  /* Forks the tasks marked `preloaded`; pid 0 when there is none. */
  struct adc_preload_server server;
  size_t started;
  size_t finished;
  bool interrupted;
};

static void finish(struct run_state* state, struct slot* slot, int wait_status) {
  read_verdict(slot);
  drain_output(slot);
  /* Whoever still holds the pipes (a process that left the group) is not
   * waited for. */
  close(slot->verdict_fd);
  close(slot->output_fd);
  close(slot->output_write_fd);
  slot->verdict_fd = slot->output_fd = slot->output_write_fd = -1;
  if (state->run->process_log_dir != NULL) take_process_log(slot, state->run->process_log_dir);
  struct adc_task_result* result = &state->results[slot->index];
  settle(slot, wait_status, state->tasks[slot->index].timeout_seconds, result);
  if (state->run->on_result != NULL) state->run->on_result(slot->index, result, state->run->context);
  slot->pid = 0;
  state->finished++;
}

static struct slot* slot_of(struct run_state* state, pid_t pid) {
  for (int s = 0; s < state->n_slots; s++) {
    if (state->slots[s].pid == pid) return &state->slots[s];
  }
  return NULL;
}

static void kill_group(struct slot* slot, enum end_cause cause) {
  if (slot->killed) return;
  slot->killed = true;
  slot->cause = cause;
  kill(-slot->pid, SIGKILL);
}

/* Handles every child whose state changed.  A task's group is killed while
 * its leader is still a zombie, which keeps the group's id from being reused. */
static void reap(struct run_state* state) {
  for (;;) {
    siginfo_t info;
    memset(&info, 0, sizeof(info));
    if (waitid(P_ALL, 0, &info, WEXITED | WSTOPPED | WNOHANG | WNOWAIT) != 0 || info.si_pid == 0) return;
    pid_t pid = info.si_pid;
    struct slot* slot = slot_of(state, pid);
    int wait_status = 0;
    if (pid == state->server.pid) {
      /* The preloading server ended before the run did: the tasks left
       * start from the harness. */
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
      kill_group(slot, STOPPED);
      continue;
    }
    kill(-pid, SIGKILL);
    waitpid(pid, &wait_status, 0);
    finish(state, slot, wait_status);
  }
}

/* From `index` on, the first task of the kind (mostly waiting or not). */
static size_t first_of_kind(const struct run_state* state, size_t index, bool waits) {
  while (index < state->n_tasks && state->tasks[index].mostly_waits != waits) index++;
  return index;
}

/* The task a free slot takes next, or n_tasks for none.  Without waiting
 * slots, tasks start in order.  With them, a slot of the `jobs` takes the
 * next task that uses the CPU, and one that waits only once none is left;
 * a waiting slot takes only those that wait. */
static size_t next_for_slot(const struct run_state* state, int s) {
  size_t busy = state->next[0];
  size_t waiting = state->next[1];
  if (state->n_waiting_slots == 0) return busy < waiting ? busy : waiting;
  if (s >= state->n_slots - state->n_waiting_slots) return waiting;
  return busy < state->n_tasks ? busy : waiting;
}

static void start_free_slots(struct run_state* state, int* status, struct adc_error* error) {
  for (int s = 0; s < state->n_slots && state->started < state->n_tasks && *status == 0; s++) {
    if (state->slots[s].pid != 0) continue;
    size_t index = next_for_slot(state, s);
    if (index >= state->n_tasks) continue;
    *status = start(&state->tasks[index], state->run, index, &state->slots[s], state->harness, &state->server,
                    error);
    if (*status != 0) break;
    state->started++;
    bool waits = state->tasks[index].mostly_waits;
    state->next[waits] = first_of_kind(state, index + 1, waits);
  }
}

/* Milliseconds until the nearest deadline, or until the next sweep. */
static int poll_timeout_ms(const struct run_state* state, double now) {
  double wait = SWEEP_SECONDS;
  for (int s = 0; s < state->n_slots; s++) {
    const struct slot* slot = &state->slots[s];
    if (slot->pid != 0 && !slot->killed && slot->deadline - now < wait) wait = slot->deadline - now;
  }
  return wait <= 0 ? 0 : (int)(wait * 1000.0) + 1;
}

static void wait_for_events(struct run_state* state, struct pollfd* fds, struct slot** owners) {
  int n_fds = 0;
  fds[n_fds++] = (struct pollfd){signal_fd, POLLIN, 0};
  /* Only output is read as it comes, since a process can write more than a
   * pipe holds; a verdict record fits in one and is read when the task
   * ends, which spares a wake-up per task. */
  for (int s = 0; s < state->n_slots; s++) {
    struct slot* slot = &state->slots[s];
    if (slot->pid == 0) continue;
    fds[n_fds] = (struct pollfd){slot->output_fd, POLLIN, 0};
    owners[n_fds++] = slot;
  }
  poll(fds, (nfds_t)n_fds, poll_timeout_ms(state, adc_now_seconds()));
  if (fds[0].revents != 0) take_signals();
  for (int i = 1; i < n_fds; i++) {
    if (fds[i].revents != 0) drain_output(owners[i]);
  }
}

static void enforce_deadlines(struct run_state* state) {
  double now = adc_now_seconds();
  for (int s = 0; s < state->n_slots; s++) {
    struct slot* slot = &state->slots[s];
    if (slot->pid != 0 && !slot->killed && now >= slot->deadline) kill_group(slot, TIMED_OUT);
  }
}

/* Stops the run: kills what runs, and ends what never started. */
static void interrupt(struct run_state* state) {
  state->interrupted = true;
  last_interruption = interrupting_signal;
  for (int s = 0; s < state->n_slots; s++) {
    if (state->slots[s].pid != 0) kill_group(&state->slots[s], INTERRUPTED);
  }
  for (size_t index = 0; index < state->n_tasks; index++) {
    bool waits = state->tasks[index].mostly_waits;
    if (index < state->next[waits]) continue; /* started: each kind starts in order */
    struct adc_task_result* result = &state->results[index];
    result->status = ADC_UNRESOLVED;
    result->seconds = 0;
    snprintf(result->message, sizeof(result->message), "not run: the run was interrupted by SIG%s",
             signal_name(last_interruption));
    if (state->run->on_result != NULL) state->run->on_result(index, result, state->run->context);
    state->started++;
    state->finished++;
  }
  state->next[0] = state->next[1] = state->n_tasks;
}

static void kill_orphans_now(const struct run_state* state) {
  size_t n = 0;
  if (state->server.pid != 0) state->running[n++] = state->server.pid;
  for (int s = 0; s < state->n_slots; s++) {
    if (state->slots[s].pid != 0) state->running[n++] = state->slots[s].pid;
  }
  adc_kill_orphans(state->running, n);
}

/* In a process forked by the preloading server (preload_server.h). */
static void run_served_task(void* context, size_t index, int verdict_fd, int output_fd, pid_t forked_by) {
  const struct run_state* state = context;
  const struct adc_task* task = &state->tasks[index];
  become_task_process(state->harness, forked_by, state->run, verdict_fd, output_fd);
  task->run(task->argument, TASK_VERDICT_FD);
  exit(0);
}

/* In the preloading server, before it serves. */
static void preload_for_run(void* context) {
  const struct run_state* state = context;
  state->run->preload(state->run->preload_context);
}

/* Starts the preloading server where the run has one and a task that asks
 * for it.  Where it cannot start, those tasks start from the harness. */
static void start_preload_server(struct run_state* state) {
  bool wanted = false;
  for (size_t i = 0; i < state->n_tasks && !wanted; i++) wanted = state->tasks[i].preloaded;
  if (!wanted || state->run->preload == NULL) return;
  int keep[] = {null_input};
  struct adc_error error;
  double answer_seconds = state->run->preload_answer_seconds > 0 ? state->run->preload_answer_seconds
                                                                 : ADC_PRELOAD_ANSWER_SECONDS;
  if (adc_preload_server_start(&state->server, preload_for_run, run_served_task, state, keep, 1,
                               answer_seconds, &error) != 0) {
    say_server_lost(error.message);
  }
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
      .server = {.pid = 0, .socket_fd = -1}};
  state.next[0] = first_of_kind(&state, 0, false);
  state.next[1] = first_of_kind(&state, 0, true);
  last_interruption = 0;
  if (adc_become_subreaper(error) != 0) return -1;
  /* What only this process reads and writes after each fork is kept out
   * of the tasks' processes: forks then neither copy nor write-protect it. */
  state.slots = adc_parent_only_calloc((size_t)state.n_slots, sizeof(*state.slots));
  /* The running tasks and the preloading server. */
  state.running = adc_parent_only_calloc((size_t)state.n_slots + 1, sizeof(*state.running));
  /* The signal descriptor, then the output pipe of each running task. */
  struct pollfd* fds = adc_parent_only_calloc(1 + (size_t)state.n_slots, sizeof(*fds));
  struct slot** owners = adc_parent_only_calloc(1 + (size_t)state.n_slots, sizeof(*owners));
  bool allocated = state.slots && state.running && fds && owners;
  struct saved_signals saved;
  int status = allocated ? install_signals(&saved, error) : adc_fail(error, "out of memory");
  bool signals_taken = status == 0;
  if (signals_taken) start_preload_server(&state);
  double last_sweep = adc_now_seconds();
  while (status == 0 && state.finished < n_tasks) {
    if (!state.interrupted) start_free_slots(&state, &status, error);
    wait_for_events(&state, fds, owners);
    reap(&state);
    enforce_deadlines(&state);
    if (interrupting_signal != 0 && !state.interrupted) interrupt(&state);
    if (adc_now_seconds() - last_sweep > SWEEP_SECONDS) {
      kill_orphans_now(&state);
      last_sweep = adc_now_seconds();
    }
  }
  /* After a failure, the tasks already started still end, each with its verdict. */
  while (signals_taken && state.finished < state.started) {
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
  return status;
}

int adc_run_interrupted_by(void) {
  return last_interruption;
}
