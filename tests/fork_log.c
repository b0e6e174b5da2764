/* A library for --preload that logs every fork of the process it is loaded
 * into, and of each process forked from it: a line with the child's pid,
 * appended to the file ADC_FORK_LOG names.  It lets a test count the
 * processes a run of adc-conform starts (tests/test_bad_input.c: a device
 * found unavailable costs no process per case).  A forked child runs no
 * constructor, so the count comes from a pthread_atfork child handler,
 * which glibc's fork() calls in every child. */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void log_child(void) {
  const char* path = getenv("ADC_FORK_LOG");
  if (path == NULL) return;
  int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) return;
  char line[32];
  int length = snprintf(line, sizeof(line), "%ld\n", (long)getpid());
  /* One write of a short line to an O_APPEND file: lines never interleave. */
  if (write(fd, line, (size_t)length) != length) {
    /* nothing to do: the test counts what arrived */
  }
  close(fd);
}

__attribute__((constructor)) static void log_forks(void) {
  pthread_atfork(NULL, NULL, log_child);
}
