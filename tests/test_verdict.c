/* One definition of a verdict, per side (harness/outcome/verdict.c): a side
 * of which no MUST case was judged is never reported as conforming.  The
 * definition on run records built case by case; then the runs that used to
 * disagree with verify: a producer that loads in the preflight and in no
 * case process (fixtures/deliberately_broken/misbehaving/vanishes_after_load.c), in every
 * report, through merge and through certify and verify; and a GPU-only run
 * on a machine without its GPU. */
#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "device/device.h"
#include "outcome/run_record.h"
#include "report/report.h"
#include "test_support.h"

#define VANISHING_PRODUCER BUILD_PATH("libmisbehaving_vanishes_after_load.so")

/* ---- The definition, on run records of (role, severity, status). */

struct triple {
  enum adc_role role;
  enum adc_severity severity;
  enum adc_status status;
};

#define P ADC_ROLE_PRODUCER
#define C ADC_ROLE_CONSUMER

/* The IDs and messages of the cases: a record points at its strings. */
static const char* const ids[] = {"case0", "case1", "case2", "case3", "case4", "case5"};
static const char* const whys[] = {"why 0", "why 1", "why 2", "why 3", "why 4", "why 5"};

/* The case `i` of a record of triples; `outcome`, where not NULL, is how it
 * ended against an --expect entry that matched it. */
static struct adc_case_record case_of(size_t i, const struct triple* t,
                                      const enum adc_expectation_outcome* outcome) {
  struct adc_case_record c = {.id = ids[i],
                              .rule = "r",
                              .clause = "",
                              .sentence = "",
                              .method = "",
                              .role = t->role,
                              .severity = t->severity,
                              .device = "cpu",
                              .fixture = "f",
                              .status = t->status,
                              .message = whys[i],
                              .left_behind = "",
                              .shared_message = ""};
  if (outcome != NULL) {
    c.has_expectation = true;
    c.expectation = (struct adc_case_expectation){"*", "fail", "known", 1};
    c.outcome = *outcome;
  }
  return c;
}

/* The record (begun with room for six cases) of cases "case0", "case1",
 * ... ending as `triples` say, none matched by an --expect entry, each
 * with the message "why <n>", finished as a run interrupted by
 * `interrupted_by` (0: complete). */
static void record_of(struct adc_run_record* record, bool producer_tested, bool consumer_tested,
                      const struct triple* triples, size_t n, int interrupted_by) {
  struct adc_error error;
  ck_assert_int_eq(adc_run_record_begin(record, 6, producer_tested ? "producer.so" : NULL,
                                        consumer_tested ? "consumer.so" : NULL, &error),
                   0);
  ck_assert_uint_le(n, 6);
  for (size_t i = 0; i < n; i++) {
    struct adc_case_record c = case_of(i, &triples[i], NULL);
    adc_run_record_add(record, &c);
  }
  record->interrupted_by = interrupted_by;
  adc_run_record_finish(record);
}
#define RECORD_OF(record, producer_tested, consumer_tested, triples) \
  record_of(record, producer_tested, consumer_tested, triples, sizeof(triples) / sizeof(triples[0]), 0)

static void assert_side(const struct adc_run_record* record, enum adc_role role,
                        enum adc_side_verdict verdict, const char* reason) {
  const struct adc_side_record* side = &record->sides[role];
  ck_assert_str_eq(adc_side_verdict_name(side->verdict), adc_side_verdict_name(verdict));
  ck_assert_str_eq(side->reason, reason);
}

/* Checks the run's verdict and frees the record. */
static void assert_run(struct adc_run_record* record, const char* headline, int exit_status) {
  ck_assert_str_eq(record->headline, headline);
  ck_assert_int_eq(record->conforms, strcmp(headline, "CONFORMS") == 0);
  ck_assert_int_eq(record->exit_status, exit_status);
  adc_run_record_free(record);
}

START_TEST(passes_and_not_supported_conform) {
  const struct triple cases[] = {
      {P, ADC_MUST, ADC_PASS}, {P, ADC_MUST, ADC_NOT_SUPPORTED}, {P, ADC_MUST, ADC_PASS}};
  struct adc_run_record record;
  RECORD_OF(&record, true, false, cases);
  assert_side(&record, P, ADC_SIDE_CONFORMS, "2 of its 3 MUST cases passed, none failed or ended unresolved");
  assert_side(&record, C, ADC_SIDE_NOT_TESTED, "not named on the command line");
  assert_run(&record, "CONFORMS", EXIT_SUCCESS);
}
END_TEST

/* The reported run: the producer's cases all unresolved, the bundled
 * consumer's passing.  It once said CONFORMS. */
START_TEST(a_side_all_unresolved_is_not_shown) {
  const struct triple cases[] = {{P, ADC_MUST, ADC_UNRESOLVED},
                                 {P, ADC_SHOULD, ADC_UNRESOLVED},
                                 {P, ADC_MUST, ADC_UNRESOLVED},
                                 {C, ADC_MUST, ADC_PASS}};
  struct adc_run_record record;
  RECORD_OF(&record, true, true, cases);
  assert_side(&record, P, ADC_SIDE_NOT_SHOWN, "2 MUST cases unresolved, the first: case0: why 0");
  assert_side(&record, C, ADC_SIDE_CONFORMS, "1 of its 1 MUST case passed, none failed or ended unresolved");
  assert_run(&record, "NOT SHOWN TO CONFORM", ADC_EXIT_NOT_SHOWN);
  ck_assert_int_ne(ADC_EXIT_NOT_SHOWN, EXIT_SUCCESS);
  ck_assert_int_ne(ADC_EXIT_NOT_SHOWN, EXIT_FAILURE);
}
END_TEST

/* One unresolved MUST case may hide a failure: passes beside it do not
 * make the side conform. */
START_TEST(one_unresolved_case_holds_back_a_side) {
  const struct triple cases[] = {{C, ADC_MUST, ADC_PASS},
                                 {C, ADC_MUST, ADC_PASS},
                                 {C, ADC_MUST, ADC_UNRESOLVED},
                                 {C, ADC_MUST, ADC_UNRESOLVED}};
  struct adc_run_record record;
  RECORD_OF(&record, false, true, cases);
  assert_side(&record, C, ADC_SIDE_NOT_SHOWN, "2 MUST cases unresolved, the first: case2: why 2");
  assert_run(&record, "NOT SHOWN TO CONFORM", ADC_EXIT_NOT_SHOWN);
}
END_TEST

/* A GPU device's run without the GPU. */
START_TEST(all_not_supported_is_not_shown) {
  const struct triple cases[] = {
      {P, ADC_MUST, ADC_NOT_SUPPORTED}, {C, ADC_MUST, ADC_NOT_SUPPORTED}, {C, ADC_MUST, ADC_NOT_SUPPORTED}};
  struct adc_run_record record;
  RECORD_OF(&record, true, true, cases);
  assert_side(&record, P, ADC_SIDE_NOT_SHOWN, "its one MUST case is not_supported");
  assert_side(&record, C, ADC_SIDE_NOT_SHOWN, "its 2 MUST cases are all not_supported");
  assert_run(&record, "NOT SHOWN TO CONFORM", ADC_EXIT_NOT_SHOWN);
}
END_TEST

/* A side tested whose cases --filter left out, or that has SHOULD cases
 * only, showed nothing of its MUST rules. */
START_TEST(a_side_without_must_cases_is_not_shown) {
  const struct triple cases[] = {{P, ADC_MUST, ADC_PASS}, {C, ADC_SHOULD, ADC_PASS}};
  struct adc_run_record record;
  RECORD_OF(&record, true, true, cases);
  assert_side(&record, P, ADC_SIDE_CONFORMS, "1 of its 1 MUST case passed, none failed or ended unresolved");
  assert_side(&record, C, ADC_SIDE_NOT_SHOWN, "no MUST case of it ran");
  assert_run(&record, "NOT SHOWN TO CONFORM", ADC_EXIT_NOT_SHOWN);
}
END_TEST

/* A SHOULD shortfall neither fails a side nor holds it back: a SHOULD
 * twin's run (tests/test_broken_implementations.c) still exits 0. */
START_TEST(should_shortfalls_leave_a_side_conforming) {
  const struct triple cases[] = {{P, ADC_MUST, ADC_PASS},
                                 {P, ADC_SHOULD, ADC_WARNING},
                                 {P, ADC_SHOULD, ADC_CRASH},
                                 {P, ADC_SHOULD, ADC_UNRESOLVED}};
  struct adc_run_record record;
  RECORD_OF(&record, true, false, cases);
  assert_side(&record, P, ADC_SIDE_CONFORMS, "1 of its 1 MUST case passed, none failed or ended unresolved");
  assert_run(&record, "CONFORMS", EXIT_SUCCESS);
}
END_TEST

/* A failure outweighs everything else, on its side and in the headline. */
START_TEST(a_failing_side_does_not_conform) {
  const struct triple cases[] = {{P, ADC_MUST, ADC_UNRESOLVED},
                                 {P, ADC_MUST, ADC_PASS},
                                 {P, ADC_MUST, ADC_TIMEOUT},
                                 {P, ADC_MUST, ADC_FAIL},
                                 {C, ADC_MUST, ADC_NOT_SUPPORTED}};
  struct adc_run_record record;
  RECORD_OF(&record, true, true, cases);
  assert_side(&record, P, ADC_SIDE_DOES_NOT_CONFORM,
              "2 MUST cases failed, crashed or timed out, the first: case2: timeout: why 2");
  assert_side(&record, C, ADC_SIDE_NOT_SHOWN, "its one MUST case is not_supported");
  assert_run(&record, "DOES NOT CONFORM", EXIT_FAILURE);
}
END_TEST

/* A failure --expect expects keeps the exit status from 1, not the side
 * from failing; the other side, not shown, then sets the exit status. */
START_TEST(an_expected_failure_still_does_not_conform) {
  const struct triple failing = {P, ADC_MUST, ADC_FAIL}, passing = {P, ADC_MUST, ADC_PASS},
                      consumer = {C, ADC_MUST, ADC_PASS};
  const enum adc_expectation_outcome expected = ADC_EXPECTED_FAIL;
  struct adc_run_record record;
  struct adc_error error;
  for (int consumer_passed = 0; consumer_passed < 2; consumer_passed++) {
    ck_assert_int_eq(adc_run_record_begin(&record, 3, "producer.so", "consumer.so", &error), 0);
    struct adc_case_record c = case_of(0, &failing, &expected);
    adc_run_record_add(&record, &c);
    ck_assert(!record.cases[0].fails_run);
    c = case_of(1, &passing, NULL);
    adc_run_record_add(&record, &c);
    c = case_of(2, &consumer, NULL);
    if (consumer_passed) adc_run_record_add(&record, &c);
    adc_run_record_finish(&record);
    assert_side(&record, P, ADC_SIDE_DOES_NOT_CONFORM,
                "1 MUST case failed, crashed or timed out, the first: case0: fail: why 0");
    ck_assert_uint_eq(record.summary.unexpected_failing_must_cases, 0);
    assert_run(&record, "DOES NOT CONFORM", consumer_passed ? EXIT_SUCCESS : ADC_EXIT_NOT_SHOWN);
  }
}
END_TEST

START_TEST(an_interrupted_run_is_incomplete) {
  const struct triple cases[] = {{P, ADC_MUST, ADC_PASS}, {P, ADC_MUST, ADC_UNRESOLVED}};
  struct adc_run_record record;
  record_of(&record, true, false, cases, 2, SIGINT);
  assert_run(&record, "INCOMPLETE", 128 + SIGINT);
}
END_TEST

/* A report that says no side was tested (edited by hand) shows nothing. */
START_TEST(no_side_tested_shows_nothing) {
  const struct triple cases[] = {{P, ADC_MUST, ADC_PASS}};
  struct adc_run_record record;
  RECORD_OF(&record, false, false, cases);
  assert_side(&record, P, ADC_SIDE_NOT_TESTED, "not named on the command line");
  assert_run(&record, "NOT SHOWN TO CONFORM", ADC_EXIT_NOT_SHOWN);
}
END_TEST

/* ---- Runs. */

/* A folder of its own for a run's files, and a copy of the vanishing
 * producer in it (the library deletes the file it is loaded from). */
struct workspace {
  char dir[64];
  char library[128];
};

static void make_workspace(struct workspace* w) {
  snprintf(w->dir, sizeof(w->dir), "/tmp/adc_verdict_XXXXXX");
  ck_assert_ptr_nonnull(mkdtemp(w->dir));
  snprintf(w->library, sizeof(w->library), "%s/libvanishing.so", w->dir);
  char command[512];
  snprintf(command, sizeof(command), "cp %s %s", VANISHING_PRODUCER, w->library);
  ck_assert_int_eq(system(command), 0);
}

static void remove_workspace(const struct workspace* w) {
  char command[128];
  snprintf(command, sizeof(command), "rm -rf %s", w->dir);
  ck_assert_int_eq(system(command), 0);
}

static void assert_contains(const char* text, const char* part) {
  ck_assert_msg(strstr(text, part) != NULL, "'%s' not in:\n%.3000s", part, text);
}

static const cJSON* side_of(const cJSON* report, const char* role) {
  const cJSON* sides = cJSON_GetObjectItem(cJSON_GetObjectItem(report, "summary"), "sides");
  const cJSON* side = cJSON_GetObjectItem(sides, role);
  ck_assert_msg(side != NULL, "no summary.sides.%s", role);
  return side;
}

static const char* string_of(const cJSON* object, const char* key) {
  const cJSON* item = cJSON_GetObjectItem(object, key);
  ck_assert_msg(cJSON_IsString(item), "no string %s", key);
  return item->valuestring;
}

/* The reported run: a producer that loads in the preflight, in no case
 * process after, beside the bundled consumer.  Every report says it is not
 * shown to conform, and why; none says CONFORMS. */
START_TEST(producer_that_never_loads_in_a_case_is_not_shown) {
  struct workspace w;
  make_workspace(&w);
  char json[128], junit[128], github[128];
  snprintf(json, sizeof(json), "%s/report.json", w.dir);
  snprintf(junit, sizeof(junit), "%s/report.xml", w.dir);
  snprintf(github, sizeof(github), "%s/summary.md", w.dir);
  setenv("GITHUB_ACTIONS", "true", 1);
  setenv("GITHUB_STEP_SUMMARY", github, 1);
  const char* args[] = {
      "--fixtures", HAND_WRITTEN_FIXTURES, "--producer", w.library, "--consumer", "reference", "--device",
      "cpu",        "--report-json",       json,         "--junit", junit,        "--tap",     NULL};
  struct run_result run = run_conform(args);
  ck_assert_msg(run.exit_code == ADC_EXIT_NOT_SHOWN, "exit %d: %.3000s", run.exit_code, run.err);
  ck_assert_ptr_null(strstr(run.err, "\nCONFORMS"));
  assert_contains(run.err,
                  "\nNOT SHOWN TO CONFORM: no MUST rule failed, but a side tested is not shown to "
                  "conform (below). Coverage: ");
  assert_contains(run.err, " MUST cases unresolved, the first: cpu/");
  assert_contains(run.err, "\n  producer: not shown to conform: ");
  ck_assert_msg(strstr(run.err, "  consumer: ") == NULL, "the consumer conforms:\n%.3000s", run.err);
  assert_contains(run.err, "::warning title=adc-conform%3A producer not shown to conform::");
  assert_contains(run.out, "\n# adc-conform: NOT SHOWN TO CONFORM\n# producer: not shown to conform: ");
  assert_contains(run.out, "\n# consumer: conforms: ");

  assert_json_report_valid(json);
  cJSON* report = read_json_file(json);
  ck_assert_ptr_nonnull(report);
  const cJSON* summary = cJSON_GetObjectItem(report, "summary");
  ck_assert(cJSON_IsFalse(cJSON_GetObjectItem(summary, "conforms")));
  ck_assert_str_eq(string_of(summary, "verdict"), "NOT SHOWN TO CONFORM");
  const cJSON* producer = side_of(report, "producer");
  ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(producer, "tested")));
  ck_assert_str_eq(string_of(producer, "verdict"), "not_shown");
  const char* reason = string_of(producer, "reason");
  assert_contains(reason, " MUST cases unresolved, the first: cpu/");
  assert_contains(reason, ": cannot load ");
  ck_assert_str_eq(string_of(side_of(report, "consumer"), "verdict"), "conforms");
  /* Every producer case unresolved, the consumer's passing (but the rule
   * that reads what a consumer hands on, which the reference's consumer of
   * the JSON ABI does not): as reported. */
  const cJSON* item;
  cJSON_ArrayForEach(item, cJSON_GetObjectItem(report, "cases")) {
    bool producer_case = strcmp(string_of(item, "role"), "producer") == 0;
    bool hands_nothing_on = strcmp(string_of(item, "rule"), "consumer.accepted.values_kept") == 0;
    ck_assert_str_eq(string_of(item, "status"), producer_case      ? "unresolved"
                                                : hands_nothing_on ? "not_supported"
                                                                   : "pass");
  }

  char* junit_text = read_text_file(junit);
  assert_contains(junit_text, "<property name=\"verdict\" value=\"NOT SHOWN TO CONFORM\"/>");
  assert_contains(junit_text, "<property name=\"producer_verdict\" value=\"not_shown\"/>");
  assert_contains(junit_text, "<property name=\"consumer_verdict\" value=\"conforms\"/>");
  free(junit_text);
  char* github_text = read_text_file(github);
  assert_contains(github_text,
                  "## adc-conform: NOT SHOWN TO CONFORM\n\n- producer: **not shown to conform**: ");
  free(github_text);

  /* merge counts the report again: the same summary, the same exit status. */
  char merged_path[128];
  snprintf(merged_path, sizeof(merged_path), "%s/merged.json", w.dir);
  const char* merge[] = {"merge", json, "--report-json", merged_path, NULL};
  struct run_result merged_run = run_conform(merge);
  ck_assert_msg(merged_run.exit_code == ADC_EXIT_NOT_SHOWN, "merge exit %d: %.3000s", merged_run.exit_code,
                merged_run.err);
  assert_contains(merged_run.out, "\n  producer: not shown to conform: ");
  cJSON* merged = read_json_file(merged_path);
  ck_assert_ptr_nonnull(merged);
  ck_assert(cJSON_Compare(cJSON_GetObjectItem(merged, "summary"), summary, true));
  cJSON_Delete(merged);
  run_result_free(&merged_run);
  cJSON_Delete(report);
  run_result_free(&run);
  remove_workspace(&w);
}
END_TEST

#ifndef ADC_SANITIZED /* tests/CMakeLists.txt: a certification under a sanitizer takes minutes */
/* certify writes the bundle of that run, and verify refuses it for the
 * reason the run gave. */
START_TEST(verify_agrees_with_the_run) {
  struct workspace w;
  make_workspace(&w);
  char bundle[128];
  snprintf(bundle, sizeof(bundle), "%s/bundle", w.dir);
  const char* certify[] = {"certify", "--producer", w.library, "--out", bundle, NULL};
  struct run_result run = run_conform(certify);
  ck_assert_msg(run.exit_code == ADC_EXIT_NOT_SHOWN, "certify exit %d: %.3000s", run.exit_code, run.err);
  assert_contains(run.out, "Bundle written to");
  run_result_free(&run);
  const char* verify[] = {"verify", bundle, NULL};
  run = run_conform(verify);
  ck_assert_int_eq(run.exit_code, 1);
  assert_contains(run.out, "NOT VALID: report.json: the producer not shown to conform: ");
  assert_contains(run.out, " MUST cases unresolved, the first: cpu/");
  assert_contains(run.out, "CLAIM DOES NOT HOLD");
  ck_assert_ptr_null(strstr(run.out, "VALID CLAIM"));
  run_result_free(&run);
  remove_workspace(&w);
}
END_TEST
#endif

/* A GPU device's run: without the GPU every case is not_supported and the
 * run exits ADC_EXIT_NOT_SHOWN, neither a pass nor a failure; with it, the
 * reference pair conforms. */
START_TEST(gpu_only_run_without_the_gpu_is_not_shown) {
  const struct adc_device_driver* cuda = adc_device_find("cuda");
  ck_assert_ptr_nonnull(cuda);
  struct adc_error error;
  bool present = device_opens(cuda, &error) == 0;
  const char* args[] = {"--producer", "reference", "--consumer", "reference", "--device", "cuda", NULL};
  int exit_code;
  cJSON* report = run_conform_report(args, &exit_code);
  ck_assert_ptr_nonnull(report);
  const cJSON* summary = cJSON_GetObjectItem(report, "summary");
  if (present) {
    ck_assert_int_eq(exit_code, EXIT_SUCCESS);
    ck_assert_str_eq(string_of(summary, "verdict"), "CONFORMS");
  } else {
    ck_assert_int_eq(exit_code, ADC_EXIT_NOT_SHOWN);
    ck_assert_str_eq(string_of(summary, "verdict"), "NOT SHOWN TO CONFORM");
    for (int role = 0; role < ADC_ROLE_COUNT; role++) {
      const cJSON* side = side_of(report, adc_role_name((enum adc_role)role));
      ck_assert_str_eq(string_of(side, "verdict"), "not_shown");
      assert_contains(string_of(side, "reason"), " MUST cases are all not_supported");
    }
  }
  cJSON_Delete(report);
}
END_TEST

int main(void) {
  Suite* suite = suite_create("verdict");
  TCase* definition = tcase_create("definition");
  tcase_add_test(definition, passes_and_not_supported_conform);
  tcase_add_test(definition, a_side_all_unresolved_is_not_shown);
  tcase_add_test(definition, one_unresolved_case_holds_back_a_side);
  tcase_add_test(definition, all_not_supported_is_not_shown);
  tcase_add_test(definition, a_side_without_must_cases_is_not_shown);
  tcase_add_test(definition, should_shortfalls_leave_a_side_conforming);
  tcase_add_test(definition, a_failing_side_does_not_conform);
  tcase_add_test(definition, an_expected_failure_still_does_not_conform);
  tcase_add_test(definition, an_interrupted_run_is_incomplete);
  tcase_add_test(definition, no_side_tested_shows_nothing);
  suite_add_tcase(suite, definition);
  TCase* runs = tcase_create("runs");
  /* certify runs every device: a few seconds on two cores. */
  tcase_set_timeout(runs, 120);
  tcase_add_test(runs, producer_that_never_loads_in_a_case_is_not_shown);
#ifndef ADC_SANITIZED /* tests/CMakeLists.txt: a certification under a sanitizer takes minutes */
  tcase_add_test(runs, verify_agrees_with_the_run);
#endif
  tcase_add_test(runs, gpu_only_run_without_the_gpu_is_not_shown);
  suite_add_tcase(suite, runs);
  return run_suite(suite);
}
