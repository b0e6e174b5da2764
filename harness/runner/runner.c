#include "runner/runner.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runner/case_child.h"
#include "runner/case_plan.h"
#include "runner/wire.h"
#include "support/clock.h"

/* How much of a child's output is kept to explain a crash. */
#define OUTPUT_TAIL 4096

struct running_case {
  size_t index;
  pid_t pid;
  int verdict_fd; /* -1 once at end of file */
  int output_fd;
  double started;
  double timeout_seconds;
  struct adc_wire_verdict verdict;
  size_t verdict_bytes;
  char output[OUTPUT_TAIL + 1];
  size_t output_bytes;
};

static void keep_tail(struct running_case* slot, const char* data, size_t n) {
  if (n >= OUTPUT_TAIL) {
    memcpy(slot->output, data + n - OUTPUT_TAIL, OUTPUT_TAIL);
    slot->output_bytes = OUTPUT_TAIL;
  } else {
    size_t keep = slot->output_bytes + n > OUTPUT_TAIL ? OUTPUT_TAIL - n : slot->output_bytes;
    memmove(slot->output, slot->output + slot->output_bytes - keep, keep);
    memcpy(slot->output + keep, data, n);
    slot->output_bytes = keep + n;
  }
  slot->output[slot->output_bytes] = '\0';
}

/* Reads what is available; closes the descriptor at end of file. */
static void drain(struct running_case* slot, int* fd, bool is_verdict) {
  char buffer[4096];
  for (;;) {
    ssize_t n = read(*fd, buffer, sizeof(buffer));
    if (n > 0) {
      if (is_verdict) {
        size_t room = sizeof(slot->verdict) - slot->verdict_bytes;
        size_t take = (size_t)n < room ? (size_t)n : room;
        memcpy((char*)&slot->verdict + slot->verdict_bytes, buffer, take);
        slot->verdict_bytes += take;
      } else {
        keep_tail(slot, buffer, (size_t)n);
      }
      continue;
    }
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) return;
    close(*fd);
    *fd = -1;
    return;
  }
}

/* The line of a child's output that best explains its death: a sanitizer's
 * headline if there is one, else the last non-empty line. */
static void explain_output(const char* output, char* line, size_t size) {
  static const char* const headlines[] = {"ERROR: AddressSanitizer", "ERROR: LeakSanitizer",
                                          "runtime error:", "ThreadSanitizer", "Assertion"};
  line[0] = '\0';
  for (size_t i = 0; i < sizeof(headlines) / sizeof(headlines[0]); i++) {
    const char* hit = strstr(output, headlines[i]);
    if (hit == NULL) continue;
    const char* start = hit;
    while (start > output && start[-1] != '\n') start--;
    snprintf(line, size, "%.*s", (int)strcspn(start, "\n"), start);
    return;
  }
  const char* end = output + strlen(output);
  while (end > output && (end[-1] == '\n' || end[-1] == ' ')) end--;
  const char* start = end;
  while (start > output && start[-1] != '\n') start--;
  snprintf(line, size, "%.*s", (int)(end - start), start);
}

static void settle(struct running_case* slot, int wait_status, bool timed_out,
                   struct adc_case_result* result) {
  result->seconds = adc_now_seconds() - slot->started;
  char detail[300];
  explain_output(slot->output, detail, sizeof(detail));
  const char* sep = detail[0] ? ": " : "";
  bool has_verdict = slot->verdict_bytes == sizeof(slot->verdict);
  bool clean_exit = WIFEXITED(wait_status) && WEXITSTATUS(wait_status) == 0;
  if (timed_out) {
    result->status = ADC_TIMEOUT;
    snprintf(result->message, sizeof(result->message), "no verdict within %.0f s; the case was killed%s%s",
             slot->timeout_seconds, sep, detail);
  } else if (has_verdict && clean_exit) {
    result->status = (enum adc_status)slot->verdict.status;
    snprintf(result->message, sizeof(result->message), "%s", slot->verdict.message);
  } else {
    char death[128];
    if (WIFSIGNALED(wait_status)) {
      snprintf(death, sizeof(death), "was killed by signal %d (%s)", WTERMSIG(wait_status),
               strsignal(WTERMSIG(wait_status)));
    } else {
      snprintf(death, sizeof(death), "exited with status %d", WEXITSTATUS(wait_status));
    }
    if (has_verdict && slot->verdict.status != ADC_PASS) {
      /* The rule had already judged; the death came after. */
      result->status = (enum adc_status)slot->verdict.status;
      snprintf(result->message, sizeof(result->message), "%.900s (then the case %s%s%s)",
               slot->verdict.message, death, sep, detail);
    } else {
      result->status = ADC_CRASH;
      snprintf(result->message, sizeof(result->message), "%s %s%s%s",
               has_verdict ? "after passing, the case" : "the case", death, sep, detail);
    }
  }
}

static int start_case(const struct adc_session* session, const struct adc_case* c, size_t index,
                      struct running_case* slot, struct running_case* slots, int n_slots,
                      struct adc_error* error) {
  int verdict_pipe[2];
  int output_pipe[2];
  memset(slot, 0, sizeof(*slot));
  slot->index = index;
  slot->started = adc_now_seconds();
  slot->timeout_seconds = adc_case_timeout(session, c);
  if (pipe(verdict_pipe) != 0) return adc_fail(error, "cannot create a pipe: %s", strerror(errno));
  if (pipe(output_pipe) != 0) {
    close(verdict_pipe[0]);
    close(verdict_pipe[1]);
    return adc_fail(error, "cannot create a pipe: %s", strerror(errno));
  }
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) {
    int fork_errno = errno;
    for (int i = 0; i < 2; i++) {
      close(verdict_pipe[i]);
      close(output_pipe[i]);
    }
    return adc_fail(error, "cannot start a case process: %s", strerror(fork_errno));
  }
  if (pid == 0) {
    /* Siblings' pipes must not stay open here, or their end of file would
     * wait for this child too. */
    for (int i = 0; i < n_slots; i++) {
      if (slots[i].pid == 0) continue;
      if (slots[i].verdict_fd >= 0) close(slots[i].verdict_fd);
      if (slots[i].output_fd >= 0) close(slots[i].output_fd);
    }
    close(verdict_pipe[0]);
    close(output_pipe[0]);
    dup2(output_pipe[1], STDOUT_FILENO);
    dup2(output_pipe[1], STDERR_FILENO);
    close(output_pipe[1]);
    adc_run_case_in_child(session, c, verdict_pipe[1]);
    /* exit(), not _exit(): library destructors run, and so do leak
     * checkers, whose reports then become this case's verdict. */
    exit(0);
  }
  close(verdict_pipe[1]);
  close(output_pipe[1]);
  slot->pid = pid;
  slot->verdict_fd = verdict_pipe[0];
  slot->output_fd = output_pipe[0];
  fcntl(slot->verdict_fd, F_SETFL, O_NONBLOCK);
  fcntl(slot->output_fd, F_SETFL, O_NONBLOCK);
  return 0;
}

/* Waits for the next child whose case has ended, kills one past its limit,
 * and settles each into its result.  Returns how many cases finished. */
static size_t reap(struct running_case* slots, int n_slots, struct adc_case_result* results) {
  size_t finished = 0;
  double now = adc_now_seconds();
  for (int s = 0; s < n_slots; s++) {
    struct running_case* slot = &slots[s];
    if (slot->pid == 0) continue;
    int wait_status = 0;
    bool timed_out = false;
    pid_t done = waitpid(slot->pid, &wait_status, WNOHANG);
    if (done == 0) {
      if (now - slot->started < slot->timeout_seconds) continue;
      kill(slot->pid, SIGKILL);
      waitpid(slot->pid, &wait_status, 0);
      timed_out = true;
    }
    if (slot->verdict_fd >= 0) drain(slot, &slot->verdict_fd, true);
    if (slot->output_fd >= 0) drain(slot, &slot->output_fd, false);
    if (slot->verdict_fd >= 0) close(slot->verdict_fd);
    if (slot->output_fd >= 0) close(slot->output_fd);
    settle(slot, wait_status, timed_out, &results[slot->index]);
    slot->pid = 0;
    finished++;
  }
  return finished;
}

/* Reads whatever the running children have written, waiting a little. */
static void read_output(struct running_case* slots, int n_slots, struct pollfd* fds,
                        struct running_case** owners) {
  int n_fds = 0;
  for (int s = 0; s < n_slots; s++) {
    if (slots[s].pid == 0) continue;
    if (slots[s].verdict_fd >= 0) {
      fds[n_fds] = (struct pollfd){slots[s].verdict_fd, POLLIN, 0};
      owners[n_fds++] = &slots[s];
    }
    if (slots[s].output_fd >= 0) {
      fds[n_fds] = (struct pollfd){slots[s].output_fd, POLLIN, 0};
      owners[n_fds++] = &slots[s];
    }
  }
  /* Wake for output; a child whose pipes are both closed is exiting, so
   * look again soon to reap it; otherwise check deadlines now and then. */
  int wait_ms = 50;
  for (int s = 0; s < n_slots; s++) {
    if (slots[s].pid != 0 && slots[s].verdict_fd < 0 && slots[s].output_fd < 0) wait_ms = 1;
  }
  poll(fds, (nfds_t)n_fds, wait_ms);
  for (int i = 0; i < n_fds; i++) {
    if (fds[i].revents == 0) continue;
    struct running_case* slot = owners[i];
    if (fds[i].fd == slot->verdict_fd)
      drain(slot, &slot->verdict_fd, true);
    else if (fds[i].fd == slot->output_fd)
      drain(slot, &slot->output_fd, false);
  }
}

int adc_run_cases(const struct adc_session* session, const struct adc_case* cases, size_t n_cases,
                  struct adc_case_result* results, struct adc_error* error) {
  int n_slots = session->jobs > 0 ? session->jobs : 1;
  /* Two pipes per running case: its verdict and its output. */
  struct running_case* slots = calloc((size_t)n_slots, sizeof(*slots));
  struct pollfd* fds = calloc(2 * (size_t)n_slots, sizeof(*fds));
  struct running_case** owners = calloc(2 * (size_t)n_slots, sizeof(*owners));
  if (slots == NULL || fds == NULL || owners == NULL) {
    free(owners);
    free(fds);
    free(slots);
    return adc_fail(error, "out of memory");
  }
  int status = 0;
  size_t started = 0;
  size_t finished = 0;
  while (status == 0 && finished < n_cases) {
    for (int s = 0; s < n_slots && started < n_cases && status == 0; s++) {
      if (slots[s].pid != 0) continue;
      status = start_case(session, &cases[started], started, &slots[s], slots, n_slots, error);
      if (status == 0) started++;
    }
    read_output(slots, n_slots, fds, owners);
    finished += reap(slots, n_slots, results);
  }
  /* After a failure, the cases already started still end, each with its verdict. */
  while (finished < started) {
    read_output(slots, n_slots, fds, owners);
    finished += reap(slots, n_slots, results);
  }
  free(owners);
  free(fds);
  free(slots);
  return status;
}
