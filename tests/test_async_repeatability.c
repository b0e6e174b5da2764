/* The async cases give the same statuses run after run: their verdicts
 * rest on what a producer or consumer did, never on how the threads of a
 * run happened to interleave.  Each subject below runs the async rules on
 * the CPU and the simulated device RUNS times; every run must give each
 * case the status of the first.  The subjects: the reference pair (every
 * case passes, or a run was unlucky), and twins whose defect the harness
 * catches in a watch: a task beyond demand, seen while the handler watches
 * the producer until its threads all wait, and an Import returning before
 * the release the feed holds back until the consumer's threads all wait
 * (in consumer.async.waits_for_release).  test_verdicts_under_load runs
 * these cases on a machine kept busy. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

#define RUNS 100

struct subject {
  const char* name;
  const char* producer;
  const char* consumer;
};

static const struct subject subjects[] = {
    {"reference pair", "reference", "reference"},
    {"producer_async_task_beyond_request and consumer_async_returns_before_release",
     BUILD_PATH("libbroken_producer_async_task_beyond_request.so"),
     BUILD_PATH("libbroken_consumer_async_returns_before_release.so")},
};
#define N_SUBJECTS (sizeof(subjects) / sizeof(subjects[0]))

static char* statuses_of_one_run(const struct subject* subject) {
  return async_case_statuses(subject->producer, subject->consumer);
}

START_TEST(same_statuses_every_run) {
  const struct subject* subject = &subjects[_i];
  char* first = statuses_of_one_run(subject);
  for (int run = 2; run <= RUNS; run++) {
    char* again = statuses_of_one_run(subject);
    if (strcmp(first, again) != 0) {
      char differ[2000];
      lines_that_differ(first, again, differ, sizeof(differ));
      ck_abort_msg("%s: run %d gave other statuses than run 1 to:\n%s", subject->name, run, differ);
    }
    free(again);
  }
  printf("%s: %d runs, each giving its %d async cases the statuses of the first\n", subject->name, RUNS,
         count_lines(first));
  free(first);
}
END_TEST

int main(void) {
  Suite* suite = suite_create("async_repeatability");
  TCase* each = tcase_create("each_subject");
  tcase_set_timeout(each, 280);
  tcase_add_loop_test(each, same_statuses_every_run, 0, (int)N_SUBJECTS);
  suite_add_tcase(suite, each);
  return run_suite(suite);
}
