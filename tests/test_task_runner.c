/* The task runner on its own (runner/task_runner.h), with tasks written
 * here: what the runner must keep true whatever the tasks' timing. */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runner/task_runner.h"
#include "runner/wire.h"
#include "support/clock.h"
#include "test_support.h"

/* The moment the first tasks of a round end, all at once. */
static double common_end;

static void end_at_common_moment(const void* argument, int verdict_fd) {
  (void)argument;
  /* A process left behind holds the task's pipes open, as a library's
   * helper process would: the parent sees no end of file on them when the
   * task ends, and closes them itself. */
  if (fork() == 0) {
    sleep(5);
    _exit(0);
  }
  /* Spinning, not sleeping: both see the moment within microseconds. */
  while (adc_now_seconds() < common_end) continue;
  adc_wire_send(verdict_fd, ADC_PASS, "");
}

static void end_at_once(const void* argument, int verdict_fd) {
  (void)argument;
  adc_wire_send(verdict_fd, ADC_PASS, "");
}

/* Two tasks that end in the same instant, each leaving a process that
 * holds its pipes, free both slots, and the last task starts in one of
 * them while the other stays free: the free slot's closed pipe
 * descriptors must not be taken for live ones.  (They were once: the new
 * task's process closed the free slot's stale descriptor numbers, which
 * its own pipes had reused, and lost its verdict.)  Whether the two ends
 * are reaped together depends on timing, so the round is repeated. */
START_TEST(slots_freed_together_keep_no_stale_pipes) {
  for (int round = 0; round < 30; round++) {
    common_end = adc_now_seconds() + 0.05;
    struct adc_task tasks[] = {
        {end_at_common_moment, NULL, 10.0},
        {end_at_common_moment, NULL, 10.0},
        {end_at_once, NULL, 10.0},
    };
    struct adc_task_result results[3];
    memset(results, 0, sizeof(results));
    struct adc_task_run run = {.jobs = 2};
    struct adc_error error;
    ck_assert_int_eq(adc_run_tasks(tasks, 3, &run, results, &error), 0);
    for (int t = 0; t < 3; t++) {
      ck_assert_msg(results[t].status == ADC_PASS, "round %d, task %d ended %s: %s", round, t,
                    adc_status_name(results[t].status), results[t].message);
    }
  }
}
END_TEST

/* Passes only if its process holds no descriptor but standard input,
 * output and error and its verdict pipe. */
static void hold_only_own_descriptors(const void* argument, int verdict_fd) {
  (void)argument;
  char extra[200] = "";
  DIR* open_fds = opendir("/proc/self/fd");
  struct dirent* entry;
  while (open_fds != NULL && (entry = readdir(open_fds)) != NULL) {
    if (entry->d_name[0] == '.') continue;
    int fd = atoi(entry->d_name);
    if (fd <= 2 || fd == verdict_fd || fd == dirfd(open_fds)) continue;
    size_t used = strlen(extra);
    snprintf(extra + used, sizeof(extra) - used, " %d", fd);
  }
  if (open_fds != NULL) closedir(open_fds);
  adc_wire_send(verdict_fd, extra[0] ? ADC_FAIL : ADC_PASS, extra);
}

/* A task's process gets none of the harness's descriptors (a report file,
 * the signal descriptor, a running sibling's pipes): a library must not be
 * able to write into them. */
START_TEST(task_process_holds_no_harness_descriptor) {
  int harness_file[2]; /* inheritable, as a report file opened without O_CLOEXEC would be */
  ck_assert_int_eq(pipe(harness_file), 0);
  struct adc_task tasks[] = {
      {hold_only_own_descriptors, NULL, 10.0},
      {hold_only_own_descriptors, NULL, 10.0},
      {hold_only_own_descriptors, NULL, 10.0},
  };
  struct adc_task_result results[3];
  memset(results, 0, sizeof(results));
  struct adc_task_run run = {.jobs = 3};
  struct adc_error error;
  ck_assert_int_eq(adc_run_tasks(tasks, 3, &run, results, &error), 0);
  for (int t = 0; t < 3; t++) {
    ck_assert_msg(results[t].status == ADC_PASS, "task %d ended %s, holding descriptors%s", t,
                  adc_status_name(results[t].status), results[t].message);
  }
  close(harness_file[0]);
  close(harness_file[1]);
}
END_TEST

int main(void) {
  Suite* suite = suite_create("task_runner");
  TCase* runner = tcase_create("runner");
  tcase_set_timeout(runner, 60);
  tcase_add_test(runner, slots_freed_together_keep_no_stale_pipes);
  tcase_add_test(runner, task_process_holds_no_harness_descriptor);
  suite_add_tcase(suite, runner);
  return run_suite(suite);
}
