/* What an OpenCL case process pays before its rule runs, and one way not
 * to pay most of it (issue: "The start-up cost").  A benchmark: it prints
 * figures and fails only where a case's device did not work.
 *
 * Each round forks a process that does what a case on `opencl` does with
 * the device: open it (ICD loader, platform, device, context, in-order
 * device/opencl_context.h; a queue), allocate a fine-grained SVM buffer,
 * queue a copy into it and a marker after it, wait on the marker, check the
 * bytes, release everything, exit.  Three ways, medians of ROUNDS:
 *   bare      the fork alone (the floor);
 *   cold      as the harness runs a case today: nothing loaded before the
 *             fork, so each process loads the ICD loader, the platform's
 *             library (PoCL brings LLVM and clang) and initialises it;
 *   preloaded the forking process has mapped the ICD loader and every
 *             vendor library of /etc/OpenCL/vendors, but called nothing in
 *             them (a fork server could: nothing of the runtime has run, so
 *             nothing of it is copied half-initialised); each child then
 *             initialises the platform itself.
 * Whether a child of a parent that had initialised PoCL could go on is not
 * asked: it hangs in its first call (CONFORMANCE.md, "OpenCL").
 *
 * Usage: bench_opencl_startup [ROUNDS]   (default 50; set POCL_CACHE_DIR) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "device/opencl_context.h"
#include "device/opencl_runtime.h"
#include "support/clock.h"

#define MAX_ROUNDS 1000
#define BUFFER_BYTES 4096

/* One case's use of the device; 0 when it worked. */
static int one_case(void) {
  struct adc_error error;
  struct adc_opencl_context opened;
  if (adc_opencl_open(0, &opened, &error) != 0) {
    fprintf(stderr, "bench_opencl_startup: %s\n", error.message);
    return 1;
  }
  const struct adc_opencl_api* api = opened.api;
  cl_int code = CL_SUCCESS;
  cl_command_queue queue = api->create_queue(opened.context, opened.device, NULL, &code);
  unsigned char host[BUFFER_BYTES];
  memset(host, 7, sizeof(host));
  unsigned char* buffer =
      api->svm_alloc(opened.context, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER, sizeof(host), 0);
  cl_event marker = NULL;
  int status = code != CL_SUCCESS || buffer == NULL ||
               api->enqueue_svm_memcpy(queue, CL_FALSE, buffer, host, sizeof(host), 0, NULL, NULL) != 0 ||
               api->enqueue_marker(queue, 0, NULL, &marker) != 0 || api->wait_for_events(1, &marker) != 0 ||
               buffer[BUFFER_BYTES - 1] != 7;
  if (marker != NULL) api->release_event(marker);
  if (queue != NULL) api->release_queue(queue);
  if (buffer != NULL) api->svm_free(opened.context, buffer);
  adc_opencl_close(&opened);
  return status;
}

static int by_value(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

/* Forks `rounds` processes one after another, each running `work` (NULL:
 * none); prints their median and extremes.  -1 when one failed. */
static int time_rounds(const char* label, int rounds, int (*work)(void)) {
  static double seconds[MAX_ROUNDS];
  for (int i = 0; i < rounds; i++) {
    double start = adc_now_seconds();
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) _exit(work != NULL ? work() : 0);
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      fprintf(stderr, "bench_opencl_startup: %s: round %d failed\n", label, i);
      return -1;
    }
    seconds[i] = adc_now_seconds() - start;
  }
  qsort(seconds, (size_t)rounds, sizeof(double), by_value);
  printf("%-10s median %7.2f ms  (fastest %.2f, slowest %.2f; %d processes)\n", label,
         seconds[rounds / 2] * 1e3, seconds[0] * 1e3, seconds[rounds - 1] * 1e3, rounds);
  return 0;
}

int main(int argc, char** argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 50;
  if (rounds < 1 || rounds > MAX_ROUNDS) {
    fprintf(stderr, "usage: bench_opencl_startup [ROUNDS]   (1 to %d)\n", MAX_ROUNDS);
    return 2;
  }
  printf(
      "Set-up of an OpenCL case's process: fork, platform, context, queue, buffer, copy, event, release\n");
  if (time_rounds("bare", rounds, NULL) != 0 || time_rounds("cold", rounds, one_case) != 0) return 1;
  int mapped = adc_opencl_map_libraries();
  printf("(preloaded: %d libraries mapped, nothing of them called)\n", mapped);
  return time_rounds("preloaded", rounds, one_case) != 0 ? 1 : 0;
}
