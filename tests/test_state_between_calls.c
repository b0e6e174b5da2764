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
 *     CONFORMANCE.md says. */
#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

#define WRONG_AFTER_MANY BUILD_PATH("libmisbehaving_wrong_after_many_exports.so")

static cJSON* run_isolated(const char* library, const char* isolation, int* exit_code) {
  const char* args[] = {"--producer", library,  "--prefix",    "misbehaving", "--device",
                        "cpu",        "--filter", "cpu/array.*", "--isolation", isolation,
                        NULL};
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
  cJSON* report = run_isolated(WRONG_AFTER_MANY, "shared", &exit_code);
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
    ck_assert_msg(own ? strcmp(status, "pass") != 0 && strstr(text_of(item, "message"), "each of which passed")
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

  report = run_isolated(WRONG_AFTER_MANY, "case", &exit_code);
  ck_assert_msg(exit_code == 0, "a process per case saw what only many calls in one process show");
  cJSON_Delete(report);
}
END_TEST

int main(void) {
  Suite* suite = suite_create("state_between_calls");
  TCase* each = tcase_create("each");
  tcase_set_timeout(each, 300);
  tcase_add_test(each, a_library_that_goes_wrong_with_use_is_caught_by_replays);
  suite_add_tcase(suite, each);
  return run_suite(suite);
}
