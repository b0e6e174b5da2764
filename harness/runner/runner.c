#include "runner/runner.h"

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include "rule_api/library.h"
#include "runner/case_child.h"
#include "runner/case_plan.h"
#include "runner/device_probe.h"
#include "runner/preload_server.h"
#include "runner/task_runner.h"
#include "support/parent_only_memory.h"

/* The index of `device`, a device of the session. */
static size_t device_index(const struct adc_session* session, const struct adc_device_target* device) {
  return (size_t)(device - session->devices);
}

/* How the process of the rule judging a library's end (judges_process_end)
 * ended, per role and device: not known yet, cleanly, or dying. */
enum process_end { END_UNKNOWN, END_CLEAN, END_DIED };

struct observation {
  const struct adc_case_task* case_tasks;
  struct adc_task_result* results;
  adc_case_observer observer;
  void* context;
  enum process_end ends[ADC_ROLE_COUNT][ADC_MAX_DEVICES];
  /* Tasks whose process died after their verdict, waiting until their
   * library's end is known (parent-only memory). */
  size_t* held;
  size_t n_held;
};

static void run_case(const void* argument, int channel_fd) {
  const struct adc_case_task* task = argument;
  adc_run_case_in_child(task->session, task->c, channel_fd);
}

static void run_prepared_case(const void* argument, struct adc_task_verdict* verdict) {
  adc_run_prepared_case(argument, verdict);
}

static int prepare_cases(const void* argument, bool* refused, struct adc_error* error) {
  return adc_prepare_cases(argument, refused, error);
}

static bool case_left_behind(const void* argument, char* text, size_t size) {
  (void)argument;
  return adc_prepared_left_behind(text, size);
}

/* Task results land in their case's slot, and the observer hears of them. */
static void deliver(struct observation* observation, const struct adc_case_task* task) {
  if (observation->observer != NULL)
    observation->observer(task->c, &observation->results[task->case_index], observation->context);
}

/* The rule judging the end of a `role` library's processes, or NULL. */
static const struct adc_rule* process_end_rule(enum adc_role role) {
  for (size_t r = 0; r < adc_rule_count(); r++) {
    const struct adc_rule* rule = adc_rule_at(r);
    if (rule->judges_process_end && rule->role == role) return rule;
  }
  return NULL;
}

/* The case's process died after its verdict: the death is the case's (a
 * pass becomes it; another verdict stands, saying it), or, where
 * `library_exit` (the process of the rule judging the library's end died
 * so too), the library's exit, which that rule reports once: the verdict
 * stands, saying it. */
static void weigh_death_after_verdict(const struct adc_case* c, struct adc_task_result* result,
                                      bool library_exit) {
  struct adc_after_verdict* after = &result->after_verdict;
  size_t used = strlen(result->message);
  char* end = result->message + used;
  size_t room = sizeof(result->message) - used;
  const struct adc_rule* judge = process_end_rule(c->rule->role);
  bool passed = adc_status_found_nothing_wrong(result->status);
  if (library_exit) {
    snprintf(end, room,
             "%s(then its process died as it ended, as every process of the library does: %s "
             "judges that)",
             used > 0 ? " " : "", judge != NULL ? judge->id : "the rule on a process's end");
  } else if (passed) {
    result->status = after->status;
    snprintf(result->message, sizeof(result->message), "%s", after->message);
    cJSON_Delete(result->crash_site);
    result->crash_site = after->crash_site;
    after->crash_site = NULL;
  } else {
    snprintf(end, room, " (then %.600s)", after->message);
  }
  cJSON_Delete(after->crash_site);
  after->crash_site = NULL;
}

/* The cases held for the end of `role`'s library on device `d`, settled
 * now that it is known (`d` ADC_MAX_DEVICES: every one held, at the
 * run's end, where it never became known: each death is its case's). */
static void release_held(struct observation* observation, int role, size_t d) {
  size_t kept = 0;
  for (size_t h = 0; h < observation->n_held; h++) {
    const struct adc_case_task* task = &observation->case_tasks[observation->held[h]];
    size_t device = device_index(task->session, task->c->device);
    if (d != ADC_MAX_DEVICES && ((int)task->c->rule->role != role || device != d)) {
      observation->held[kept++] = observation->held[h];
      continue;
    }
    bool library_exit = d != ADC_MAX_DEVICES && observation->ends[role][d] == END_DIED;
    weigh_death_after_verdict(task->c, &observation->results[task->case_index], library_exit);
    deliver(observation, task);
  }
  observation->n_held = kept;
}

static void on_task_result(size_t task_index, const struct adc_task_result* result, void* context) {
  struct observation* observation = context;
  const struct adc_case_task* task = &observation->case_tasks[task_index];
  struct adc_task_result* stored = &observation->results[task->case_index];
  *stored = *result;
  const struct adc_case* c = task->c;
  int role = (int)c->rule->role;
  size_t d = device_index(task->session, c->device);
  bool died = stored->after_verdict.died;
  if (c->rule->judges_process_end) {
    /* Its verdict is how its process ended. */
    if (died) weigh_death_after_verdict(c, stored, false);
    if (adc_status_found_nothing_wrong(stored->status) || died)
      observation->ends[role][d] = died ? END_DIED : END_CLEAN;
    deliver(observation, task);
    if (observation->ends[role][d] != END_UNKNOWN) release_held(observation, role, d);
  } else if (died && observation->ends[role][d] == END_UNKNOWN) {
    observation->held[observation->n_held++] = task_index;
  } else {
    if (died) weigh_death_after_verdict(c, stored, observation->ends[role][d] == END_DIED);
    deliver(observation, task);
  }
}

/* Whether `side` is judged on `device` (adc_side.judged_devices). */
static bool judged_on(const struct adc_side* side, const struct adc_device_target* device) {
  if (side->judged_devices[0] == '\0') return true;
  size_t length = strlen(device->name);
  for (const char* at = side->judged_devices; *at != '\0';) {
    size_t item = strcspn(at, ",");
    if (item == length && strncmp(at, device->name, length) == 0) return true;
    at += item + (at[item] == ',');
  }
  return false;
}

/* Whether the case's verdict is known before it runs, written to `result`:
 * the library of its side could not be loaded without crashing or hanging
 * (preflight.h), a side is not judged on its device (adc_side,
 * judged_devices), or the probe found its device unavailable.  Such a case
 * costs no process: a run on every device of a machine without a GPU costs
 * what the devices present cost. */
static bool settled_before_running(const struct adc_session* session, const struct adc_case* c,
                                   struct adc_task_result* result) {
  const struct adc_side* side = adc_side_tested_by(session, c->rule);
  const struct adc_device_facts* facts = adc_probed_facts(session, c->device);
  /* The side the case tests, and a pair's producer beside it. */
  const struct adc_side* unjudged = !judged_on(side, c->device) ? side
                                    : c->rule->judges_a_pair && !judged_on(&session->producer, c->device)
                                        ? &session->producer
                                        : NULL;
  if (side->load_misbehaved) {
    *result = side->load_verdict;
  } else if (unjudged != NULL) {
    *result = (struct adc_task_result){.status = ADC_NOT_SUPPORTED};
    snprintf(
        result->message, sizeof(result->message), "not run: the %s is judged on %s alone here, not on %s",
        unjudged == &session->producer ? "producer" : "consumer", unjudged->judged_devices, c->device->name);
  } else if (facts != NULL && facts->refused) {
    *result = (struct adc_task_result){.status = ADC_UNRESOLVED};
    snprintf(result->message, sizeof(result->message),
             "not run: device %s is there but refused the run's probe each time it asked: %s",
             c->device->name, facts->reason);
  } else if (facts != NULL && !facts->available) {
    *result = (struct adc_task_result){.status = ADC_NOT_SUPPORTED};
    snprintf(result->message, sizeof(result->message), "device %s unavailable: %s", c->device->name,
             facts->reason);
  } else {
    return false;
  }
  result->seconds = 0; /* the case never ran */
  return true;
}

/* In the preloading server: maps the runtime of each device of the run
 * whose driver offers it, and loads each library under test that may be
 * forked once loaded (adc/fork_protocol.h), its fork protocol then run
 * around the server's every fork.  What a library prints as it loads is
 * not a case's: the server's output goes nowhere from here on (a case's
 * process has its own, runner/task_process.c). */
static void preload_for_cases(void* context) {
  const struct adc_session* session = context;
  for (size_t d = 0; d < session->n_devices; d++) {
    const struct adc_device_driver* driver = session->devices[d].driver;
    if (driver->preload_runtime != NULL) driver->preload_runtime();
  }
  const struct adc_side* sides[ADC_ROLE_COUNT] = {&session->producer, &session->consumer};
  for (int role = 0; role < ADC_ROLE_COUNT; role++) {
    if (!sides[role]->tested || !sides[role]->forked_after_load) continue;
    int nowhere = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (nowhere >= 0) {
      dup2(nowhere, STDOUT_FILENO);
      dup2(nowhere, STDERR_FILENO);
      close(nowhere);
    }
    /* Kept loaded for the server's life: each case's process has it. */
    static struct adc_library loaded[ADC_ROLE_COUNT];
    struct adc_error error;
    if (adc_library_open(&loaded[role], sides[role]->path, sides[role]->prefix, &error) == 0 &&
        adc_library_can_be_forked(&loaded[role])) {
      adc_preload_server_add_fork_protocol(&loaded[role].fork_protocol);
    }
  }
}

/* Whether case `c`'s process is forked by the preloading server: its
 * device's runtime is mapped there, or the library its rule judges is
 * loaded there. */
static bool case_is_preloaded(const struct adc_session* session, const struct adc_case* c) {
  return c->device->driver->preload_runtime != NULL ||
         adc_side_tested_by(session, c->rule)->forked_after_load;
}

/* Whether the case's process sleeps most of its time by design: its rule
 * says so, or it writes late through a queue whose holds last a set time. */
static bool case_mostly_waits(const struct adc_case* c) {
  const struct adc_device_queue_ops* queue = c->device->driver->queue;
  return c->rule->waits_by_design ||
         (c->rule->writes_late && queue != NULL && !queue->hold_follows_synchronisation);
}

/* What the cases of a run share: the prepared processes' groups (a
 * library on a device) and the physical devices their processes hold. */
struct sharing {
  struct adc_case_group groups[2 * ADC_MAX_DEVICES];
  struct adc_task_group task_groups[2 * ADC_MAX_DEVICES];
  char group_names[2 * ADC_MAX_DEVICES][96];
  size_t n_groups;
  struct adc_task_resource resources[ADC_MAX_DEVICES];
  const char* resource_physical[ADC_MAX_DEVICES];
  int64_t resource_id[ADC_MAX_DEVICES];
  char resource_names[ADC_MAX_DEVICES][96];
  size_t n_resources;
  /* The suite's own files (adc_task_run.suite_objects), NULL-terminated. */
  char suite_paths[1 + ADC_ROLE_COUNT][PATH_MAX];
  const char* suite_objects[2 + ADC_ROLE_COUNT];
};

/* The files whose code is the suite's, as a case's process maps them
 * (canonical paths): this executable, which every case's process runs,
 * and the Python shim, where a side is a Python library (the shim is how
 * the suite reaches it, its code the suite's).  A crash in their code is
 * the suite's own (runner/crash_site.h). */
static void find_suite_objects(const struct adc_session* session, struct sharing* sharing) {
  size_t n = 0;
  if (realpath("/proc/self/exe", sharing->suite_paths[n]) != NULL) {
    sharing->suite_objects[n] = sharing->suite_paths[n];
    n++;
  }
  const struct adc_side* sides[ADC_ROLE_COUNT] = {&session->producer, &session->consumer};
  for (int role = 0; role < ADC_ROLE_COUNT; role++) {
    if (!sides[role]->tested || !sides[role]->is_python) continue;
    if (realpath(sides[role]->path, sharing->suite_paths[n]) != NULL) {
      sharing->suite_objects[n] = sharing->suite_paths[n];
      n++;
    }
  }
  sharing->suite_objects[n] = NULL;
}

const char* adc_isolation_name(enum adc_isolation isolation) {
  switch (isolation) {
    case ADC_ISOLATION_CASE:
      return "case";
    case ADC_ISOLATION_SHARED:
      return "shared";
    case ADC_ISOLATION_AUTO:
      break;
  }
  return "auto";
}

bool adc_cases_share_processes(const struct adc_session* session, const struct adc_device_target* device) {
  (void)device; /* measured: the CPU devices gain as the costly ones do (CONFORMANCE.md) */
  return session->isolation != ADC_ISOLATION_CASE;
}

/* Whether two sides load one library: a prepared process then serves both. */
static bool same_library(const struct adc_side* a, const struct adc_side* b) {
  return strcmp(a->path, b->path) == 0 && strcmp(a->prefix, b->prefix) == 0;
}

/* How long a process may take to open the case's device before its case
 * starts: a costly start has a bound of its own, else the default limit. */
static double start_bound(const struct adc_session* session, bool costly) {
  return adc_session_timeout(session, costly ? ADC_DEVICE_START_SECONDS : 0);
}

/* The group of the case's library on its device, made on first use. */
static struct adc_task_group* group_of(struct sharing* sharing, const struct adc_session* session,
                                       const struct adc_case* c, bool costly) {
  const struct adc_side* side = adc_side_tested_by(session, c->rule);
  for (size_t g = 0; g < sharing->n_groups; g++) {
    const struct adc_case_group* group = &sharing->groups[g];
    if (group->device == c->device && same_library(group->side, side)) return &sharing->task_groups[g];
  }
  size_t g = sharing->n_groups++;
  sharing->groups[g] =
      (struct adc_case_group){session, c->device, side, session->pairs ? &session->producer : NULL};
  snprintf(sharing->group_names[g], sizeof(sharing->group_names[g]), "%.40s on %.40s",
           side->is_reference ? "the reference" : side->path, c->device->name);
  sharing->task_groups[g] = (struct adc_task_group){
      .prepare = prepare_cases,
      .left_behind = case_left_behind,
      .argument = &sharing->groups[g],
      .start_seconds = start_bound(session, costly),
      .preloaded = case_is_preloaded(session, c),
      .starts_slowly = side->is_python || (session->pairs && session->producer.is_python),
      .name = sharing->group_names[g],
      .process_end_task = ADC_NO_TASK,
  };
  return &sharing->task_groups[g];
}

/* The physical device the case's process holds, where its start is
 * costly: processes on one are admitted at ADC_DEVICE_PROCESSES at once,
 * or as many as the run has slots (--jobs, and as many waiting), if fewer. */
static const struct adc_task_resource* resource_of(struct sharing* sharing, const struct adc_session* session,
                                                   const struct adc_case* c, bool costly) {
  if (!costly) return NULL;
  const char* physical = adc_device_physical_name(c->device->driver);
  for (size_t r = 0; r < sharing->n_resources; r++) {
    if (strcmp(sharing->resource_physical[r], physical) == 0 &&
        sharing->resource_id[r] == c->device->device_id) {
      return &sharing->resources[r];
    }
  }
  size_t r = sharing->n_resources++;
  sharing->resource_physical[r] = physical;
  sharing->resource_id[r] = c->device->device_id;
  snprintf(sharing->resource_names[r], sizeof(sharing->resource_names[r]), "%.60s %lld", physical,
           (long long)c->device->device_id);
  int slots = 2 * session->jobs;
  int limit = slots < ADC_DEVICE_PROCESSES ? slots : ADC_DEVICE_PROCESSES;
  sharing->resources[r] = (struct adc_task_resource){limit > 0 ? limit : 1, sharing->resource_names[r]};
  return &sharing->resources[r];
}

/* Whether case `c` may run in a prepared process: unless the isolation is
 * a process per case, its rule needs a process of its own, or --expect
 * says it crashes or times out.  Such a case would end its prepared
 * process and leave every pass before it there unconfirmed, each run
 * again alone (on a GPU, a device start apiece: nanoarrow's N3 crash on
 * cuda did that to hundreds of cases); run alone from the start, it costs
 * its own process only. */
static bool may_share_a_process(const struct adc_session* session, const struct adc_case* c) {
  if (!adc_cases_share_processes(session, c->device) || c->rule->needs_own_process) return false;
  const unsigned ends_its_process = 1u << ADC_CRASH | 1u << ADC_TIMEOUT;
  return c->expectation == NULL || (c->expectation->statuses & ends_its_process) == 0;
}

/* The family of case `c`'s task: its rule's place in the catalogue, from 1
 * (a rule's cases tend to end alike: adc_task.family). */
static size_t family_of(const struct adc_case* c) {
  for (size_t r = 0; r < adc_rule_count(); r++) {
    if (adc_rule_at(r) == c->rule) return r + 1;
  }
  return 0;
}

/* adc_task.weight of case `c`: its fixture's columns times its batches
 * that have rows. */
static size_t weight_of(const struct adc_case* c) {
  const struct arrow_json_file* model = &c->fixture->model;
  size_t batches_with_rows = 0;
  for (int64_t b = 0; b < model->n_batches; b++) batches_with_rows += model->batches[b].length > 0;
  return batches_with_rows * (size_t)model->n_fields;
}

/* The task that runs case `c`; `costly`: whether its device's start is
 * (adc_device_start_is_costly, asked once per device). */
static struct adc_task task_of(struct sharing* sharing, const struct adc_session* session,
                               const struct adc_case* c, const struct adc_case_task* argument, bool costly) {
  return (struct adc_task){
      .run = run_case,
      .argument = argument,
      .timeout_seconds = adc_case_timeout(session, c),
      .mostly_waits = case_mostly_waits(c),
      .preloaded = case_is_preloaded(session, c),
      .group = may_share_a_process(session, c) ? group_of(sharing, session, c, costly) : NULL,
      .run_prepared = run_prepared_case,
      .resource = resource_of(sharing, session, c, costly),
      .start_seconds = costly ? start_bound(session, true) : 0,
      .name = c->id,
      .family = family_of(c),
      /* BytesAllocated is the harness's question about memory, asked
       * around the calls a rule judges; not one of them. */
      .calls = c->rule->needs & ~ADC_NEED(BytesAllocated),
      /* Where a process costs little to start: a device whose start is
       * not costly, a library that is no Python interpreter (an engine's
       * import, even forked, doubled polars's run and made DuckDB's 1.6
       * times as long), a process neither under Valgrind nor sanitized
       * (the reference pair under memcheck took 207 s, not 80 s). */
      .family_judged_first =
          !costly && !adc_side_tested_by(session, c->rule)->is_python && !session->processes_start_slowly,
      .weight = weight_of(c),
  };
}

int adc_run_cases(const struct adc_session* session, const struct adc_case* cases, size_t n_cases,
                  struct adc_task_result* results, adc_case_observer observer, void* context,
                  struct adc_error* error) {
  struct adc_case_task* case_tasks = calloc(n_cases + 1, sizeof(*case_tasks));
  struct adc_task* tasks = calloc(n_cases + 1, sizeof(*tasks));
  /* Read by the prepared processes: ordinary memory, not the parent's alone. */
  struct sharing* sharing = calloc(1, sizeof(*sharing));
  /* Results are the parent's alone (support/parent_only_memory.h). */
  struct adc_task_result* task_results = adc_parent_only_calloc(n_cases + 1, sizeof(*task_results));
  if (case_tasks == NULL || tasks == NULL || sharing == NULL || task_results == NULL) {
    adc_parent_only_free(task_results);
    free(sharing);
    free(tasks);
    free(case_tasks);
    return adc_fail(error, "out of memory");
  }
  /* Asked once per device: the simulated device's answer reads the
   * environment. */
  bool costly_start[ADC_MAX_DEVICES];
  for (size_t d = 0; d < session->n_devices; d++) {
    costly_start[d] = adc_device_start_is_costly(session->devices[d].driver);
  }
  /* The cases judging how a library's processes end first, so that their
   * verdicts are known when its prepared processes end (adc_task_group,
   * process_end_task); then the others, in plan order. */
  size_t n_tasks = 0;
  for (int judges_end = 1; judges_end >= 0; judges_end--) {
    for (size_t i = 0; i < n_cases; i++) {
      const struct adc_case* c = &cases[i];
      if (c->rule->judges_process_end != (judges_end == 1)) continue;
      if (settled_before_running(session, c, &results[i])) {
        if (observer != NULL) observer(c, &results[i], context);
        continue;
      }
      bool costly = costly_start[device_index(session, c->device)];
      case_tasks[n_tasks] = (struct adc_case_task){session, c, i};
      tasks[n_tasks] = task_of(sharing, session, c, &case_tasks[n_tasks], costly);
      if (judges_end && adc_cases_share_processes(session, c->device))
        group_of(sharing, session, c, costly)->process_end_task = n_tasks;
      n_tasks++;
    }
  }
  find_suite_objects(session, sharing);
  struct observation observation = {.case_tasks = case_tasks,
                                    .results = results,
                                    .observer = observer,
                                    .context = context,
                                    .held = adc_parent_only_calloc(n_cases + 1, sizeof(size_t))};
  if (observation.held == NULL) {
    adc_parent_only_free(task_results);
    free(sharing);
    free(tasks);
    free(case_tasks);
    return adc_fail(error, "out of memory");
  }
  /* Cases that wait by design run beside the --jobs others, as many more:
   * they would otherwise hold a CPU's turn asleep.  Not under a memory
   * checker (--valgrind), where nothing a case does is idle. */
  struct adc_task_run run = {.jobs = session->jobs,
                             .waiting_jobs = session->process_log_dir == NULL ? session->jobs : 0,
                             .memory_limit_bytes = session->memory_limit_mib * 1024 * 1024,
                             .process_log_dir = session->process_log_dir,
                             .preload = preload_for_cases,
                             .preload_context = (void*)session,
                             .resources = sharing->resources,
                             .n_resources = sharing->n_resources,
                             .suite_objects = sharing->suite_objects,
                             .on_result = on_task_result,
                             .context = &observation};
  int status = adc_run_tasks(tasks, n_tasks, &run, task_results, error);
  release_held(&observation, 0, ADC_MAX_DEVICES);
  adc_parent_only_free(observation.held);
  /* What each result holds went with it to `results` (on_task_result). */
  adc_parent_only_free(task_results);
  free(sharing);
  free(tasks);
  free(case_tasks);
  return status;
}
