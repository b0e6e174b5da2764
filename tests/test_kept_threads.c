/* Threads a library keeps between cases (harness/runner/kept_threads.h), in
 * runs of adc-conform with prepared processes:
 *   - a library with a pool kept blocked between calls
 *     (fixtures/conforming/idle_pool.c), as producer and consumer, on cpu
 *     and on simulated, idle or working in every call: every case ends as
 *     with the reference, none needed a run of its own or left anything
 *     behind, and the report names the pool once per prepared process,
 *     which ran many cases (where each case once ended its process: "left
 *     2 thread(s) running");
 *   - the same library with a thread named as jemalloc's background thread,
 *     waking on its own timer every few milliseconds: its wake-ups are the
 *     allocator's, and the processes are kept as before;
 *   - a library whose kept thread, woken by its timer, changes what later
 *     cases judge (fixtures/deliberately_broken/misbehaving/
 *     pool_wakes_on_a_timer.c): every case ends as it does in a process of
 *     its own (--isolation case), and the report says where the thread ran
 *     by itself. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

#define IDLE_POOL BUILD_PATH("libconforming_idle_pool.so")
#define TIMER_POOL BUILD_PATH("libmisbehaving_pool_wakes_on_a_timer.so")

/* A prepared process runs at most 256 cases; the pool is named once in
 * each, and a library's run starts a process more for each entry point
 * and each rule judged as a process's first call (adc_task.calls,
 * adc_task.family_judged_first): 90 to 110 processes for 432 and 523
 * cases.  Where each case ended its process, it was named in every case. */
#define MOST_NOTES_PER_CASE 0.3

static const char* const devices[] = {"cpu", "simulated"};
static const char* const pool_work[] = {"0", "1"}; /* ADC_POOL_WORKS: idle, or working in each call */

static cJSON* shared_run(const char* library, const char* device, const char* const* extra) {
  const char* args[24] = {"--producer", library,      "--consumer",          library,       "--device",
                          device,       "--fixtures", HAND_WRITTEN_FIXTURES, "--isolation", "shared"};
  int n = 10;
  for (int i = 0; extra != NULL && extra[i] != NULL && n < 23; i++) args[n++] = extra[i];
  args[n] = NULL;
  int exit_code;
  cJSON* report = run_conform_report(args, &exit_code);
  ck_assert_msg(report != NULL, "%s on %s: no report", library, device);
  return report;
}

static const char* text_of(const cJSON* item, const char* key) {
  const cJSON* value = cJSON_GetObjectItem(item, key);
  return cJSON_IsString(value) ? value->valuestring : NULL;
}

START_TEST(a_kept_pool_changes_no_verdict_and_keeps_its_process) {
  /* Idle, working, and idle beside an allocator's timer thread. */
  const char* device = devices[_i % 2];
  setenv("ADC_POOL_WORKS", pool_work[_i / 2 % 2], 1);
  setenv("ADC_POOL_ALLOCATOR", _i >= 4 ? "1" : "0", 1);
  cJSON* reference = shared_run("reference", device, NULL);
  cJSON* pooled = shared_run(IDLE_POOL, device, NULL);
  char* expected = report_statuses(reference);
  char* got = report_statuses(pooled);
  char differ[2048];
  lines_that_differ(expected, got, differ, sizeof(differ));
  ck_assert_msg(strcmp(expected, got) == 0, "on %s, the pool (works: %s) ended otherwise:\n%s", device,
                pool_work[_i / 2 % 2], differ);
  int cases = 0, notes = 0;
  const cJSON* item;
  cJSON_ArrayForEach(item, cJSON_GetObjectItem(pooled, "cases")) {
    cases++;
    const char* id = text_of(item, "id");
    ck_assert_msg(cJSON_GetObjectItem(item, "shared_attempt") == NULL, "%s needed a run of its own: %s", id,
                  text_of(cJSON_GetObjectItem(item, "shared_attempt"), "message"));
    ck_assert_msg(text_of(item, "left_behind") == NULL, "%s ended its prepared process: %s", id,
                  text_of(item, "left_behind"));
    const char* kept = text_of(item, "kept_threads");
    if (kept == NULL) continue;
    notes++;
    ck_assert_msg(strstr(kept, "'idle_pool' x2 (untimed)") != NULL, "%s: %s", id, kept);
    ck_assert_msg(_i < 4 || strstr(kept, "'jemalloc_bg_thd' x1 (an allocator's") != NULL, "%s: %s", id, kept);
  }
  ck_assert_int_gt(cases, 100);
  ck_assert_msg(notes >= 1, "on %s no case named the pool its process kept", device);
  ck_assert_msg(notes <= cases * MOST_NOTES_PER_CASE, "on %s, %d prepared processes for %d cases", device,
                notes, cases);
  free(expected);
  free(got);
  cJSON_Delete(reference);
  cJSON_Delete(pooled);
}
END_TEST

/* Whether the shared run's case `item` says that a kept thread ran by
 * itself, in its left_behind and its shared attempt. */
static bool says_a_thread_ran_by_itself(const cJSON* item) {
  const char* left = text_of(item, "left_behind");
  const char* attempt = text_of(cJSON_GetObjectItem(item, "shared_attempt"), "message");
  bool during = left != NULL && strstr(left, "when it could have woken by itself") != NULL;
  bool between = left != NULL && strstr(left, "between two cases") != NULL;
  return (during || between) && attempt != NULL &&
         (strstr(attempt, "not judged in the prepared process") != NULL ||
          strstr(attempt, "not run in the prepared process") != NULL);
}

START_TEST(a_thread_woken_by_its_timer_changes_no_verdict) {
  /* Every fixture: enough exports for a prepared process to pass the one
   * that arms the timer. */
  const char* args_alone[] = {"--producer",  TIMER_POOL,    "--device", "cpu", "--filter",
                              "cpu/array.*", "--isolation", "case",     NULL};
  int exit_code;
  cJSON* alone = run_conform_report(args_alone, &exit_code);
  ck_assert_ptr_nonnull(alone);
  /* One job: one prepared process runs cases well past that export. */
  const char* args_shared[] = {"--producer",  TIMER_POOL, "--device", "cpu", "--filter", "cpu/array.*",
                               "--isolation", "shared",   "--jobs",   "1",   NULL};
  cJSON* shared = run_conform_report(args_shared, &exit_code);
  ck_assert_ptr_nonnull(shared);
  char* expected = report_statuses(alone);
  char* got = report_statuses(shared);
  char differ[1024], alone_gave[1024];
  lines_that_differ(expected, got, differ, sizeof(differ));
  lines_that_differ(got, expected, alone_gave, sizeof(alone_gave));
  ck_assert_msg(strcmp(expected, got) == 0, "shared, cases ended otherwise than alone:\n%s\nwhere alone:\n%s",
                differ, alone_gave);
  int failed = 0, seen = 0;
  const cJSON* item;
  cJSON_ArrayForEach(item, cJSON_GetObjectItem(shared, "cases")) {
    failed += strcmp(text_of(item, "status"), "fail") == 0;
    seen += says_a_thread_ran_by_itself(item);
  }
  /* Alone, every case reading values fails; some do. */
  ck_assert_int_gt(failed, 10);
  ck_assert_msg(seen >= 1, "no case of the shared run says the kept thread ran by itself");
  free(expected);
  free(got);
  cJSON_Delete(alone);
  cJSON_Delete(shared);
}
END_TEST

int main(void) {
  Suite* suite = suite_create("kept_threads");
  TCase* runs = tcase_create("runs");
  /* Each run takes about a second on two idle cores; the limit bounds a
   * hang on a loaded machine. */
  tcase_set_timeout(runs, 600);
  tcase_add_loop_test(runs, a_kept_pool_changes_no_verdict_and_keeps_its_process, 0, 6);
  tcase_add_test(runs, a_thread_woken_by_its_timer_changes_no_verdict);
  suite_add_tcase(suite, runs);
  return run_suite(suite);
}
