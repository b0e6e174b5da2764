#include "runner/runner.h"

#include <stdio.h>
#include <stdlib.h>

#include "runner/case_child.h"
#include "runner/case_plan.h"
#include "runner/device_probe.h"
#include "support/parent_only_memory.h"

struct case_task {
  const struct adc_session* session;
  const struct adc_case* c;
  size_t case_index;
};

struct observation {
  const struct case_task* case_tasks;
  struct adc_task_result* results;
  adc_case_observer observer;
  void* context;
};

static void run_case(const void* argument, int verdict_fd) {
  const struct case_task* task = argument;
  adc_run_case_in_child(task->session, task->c, verdict_fd);
}

/* Task results land in their case's slot, and the observer hears of them. */
static void on_task_result(size_t task_index, const struct adc_task_result* result, void* context) {
  struct observation* observation = context;
  const struct case_task* task = &observation->case_tasks[task_index];
  observation->results[task->case_index] = *result;
  if (observation->observer != NULL) observation->observer(task->c, result, observation->context);
}

/* Whether the case's verdict is known before it runs, written to `result`:
 * the library of its side could not be loaded without crashing or hanging
 * (preflight.h), or the probe found its device unavailable.  Such a case
 * costs no process: a run on every device of a machine without a GPU costs
 * what the devices present cost. */
static bool settled_before_running(const struct adc_session* session, const struct adc_case* c,
                                   struct adc_task_result* result) {
  const struct adc_side* side = adc_side_tested_by(session, c->rule);
  const struct adc_device_facts* facts = adc_probed_facts(session, c->device);
  if (side->load_misbehaved) {
    *result = side->load_verdict;
  } else if (facts != NULL && !facts->available) {
    *result = (struct adc_task_result){.status = ADC_NOT_SUPPORTED};
    snprintf(result->message, sizeof(result->message), "device %s unavailable: %s", c->device->driver->name,
             facts->reason);
  } else {
    return false;
  }
  result->seconds = 0; /* the case never ran */
  return true;
}

/* In the preloading server: maps the runtime of each device of the run
 * whose driver offers it. */
static void preload_device_runtimes(void* context) {
  const struct adc_session* session = context;
  for (size_t d = 0; d < session->n_devices; d++) {
    const struct adc_device_driver* driver = session->devices[d].driver;
    if (driver->preload_runtime != NULL) driver->preload_runtime();
  }
}

/* Whether the case's process sleeps most of its time by design: its rule
 * says so, or it writes late through a queue whose holds last a set time. */
static bool case_mostly_waits(const struct adc_case* c) {
  const struct adc_device_queue_ops* queue = c->device->driver->queue;
  return c->rule->waits_by_design ||
         (c->rule->writes_late && queue != NULL && !queue->hold_follows_synchronisation);
}

int adc_run_cases(const struct adc_session* session, const struct adc_case* cases, size_t n_cases,
                  struct adc_task_result* results, adc_case_observer observer, void* context,
                  struct adc_error* error) {
  struct case_task* case_tasks = calloc(n_cases + 1, sizeof(*case_tasks));
  struct adc_task* tasks = calloc(n_cases + 1, sizeof(*tasks));
  /* Results are the parent's alone (support/parent_only_memory.h). */
  struct adc_task_result* task_results = adc_parent_only_calloc(n_cases + 1, sizeof(*task_results));
  if (case_tasks == NULL || tasks == NULL || task_results == NULL) {
    adc_parent_only_free(task_results);
    free(tasks);
    free(case_tasks);
    return adc_fail(error, "out of memory");
  }
  size_t n_tasks = 0;
  for (size_t i = 0; i < n_cases; i++) {
    if (settled_before_running(session, &cases[i], &results[i])) {
      if (observer != NULL) observer(&cases[i], &results[i], context);
      continue;
    }
    case_tasks[n_tasks] = (struct case_task){session, &cases[i], i};
    tasks[n_tasks] =
        (struct adc_task){run_case, &case_tasks[n_tasks], adc_case_timeout(session, &cases[i]),
                          case_mostly_waits(&cases[i]), cases[i].device->driver->preload_runtime != NULL};
    n_tasks++;
  }
  struct observation observation = {case_tasks, results, observer, context};
  /* Cases that wait by design run beside the --jobs others, as many more:
   * they would otherwise hold a CPU's turn asleep.  Not under a memory
   * checker (--valgrind), where nothing a case does is idle. */
  struct adc_task_run run = {.jobs = session->jobs,
                             .waiting_jobs = session->process_log_dir == NULL ? session->jobs : 0,
                             .memory_limit_bytes = session->memory_limit_mib * 1024 * 1024,
                             .process_log_dir = session->process_log_dir,
                             .preload = preload_device_runtimes,
                             .preload_context = (void*)session,
                             .on_result = on_task_result,
                             .context = &observation};
  int status = adc_run_tasks(tasks, n_tasks, &run, task_results, error);
  adc_parent_only_free(task_results);
  free(tasks);
  free(case_tasks);
  return status;
}
