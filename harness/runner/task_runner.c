#include "runner/task_runner.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runner/orphans.h"
#include "runner/output_capture.h"
#include "runner/wire.h"
#include "support/clock.h"
#include "support/parent_only_memory.h"

/* Bytes read from one pipe per wake-up, so that a process flooding its
 * output cannot starve the others or their deadlines. */
#define DRAIN_BUDGET (64 * 1024)
/* How often, at least, processes left behind are looked for during a run. */
#define SWEEP_SECONDS 0.5

enum end_cause { ENDED, TIMED_OUT, STOPPED, INTERRUPTED };

/* The read ends of a running task's two pipes, -1 once closed.  Kept in
 * ordinary memory, apart from the slots: a new task's process closes its
 * siblings' (become_task_process), and the slots are parent-only memory,
 * which a task's process does not have (support/parent_only_memory.h). */
struct slot_pipes {
  int verdict_fd;
  int output_fd;
};

/* A running task, as the parent sees it. */
struct slot {
  size_t index;
  pid_t pid; /* 0: the slot is free */
  struct slot_pipes* pipes;
  double started;
  double deadline;
  bool killed; /* its process group was sent SIGKILL */
  enum end_cause cause;
  int stop_signal;
  unsigned char verdict[sizeof(struct adc_wire_verdict)];
  size_t verdict_bytes;
  bool verdict_overflow; /* more than one record arrived */
  struct adc_output_capture output;
  /* Where drain() reads into: here rather than on the stack, whose pages
   * every fork write-protects. */
  char read_buffer[ADC_CAPTURE_TAIL / 2];
};

/* The self-pipe that SIGCHLD, SIGINT and SIGTERM write to, so that poll()
 * wakes at once. */
static int wake[2] = {-1, -1};
/* /dev/null, opened once per run: every task's standard input. */
static int null_input = -1;
static volatile sig_atomic_t interrupting_signal;
static int last_interruption;

static void on_child_or_interrupt(int signal_number) {
  int saved_errno = errno;
  if (signal_number == SIGINT || signal_number == SIGTERM) interrupting_signal = signal_number;
  ssize_t written = write(wake[1], "x", 1);
  (void)written; /* a full pipe already wakes poll */
  errno = saved_errno;
}

struct saved_handlers {
  struct sigaction child, interrupt, terminate;
};

static int install_handlers(struct saved_handlers* saved, struct adc_error* error) {
  if (pipe(wake) != 0) return adc_fail(error, "cannot create a pipe: %s", strerror(errno));
  null_input = open("/dev/null", O_RDONLY | O_CLOEXEC);
  for (int i = 0; i < 2; i++) fcntl(wake[i], F_SETFL, O_NONBLOCK);
  for (int i = 0; i < 2; i++) fcntl(wake[i], F_SETFD, FD_CLOEXEC);
  interrupting_signal = 0;
  struct sigaction action;
  memset(&action, 0, sizeof(action));
  action.sa_handler = on_child_or_interrupt;
  action.sa_flags = SA_RESTART;
  sigemptyset(&action.sa_mask);
  sigaction(SIGCHLD, &action, &saved->child);
  sigaction(SIGINT, &action, &saved->interrupt);
  sigaction(SIGTERM, &action, &saved->terminate);
  return 0;
}

static void restore_handlers(const struct saved_handlers* saved) {
  sigaction(SIGCHLD, &saved->child, NULL);
  sigaction(SIGINT, &saved->interrupt, NULL);
  sigaction(SIGTERM, &saved->terminate, NULL);
  close(wake[0]);
  close(wake[1]);
  wake[0] = wake[1] = -1;
  if (null_input >= 0) close(null_input);
  null_input = -1;
}

/* ---- starting a task ---------------------------------------------------- */

/* In the child: a process group of its own, default signal handling, no
 * descriptor of the harness but its own two pipes, and death with the
 * harness. */
static void become_task_process(pid_t harness, const struct adc_task_run* run, const struct slot_pipes* pipes,
                                int n_slots, int output_fd) {
  setpgid(0, 0);
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != harness) _exit(1); /* the harness died before the line above */
  signal(SIGCHLD, SIG_DFL);
  signal(SIGINT, SIG_DFL);
  signal(SIGTERM, SIG_DFL);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, NULL);
  close(wake[0]);
  close(wake[1]);
  /* The read ends of every running task, this one's included: a sibling's
   * pipe must not stay open here, or its end of file would wait for this
   * process too. */
  for (int i = 0; i < n_slots; i++) {
    if (pipes[i].verdict_fd >= 0) close(pipes[i].verdict_fd);
    if (pipes[i].output_fd >= 0) close(pipes[i].output_fd);
  }
  if (null_input >= 0) dup2(null_input, STDIN_FILENO);
  dup2(output_fd, STDOUT_FILENO);
  dup2(output_fd, STDERR_FILENO);
  if (null_input > STDERR_FILENO) close(null_input);
  if (output_fd > STDERR_FILENO) close(output_fd);
  if (run->memory_limit_bytes > 0) {
    struct rlimit limit = {run->memory_limit_bytes, run->memory_limit_bytes};
    setrlimit(RLIMIT_AS, &limit);
  }
}

static void close_pair(int pipe_ends[2]) {
  close(pipe_ends[0]);
  close(pipe_ends[1]);
}

static int start(const struct adc_task* task, const struct adc_task_run* run, size_t index, struct slot* slot,
                 const struct slot_pipes* pipes, int n_slots, struct adc_error* error) {
  int verdict_pipe[2];
  int output_pipe[2];
  if (pipe(verdict_pipe) != 0) return adc_fail(error, "cannot create a pipe: %s", strerror(errno));
  if (pipe(output_pipe) != 0) {
    close_pair(verdict_pipe);
    return adc_fail(error, "cannot create a pipe: %s", strerror(errno));
  }
  /* The read ends are the slot's before the fork: the new process closes
   * them with its siblings', and the parent writes no page that the fork
   * has just shared (a copy-on-write fault). */
  slot->pipes->verdict_fd = verdict_pipe[0];
  slot->pipes->output_fd = output_pipe[0];
  fcntl(verdict_pipe[0], F_SETFL, O_NONBLOCK);
  fcntl(output_pipe[0], F_SETFL, O_NONBLOCK);
  pid_t harness = getpid();
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) {
    int fork_errno = errno;
    close_pair(verdict_pipe);
    close_pair(output_pipe);
    *slot->pipes = (struct slot_pipes){-1, -1};
    return adc_fail(error, "cannot start a case process: %s", strerror(fork_errno));
  }
  if (pid == 0) {
    become_task_process(harness, run, pipes, n_slots, output_pipe[1]);
    task->run(task->argument, verdict_pipe[1]);
    /* exit(), not _exit(): library destructors run, and so do leak
     * checkers, whose reports then become this case's verdict. */
    exit(0);
  }
  /* Also from this side, so that the group exists before either goes on. */
  setpgid(pid, pid);
  close(verdict_pipe[1]);
  close(output_pipe[1]);
  struct slot_pipes* slot_pipes = slot->pipes;
  memset(slot, 0, sizeof(*slot));
  slot->pipes = slot_pipes;
  slot->index = index;
  slot->pid = pid;
  slot->started = adc_now_seconds();
  slot->deadline = slot->started + task->timeout_seconds;
  adc_capture_reset(&slot->output);
  return 0;
}

/* ---- reading what a task sends ------------------------------------------ */

static void take_verdict_bytes(struct slot* slot, const char* data, size_t size) {
  size_t room = sizeof(slot->verdict) - slot->verdict_bytes;
  size_t take = size < room ? size : room;
  memcpy(slot->verdict + slot->verdict_bytes, data, take);
  slot->verdict_bytes += take;
  if (take < size) slot->verdict_overflow = true;
}

/* Reads what is available, within the budget; closes the pipe at end of file. */
static void drain(struct slot* slot, int* fd) {
  char* buffer = slot->read_buffer;
  for (size_t budget = DRAIN_BUDGET; budget > 0;) {
    ssize_t n = read(*fd, buffer, sizeof(slot->read_buffer));
    if (n > 0) {
      if (fd == &slot->pipes->verdict_fd) {
        take_verdict_bytes(slot, buffer, (size_t)n);
      } else {
        adc_capture_append(&slot->output, buffer, (size_t)n);
      }
      budget = (size_t)n < budget ? budget - (size_t)n : 0;
      continue;
    }
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) return;
    close(*fd);
    *fd = -1;
    return;
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
  bool sent = slot->verdict_bytes > 0 || slot->verdict_overflow;
  bool accepted = !slot->verdict_overflow && adc_wire_accept(slot->verdict, slot->verdict_bytes, &verdict);
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
             slot->verdict_bytes, slot->verdict_overflow ? " or more" : "", death, sep, detail);
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
  struct slot* slots; /* parent-only memory */
  struct slot_pipes* pipes;
  int n_slots;
  pid_t* running; /* scratch: the pids of the running tasks */
  size_t started;
  size_t finished;
  bool interrupted;
};

static void finish(struct run_state* state, struct slot* slot, int wait_status) {
  if (slot->pipes->verdict_fd >= 0) drain(slot, &slot->pipes->verdict_fd);
  if (slot->pipes->output_fd >= 0) drain(slot, &slot->pipes->output_fd);
  /* Whoever still holds the pipes (a process that left the group) is not
   * waited for.  The numbers go too: a free slot's must not be closed by
   * a later task's process, which may have them for its own pipes. */
  if (slot->pipes->verdict_fd >= 0) close(slot->pipes->verdict_fd);
  if (slot->pipes->output_fd >= 0) close(slot->pipes->output_fd);
  *slot->pipes = (struct slot_pipes){-1, -1};
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

static void start_free_slots(struct run_state* state, int* status, struct adc_error* error) {
  for (int s = 0; s < state->n_slots && state->started < state->n_tasks && *status == 0; s++) {
    if (state->slots[s].pid != 0) continue;
    *status = start(&state->tasks[state->started], state->run, state->started, &state->slots[s], state->pipes,
                    state->n_slots, error);
    if (*status == 0) state->started++;
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
  fds[n_fds++] = (struct pollfd){wake[0], POLLIN, 0};
  /* Only output is read as it comes, since a process can write more than a
   * pipe holds; a verdict record fits in one and is read when the task
   * ends, which spares a wake-up per task. */
  for (int s = 0; s < state->n_slots; s++) {
    struct slot* slot = &state->slots[s];
    if (slot->pid == 0) continue;
    if (slot->pipes->output_fd >= 0) {
      fds[n_fds] = (struct pollfd){slot->pipes->output_fd, POLLIN, 0};
      owners[n_fds++] = slot;
    }
  }
  poll(fds, (nfds_t)n_fds, poll_timeout_ms(state, adc_now_seconds()));
  char bytes[64];
  while (read(wake[0], bytes, sizeof(bytes)) > 0) continue;
  for (int i = 1; i < n_fds; i++) {
    if (fds[i].revents == 0) continue;
    struct slot* slot = owners[i];
    if (fds[i].fd == slot->pipes->output_fd) drain(slot, &slot->pipes->output_fd);
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
  for (; state->started < state->n_tasks; state->started++) {
    struct adc_task_result* result = &state->results[state->started];
    result->status = ADC_UNRESOLVED;
    result->seconds = 0;
    snprintf(result->message, sizeof(result->message), "not run: the run was interrupted by SIG%s",
             signal_name(last_interruption));
    if (state->run->on_result != NULL) state->run->on_result(state->started, result, state->run->context);
    state->finished++;
  }
}

static void kill_orphans_now(const struct run_state* state) {
  size_t n = 0;
  for (int s = 0; s < state->n_slots; s++) {
    if (state->slots[s].pid != 0) state->running[n++] = state->slots[s].pid;
  }
  adc_kill_orphans(state->running, n);
}

int adc_run_tasks(const struct adc_task* tasks, size_t n_tasks, const struct adc_task_run* run,
                  struct adc_task_result* results, struct adc_error* error) {
  struct run_state state = {.tasks = tasks,
                            .n_tasks = n_tasks,
                            .run = run,
                            .results = results,
                            .n_slots = run->jobs > 0 ? run->jobs : 1};
  last_interruption = 0;
  if (adc_become_subreaper(error) != 0) return -1;
  /* What only this process reads and writes after each fork is kept out
   * of the tasks' processes: forks then neither copy nor write-protect it. */
  state.slots = adc_parent_only_calloc((size_t)state.n_slots, sizeof(*state.slots));
  state.pipes = calloc((size_t)state.n_slots, sizeof(*state.pipes));
  state.running = adc_parent_only_calloc((size_t)state.n_slots, sizeof(*state.running));
  /* The wake pipe, then the output pipe of each running task. */
  struct pollfd* fds = adc_parent_only_calloc(1 + (size_t)state.n_slots, sizeof(*fds));
  struct slot** owners = adc_parent_only_calloc(1 + (size_t)state.n_slots, sizeof(*owners));
  for (int s = 0; state.slots != NULL && state.pipes != NULL && s < state.n_slots; s++) {
    state.pipes[s] = (struct slot_pipes){-1, -1};
    state.slots[s].pipes = &state.pipes[s];
  }
  struct saved_handlers saved;
  int status = state.slots && state.pipes && state.running && fds && owners
                   ? install_handlers(&saved, error)
                   : adc_fail(error, "out of memory");
  bool handlers_installed = status == 0;
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
  while (handlers_installed && state.finished < state.started) {
    wait_for_events(&state, fds, owners);
    reap(&state);
    enforce_deadlines(&state);
  }
  if (handlers_installed) restore_handlers(&saved);
  adc_kill_all_orphans(2.0);
  adc_parent_only_free(owners);
  adc_parent_only_free(fds);
  adc_parent_only_free(state.running);
  free(state.pipes);
  adc_parent_only_free(state.slots);
  return status;
}

int adc_run_interrupted_by(void) {
  return last_interruption;
}
