/* Expectations files (--expect FILE): a case matched by an entry is judged
 * by it.  The library under test is the twin that exports one wrong value
 * (fixtures/deliberately_broken/rule_twins/producer_wrong_value.c), which fails
 * array.data.matches_fixture on every fixture with a value to alter and
 * passes it on int32_all_null and int32_empty. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "outcome/record_of_run.h"
#include "report/journal.h"
#include "report/report.h"
#include "rule_api/rule.h"
#include "runner/case_plan.h"
#include "test_support.h"

#define TWIN BUILD_PATH("libbroken_producer_wrong_value.so")
#define DATA_RULE_CASES "cpu/array.data.matches_fixture/*"
/* The fixtures on which the twin fails the rule: dictionary, multi_batch
 * and nested_struct, and int32_nulls. */
#define FAILING_CASES "cpu/array.data.matches_fixture/[!i]*"
#define FAILING_INT32 "cpu/array.data.matches_fixture/int32_nulls"

/* Writes `text` to a new file; its path is in `path` (unlink it). */
static void write_file(char path[32], const char* text) {
  snprintf(path, 32, "/tmp/adc_expect_XXXXXX");
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
  close(fd);
}

/* Runs the twin on the rule's cases with `expectations` as the --expect
 * file; returns the report, with the exit code and standard error. */
static cJSON* run_with(const char* expectations, int* exit_code, char** err) {
  char expect[32];
  char report_path[32];
  write_file(expect, expectations);
  write_file(report_path, "");
  const char* args[] = {"--fixtures",
                        HAND_WRITTEN_FIXTURES,
                        "--producer",
                        TWIN,
                        "--filter",
                        DATA_RULE_CASES,
                        "--expect",
                        expect,
                        "--jobs",
                        "2",
                        "--report-json",
                        report_path,
                        NULL};
  struct run_result run = run_conform(args);
  *exit_code = run.exit_code;
  *err = strdup(run.err);
  run_result_free(&run);
  cJSON* report = read_json_file(report_path);
  ck_assert_msg(report != NULL, "no report; stderr: %s", *err);
  unlink(report_path);
  unlink(expect);
  return report;
}

static double summary_count(const cJSON* report, const char* key) {
  return cJSON_GetObjectItem(cJSON_GetObjectItem(report, "summary"), key)->valuedouble;
}

START_TEST(expected_failure_keeps_the_run_green) {
  int exit_code;
  char* err;
  cJSON* report = run_with("# the twin alters one value\n\n" FAILING_CASES
                           " fail  altered on purpose \n" FAILING_INT32 " fail altered\n",
                           &exit_code, &err);
  ck_assert_msg(exit_code == 0, "exit %d, stderr: %s", exit_code, err);
  ck_assert_int_eq((int)summary_count(report, "expected_fail"), 5);
  ck_assert_int_eq((int)summary_count(report, "unexpected_pass"), 0);
  /* The verdict is kept: a library with expected failures does not conform. */
  ck_assert_int_eq((int)summary_count(report, "fail"), 5);
  ck_assert(cJSON_IsFalse(cJSON_GetObjectItem(cJSON_GetObjectItem(report, "summary"), "conforms")));
  const cJSON* item = report_case(report, "cpu/array.data.matches_fixture/dictionary");
  ck_assert_str_eq(cJSON_GetObjectItem(item, "status")->valuestring, "fail");
  const cJSON* expectation = cJSON_GetObjectItem(item, "expectation");
  ck_assert_ptr_nonnull(expectation);
  ck_assert_str_eq(cJSON_GetObjectItem(expectation, "glob")->valuestring, FAILING_CASES);
  ck_assert_str_eq(cJSON_GetObjectItem(expectation, "status")->valuestring, "fail");
  ck_assert_str_eq(cJSON_GetObjectItem(expectation, "reason")->valuestring, "altered on purpose");
  ck_assert_int_eq(cJSON_GetObjectItem(expectation, "line")->valueint, 3);
  ck_assert_str_eq(cJSON_GetObjectItem(expectation, "outcome")->valuestring, "expected_fail");
  /* A case no entry matches carries no expectation. */
  item = report_case(report, "cpu/array.data.matches_fixture/int32_empty");
  ck_assert_ptr_null(cJSON_GetObjectItem(item, "expectation"));
  ck_assert_str_eq(err, "");
  free(err);
  cJSON_Delete(report);
}
END_TEST

/* The library that aborts in ExportBatchFromJson (ADC_MISBEHAVIOUR=abort)
 * on int32_nulls, in prepared processes (--isolation shared, one job):
 * every pass whose verdict came from a prepared process that then ended
 * otherwise (shared_attempt) is counted. */
static int passes_run_again(const char* expectations) {
  char expect[32];
  char report_path[32];
  write_file(expect, expectations);
  write_file(report_path, "");
  setenv("ADC_MISBEHAVIOUR", "abort", 1);
  const char* args[] = {"--producer",
                        BUILD_PATH("libmisbehaving_on_request.so"),
                        "--device",
                        "cpu",
                        "--filter",
                        "cpu/*/int32_nulls",
                        "--expect",
                        expect,
                        "--jobs",
                        "1",
                        "--isolation",
                        "shared",
                        "--report-json",
                        report_path,
                        NULL};
  struct run_result run = run_conform(args);
  unsetenv("ADC_MISBEHAVIOUR");
  cJSON* report = read_json_file(report_path);
  ck_assert_msg(report != NULL, "no report; stderr: %s", run.err);
  run_result_free(&run);
  int run_again = 0;
  const cJSON* item;
  cJSON_ArrayForEach(item, cJSON_GetObjectItem(report, "cases")) {
    bool passed = strcmp(cJSON_GetObjectItem(item, "status")->valuestring, "pass") == 0;
    run_again += passed && cJSON_GetObjectItem(item, "shared_attempt") != NULL;
  }
  cJSON_Delete(report);
  unlink(report_path);
  unlink(expect);
  return run_again;
}

/* A case --expect says crashes runs in a process of its own from the
 * start: it ends no prepared process, and no pass before it is run again
 * alone (on a GPU, a device start apiece).  Without the entries, the same
 * crashes cost no pass a second run either: an entry point is judged first
 * in a process until a case calling it passes (adc_task.calls), and the
 * one they crash in never does, so each crashes first in a process of its
 * own (before that, they made passes run again). */
START_TEST(an_expected_crash_runs_in_a_process_of_its_own) {
  ck_assert_int_eq(passes_run_again(""), 0);
  ck_assert_int_eq(passes_run_again("cpu/array.*/int32_nulls  crash  aborts in ExportBatchFromJson\n"
                                    "cpu/baseline.*/int32_nulls  crash  aborts in ExportBatchFromJson\n"
                                    "cpu/plugin.*/int32_nulls  crash  aborts in ExportBatchFromJson\n"
                                    "cpu/schema.release.independent_of_array/int32_nulls  crash|timeout  "
                                    "aborts in ExportBatchFromJson\n"),
                   0);
}
END_TEST

START_TEST(first_matching_entry_wins) {
  int exit_code;
  char* err;
  /* The third entry is shadowed by the second: it judges no case. */
  cJSON* report =
      run_with(FAILING_CASES " fail altered on purpose\n" FAILING_INT32
                             " fail altered\ncpu/array.data.matches_fixture/*_nulls crash never\n",
               &exit_code, &err);
  ck_assert_msg(exit_code == 0, "exit %d, stderr: %s", exit_code, err);
  const cJSON* item = report_case(report, FAILING_INT32);
  ck_assert_int_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(item, "expectation"), "line")->valueint, 2);
  ck_assert_msg(strstr(err, ":3: 'cpu/array.data.matches_fixture/*_nulls' matches no case") != NULL, "%s",
                err);
  free(err);
  cJSON_Delete(report);
}
END_TEST

START_TEST(another_status_fails_the_run) {
  int exit_code;
  char* err;
  cJSON* report = run_with(FAILING_CASES " crash a crash was seen once\n" FAILING_INT32 " crash also\n",
                           &exit_code, &err);
  ck_assert_int_eq(exit_code, 1);
  ck_assert_int_eq((int)summary_count(report, "unexpected_status"), 5);
  ck_assert_int_eq((int)summary_count(report, "failing_run_cases"), 5);
  const cJSON* item = report_case(report, "cpu/array.data.matches_fixture/nested_struct");
  ck_assert_str_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(item, "expectation"), "outcome")->valuestring,
                   "unexpected_status");
  free(err);
  cJSON_Delete(report);
}
END_TEST

START_TEST(unexpected_pass_fails_the_run) {
  int exit_code;
  char* err;
  cJSON* report = run_with(DATA_RULE_CASES " fail altered on purpose\n", &exit_code, &err);
  ck_assert_int_eq(exit_code, 1);
  ck_assert_int_eq((int)summary_count(report, "expected_fail"), 5);
  ck_assert_int_eq((int)summary_count(report, "unexpected_pass"), 2);
  const cJSON* item = report_case(report, "cpu/array.data.matches_fixture/int32_empty");
  ck_assert_str_eq(cJSON_GetObjectItem(item, "status")->valuestring, "pass");
  ck_assert_str_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(item, "expectation"), "outcome")->valuestring,
                   "unexpected_pass");
  free(err);
  cJSON_Delete(report);
}
END_TEST

START_TEST(alternatives_accept_any_of_them) {
  int exit_code;
  char* err;
  /* Every case of the rule, failing or passing, ends as `fail|pass` says;
   * none ends crash, so `crash|timeout` is missed. */
  cJSON* report = run_with(FAILING_INT32 " crash|timeout never\n" DATA_RULE_CASES " fail|pass intermittent\n",
                           &exit_code, &err);
  ck_assert_int_eq(exit_code, 1);
  ck_assert_int_eq((int)summary_count(report, "expected_fail"), 6);
  ck_assert_int_eq((int)summary_count(report, "unexpected_status"), 1);
  const cJSON* item = report_case(report, "cpu/array.data.matches_fixture/int32_empty");
  const cJSON* expectation = cJSON_GetObjectItem(item, "expectation");
  ck_assert_str_eq(cJSON_GetObjectItem(expectation, "status")->valuestring, "fail|pass");
  ck_assert_str_eq(cJSON_GetObjectItem(expectation, "outcome")->valuestring, "expected_fail");
  free(err);
  cJSON_Delete(report);
}
END_TEST

START_TEST(unmatched_entry_warns) {
  int exit_code;
  char* err;
  /* Left out by --filter, or stale: either way said, never a failure. */
  cJSON* report =
      run_with(FAILING_CASES " fail altered on purpose\ncpu/no.such.rule/* timeout stale\n" FAILING_INT32
                             " fail altered\n",
               &exit_code, &err);
  ck_assert_msg(exit_code == 0, "exit %d, stderr: %s", exit_code, err);
  ck_assert_int_eq(count_lines(err), 1);
  ck_assert_msg(strstr(err, "adc-conform: warning: /tmp/adc_expect_") != NULL, "%s", err);
  ck_assert_msg(strstr(err, ":2: 'cpu/no.such.rule/*' matches no case of this run") != NULL, "%s", err);
  const cJSON* unmatched =
      cJSON_GetObjectItem(cJSON_GetObjectItem(report, "summary"), "unmatched_expectations");
  ck_assert_int_eq(cJSON_GetArraySize(unmatched), 1);
  ck_assert_int_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(unmatched, 0), "line")->valueint, 2);
  free(err);
  cJSON_Delete(report);
}
END_TEST

START_TEST(console_shows_the_outcomes) {
  char expect[32];
  write_file(expect, DATA_RULE_CASES " fail altered on purpose\n");
  /* Each case's outcome is on its line with --verbose; by default the
   * rule's line counts them. */
  const char* args[] = {
      "--fixtures", HAND_WRITTEN_FIXTURES, "--producer", TWIN, "--filter", DATA_RULE_CASES, "--expect",
      expect,       "--verbose",           NULL};
  struct run_result run = run_conform(args);
  ck_assert_int_eq(run.exit_code, 1);
  ck_assert_msg(strstr(run.out, "[expected_fail: ") != NULL, "%s", run.out);
  ck_assert_msg(strstr(run.out, "[unexpected_pass: ") != NULL, "%s", run.out);
  ck_assert_msg(strstr(run.out, ": 5 expected_fail, 2 unexpected_pass, 0 unexpected_status;") != NULL, "%s",
                run.out);
  ck_assert_msg(strstr(run.out, "EXPECTATIONS NOT MET") != NULL, "%s", run.out);
  run_result_free(&run);
  args[8] = NULL; /* without --verbose */
  run = run_conform(args);
  unlink(expect);
  ck_assert_msg(strstr(run.out, "2 pass, 5 fail [5 expected_fail, 2 unexpected_pass]") != NULL, "%s",
                run.out);
  ck_assert_msg(strstr(run.out, "EXPECTATIONS NOT MET") != NULL, "%s", run.out);
  run_result_free(&run);
}
END_TEST

/* The journal writes each case as the report does: with its entry. */
START_TEST(journal_carries_the_expectation) {
  char expect[32];
  write_file(expect, "cpu/* crash known to crash\n");
  struct adc_expectations expectations;
  struct adc_error error;
  ck_assert_int_eq(adc_expectations_read(expect, &expectations, &error), 0);
  unlink(expect);
  struct adc_session session;
  memset(&session, 0, sizeof(session));
  session.device_option = "cpu";
  session.expectations = &expectations;
  struct adc_fixture fixture = {.name = "int32_nulls"};
  const struct adc_device_target cpu = adc_device_target_of(adc_device_find("cpu"));
  struct adc_case c = {.rule = adc_rule_at(0), .device = &cpu, .fixture = &fixture};
  snprintf(c.id, sizeof(c.id), "cpu/%s/int32_nulls", c.rule->id);
  adc_expectations_match(&expectations, &c, 1);
  struct adc_task_result result = {.status = ADC_FAIL};
  struct adc_case_record ended;
  adc_case_record_of_run(&c, &result, &ended);
  char report_path[32];
  write_file(report_path, "");
  struct adc_journal* journal = adc_journal_open(report_path, &session, 1, &error);
  ck_assert_ptr_nonnull(journal);
  adc_journal_add(journal, &ended);
  adc_journal_close(journal, false); /* no report replaced it: the journal stays */
  char journal_path[64];
  snprintf(journal_path, sizeof(journal_path), "%s.journal", report_path);
  FILE* f = fopen(journal_path, "r");
  ck_assert_ptr_nonnull(f);
  char header[4096];
  char line[8192];
  ck_assert_ptr_nonnull(fgets(header, sizeof(header), f));
  ck_assert_ptr_nonnull(fgets(line, sizeof(line), f));
  fclose(f);
  unlink(journal_path);
  unlink(report_path);
  cJSON* head = cJSON_Parse(header);
  ck_assert_str_eq(cJSON_GetObjectItem(head, "expectations")->valuestring, expect);
  cJSON* item = cJSON_Parse(line);
  cJSON* reported = adc_case_json(&ended);
  ck_assert(cJSON_Compare(item, reported, true));
  const cJSON* expectation = cJSON_GetObjectItem(item, "expectation");
  ck_assert_str_eq(cJSON_GetObjectItem(expectation, "outcome")->valuestring, "unexpected_status");
  ck_assert_str_eq(cJSON_GetObjectItem(expectation, "reason")->valuestring, "known to crash");
  cJSON_Delete(reported);
  cJSON_Delete(item);
  cJSON_Delete(head);
  adc_expectations_free(&expectations);
}
END_TEST

/* Bad files: one error line naming the file and the line, exit status 2. */
static void expect_bad_file(const char* text, const char* needle) {
  char expect[32];
  write_file(expect, text);
  const char* args[] = {"--fixtures", HAND_WRITTEN_FIXTURES, "--producer", TWIN, "--expect", expect, NULL};
  struct run_result run = run_conform(args);
  unlink(expect);
  ck_assert_msg(run.exit_code == 2, "exit %d, stderr: %s", run.exit_code, run.err);
  ck_assert_msg(count_lines(run.err) == 1, "expected one line, got: %s", run.err);
  char located[64];
  snprintf(located, sizeof(located), "adc-conform: error: %s:", expect);
  ck_assert_msg(strncmp(run.err, located, strlen(located)) == 0, "stderr: %s", run.err);
  ck_assert_msg(strstr(run.err, needle) != NULL, "'%s' not in: %s", needle, run.err);
  run_result_free(&run);
}

START_TEST(wrong_status_name) {
  expect_bad_file("# comment\n" DATA_RULE_CASES " failed altered\n",
                  ":2: unknown status 'failed' (known: fail,");
}
END_TEST

START_TEST(missing_reason) {
  expect_bad_file("\n\n" DATA_RULE_CASES " fail   \n", ":3: '" DATA_RULE_CASES " fail' has no reason");
}
END_TEST

START_TEST(missing_status) {
  expect_bad_file(DATA_RULE_CASES "\n", ":1: '" DATA_RULE_CASES "' has no status");
}
END_TEST

START_TEST(pass_is_no_expectation) {
  expect_bad_file(DATA_RULE_CASES " pass fine\n", ":1: 'pass' is not an expectation");
}
END_TEST

START_TEST(unknown_alternative) {
  expect_bad_file(DATA_RULE_CASES " fail|passed flaky\n", ":1: unknown status 'passed' (known: fail,");
}
END_TEST

START_TEST(unreadable_file) {
  const char* args[] = {"--fixtures", HAND_WRITTEN_FIXTURES,           "--producer", TWIN,
                        "--expect",   "/nonexistent/expectations.txt", NULL};
  struct run_result run = run_conform(args);
  ck_assert_int_eq(run.exit_code, 2);
  ck_assert_int_eq(count_lines(run.err), 1);
  ck_assert_msg(strstr(run.err,
                       "adc-conform: error: cannot read the expectations file "
                       "'/nonexistent/expectations.txt': No such file or directory") != NULL,
                "%s", run.err);
  run_result_free(&run);
}
END_TEST

int main(void) {
  Suite* suite = suite_create("expectations");
  TCase* judged = tcase_create("judged");
  tcase_set_timeout(judged, 60);
  tcase_add_test(judged, expected_failure_keeps_the_run_green);
  tcase_add_test(judged, first_matching_entry_wins);
  tcase_add_test(judged, an_expected_crash_runs_in_a_process_of_its_own);
  tcase_add_test(judged, another_status_fails_the_run);
  tcase_add_test(judged, unexpected_pass_fails_the_run);
  tcase_add_test(judged, alternatives_accept_any_of_them);
  tcase_add_test(judged, unmatched_entry_warns);
  tcase_add_test(judged, console_shows_the_outcomes);
  tcase_add_test(judged, journal_carries_the_expectation);
  suite_add_tcase(suite, judged);
  TCase* bad = tcase_create("bad_files");
  tcase_set_timeout(bad, 60);
  tcase_add_test(bad, wrong_status_name);
  tcase_add_test(bad, missing_reason);
  tcase_add_test(bad, missing_status);
  tcase_add_test(bad, pass_is_no_expectation);
  tcase_add_test(bad, unknown_alternative);
  tcase_add_test(bad, unreadable_file);
  suite_add_tcase(suite, bad);
  return run_suite(suite);
}
