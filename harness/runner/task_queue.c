#include "runner/task_queue.h"

#include <stdio.h>
#include <string.h>

#include "support/parent_only_memory.h"

static bool mostly_waits(const struct adc_task_queue* queue, size_t task) {
  return queue->tasks[task].mostly_waits;
}

static size_t group_index(const struct adc_task_queue* queue, const struct adc_task_group* group) {
  for (size_t g = 0; g < queue->n_groups; g++) {
    if (queue->groups[g] == group) return g;
  }
  return ADC_NO_GROUP;
}

/* Lists the groups and their tasks. */
static void index_groups(struct adc_task_queue* queue) {
  for (size_t t = 0; t < queue->n_tasks; t++) {
    const struct adc_task_group* group = queue->tasks[t].group;
    size_t g = group == NULL ? ADC_NO_GROUP : group_index(queue, group);
    if (group != NULL && g == ADC_NO_GROUP) {
      g = queue->n_groups++;
      queue->groups[g] = group;
    }
    queue->group_of[t] = g;
    if (g != ADC_NO_GROUP) queue->group_size[g]++;
  }
  size_t first = 0;
  for (size_t g = 0; g < queue->n_groups; g++) {
    queue->group_first[g] = first;
    first += queue->group_size[g];
    queue->group_pending[g] = queue->group_size[g];
    queue->group_size[g] = 0; /* counted again as the tasks are placed */
  }
  for (size_t t = 0; t < queue->n_tasks; t++) {
    size_t g = queue->group_of[t];
    if (g != ADC_NO_GROUP) queue->group_tasks[queue->group_first[g] + queue->group_size[g]++] = t;
  }
}

int adc_task_queue_init(struct adc_task_queue* queue, const struct adc_task* tasks, size_t n_tasks,
                        const struct adc_task_run* run) {
  memset(queue, 0, sizeof(*queue));
  queue->tasks = tasks;
  queue->n_tasks = n_tasks;
  size_t n = n_tasks + 1;
  queue->state = adc_parent_only_calloc(n, sizeof(*queue->state));
  queue->alone = adc_parent_only_calloc(n, sizeof(*queue->alone));
  queue->groups = adc_parent_only_calloc(n, sizeof(*queue->groups));
  queue->group_of = adc_parent_only_calloc(n, sizeof(*queue->group_of));
  queue->group_tasks = adc_parent_only_calloc(n, sizeof(*queue->group_tasks));
  queue->group_first = adc_parent_only_calloc(n, sizeof(*queue->group_first));
  queue->group_size = adc_parent_only_calloc(n, sizeof(*queue->group_size));
  queue->group_cursor[0] = adc_parent_only_calloc(n, sizeof(*queue->group_cursor[0]));
  queue->group_cursor[1] = adc_parent_only_calloc(n, sizeof(*queue->group_cursor[1]));
  queue->group_pending = adc_parent_only_calloc(n, sizeof(*queue->group_pending));
  queue->group_starting = adc_parent_only_calloc(n, sizeof(*queue->group_starting));
  queue->group_alive = adc_parent_only_calloc(n, sizeof(*queue->group_alive));
  queue->group_alone = adc_parent_only_calloc(n, sizeof(*queue->group_alone));
  queue->first_tried = adc_parent_only_calloc(n, sizeof(*queue->first_tried));
  for (size_t t = 0; t < n_tasks; t++) {
    if (tasks[t].family >= queue->n_families) queue->n_families = tasks[t].family + 1;
  }
  queue->family_suspect = adc_parent_only_calloc(queue->n_families + 1, sizeof(*queue->family_suspect));
  queue->group_verified = adc_parent_only_calloc(n, sizeof(*queue->group_verified));
  queue->family_judged = adc_parent_only_calloc(n * (queue->n_families + 1), sizeof(*queue->family_judged));
  queue->group_called_alone = adc_parent_only_calloc(n, sizeof(*queue->group_called_alone));
  queue->group_spared = adc_parent_only_calloc(n, sizeof(*queue->group_spared));
  size_t r = run->n_resources + 1;
  queue->resources = run->resources;
  queue->n_resources = run->n_resources;
  queue->holders = adc_parent_only_calloc(r, sizeof(*queue->holders));
  queue->limit = adc_parent_only_calloc(r, sizeof(*queue->limit));
  queue->refusals_in_row = adc_parent_only_calloc(r, sizeof(*queue->refusals_in_row));
  queue->not_before = adc_parent_only_calloc(r, sizeof(*queue->not_before));
  queue->given_up = adc_parent_only_calloc(r, sizeof(*queue->given_up));
  queue->refusal = adc_parent_only_calloc(r, sizeof(*queue->refusal));
  if (!queue->state || !queue->alone || !queue->groups || !queue->group_of || !queue->group_tasks ||
      !queue->group_first || !queue->group_size || !queue->group_cursor[0] || !queue->group_cursor[1] ||
      !queue->group_pending || !queue->group_starting || !queue->group_alive || !queue->group_alone ||
      !queue->first_tried || !queue->group_spared || !queue->family_suspect || !queue->group_verified ||
      !queue->family_judged || !queue->group_called_alone || !queue->holders || !queue->limit ||
      !queue->refusals_in_row || !queue->not_before || !queue->given_up || !queue->refusal) {
    adc_task_queue_free(queue);
    return -1;
  }
  for (size_t i = 0; i < run->n_resources; i++)
    queue->limit[i] = run->resources[i].limit > 0 ? run->resources[i].limit : 1;
  index_groups(queue);
  for (size_t t = 0; t < n_tasks; t++) {
    unsigned calls = tasks[t].calls;
    bool alone = calls != 0 && (calls & (calls - 1)) == 0; /* one entry point */
    if (alone && queue->group_of[t] != ADC_NO_GROUP) queue->group_called_alone[queue->group_of[t]] |= calls;
  }
  return 0;
}

void adc_task_queue_free(struct adc_task_queue* queue) {
  void* blocks[] = {
      queue->state,           queue->alone,          queue->groups,         queue->group_of,
      queue->group_tasks,     queue->group_first,    queue->group_size,     queue->group_cursor[0],
      queue->group_cursor[1], queue->group_pending,  queue->group_starting, queue->group_alive,
      queue->group_alone,     queue->holders,        queue->limit,          queue->refusals_in_row,
      queue->not_before,      queue->given_up,       queue->refusal,        queue->first_tried,
      queue->group_spared,    queue->family_suspect, queue->group_verified, queue->group_called_alone,
      queue->family_judged};
  for (size_t b = 0; b < sizeof(blocks) / sizeof(blocks[0]); b++) adc_parent_only_free(blocks[b]);
  memset(queue, 0, sizeof(*queue));
}

int adc_task_queue_resource_of(const struct adc_task_queue* queue, size_t task) {
  const struct adc_task_resource* resource = queue->tasks[task].resource;
  return resource == NULL ? -1 : (int)(resource - queue->resources);
}

size_t adc_task_queue_shared_group(const struct adc_task_queue* queue, size_t task) {
  size_t g = queue->group_of[task];
  return g == ADC_NO_GROUP || queue->group_alone[g] ? ADC_NO_GROUP : g;
}

/* Takes a task that was PENDING or ALONE: it runs now. */
static void take(struct adc_task_queue* queue, size_t task) {
  size_t g = queue->group_of[task];
  if (queue->state[task] == ADC_TASK_PENDING && g != ADC_NO_GROUP) queue->group_pending[g]--;
  queue->state[task] = ADC_TASK_RUNNING;
}

enum admission { ADMITTED, WAIT, GIVEN_UP };

static enum admission admits(const struct adc_task_queue* queue, int resource, double now) {
  if (resource < 0) return ADMITTED;
  if (queue->given_up[resource]) return GIVEN_UP;
  bool room = queue->holders[resource] < queue->limit[resource] && now >= queue->not_before[resource];
  return room ? ADMITTED : WAIT;
}

/* Whether a slot of the kind (`waiting_slot`) takes a task of the kind
 * (mostly waiting or not): a waiting slot only those that wait; another
 * those that use the CPU, and those that wait once none of the others is
 * left to start. */
static bool fits(const struct adc_task_queue* queue, bool waiting_slot, size_t task) {
  bool waits = mostly_waits(queue, task);
  if (waiting_slot) return waits;
  return !waits || queue->plan_cursor[0] >= queue->n_tasks;
}

/* Moves the plan cursor of `kind` past the tasks no longer PENDING. */
static void advance_plan(struct adc_task_queue* queue, int kind) {
  size_t* cursor = &queue->plan_cursor[kind];
  while (*cursor < queue->n_tasks &&
         ((int)mostly_waits(queue, *cursor) != kind || queue->state[*cursor] != ADC_TASK_PENDING)) {
    (*cursor)++;
  }
}

static void remove_alone(struct adc_task_queue* queue, size_t at) {
  memmove(&queue->alone[at], &queue->alone[at + 1], (queue->n_alone - at - 1) * sizeof(queue->alone[0]));
  queue->n_alone--;
}

/* Whether group `g` has tasks waiting enough for another prepared
 * process (adc_task_queue_next_start). */
static bool worth_another_process(const struct adc_task_queue* queue, size_t g) {
  size_t pending = queue->group_pending[g];
  if (pending <= (size_t)queue->group_starting[g]) return false;
  size_t per_start = queue->groups[g]->starts_slowly ? ADC_TASKS_PER_SLOW_START
                     : adc_task_queue_resource_of(queue, queue->group_tasks[queue->group_first[g]]) >= 0
                         ? ADC_TASKS_PER_COSTLY_START
                         : 0;
  return pending > (size_t)queue->group_alive[g] * per_start;
}

/* Whether task `t`, waiting to run alone, may instead be the first task
 * of a prepared process of its group (adc_task_queue_next_first_of_group). */
static bool may_run_first(const struct adc_task_queue* queue, size_t t) {
  size_t g = queue->group_of[t];
  return g != ADC_NO_GROUP && !queue->group_alone[g] && !queue->first_tried[t];
}

/* From the tasks waiting to run alone: the first that fits and whose
 * device admits a process; tasks of a device that gave up end.  A task
 * that may be the first of a prepared process of its group is left for
 * one that is starting, or has one started for it (`*group`) while the
 * group has tasks enough for another (its first, it goes on with them):
 * the run that confirms it then costs no process of its own. */
static bool next_alone(struct adc_task_queue* queue, bool waiting_slot, double now, size_t* task,
                       size_t* group, void (*give_up)(size_t, const char*, void*), void* context) {
  memset(queue->group_spared, 0, queue->n_groups * sizeof(*queue->group_spared));
  for (size_t i = 0; i < queue->n_alone;) {
    size_t t = queue->alone[i];
    size_t g = queue->group_of[t];
    int resource = adc_task_queue_resource_of(queue, t);
    enum admission admission = admits(queue, resource, now);
    if (may_run_first(queue, t) && queue->group_spared[g] < (size_t)queue->group_starting[g]) {
      queue->group_spared[g]++;
      i++;
      continue;
    }
    if (may_run_first(queue, t) && admission == ADMITTED && fits(queue, waiting_slot, t) &&
        worth_another_process(queue, g)) {
      queue->group_starting[g]++;
      queue->group_alive[g]++;
      *group = g;
      return true;
    }
    if (admission == GIVEN_UP) {
      remove_alone(queue, i);
      queue->state[t] = ADC_TASK_RUNNING;
      give_up(t, queue->refusal[resource], context);
      continue;
    }
    if (admission == ADMITTED && fits(queue, waiting_slot, t)) {
      remove_alone(queue, i);
      take(queue, t);
      *task = t;
      return true;
    }
    i++;
  }
  return false;
}

/* Groups and resources one scan of the plan has found it cannot start a
 * process for: their other tasks are passed over at once. */
#define SCAN_MEMORY 64

struct scan {
  bool group_full[SCAN_MEMORY];
  bool resource_full[SCAN_MEMORY];
};

static bool passed_over(const struct scan* scan, size_t g, int resource) {
  return (g != ADC_NO_GROUP && g < SCAN_MEMORY && scan->group_full[g]) ||
         (resource >= 0 && resource < SCAN_MEMORY && scan->resource_full[resource]);
}

/* From the plan, tasks of kind `kind`: the first whose device admits a
 * process, run alone or by a new prepared process of its group (while
 * worth_another_process). */
static bool next_planned(struct adc_task_queue* queue, int kind, double now, size_t* task, size_t* group,
                         void (*give_up)(size_t, const char*, void*), void* context) {
  advance_plan(queue, kind);
  struct scan scan;
  memset(&scan, 0, sizeof(scan));
  for (size_t t = queue->plan_cursor[kind]; t < queue->n_tasks; t++) {
    if ((int)mostly_waits(queue, t) != kind || queue->state[t] != ADC_TASK_PENDING) continue;
    int resource = adc_task_queue_resource_of(queue, t);
    size_t g = adc_task_queue_shared_group(queue, t);
    if (passed_over(&scan, g, resource)) continue;
    enum admission admission = admits(queue, resource, now);
    if (admission == GIVEN_UP) {
      take(queue, t);
      give_up(t, queue->refusal[resource], context);
      continue;
    }
    if (admission == WAIT) {
      if (resource < SCAN_MEMORY) scan.resource_full[resource] = true;
      continue;
    }
    if (g == ADC_NO_GROUP) {
      take(queue, t);
      *task = t;
      *group = ADC_NO_GROUP;
      return true;
    }
    if (worth_another_process(queue, g)) {
      queue->group_starting[g]++;
      queue->group_alive[g]++;
      *group = g;
      return true;
    }
    if (g < SCAN_MEMORY) scan.group_full[g] = true;
  }
  return false;
}

bool adc_task_queue_next_start(struct adc_task_queue* queue, bool waiting_slot, double now, size_t* task,
                               size_t* group, void (*give_up)(size_t task, const char* reason, void* context),
                               void* context) {
  *group = ADC_NO_GROUP;
  advance_plan(queue, 0);
  if (next_alone(queue, waiting_slot, now, task, group, give_up, context)) return true;
  if (!waiting_slot && next_planned(queue, 0, now, task, group, give_up, context)) return true;
  /* A slot of the others takes a waiting task once none of theirs is left. */
  if (waiting_slot || queue->plan_cursor[0] >= queue->n_tasks) {
    return next_planned(queue, 1, now, task, group, give_up, context);
  }
  return false;
}

/* Whether task `t` waits for its family's first judgement
 * (adc_task.family_judged_first). */
static bool family_unjudged(const struct adc_task_queue* queue, size_t t) {
  size_t g = queue->group_of[t];
  size_t family = queue->tasks[t].family;
  return g != ADC_NO_GROUP && family != 0 && queue->tasks[t].family_judged_first &&
         !queue->family_judged[g * (queue->n_families + 1) + family];
}

/* Whether task `t` is taken only first in a prepared process: it calls an
 * entry point not yet judged as a process's first call there, its family
 * is to be judged so and is not yet (adc_task.family_judged_first), or it
 * belongs to a suspect family. */
static bool suspect(const struct adc_task_queue* queue, size_t t) {
  size_t family = queue->tasks[t].family;
  size_t g = queue->group_of[t];
  bool unjudged_call = g != ADC_NO_GROUP && (queue->tasks[t].calls & ~queue->group_verified[g]) != 0;
  return unjudged_call || family_unjudged(queue, t) || (family != 0 && queue->family_suspect[family]);
}

void adc_task_queue_first_call_passed(struct adc_task_queue* queue, size_t task) {
  size_t g = queue->group_of[task];
  if (g == ADC_NO_GROUP) return;
  unsigned calls = queue->tasks[task].calls;
  bool alone = calls != 0 && (calls & (calls - 1)) == 0;
  /* A task calling several judges each only where no task of the group
   * calls it alone: that one's first call is the process's first. */
  queue->group_verified[g] |= alone ? calls : calls & ~queue->group_called_alone[g];
  queue->family_judged[g * (queue->n_families + 1) + queue->tasks[task].family] = true;
}

void adc_task_queue_suspect_family(struct adc_task_queue* queue, size_t task) {
  size_t family = queue->tasks[task].family;
  if (family != 0) queue->family_suspect[family] = true;
}

void adc_task_queue_clear_family(struct adc_task_queue* queue, size_t task) {
  size_t family = queue->tasks[task].family;
  if (family != 0) queue->family_suspect[family] = false;
}

/* The first PENDING task of `group` of the kind `kind` from its cursor on
 * that is taken only first (`of_suspect`: the heaviest of them, the first
 * of equals) or that is not, or ADC_NO_TASK. */
static size_t find_pending(struct adc_task_queue* queue, size_t group, int kind, bool of_suspect) {
  size_t* cursor = &queue->group_cursor[kind][group];
  const size_t* tasks = queue->group_tasks + queue->group_first[group];
  size_t size = queue->group_size[group];
  while (*cursor < size && ((int)mostly_waits(queue, tasks[*cursor]) != kind ||
                            queue->state[tasks[*cursor]] != ADC_TASK_PENDING)) {
    (*cursor)++;
  }
  size_t found = ADC_NO_TASK;
  for (size_t at = *cursor; at < size; at++) {
    size_t t = tasks[at];
    if ((int)mostly_waits(queue, t) != kind || queue->state[t] != ADC_TASK_PENDING ||
        suspect(queue, t) != of_suspect)
      continue;
    if (!of_suspect) return t;
    /* Of those taken only first, the heaviest (adc_task.weight). */
    if (found == ADC_NO_TASK || queue->tasks[t].weight > queue->tasks[found].weight) found = t;
  }
  return found;
}

bool adc_task_queue_next_first_of_group(struct adc_task_queue* queue, size_t group, bool waiting_slot,
                                        size_t* task) {
  for (size_t i = 0; i < queue->n_alone; i++) {
    size_t t = queue->alone[i];
    if (queue->group_of[t] != group || !may_run_first(queue, t) || !fits(queue, waiting_slot, t)) continue;
    remove_alone(queue, i);
    take(queue, t);
    queue->first_tried[t] = true;
    *task = t;
    return true;
  }
  for (int kind = waiting_slot ? 1 : 0; kind <= 1; kind++) {
    size_t t = find_pending(queue, group, kind, true);
    if (t == ADC_NO_TASK) continue;
    take(queue, t);
    *task = t;
    return true;
  }
  return false;
}

bool adc_task_queue_families_unjudged(const struct adc_task_queue* queue, size_t group) {
  const size_t* tasks = queue->group_tasks + queue->group_first[group];
  size_t from = queue->group_cursor[0][group] < queue->group_cursor[1][group] ? queue->group_cursor[0][group]
                                                                              : queue->group_cursor[1][group];
  for (size_t at = from; at < queue->group_size[group]; at++) {
    if (queue->state[tasks[at]] == ADC_TASK_PENDING && family_unjudged(queue, tasks[at])) return true;
  }
  return false;
}

bool adc_task_queue_next_of_group(struct adc_task_queue* queue, size_t group, bool waiting_slot,
                                  size_t* task) {
  for (int kind = waiting_slot ? 1 : 0; kind <= 1; kind++) {
    size_t t = find_pending(queue, group, kind, false);
    if (t == ADC_NO_TASK) continue;
    *task = t;
    take(queue, t);
    return true;
  }
  return false;
}

void adc_task_queue_prepared_ready(struct adc_task_queue* queue, size_t group) {
  queue->group_starting[group]--;
}

void adc_task_queue_prepared_failed(struct adc_task_queue* queue, size_t group, bool run_alone) {
  queue->group_starting[group]--;
  if (run_alone) queue->group_alone[group] = true;
}

void adc_task_queue_prepared_ended(struct adc_task_queue* queue, size_t group) {
  queue->group_alive[group]--;
}

void adc_task_queue_run_alone(struct adc_task_queue* queue, size_t task) {
  queue->state[task] = ADC_TASK_ALONE;
  queue->alone[queue->n_alone++] = task;
}

void adc_task_queue_provisional(struct adc_task_queue* queue, size_t task) {
  queue->state[task] = ADC_TASK_PROVISIONAL;
}

void adc_task_queue_done(struct adc_task_queue* queue, size_t task) {
  if (queue->state[task] == ADC_TASK_PENDING) {
    size_t g = queue->group_of[task];
    if (g != ADC_NO_GROUP) queue->group_pending[g]--;
  }
  if (queue->state[task] != ADC_TASK_DONE) queue->finished++;
  queue->state[task] = ADC_TASK_DONE;
}

bool adc_task_queue_admits(const struct adc_task_queue* queue, int resource, double now) {
  return admits(queue, resource, now) == ADMITTED;
}

bool adc_task_queue_hold(struct adc_task_queue* queue, int resource) {
  if (resource < 0) return true;
  return queue->holders[resource]++ == 0;
}

void adc_task_queue_accepted(struct adc_task_queue* queue, int resource) {
  if (resource >= 0) queue->refusals_in_row[resource] = 0;
}

void adc_task_queue_release(struct adc_task_queue* queue, int resource) {
  if (resource >= 0) queue->holders[resource]--;
}

void adc_task_queue_refused(struct adc_task_queue* queue, int resource, double now, const char* reason,
                            bool alone) {
  if (resource < 0) return;
  int in_row = alone ? ++queue->refusals_in_row[resource] : queue->refusals_in_row[resource];
  /* What the device accepted so far is what it admits from now on. */
  queue->limit[resource] = queue->holders[resource] > 0 ? queue->holders[resource] : 1;
  double pause = ADC_RESOURCE_FIRST_PAUSE_SECONDS;
  for (int i = 1; i < in_row && pause < 5.0; i++) pause *= 2;
  queue->not_before[resource] = now + pause;
  snprintf(queue->refusal[resource], sizeof(queue->refusal[resource]), "%s", reason);
  if (in_row >= ADC_RESOURCE_REFUSALS_TOLERATED && queue->holders[resource] == 0) {
    queue->given_up[resource] = true;
  }
}
