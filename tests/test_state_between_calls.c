/* A library whose behaviour depends on what earlier calls in its process
 * left (runner/replay.h, CONFORMANCE.md "Prepared processes"), in runs of
 * adc-conform in both isolations, on cpu:
 *   - a library that exports right until it has exported 40 batches in one
 *     process, and wrong after (fixtures/deliberately_broken/misbehaving/
 *     wrong_after_many_exports.c): with prepared processes its later cases
 *     fail, pass alone, and fail again when their process is replayed: the
 *     run does not conform, the first such case of each process failing
 *     with how many cases ran before it, each later one keeping the pass
 *     it has alone and naming that one, none silently;
 *     with a process per case it cannot be seen (every case passes), as
 *     CONFORMANCE.md says;
 *   - a library every process of which dies as it ends (fixtures/
 *     deliberately_broken/rule_twins/producer_dies_at_exit.c: its
 *     destructor uses what its exit handler tore down): in both isolations the
 *     rule on a process's end crashes, once, where the death is said, and
 *     every other case keeps its verdict, saying that its process died so;
 *   - a library whose stream export uses a table only its batch export
 *     makes (fixtures/deliberately_broken/misbehaving/
 *     stream_needs_a_batch_first.c): each entry point is judged as a
 *     process's first call, so both isolations give every case the same
 *     status (with prepared processes alone, 62 stream cases crashed of the
 *     364 that crash alone);
 *   - a library whose current device is thread-local, set by its batch
 *     export alone (misbehaving/device_is_per_thread.c), on simulated:1:
 *     each rule is judged as a process's first call too, so both
 *     isolations give every case the same status;
 *   - a library whose error state outlives a failure (misbehaving/
 *     failure_sticks.c): like the first, seen and replayed with prepared
 *     processes, unseen with a process per case. */
#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

#define WRONG_AFTER_MANY BUILD_PATH("libmisbehaving_wrong_after_many_exports.so")
#define DIES_AT_EXIT BUILD_PATH("libbroken_producer_dies_at_exit.so")
#define STREAM_NEEDS_A_BATCH BUILD_PATH("libmisbehaving_stream_needs_a_batch_first.so")
#define DEVICE_IS_PER_THREAD BUILD_PATH("libmisbehaving_device_is_per_thread.so")
#define FAILURE_STICKS BUILD_PATH("libmisbehaving_failure_sticks.so")

static cJSON* run_isolated(const char* library, const char* prefix, const char* isolation, int* exit_code) {
  const char* args[] = {"--producer",  library,    "--prefix",    prefix,     "--device",
                        "cpu",         "--filter", "cpu/array.*", "--filter", "cpu/plugin.process.*",
                        "--isolation", isolation,  NULL};
  cJSON* report = run_conform_report(args, exit_code);
  ck_assert_msg(report != NULL, "no report (exit %d)", *exit_code);
  return report;
}

static const char* text_of(const cJSON* item, const char* key) {
  const char* text = cJSON_GetStringValue(cJSON_GetObjectItem(item, key));
  return text != NULL ? text : "";
}

/* Checks every replayed case of `report`: reproduced, and either the
 * first of its process to go wrong (its verdict the replay's, not a pass)
 * or a consequence of an earlier one (the pass it has alone, naming that
 * one); none "failed once, not again".  Returns how many were the first,
 * `*replayed` how many were replayed. */
static int check_replays(const cJSON* report, int* replayed) {
  int first = 0;
  *replayed = 0;
  const cJSON* item;
  cJSON_ArrayForEach(item, cJSON_GetObjectItem(report, "cases")) {
    const char* id = text_of(item, "id");
    const char* status = text_of(item, "status");
    const char* message = text_of(item, "message");
    const cJSON* replay = cJSON_GetObjectItem(cJSON_GetObjectItem(item, "shared_attempt"), "replay");
    ck_assert_msg(strstr(message, "failed once, not again") == NULL, "%s: %s", id, message);
    if (replay == NULL) continue;
    ck_assert_msg(cJSON_IsTrue(cJSON_GetObjectItem(replay, "reproduced")), "%s: not reproduced: %s", id,
                  message);
    bool own = strcmp(text_of(replay, "first_to_go_wrong"), "this one") == 0;
    ck_assert_msg(own ? strcmp(status, "pass") != 0 && strstr(message, "each of which passed")
                      : strcmp(status, "pass") == 0 && strstr(message, "went wrong first"),
                  "%s: %s after %s: %s", id, status, text_of(replay, "first_to_go_wrong"), message);
    ck_assert_msg(strstr(message, "only after") != NULL, "%s: %s", id, message);
    first += own;
    (*replayed)++;
  }
  return first;
}

START_TEST(a_library_that_goes_wrong_with_use_is_caught_by_replays) {
  int exit_code;
  cJSON* report = run_isolated(WRONG_AFTER_MANY, "misbehaving", "shared", &exit_code);
  ck_assert_int_eq(exit_code, 1);
  int replayed;
  int first = check_replays(report, &replayed);
  ck_assert_msg(replayed >= 5 && first >= 1, "%d failures replayed and reproduced, %d of them the first",
                replayed, first);
  const cJSON* item;
  cJSON_ArrayForEach(item, cJSON_GetObjectItem(report, "cases")) {
    const cJSON* replay = cJSON_GetObjectItem(cJSON_GetObjectItem(item, "shared_attempt"), "replay");
    if (replay == NULL) continue;
    ck_assert_msg(cJSON_GetObjectItem(replay, "earlier_cases")->valueint >= 10, "%s: after %d cases",
                  text_of(item, "id"), cJSON_GetObjectItem(replay, "earlier_cases")->valueint);
  }
  cJSON_Delete(report);

  report = run_isolated(WRONG_AFTER_MANY, "misbehaving", "case", &exit_code);
  ck_assert_msg(exit_code == 0, "a process per case saw what only many calls in one process show");
  cJSON_Delete(report);
}
END_TEST

START_TEST(a_death_at_exit_is_the_process_end_rules_alone) {
  const char* isolation = _i == 0 ? "shared" : "case";
  int exit_code;
  cJSON* report = run_isolated(DIES_AT_EXIT, "broken", isolation, &exit_code);
  ck_assert_int_eq(exit_code, 1);
  int said = 0;
  const cJSON* item;
  cJSON_ArrayForEach(item, cJSON_GetObjectItem(report, "cases")) {
    const char* id = text_of(item, "id");
    const char* status = text_of(item, "status");
    const char* message = text_of(item, "message");
    if (strcmp(text_of(item, "rule"), "plugin.process.exits_cleanly") == 0) {
      /* SIGSEGV at flush_context (dying_at_exit.c), or UndefinedBehaviorSanitizer's
       * report of the null access there under a sanitizer build. */
      ck_assert_msg(strcmp(status, "crash") == 0 && strstr(message, "after its verdict") != NULL &&
                        strstr(message, "dying_at_exit.c:") != NULL,
                    "%s (%s): %s: %s", id, isolation, status, message);
      continue;
    }
    ck_assert_msg(strcmp(status, "pass") == 0 || strcmp(status, "not_supported") == 0, "%s (%s): %s: %s", id,
                  isolation, status, message);
    said += strstr(message, "then its process died as it ended") != NULL;
  }
  ck_assert_msg(said >= 100, "%s: only %d cases said their process died as it ended", isolation, said);
  cJSON_Delete(report);
}
END_TEST

/* The status of case `id` in `report`, or "". */
static const char* status_in(const cJSON* report, const char* id) {
  const cJSON* item;
  cJSON_ArrayForEach(item, cJSON_GetObjectItem(report, "cases")) {
    if (strcmp(text_of(item, "id"), id) == 0) return text_of(item, "status");
  }
  return "";
}

/* Runs `library` (prefix "misbehaving") on `device`, cases matching the
 * two filters, in both isolations: each must end with the same status in
 * both, the run failing in both, with at least `least` cases of `status`
 * alone. */
static void ends_alike_in_both_isolations(const char* library, const char* device, const char* filter,
                                          const char* other_filter, const char* status_alone, int least) {
  const char* args[] = {"--producer", library,    "--prefix",   "misbehaving", "--device", device, "--filter",
                        filter,       "--filter", other_filter, "--isolation", "shared",   NULL};
  int shared_exit;
  cJSON* shared = run_conform_report(args, &shared_exit);
  args[11] = "case";
  int case_exit;
  cJSON* alone = run_conform_report(args, &case_exit);
  ck_assert(shared != NULL && alone != NULL);
  ck_assert_int_eq(shared_exit, 1);
  ck_assert_int_eq(case_exit, 1);
  int seen = 0;
  const cJSON* item;
  cJSON_ArrayForEach(item, cJSON_GetObjectItem(alone, "cases")) {
    const char* id = text_of(item, "id");
    const char* status = text_of(item, "status");
    seen += strcmp(status, status_alone) == 0;
    ck_assert_msg(strcmp(status_in(shared, id), status) == 0, "%s: %s in prepared processes, %s alone", id,
                  status_in(shared, id), status);
  }
  ck_assert_msg(seen >= least, "only %d cases ended %s alone", seen, status_alone);
  cJSON_Delete(shared);
  cJSON_Delete(alone);
}

START_TEST(a_lazy_initialisation_in_one_path_ends_alike_in_both_isolations) {
  ends_alike_in_both_isolations(STREAM_NEEDS_A_BATCH, "cpu", "cpu/device_stream.*", "cpu/array.*", "crash",
                                20);
}
END_TEST

/* The stream export's device is the thread's current one, which only the
 * batch export sets: seen by one rule alone (the device_id of a stream's
 * batches), so it takes that rule judged as a process's first call
 * (adc_task.family_judged_first); with entry points alone, every stream
 * case after a batch case on simulated:1 passed in prepared processes. */
START_TEST(a_current_device_kept_per_thread_ends_alike_in_both_isolations) {
#if defined(ADC_SANITIZE_ADDRESS) || defined(ADC_SANITIZE_THREAD)
  /* A sanitizer build's processes start slowly: entry points alone are
   * judged first there (CONFORMANCE.md, "Prepared processes"), so the
   * stream cases after a batch case in a prepared process may pass, as
   * the order meets them; alone, the defect is seen. */
  const char* args[] = {
      "--producer", DEVICE_IS_PER_THREAD,          "--prefix",    "misbehaving", "--device", "simulated:1",
      "--filter",   "simulated:1/device_stream.*", "--isolation", "case",        NULL};
  int exit_code;
  cJSON* report = run_conform_report(args, &exit_code);
  ck_assert_msg(report != NULL && exit_code == 1, "alone, the defect was not seen (exit %d)", exit_code);
  cJSON_Delete(report);
#else
  ends_alike_in_both_isolations(DEVICE_IS_PER_THREAD, "simulated:1", "simulated:1/device_stream.*",
                                "simulated:1/device_array.*", "fail", 20);
#endif
}
END_TEST

/* Once one of its streams failed, on purpose, every later stream of the
 * process fails its first get_next: a prepared process that ran a failing
 * stream case shows it after it, the replay reproduces it, and the run
 * is not shown to conform; alone, no case exports after a failure. */
START_TEST(an_error_state_kept_after_a_failure_is_caught_by_replays) {
  int exit_code;
  const char* args[] = {"--producer", FAILURE_STICKS,        "--prefix",    "misbehaving", "--device", "cpu",
                        "--filter",   "cpu/device_stream.*", "--isolation", "shared",      NULL};
  cJSON* report = run_conform_report(args, &exit_code);
  ck_assert_msg(report != NULL, "no report (exit %d)", exit_code);
  ck_assert_msg(exit_code != 0, "a stream failing after an earlier failure went unseen");
  int replayed;
  int first = check_replays(report, &replayed);
  ck_assert_msg(first >= 1, "%d failures after an earlier one replayed, none the first to go wrong",
                replayed);
  cJSON_Delete(report);
  args[9] = "case";
  report = run_conform_report(args, &exit_code);
  ck_assert_msg(exit_code == 0, "a process per case saw what only a failure earlier in a process shows");
  cJSON_Delete(report);
}
END_TEST

/* Under a sanitizer build, the runtime's reports unsymbolised: every
 * process of these libraries crashes or dies as it ends (hundreds a run),
 * and each report symbolised by the runtime spawned a symbolizer (16 s a
 * run of the lazy initialisation, 2 s without); the harness names the
 * crash site itself, and UBSan's "file:line: runtime error" needs no
 * symbolizer. */
static void sanitizer_reports_unsymbolised(void) {
  const char* names[] = {"ASAN_OPTIONS", "UBSAN_OPTIONS"};
  for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
    const char* options = getenv(names[i]);
    char value[512];
    snprintf(value, sizeof(value), "%s%ssymbolize=0", options != NULL ? options : "",
             options != NULL && options[0] != '\0' ? ":" : "");
    setenv(names[i], value, 1);
  }
}

int main(void) {
  sanitizer_reports_unsymbolised();
  Suite* suite = suite_create("state_between_calls");
  TCase* each = tcase_create("each");
  tcase_set_timeout(each, 300);
  tcase_add_test(each, a_library_that_goes_wrong_with_use_is_caught_by_replays);
  tcase_add_loop_test(each, a_death_at_exit_is_the_process_end_rules_alone, 0, 2);
  tcase_add_test(each, a_lazy_initialisation_in_one_path_ends_alike_in_both_isolations);
  tcase_add_test(each, a_current_device_kept_per_thread_ends_alike_in_both_isolations);
  tcase_add_test(each, an_error_state_kept_after_a_failure_is_caught_by_replays);
  suite_add_tcase(suite, each);
  return run_suite(suite);
}
