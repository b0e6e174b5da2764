/* The async cases give the same statuses run after run: their verdicts
 * rest on what a producer or consumer did, never on how the threads of a
 * run happened to interleave.  Each subject below runs the async rules on
 * the CPU and the simulated device RUNS times; every run must give each
 * case the status of the first.  The subjects: the reference pair (every
 * case passes, or a run was unlucky), and twins whose defect the harness
 * catches within a short watch: a task beyond demand, seen in the 10 ms
 * the handler leaves a producer to hand out what it was not asked for, and
 * an Import returning before the release the feed makes 10 ms after the
 * end (in consumer.async.waits_for_release). */
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

/* "<case id> <status>" lines of one run, in report order; the caller frees it. */
static char* statuses_of_one_run(const struct subject* subject) {
  /* One report over both devices: every device, filtered to these two. */
  const char* args[] = {"--fixtures", HAND_WRITTEN_FIXTURES,  "--producer", subject->producer,
                        "--consumer", subject->consumer,      "--device",   "all",
                        "--filter",   "cpu/async.*",          "--filter",   "simulated/async.*",
                        "--filter",   "cpu/consumer.async.*", "--filter",   "simulated/consumer.async.*",
                        NULL};
  int exit_code;
  cJSON* report = run_conform_report(args, &exit_code);
  ck_assert_msg(report != NULL, "%s: no report", subject->name);
  size_t size = 1, used = 0;
  char* lines = calloc(1, size);
  const cJSON* item;
  cJSON_ArrayForEach(item, cJSON_GetObjectItem(report, "cases")) {
    char line[512];
    int length = snprintf(line, sizeof(line), "%s %s\n", cJSON_GetObjectItem(item, "id")->valuestring,
                          cJSON_GetObjectItem(item, "status")->valuestring);
    size += (size_t)length;
    lines = realloc(lines, size);
    memcpy(lines + used, line, (size_t)length + 1);
    used += (size_t)length;
  }
  cJSON_Delete(report);
  ck_assert_msg(used > 0, "%s: the report has no async case", subject->name);
  return lines;
}

/* The lines of `again` that `first` lacks, into `out` (as many as fit):
 * the whole of two reports would overflow Check's message. */
static void lines_that_differ(const char* first, const char* again, char* out, size_t size) {
  out[0] = '\0';
  size_t used = 0;
  for (const char* line = again; *line != '\0';) {
    const char* end = strchr(line, '\n');
    size_t length = end != NULL ? (size_t)(end - line) + 1 : strlen(line);
    char* copy = strndup(line, length);
    if (copy != NULL && strstr(first, copy) == NULL && used + length < size) {
      memcpy(out + used, copy, length + 1);
      used += length;
    }
    free(copy);
    line += length;
  }
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
