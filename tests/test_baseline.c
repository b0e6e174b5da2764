/* Declining is not conforming: a library that declines every fixture
 * fails the baseline rules (spec-tests/rules_baseline.c), a run in which no
 * MUST case passed never says "CONFORMS", and the coverage (cases judged of
 * cases run) stands beside the verdict. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "report/report.h"
#include "test_support.h"

#define DECLINING_PRODUCER BUILD_PATH("libbroken_producer_declines_everything.so")
#define PRODUCER_BASELINE "baseline.producer.exports_baseline_fixtures"
#define CONSUMER_BASELINE "baseline.consumer.imports_baseline_fixtures"

static const char* status_of(const cJSON* item) {
  return cJSON_GetObjectItem(item, "status")->valuestring;
}

static int summary_int(const cJSON* report, const char* key) {
  return cJSON_GetObjectItem(cJSON_GetObjectItem(report, "summary"), key)->valueint;
}

START_TEST(declining_producer_fails_the_baseline_alone) {
  const char* args[] = {"--producer", DECLINING_PRODUCER, "--device", "cpu", NULL};
  int exit_code;
  cJSON* report = run_conform_report(args, &exit_code);
  ck_assert_ptr_nonnull(report);
  ck_assert_int_eq(exit_code, 1);
  int baseline_failures = 0;
  const cJSON* item;
  cJSON_ArrayForEach(item, cJSON_GetObjectItem(report, "cases")) {
    const char* rule = cJSON_GetObjectItem(item, "rule")->valuestring;
    if (strcmp(rule, PRODUCER_BASELINE) == 0) {
      ck_assert_str_eq(status_of(item), "fail");
      ck_assert_ptr_nonnull(strstr(cJSON_GetObjectItem(item, "message")->valuestring,
                                   "declined to export the schema, which every producer must export"));
      baseline_failures++;
    } else {
      /* Declining the missing batch is what plugin.export.declines_missing_batch asks. */
      ck_assert_msg(strcmp(status_of(item), "not_supported") == 0 ||
                        strcmp(rule, "plugin.export.declines_missing_batch") == 0,
                    "%s ended %s", cJSON_GetObjectItem(item, "id")->valuestring, status_of(item));
    }
  }
  ck_assert_int_eq(baseline_failures, 4); /* int32_all_null, int32_empty, int32_nulls, nested_struct */
  ck_assert(cJSON_IsFalse(cJSON_GetObjectItem(cJSON_GetObjectItem(report, "summary"), "conforms")));
  ck_assert_int_eq(summary_int(report, "passing_must_cases"), 0);
  int judged = summary_int(report, "pass") + summary_int(report, "fail") + summary_int(report, "crash") +
               summary_int(report, "timeout") + summary_int(report, "warning");
  ck_assert_int_eq(summary_int(report, "judged_cases"), judged);
  ck_assert_int_eq(summary_int(report, "cases"), cJSON_GetArraySize(cJSON_GetObjectItem(report, "cases")));
  cJSON_Delete(report);
}
END_TEST

START_TEST(no_passing_must_case_is_not_conformance) {
  /* Nothing fails here: every case is not_supported. */
  const char* args[] = {"--producer", DECLINING_PRODUCER, "--filter", "cpu/array.*", NULL};
  struct run_result run = run_conform(args);
  /* Nothing failed, nothing was shown: neither 0 nor 1. */
  ck_assert_msg(run.exit_code == ADC_EXIT_NOT_SHOWN, "exit %d: %s", run.exit_code, run.err);
  ck_assert_msg(strstr(run.out, "CONFORMS:") == NULL || strstr(run.out, "NOT SHOWN TO CONFORM:") != NULL,
                "%s", run.out);
  const char* verdict = strstr(run.out,
                               "NOT SHOWN TO CONFORM: no MUST rule failed, but a side tested is not shown to "
                               "conform (below). Coverage: 0 of ");
  ck_assert_msg(verdict != NULL, "%s", run.out);
  ck_assert_msg(strstr(verdict, " cases judged.\n  producer: not shown to conform: its ") != NULL, "%s",
                verdict);
  ck_assert_msg(strstr(verdict, " MUST cases are all not_supported\n") != NULL, "%s", verdict);
  run_result_free(&run);
  int exit_code;
  cJSON* report = run_conform_report(args, &exit_code);
  ck_assert_ptr_nonnull(report);
  ck_assert(cJSON_IsFalse(cJSON_GetObjectItem(cJSON_GetObjectItem(report, "summary"), "conforms")));
  ck_assert_int_eq(summary_int(report, "judged_cases"), 0);
  ck_assert_int_gt(summary_int(report, "cases"), 0);
  cJSON_Delete(report);
}
END_TEST

START_TEST(coverage_stands_beside_every_verdict) {
  const char* args[] = {"--producer", DECLINING_PRODUCER, "--filter", "cpu/baseline.*", NULL};
  struct run_result run = run_conform(args);
  ck_assert_int_eq(run.exit_code, 1);
  ck_assert_msg(strstr(run.out,
                       "DOES NOT CONFORM: 4 MUST case(s) failed, crashed or timed out. Coverage: 4 of 4 "
                       "cases judged.\n") != NULL,
                "%s", run.out);
  run_result_free(&run);
}
END_TEST

/* The misbehaving crashing library exports a producer's CPU entry points
 * and nothing else. */
#define PRODUCER_ONLY BUILD_PATH("libmisbehaving_crash_on_export.so")

START_TEST(library_with_neither_form_fails_the_baseline) {
  const char* args[] = {
      "--consumer", PRODUCER_ONLY, "--device", "all", "--filter", "*/" CONSUMER_BASELINE "/*", NULL};
  int exit_code;
  cJSON* report = run_conform_report(args, &exit_code);
  ck_assert_ptr_nonnull(report);
  ck_assert_int_eq(exit_code, 1);
  int failures = 0;
  const cJSON* item;
  cJSON_ArrayForEach(item, cJSON_GetObjectItem(report, "cases")) {
    const char* message = cJSON_GetObjectItem(item, "message")->valuestring;
    ck_assert_str_eq(status_of(item), "fail");
    ck_assert_msg(strstr(message, "crashing_CDataIntegration_ImportBatchAndCompareToJson") != NULL, "%s",
                  message);
    ck_assert_msg(strstr(message, "crashing_CDeviceIntegration_ImportDeviceBatchAndCompareToJson") != NULL,
                  "%s", message);
    failures++;
  }
  ck_assert_int_eq(failures, 8); /* 4 baseline fixtures on cpu and on cpu_device_arrays */
  cJSON_Delete(report);
}
END_TEST

/* The C Data Interface form only: judged on cpu, left to cpu by cpu_device_arrays. */
#define CPU_FORM_ONLY BUILD_PATH("libmisbehaving_cpu_entry_points_only.so")

START_TEST(one_form_is_judged_on_its_own_device) {
  const char* args[] = {"--producer", CPU_FORM_ONLY, "--consumer",   CPU_FORM_ONLY, "--device",
                        "all",        "--filter",    "*/baseline.*", NULL};
  int exit_code;
  cJSON* report = run_conform_report(args, &exit_code);
  ck_assert_ptr_nonnull(report);
  ck_assert_int_eq(exit_code, 0);
  const cJSON* item;
  int passed = 0;
  cJSON_ArrayForEach(item, cJSON_GetObjectItem(report, "cases")) {
    const char* id = cJSON_GetObjectItem(item, "id")->valuestring;
    const char* message = cJSON_GetObjectItem(item, "message")->valuestring;
    if (strncmp(id, "cpu/", 4) == 0) {
      ck_assert_msg(strcmp(status_of(item), "pass") == 0, "%s: %s", id, message);
      passed++;
    } else {
      ck_assert_msg(strcmp(status_of(item), "not_supported") == 0, "%s: %s", id, message);
      ck_assert_msg(strstr(message, "judged through its C Data Interface entry points") != NULL, "%s",
                    message);
      ck_assert_msg(strstr(message, "cpuonly_CDeviceIntegration_") != NULL, "%s", message);
    }
  }
  ck_assert_int_eq(passed, 8); /* both roles, on the 4 baseline fixtures */
  ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(report, "cases")), 16);
  ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetObjectItem(report, "summary"), "conforms")));
  cJSON_Delete(report);
}
END_TEST

int main(void) {
  Suite* suite = suite_create("baseline");
  TCase* baseline = tcase_create("baseline");
  tcase_set_timeout(baseline, 60);
  tcase_add_test(baseline, declining_producer_fails_the_baseline_alone);
  tcase_add_test(baseline, no_passing_must_case_is_not_conformance);
  tcase_add_test(baseline, coverage_stands_beside_every_verdict);
  tcase_add_test(baseline, library_with_neither_form_fails_the_baseline);
  tcase_add_test(baseline, one_form_is_judged_on_its_own_device);
  suite_add_tcase(suite, baseline);
  return run_suite(suite);
}
