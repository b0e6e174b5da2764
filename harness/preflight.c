#include "preflight.h"

#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "entry_points.h"

struct preflight_answer {
  int found;
  char error[1024];
};

int adc_preflight_library(const char* path, const char* prefix, char* error, size_t error_size) {
  int fds[2];
  if (pipe(fds) != 0) {
    snprintf(error, error_size, "pipe() failed");
    return -1;
  }
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    struct preflight_answer answer;
    memset(&answer, 0, sizeof(answer));
    struct adc_library library;
    if (adc_library_open(&library, path, prefix, answer.error, sizeof(answer.error)) != 0) {
      answer.found = -1;
    } else {
      for (int i = 0; i < ADC_EP_COUNT; i++) answer.found += library.symbols[i] != NULL;
    }
    ssize_t written = write(fds[1], &answer, sizeof(answer));
    _exit(written == (ssize_t)sizeof(answer) ? 0 : 1);
  }
  close(fds[1]);
  struct preflight_answer answer;
  memset(&answer, 0, sizeof(answer));
  ssize_t got = pid > 0 ? read(fds[0], &answer, sizeof(answer)) : -1;
  close(fds[0]);
  int status = 0;
  if (pid > 0) waitpid(pid, &status, 0);
  if (got != (ssize_t)sizeof(answer)) {
    snprintf(error, error_size, "loading it crashed the loader process");
    return -1;
  }
  if (answer.found < 0) snprintf(error, error_size, "%s", answer.error);
  return answer.found;
}
