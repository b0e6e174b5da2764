#include "runner/preflight.h"
#include "runner/task_runner.h"

#include <stdio.h>
#include <stdlib.h>

#include "rule_api/library.h"
#include "support/allocator_threads.h"
#include "wire/wire.h"

struct load_request {
  const char* path;
  const char* prefix;
};

/* In the child: pass with the count of entry points, of the process's
 * threads once loaded but an allocator's, and whether the library can be
 * forked once loaded ("ENTRY_POINTS THREADS FORKABLE"), or unresolved with
 * the loader's message. */
static void load(const void* argument, int verdict_fd) {
  const struct load_request* request = argument;
  struct adc_library library;
  struct adc_error error;
  if (adc_library_open(&library, request->path, request->prefix, &error) != 0) {
    adc_wire_send(verdict_fd, ADC_UNRESOLVED, error.message);
    return;
  }
  /* An allocator's thread does not keep the library from being forked
   * after its load: the child goes on without it, as its allocator
   * intends (allocator_threads.h). */
  char count[32];
  snprintf(count, sizeof(count), "%d %d %d", adc_library_count_entry_points(&library),
           adc_count_threads_but_allocators(), adc_library_can_be_forked(&library));
  adc_wire_send(verdict_fd, ADC_PASS, count);
}

int adc_preflight_library(const char* path, const char* prefix, const struct adc_load_limits* limits,
                          bool* forked_after_load, struct adc_task_result* verdict, struct adc_error* error) {
  struct load_request request = {path, prefix};
  struct adc_task task = {.run = load, .argument = &request, .timeout_seconds = limits->timeout_seconds};
  struct adc_task_run run = {.jobs = 1, .memory_limit_bytes = limits->memory_limit_mib * 1024 * 1024};
  if (adc_run_tasks(&task, 1, &run, verdict, error) != 0) return -1;
  switch (verdict->status) {
    case ADC_PASS: {
      int entry_points = 0;
      int threads = 0;
      int forkable = 0;
      *forked_after_load = sscanf(verdict->message, "%d %d %d", &entry_points, &threads, &forkable) == 3 &&
                           threads == 1 && forkable;
      return entry_points;
    }
    case ADC_UNRESOLVED:
      return adc_fail(error, "%s", verdict->message);
    default:
      return ADC_LOAD_MISBEHAVED;
  }
}
