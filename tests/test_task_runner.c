/* The task runner on its own (runner/task_runner.h), with tasks written
 * here: what the runner must keep true whatever the tasks' timing. */
#include <check.h>
#include <stdio.h>
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

int main(void) {
  Suite* suite = suite_create("task_runner");
  TCase* runner = tcase_create("runner");
  tcase_set_timeout(runner, 60);
  tcase_add_test(runner, slots_freed_together_keep_no_stale_pipes);
  suite_add_tcase(suite, runner);
  return run_suite(suite);
}
