#include "support/program_output.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support/clock.h"

extern char** environ;

/* Starts the program, its standard output a pipe whose read end goes to
 * `output`; its pid, or -1 with run->spawn_error. */
static pid_t start(char* const* argv, int* output, struct adc_program_run* run) {
  int ends[2];
  if (pipe2(ends, O_CLOEXEC) != 0) {
    run->spawn_error = errno;
    return -1;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, ends[1], STDOUT_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  /* Its own process group, so that one that hangs is killed with whatever
   * it started; no signal blocked, whatever the harness blocks (it reads
   * SIGCHLD, SIGINT and SIGTERM from a descriptor while cases run). */
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t none;
  sigemptyset(&none);
  posix_spawnattr_setsigmask(&attributes, &none);
  posix_spawnattr_setpgroup(&attributes, 0);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK);
  pid_t pid;
  run->spawn_error = posix_spawnp(&pid, argv[0], &actions, &attributes, argv, environ);
  posix_spawnattr_destroy(&attributes);
  posix_spawn_file_actions_destroy(&actions);
  close(ends[1]);
  if (run->spawn_error != 0) {
    close(ends[0]);
    return -1;
  }
  *output = ends[0];
  return pid;
}

int adc_program_output(char* const* argv, double seconds, char* text, size_t size,
                       struct adc_program_run* run) {
  memset(run, 0, sizeof(*run));
  text[0] = '\0';
  int output;
  pid_t pid = start(argv, &output, run);
  if (pid < 0) return -1;
  double deadline = adc_now_seconds() + seconds;
  for (;;) {
    struct pollfd wait_for = {output, POLLIN, 0};
    int left_ms = (int)((deadline - adc_now_seconds()) * 1000);
    if (left_ms <= 0 || poll(&wait_for, 1, left_ms) == 0) {
      run->timed_out = true;
      break;
    }
    char discard[4096];
    bool room = run->length < size - 1;
    ssize_t n =
        read(output, room ? text + run->length : discard, room ? size - 1 - run->length : sizeof(discard));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    if (room) run->length += (size_t)n;
  }
  close(output);
  text[run->length] = '\0';
  if (run->timed_out) kill(-pid, SIGKILL);
  while (waitpid(pid, &run->status, 0) < 0 && errno == EINTR) {
  }
  return run->timed_out ? -1 : 0;
}
