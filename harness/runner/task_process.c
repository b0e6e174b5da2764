#include "runner/task_process.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "runner/preload_server.h"
#include "runner/process_log.h"

/* Bytes read from one pipe per wake-up. */
#define DRAIN_BUDGET (64 * 1024)

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

void adc_become_task_process(pid_t harness, pid_t forked_by, const struct adc_task_run* run, int null_input,
                             int channel_fd, int output_fd, size_t task) {
  setpgid(0, 0);
  /* The death signal is sent when the parent exits: it is asked for once
   * the harness is the parent, not while the middle process still is. */
  if (forked_by != harness) adc_preload_server_await_handover(forked_by);
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != harness) _exit(1); /* the harness died before the line above */
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, NULL);
  /* None of these is 0, 1 or 2 (the runner keeps those taken). */
  if (null_input >= 0) dup2(null_input, STDIN_FILENO);
  dup2(output_fd, STDOUT_FILENO);
  dup2(output_fd, STDERR_FILENO);
  if (channel_fd != ADC_TASK_CHANNEL_FD) dup2(channel_fd, ADC_TASK_CHANNEL_FD);
  /* Whatever else the harness holds (the signal descriptor, other tasks'
   * channels, report files) is not the library's to touch. */
  close_from(ADC_TASK_CHANNEL_FD + 1);
  if (run->memory_limit_bytes > 0) {
    struct rlimit limit = {run->memory_limit_bytes, run->memory_limit_bytes};
    setrlimit(RLIMIT_AS, &limit);
  }
  adc_wire_set_task(task);
}

void adc_close_pair(int ends[2]) {
  close(ends[0]);
  close(ends[1]);
}

int adc_make_channels(int channel[2], int output[2], struct adc_error* error) {
  if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, channel) != 0) {
    return adc_fail(error, "cannot create a socket pair: %s", strerror(errno));
  }
  if (pipe2(output, O_CLOEXEC) != 0) {
    adc_close_pair(channel);
    return adc_fail(error, "cannot create a pipe: %s", strerror(errno));
  }
  fcntl(channel[0], F_SETFL, O_NONBLOCK);
  fcntl(output[0], F_SETFL, O_NONBLOCK);
  return 0;
}

void adc_drain_output(struct adc_slot* slot) {
  for (size_t budget = DRAIN_BUDGET; budget > 0;) {
    ssize_t n = read(slot->output_fd, slot->read_buffer, sizeof(slot->read_buffer));
    if (n <= 0) return; /* nothing more for now: the parent holds a write end */
    adc_capture_append(&slot->output, slot->read_buffer, (size_t)n);
    budget = (size_t)n < budget ? budget - (size_t)n : 0;
  }
}

void adc_take_process_log(struct adc_slot* slot, const char* log_dir) {
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

bool adc_read_records(struct adc_slot* slot,
                      void (*take)(struct adc_slot* slot, const struct adc_wire_record* record,
                                   void* context),
                      void* context) {
  while (slot->channel_fd >= 0 && !slot->malformed) {
    /* One byte more than a record: a longer message shows as longer. */
    unsigned char received[sizeof(struct adc_wire_record) + 1];
    ssize_t n = recv(slot->channel_fd, received, sizeof(received), MSG_DONTWAIT | MSG_TRUNC);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return errno != EAGAIN && errno != EWOULDBLOCK;
    if (n == 0) return true;
    struct adc_wire_record record;
    if (!adc_wire_accept(received, (size_t)n > sizeof(received) ? sizeof(received) : (size_t)n, &record)) {
      slot->malformed = true;
      slot->malformed_bytes = (size_t)n;
      return false;
    }
    take(slot, &record, context);
  }
  return false;
}
