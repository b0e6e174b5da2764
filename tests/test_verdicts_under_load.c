/* Verdicts do not depend on the machine's load.  The async cases' waits
 * end on what the library's threads are doing (harness/support/quiescence.h),
 * not on how long they took; so each case must get the status it gets
 * without load while busy processes of this test's own, four per core,
 * keep the CPUs busy throughout a second run.  The subjects: the reference
 * pair (every case passes) and twins of the rules whose waits were timed
 * windows before (a task beyond demand, a second release, overlapping
 * callbacks, an Import that does not wait for release, a consumer that
 * stops requesting, a request that never returns, a release that never
 * comes, a leak, an ignored request(0)), each of which must still be
 * caught by its rule.  A harness that took a few milliseconds without a
 * callback for the end of a library's work fails here: the busy processes
 * delay a woken thread by that much now and then. */
#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support/clock.h"
#include "test_support.h"

/* Busy processes per core. */
#define HOGS_PER_CORE 4
#define MAX_HOGS 256

#define TWIN(name) BUILD_PATH("libbroken_" name ".so")

struct subject {
  const char* name;
  const char* producer;
  const char* consumer;
  const char* caught_by[2]; /* the rules its twins must fail; NULL: none */
};

static const struct subject subjects[] = {
    {"the reference pair", "reference", "reference", {NULL, NULL}},
    {"a task beyond demand, and an Import that returns before release",
     TWIN("producer_async_task_beyond_request"),
     TWIN("consumer_async_returns_before_release"),
     {"async.tasks.within_requested", "consumer.async.waits_for_release"}},
    {"a second release, and a consumer that stops requesting",
     TWIN("producer_async_releases_twice"),
     TWIN("consumer_async_stops_requesting"),
     {"async.release.last_and_once", "consumer.async.requests_batches"}},
    {"a callback beside the one held open",
     TWIN("producer_async_overlapping_tasks"),
     "reference",
     {"async.callbacks.serialised", NULL}},
    {"the end given from another thread during extract_data",
     TWIN("producer_async_ends_during_extract"),
     "reference",
     {"async.callbacks.serialised", NULL}},
    {"a request from inside a callback that never returns",
     TWIN("producer_async_locks_across_callbacks"),
     "reference",
     {"async.request.reentrant", NULL}},
    {"a cancelled stream never released",
     TWIN("producer_async_abandons_cancelled_stream"),
     "reference",
     {"async.cancel.release_follows", NULL}},
    {"a leak behind extract_data(task, NULL)",
     TWIN("producer_async_leaks_without_data"),
     "reference",
     {"async.task.extract_without_data_cleans_up", NULL}},
    {"request(0) ignored",
     TWIN("producer_async_ignores_invalid_request"),
     "reference",
     {"async.request.invalid_n_reported", NULL}},
};
#define N_SUBJECTS (sizeof(subjects) / sizeof(subjects[0]))

struct hogs {
  pid_t pids[MAX_HOGS];
  int n;
};

/* A busy process: it spins for up to HOG_SPIN_SECONDS at a time, with a
 * pause of HOG_PAUSE_SECONDS between: a process that sleeps now and then
 * competes with the library's threads for the CPU as they wake (a thread
 * woken among processes that only spin gets a CPU within a few
 * milliseconds; among these, it sometimes waits more than 10). */
#define HOG_SPIN_SECONDS 0.02
#define HOG_PAUSE_SECONDS 0.0005

static void hog(void) {
  unsigned seed = (unsigned)getpid();
  for (;;) {
    double until = adc_now_seconds() + HOG_SPIN_SECONDS * rand_r(&seed) / RAND_MAX;
    while (adc_now_seconds() < until) {
    }
    adc_sleep_seconds(HOG_PAUSE_SECONDS);
  }
}

/* Starts HOGS_PER_CORE busy processes per online core; each dies with this
 * process should the test be killed first. */
static void start_hogs(struct hogs* hogs) {
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  hogs->n = 0;
  for (long i = 0; i < HOGS_PER_CORE * (cores > 0 ? cores : 1) && hogs->n < MAX_HOGS; i++) {
    pid_t parent = getpid();
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
      prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (getppid() != parent) _exit(0);
      hog();
    }
    hogs->pids[hogs->n++] = pid;
  }
}

static void stop_hogs(const struct hogs* hogs) {
  for (int i = 0; i < hogs->n; i++) kill(hogs->pids[i], SIGKILL);
  for (int i = 0; i < hogs->n; i++) waitpid(hogs->pids[i], NULL, 0);
}

/* Whether a case of `rule` (NULL: of any rule) has a failing status among
 * the "<case id> <status>" lines. */
static bool fails(const char* lines, const char* rule) {
  char needle[160];
  snprintf(needle, sizeof(needle), "/%s/", rule != NULL ? rule : "");
  static const char* const failing[] = {"fail", "timeout", "warning", "crash"};
  for (const char* line = lines; *line != '\0';) {
    const char* end = strchr(line, '\n');
    size_t length = end != NULL ? (size_t)(end - line) : strlen(line);
    const char* status = memrchr(line, ' ', length);
    bool of_rule = rule == NULL || (strstr(line, needle) != NULL && strstr(line, needle) < line + length);
    for (size_t f = 0; f < sizeof(failing) / sizeof(failing[0]) && status != NULL && of_rule; f++) {
      if ((size_t)(line + length - status - 1) == strlen(failing[f]) &&
          strncmp(status + 1, failing[f], strlen(failing[f])) == 0)
        return true;
    }
    line += end != NULL ? length + 1 : length;
  }
  return false;
}

START_TEST(quiet_statuses_under_load) {
  const struct subject* subject = &subjects[_i];
  double began = adc_now_seconds();
  char* quiet = async_case_statuses(subject->producer, subject->consumer);
  double quiet_seconds = adc_now_seconds() - began;
  ck_assert_msg(subject->caught_by[0] != NULL || !fails(quiet, NULL),
                "%s: a case failed without load:\n%.1500s", subject->name, quiet);
  struct hogs hogs;
  start_hogs(&hogs);
  began = adc_now_seconds();
  char* loaded = async_case_statuses(subject->producer, subject->consumer);
  double loaded_seconds = adc_now_seconds() - began;
  stop_hogs(&hogs);
  if (strcmp(quiet, loaded) != 0) {
    char differ[2000];
    lines_that_differ(quiet, loaded, differ, sizeof(differ));
    ck_abort_msg("%s: with %d busy processes, other statuses than without:\n%s", subject->name, hogs.n,
                 differ);
  }
  for (int r = 0; r < 2 && subject->caught_by[r] != NULL; r++) {
    ck_assert_msg(fails(loaded, subject->caught_by[r]), "%s: %s did not fail under load", subject->name,
                  subject->caught_by[r]);
  }
  printf(
      "%s: %d cases, each with its status without load beside %d busy processes (%.1f s without, %.1f s "
      "with)\n",
      subject->name, count_lines(quiet), hogs.n, quiet_seconds, loaded_seconds);
  free(quiet);
  free(loaded);
}
END_TEST

int main(void) {
  Suite* suite = suite_create("verdicts_under_load");
  TCase* each = tcase_create("each_subject");
  tcase_set_timeout(each, 280);
  tcase_add_loop_test(each, quiet_statuses_under_load, 0, (int)N_SUBJECTS);
  suite_add_tcase(suite, each);
  return run_suite(suite);
}
