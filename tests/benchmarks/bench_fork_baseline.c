/* The floor for the runner's overhead: forks N children one after another,
 * each loading a library with dlopen and exiting, as a case's process does
 * before and after its rule.  ci/bench-cpu-run.sh times it beside
 * `adc-conform --jobs 1` over as many cases.
 *
 * Usage: bench_fork_baseline LIBRARY N */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: bench_fork_baseline LIBRARY N\n");
    return 2;
  }
  int n = atoi(argv[2]);
  for (int i = 0; i < n; i++) {
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) exit(dlopen(argv[1], RTLD_NOW | RTLD_LOCAL) != NULL ? 0 : 1);
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      fprintf(stderr, "bench_fork_baseline: child %d failed\n", i);
      return 1;
    }
  }
  return 0;
}
