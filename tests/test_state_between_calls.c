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
 *     364 that crash alone). */
#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

#define WRONG_AFTER_MANY BUILD_PATH("libmisbehaving_wrong_after_many_exports.so")
#define DIES_AT_EXIT BUILD_PATH("libbroken_producer_dies_at_exit.so")
#define STREAM_NEEDS_A_BATCH BUILD_PATH("libmisbehaving_stream_needs_a_batch_first.so")

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

START_TEST(a_library_that_goes_wrong_with_use_is_caught_by_replays) {
  int exit_code;
  cJSON* report = run_isolated(WRONG_AFTER_MANY, "misbehaving", "shared", &exit_code);
  ck_assert_int_eq(exit_code, 1);
  int reproduced = 0;
  int failed = 0;
  const cJSON* item;
  cJSON_ArrayForEach(item, cJSON_GetObjectItem(report, "cases")) {
    const char* status = text_of(item, "status");
    const cJSON* replay = cJSON_GetObjectItem(cJSON_GetObjectItem(item, "shared_attempt"), "replay");
    ck_assert_msg(strstr(text_of(item, "message"), "failed once, not again") == NULL, "%s: %s",
                  text_of(item, "id"), text_of(item, "message"));
    if (replay == NULL) continue;
    ck_assert_msg(cJSON_IsTrue(cJSON_GetObjectItem(replay, "reproduced")), "%s: not reproduced: %s",
                  text_of(item, "id"), text_of(item, "message"));
    bool own = strcmp(text_of(replay, "first_to_go_wrong"), "this one") == 0;
    ck_assert_msg(
        own ? strcmp(status, "pass") != 0 && strstr(text_of(item, "message"), "each of which passed")
            : strcmp(status, "pass") == 0 && strstr(text_of(item, "message"), "went wrong first"),
        "%s: %s after %s: %s", text_of(item, "id"), status, text_of(replay, "first_to_go_wrong"),
        text_of(item, "message"));
    failed += own && strcmp(status, "fail") == 0;
    ck_assert_msg(cJSON_GetObjectItem(replay, "earlier_cases")->valueint >= 10, "%s: after %d cases",
                  text_of(item, "id"), cJSON_GetObjectItem(replay, "earlier_cases")->valueint);
    ck_assert_msg(strstr(text_of(item, "message"), "only after") != NULL, "%s", text_of(item, "message"));
    reproduced++;
  }
  ck_assert_msg(reproduced >= 5 && failed >= 1, "%d failures replayed and reproduced, %d of them the first",
                reproduced, failed);
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

START_TEST(a_lazy_initialisation_in_one_path_ends_alike_in_both_isolations) {
  const char* args[] = {
      "--producer", STREAM_NEEDS_A_BATCH,  "--prefix", "misbehaving", "--device",    "cpu",
      "--filter",   "cpu/device_stream.*", "--filter", "cpu/array.*", "--isolation", "shared",
      NULL};
  int shared_exit;
  cJSON* shared = run_conform_report(args, &shared_exit);
  args[11] = "case";
  int case_exit;
  cJSON* alone = run_conform_report(args, &case_exit);
  ck_assert(shared != NULL && alone != NULL);
  ck_assert_int_eq(shared_exit, 1);
  ck_assert_int_eq(case_exit, 1);
  int crashed = 0;
  const cJSON* item;
  cJSON_ArrayForEach(item, cJSON_GetObjectItem(alone, "cases")) {
    const char* id = text_of(item, "id");
    const char* status = text_of(item, "status");
    crashed += strcmp(status, "crash") == 0;
    ck_assert_msg(strcmp(status_in(shared, id), status) == 0, "%s: %s in prepared processes, %s alone", id,
                  status_in(shared, id), status);
  }
  ck_assert_msg(crashed >= 20, "only %d cases crashed alone", crashed);
  cJSON_Delete(shared);
  cJSON_Delete(alone);
}
END_TEST

int main(void) {
  Suite* suite = suite_create("state_between_calls");
  TCase* each = tcase_create("each");
  tcase_set_timeout(each, 300);
  tcase_add_test(each, a_library_that_goes_wrong_with_use_is_caught_by_replays);
  tcase_add_loop_test(each, a_death_at_exit_is_the_process_end_rules_alone, 0, 2);
  tcase_add_test(each, a_lazy_initialisation_in_one_path_ends_alike_in_both_isolations);
  suite_add_tcase(suite, each);
  return run_suite(suite);
}
