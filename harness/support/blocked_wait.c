#include "support/blocked_wait.h"

#include <fcntl.h>
#include <linux/futex.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <unistd.h>

#include "support/safe_read.h"

#ifndef FUTEX_LOCK_PI2
#define FUTEX_LOCK_PI2 13
#endif

/* The descriptors one wait watches, at most: a wait on more is not read
 * (this runs on whatever thread looks, a library's too: a small stack). */
#define MAX_WATCHED 64

/* The syscall line: the call's number, then its six arguments (then the
 * stack and instruction pointers, not needed here). */
struct blocked_call {
  long number;
  uintptr_t args[6];
};

static bool parse_line(const char* line, struct blocked_call* call) {
  char* end;
  call->number = strtol(line, &end, 10);
  if (end == line) return false;
  for (int i = 0; i < 6; i++) {
    const char* at = end;
    call->args[i] = (uintptr_t)strtoull(at, &end, 0);
    if (end == at) return false;
  }
  return true;
}

/* Whether what `fd` names can be made ready only by a thread of this
 * process: an anonymous pipe (a self-pipe, a queue between threads), and
 * an eventfd where `flags` say so (blocked_wait.h).  A pipe's write end
 * could still be held by another process (a pipe to a child): that is
 * outside what a look at this process can see.  Anything else may be made
 * ready from outside: a device (a GPU's completion), a socket (a server,
 * CUDA's MPS daemon on a UNIX socket), a timerfd, a file. */
static bool ready_only_from_inside(int fd, unsigned flags) {
  char path[64], target[64];
  snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
  ssize_t length = readlink(path, target, sizeof(target) - 1);
  if (length <= 0) return false;
  target[length] = '\0';
  if (strncmp(target, "pipe:", 5) == 0) return true;
  return (flags & ADC_WAIT_EVENTFD_INSIDE) != 0 && strcmp(target, "anon_inode:[eventfd]") == 0;
}

/* poll and ppoll: the pollfd array the blocked thread passed, read from
 * this process's memory (it stays put while the call blocks; a thread
 * that just returned may have moved on, and then the next look sees it). */
static bool poll_set_inside(uintptr_t fds, uintptr_t count, unsigned flags) {
  if (count > MAX_WATCHED) return false;
  struct pollfd watched[MAX_WATCHED];
  size_t size = (size_t)count * sizeof(watched[0]);
  if (adc_copy_readable(watched, (const void*)fds, size) != size) return false;
  for (uintptr_t i = 0; i < count; i++) {
    if (watched[i].fd >= 0 && !ready_only_from_inside(watched[i].fd, flags)) return false;
  }
  return true;
}

/* select and pselect6: the three fd_set bitmaps, as poll_set_inside. */
static bool select_sets_inside(const uintptr_t* args, unsigned flags) {
  uintptr_t count = args[0];
  if (count > FD_SETSIZE) return false;
  for (int set = 1; set <= 3; set++) {
    if (args[set] == 0) continue;
    fd_set bits;
    size_t size = (count + 7) / 8;
    if (adc_copy_readable(&bits, (const void*)args[set], size) != size) return false;
    for (int fd = 0; fd < (int)count; fd++) {
      if (FD_ISSET(fd, &bits) && !ready_only_from_inside(fd, flags)) return false;
    }
  }
  return true;
}

/* epoll_wait and the like: the descriptors in the epoll instance's
 * interest list, as /proc/self/fdinfo/<epfd> lists them ("tfd: N ..."). */
static bool epoll_set_inside(uintptr_t epfd, unsigned flags) {
  char path[64];
  snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", (int)epfd);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  char text[4096];
  ssize_t length = read(fd, text, sizeof(text) - 1);
  close(fd);
  if (length <= 0 || length == (ssize_t)sizeof(text) - 1) return false; /* none, or more than is read */
  text[length] = '\0';
  for (const char* at = strstr(text, "tfd:"); at != NULL; at = strstr(at + 4, "tfd:")) {
    if (!ready_only_from_inside(atoi(at + 4), flags)) return false;
  }
  return true;
}

/* ---- timeouts: where a call has one, it is set on the timing ------------- */

/* A timeout the blocked thread passed by address (a timespec, or a
 * timeval for select), read from this process's memory; false where it
 * cannot be read (the wait is then not known). */
static bool timeout_at(uintptr_t address, bool is_timeval, double* seconds) {
  if (is_timeval) {
    struct timeval value;
    if (adc_copy_readable(&value, (const void*)address, sizeof(value)) != sizeof(value)) return false;
    *seconds = (double)value.tv_sec + (double)value.tv_usec / 1e6;
  } else {
    struct timespec value;
    if (adc_copy_readable(&value, (const void*)address, sizeof(value)) != sizeof(value)) return false;
    *seconds = (double)value.tv_sec + (double)value.tv_nsec / 1e9;
  }
  return true;
}

static void set_timeout(struct adc_wait_timing* timing, bool absolute, clockid_t clock, double seconds) {
  timing->timed = true;
  timing->absolute = absolute;
  timing->clock = clock;
  timing->seconds = seconds;
}

/* A timeout given by address, NULL for none: a span, or a deadline on `clock`. */
static bool timeout_by_address(uintptr_t address, bool is_timeval, bool absolute, clockid_t clock,
                               struct adc_wait_timing* timing) {
  double seconds;
  if (address == 0) return true;
  if (!timeout_at(address, is_timeval, &seconds)) return false;
  set_timeout(timing, absolute, clock, seconds);
  return true;
}

/* A timeout in milliseconds (poll, epoll_wait): negative for none. */
static bool timeout_in_milliseconds(uintptr_t argument, struct adc_wait_timing* timing) {
  if ((int)argument >= 0) set_timeout(timing, false, CLOCK_MONOTONIC, (int)argument / 1000.0);
  return true;
}

/* A futex operation that blocks, with its timeout: a span for FUTEX_WAIT,
 * a deadline for the others (CLOCK_REALTIME where the operation says so,
 * and always for LOCK_PI), none where the argument is NULL; any flags
 * (private or shared: pthread_join waits on a shared one). */
static bool futex_wait(const uintptr_t* args, struct adc_wait_timing* timing) {
  int op = (int)args[1];
  clockid_t clock = (op & FUTEX_CLOCK_REALTIME) != 0 ? CLOCK_REALTIME : CLOCK_MONOTONIC;
  switch (op & FUTEX_CMD_MASK) {
    case FUTEX_WAIT:
      return timeout_by_address(args[3], false, false, clock, timing);
    case FUTEX_LOCK_PI:
      return timeout_by_address(args[3], false, true, CLOCK_REALTIME, timing);
    case FUTEX_WAIT_BITSET:
    case FUTEX_LOCK_PI2:
    case FUTEX_WAIT_REQUEUE_PI:
      return timeout_by_address(args[3], false, true, clock, timing);
    default:
      return false;
  }
}

/* Whether the blocked call is a wait that only this process can end, save
 * its timeout, which is set on `timing`.  A sleep watches nothing and
 * counts as such a wait with its timeout. */
static bool waits_on_this_process(const struct blocked_call* call, unsigned flags,
                                  struct adc_wait_timing* timing) {
  const uintptr_t* a = call->args;
  switch (call->number) {
    case SYS_futex:
      return futex_wait(a, timing);
#ifdef SYS_futex_waitv
    case SYS_futex_waitv:
      return timeout_by_address(a[3], false, true, (clockid_t)a[4], timing);
#endif
#ifdef SYS_poll
    case SYS_poll:
      return poll_set_inside(a[0], a[1], flags) && timeout_in_milliseconds(a[2], timing);
#endif
    case SYS_ppoll:
      return poll_set_inside(a[0], a[1], flags) && timeout_by_address(a[2], false, false, 0, timing);
#ifdef SYS_select
    case SYS_select:
      return select_sets_inside(a, flags) && timeout_by_address(a[4], true, false, 0, timing);
#endif
    case SYS_pselect6:
      return select_sets_inside(a, flags) && timeout_by_address(a[4], false, false, 0, timing);
#ifdef SYS_epoll_wait
    case SYS_epoll_wait:
#endif
    case SYS_epoll_pwait:
      return epoll_set_inside(a[0], flags) && timeout_in_milliseconds(a[3], timing);
#ifdef SYS_epoll_pwait2
    case SYS_epoll_pwait2:
      return epoll_set_inside(a[0], flags) && timeout_by_address(a[3], false, false, 0, timing);
#endif
    case SYS_read:
    case SYS_readv:
      return ready_only_from_inside((int)a[0], flags);
    case SYS_nanosleep:
      return timeout_by_address(a[0], false, false, 0, timing);
    case SYS_clock_nanosleep:
      return timeout_by_address(a[2], false, (a[1] & TIMER_ABSTIME) != 0, (clockid_t)a[0], timing);
    default:
      return false;
  }
}

void adc_blocked_wait_timing(const char* line, unsigned flags, struct adc_wait_timing* timing) {
  memset(timing, 0, sizeof(*timing));
  struct blocked_call call;
  if (strncmp(line, "running", 7) == 0) {
    timing->wait = ADC_WAIT_RUNNING;
  } else if (parse_line(line, &call) && waits_on_this_process(&call, flags, timing)) {
    timing->wait = ADC_WAIT_ON_THIS_PROCESS;
  } else {
    /* "-1 ...": blocked outside a system call; or a call not known */
    memset(timing, 0, sizeof(*timing));
    timing->wait = ADC_WAIT_MAY_END;
  }
}

enum adc_blocked_wait adc_blocked_wait_of(const char* line) {
  struct adc_wait_timing timing;
  adc_blocked_wait_timing(line, 0, &timing);
  return timing.timed ? ADC_WAIT_MAY_END : timing.wait;
}
