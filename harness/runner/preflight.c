#include "runner/preflight.h"

#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rule_api/library.h"

struct preflight_answer {
  int found;
  struct adc_error error;
};

int adc_preflight_library(const char* path, const char* prefix, struct adc_error* error) {
  int fds[2];
  if (pipe(fds) != 0) return adc_fail(error, "pipe() failed");
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    struct preflight_answer answer;
    memset(&answer, 0, sizeof(answer));
    struct adc_library library;
    answer.found = adc_library_open(&library, path, prefix, &answer.error) != 0
                       ? -1
                       : adc_library_count_entry_points(&library);
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
  if (got != (ssize_t)sizeof(answer)) return adc_fail(error, "loading it crashed the loader process");
  if (answer.found < 0) {
    answer.error.message[sizeof(answer.error.message) - 1] = '\0';
    return adc_fail(error, "%s", answer.error.message);
  }
  return answer.found;
}
