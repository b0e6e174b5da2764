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
 * process: an anonymous pipe (a self-pipe, a queue between threads).  Its
 * write end could still be held by another process (a pipe to a child):
 * that is outside what a look at this process can see.  Anything else may
 * be made ready from outside: a device (a GPU's completion), a socket (a
 * server, CUDA's MPS daemon on a UNIX socket), an eventfd (a driver or
 * io_uring may signal one), a timerfd, a file. */
static bool ready_only_from_inside(int fd) {
  char path[64], target[64];
  snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
  ssize_t length = readlink(path, target, sizeof(target) - 1);
  if (length <= 0) return false;
  target[length] = '\0';
  return strncmp(target, "pipe:", 5) == 0;
}

/* poll and ppoll: the pollfd array the blocked thread passed, read from
 * this process's memory (it stays put while the call blocks; a thread
 * that just returned may have moved on, and then the next look sees it). */
static bool poll_set_inside(uintptr_t fds, uintptr_t count) {
  if (count > MAX_WATCHED) return false;
  struct pollfd watched[MAX_WATCHED];
  size_t size = (size_t)count * sizeof(watched[0]);
  if (adc_copy_readable(watched, (const void*)fds, size) != size) return false;
  for (uintptr_t i = 0; i < count; i++) {
    if (watched[i].fd >= 0 && !ready_only_from_inside(watched[i].fd)) return false;
  }
  return true;
}

/* select and pselect6: the three fd_set bitmaps, as poll_set_inside. */
static bool select_sets_inside(const uintptr_t* args) {
  uintptr_t count = args[0];
  if (count > FD_SETSIZE) return false;
  for (int set = 1; set <= 3; set++) {
    if (args[set] == 0) continue;
    fd_set bits;
    size_t size = (count + 7) / 8;
    if (adc_copy_readable(&bits, (const void*)args[set], size) != size) return false;
    for (int fd = 0; fd < (int)count; fd++) {
      if (FD_ISSET(fd, &bits) && !ready_only_from_inside(fd)) return false;
    }
  }
  return true;
}

/* epoll_wait and the like: the descriptors in the epoll instance's
 * interest list, as /proc/self/fdinfo/<epfd> lists them ("tfd: N ..."). */
static bool epoll_set_inside(uintptr_t epfd) {
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
    if (!ready_only_from_inside(atoi(at + 4))) return false;
  }
  return true;
}

/* A futex operation that blocks, with no timeout argument (any flags:
 * private or shared, either clock; pthread_join waits on a shared one). */
static bool futex_waits_forever(const uintptr_t* args) {
  switch ((int)args[1] & FUTEX_CMD_MASK) {
    case FUTEX_WAIT:
    case FUTEX_WAIT_BITSET:
    case FUTEX_LOCK_PI:
    case FUTEX_LOCK_PI2:
    case FUTEX_WAIT_REQUEUE_PI:
      return args[3] == 0;
    default:
      return false;
  }
}

/* Whether the blocked call is a wait with no timeout that only this
 * process can end.  An int timeout (poll, epoll_wait) is negative for
 * none; a pointer to one is NULL. */
static bool waits_on_this_process(const struct blocked_call* call) {
  const uintptr_t* a = call->args;
  switch (call->number) {
    case SYS_futex:
      return futex_waits_forever(a);
#ifdef SYS_futex_waitv
    case SYS_futex_waitv:
      return a[3] == 0;
#endif
#ifdef SYS_poll
    case SYS_poll:
      return (int)a[2] < 0 && poll_set_inside(a[0], a[1]);
#endif
    case SYS_ppoll:
      return a[2] == 0 && poll_set_inside(a[0], a[1]);
#ifdef SYS_select
    case SYS_select:
#endif
    case SYS_pselect6:
      return a[4] == 0 && select_sets_inside(a);
#ifdef SYS_epoll_wait
    case SYS_epoll_wait:
#endif
    case SYS_epoll_pwait:
      return (int)a[3] < 0 && epoll_set_inside(a[0]);
#ifdef SYS_epoll_pwait2
    case SYS_epoll_pwait2:
      return a[3] == 0 && epoll_set_inside(a[0]);
#endif
    case SYS_read:
    case SYS_readv:
      return ready_only_from_inside((int)a[0]);
    default:
      return false;
  }
}

enum adc_blocked_wait adc_blocked_wait_of(const char* line) {
  if (strncmp(line, "running", 7) == 0) return ADC_WAIT_RUNNING;
  struct blocked_call call;
  if (!parse_line(line, &call)) return ADC_WAIT_MAY_END; /* "-1 ...": blocked outside a system call */
  return waits_on_this_process(&call) ? ADC_WAIT_ON_THIS_PROCESS : ADC_WAIT_MAY_END;
}
