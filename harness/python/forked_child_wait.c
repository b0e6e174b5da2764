#include "forked_child_wait.h"

#include <fcntl.h>
#include <inttypes.h>
#include <linux/futex.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* The text of /proc/<child>/<name>, or "" where it cannot be read. */
static void read_proc(pid_t child, const char* name, char* text, size_t size) {
  char path[64];
  snprintf(path, sizeof(path), "/proc/%d/%s", (int)child, name);
  text[0] = '\0';
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  ssize_t n = read(fd, text, size - 1);
  close(fd);
  text[n > 0 ? n : 0] = '\0';
}

/* Linux's syscall line: the call's number, then its six arguments in
 * hexadecimal ("202 0x7f... 0x80 0x2 0x0 ..."); "running" or "-1 ..."
 * otherwise.  A futex wait of the process's own (FUTEX_PRIVATE_FLAG: no
 * other process can wake it) with no timeout (the fourth argument NULL). */
static bool waits_on_private_futex(const char* line) {
  long number;
  uintmax_t futex, op, value, timeout;
  if (sscanf(line, "%ld %jx %jx %jx %jx", &number, &futex, &op, &value, &timeout) != 5) return false;
  if (number != SYS_futex || !(op & FUTEX_PRIVATE_FLAG) || timeout != 0) return false;
  switch ((int)(op & FUTEX_CMD_MASK)) {
    case FUTEX_WAIT:
    case FUTEX_WAIT_BITSET:
    case FUTEX_LOCK_PI:
      return true;
    default:
      return false;
  }
}

bool adc_forked_child_waits_for_ever(pid_t child) {
  char first[256], second[256], ran_before[128], ran_after[128];
  read_proc(child, "schedstat", ran_before, sizeof(ran_before));
  read_proc(child, "syscall", first, sizeof(first));
  if (!waits_on_private_futex(first)) return false;
  nanosleep(&(struct timespec){0, 1000000L}, NULL);
  read_proc(child, "syscall", second, sizeof(second));
  read_proc(child, "schedstat", ran_after, sizeof(ran_after));
  /* schedstat: time on the CPU, time waiting to run, times run: unchanged
   * only where the child never ran between the looks. */
  return strcmp(first, second) == 0 && ran_before[0] != '\0' && strcmp(ran_before, ran_after) == 0;
}
