/* The reports of a run, each checked as its reader would: the JSON report
 * and the JUnit XML validate against their schemas (the validators run as
 * processes: jsonschema, xmllint), TAP 14 is the whole of standard output,
 * GitHub Actions gets annotations and a step summary, and the default
 * console names every rule that did not pass, on one screen for the
 * reference pair on every device.  Also the usability fixes of the command
 * line: --prefix leaves the bundled reference alone, and --list-rules=json. */
#include <check.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/report.h"
#include "rule_api/rule.h"
#include "test_support.h"

#define WRONG_VALUE_TWIN BUILD_PATH("libbroken_producer_wrong_value.so")
#define WARNING_TWIN BUILD_PATH("libbroken_producer_stream_end_not_repeated.so")
#define CRASHING_LIBRARY BUILD_PATH("libmisbehaving_raises_segv.so")
#define JUNIT_XSD SOURCE_PATH("harness/report/junit.xsd")

/* The output files of one run, in a folder of their own. */
struct outputs {
  char dir[64];
  char json[96];
  char junit[96];
  char summary[96]; /* $GITHUB_STEP_SUMMARY */
};

static void make_outputs(struct outputs* o) {
  snprintf(o->dir, sizeof(o->dir), "/tmp/adc_reports_XXXXXX");
  ck_assert_ptr_nonnull(mkdtemp(o->dir));
  snprintf(o->json, sizeof(o->json), "%s/report.json", o->dir);
  snprintf(o->junit, sizeof(o->junit), "%s/report.xml", o->dir);
  snprintf(o->summary, sizeof(o->summary), "%s/summary.md", o->dir);
}

static void remove_outputs(const struct outputs* o) {
  unlink(o->json);
  unlink(o->junit);
  unlink(o->summary);
  rmdir(o->dir);
}

static int count_occurrences(const char* text, const char* needle) {
  int count = 0;
  for (const char* p = strstr(text, needle); p != NULL; p = strstr(p + 1, needle)) count++;
  return count;
}

/* As GitHub's runner sets them for a step. */
static void act_as_github_step(const struct outputs* o) {
  setenv("GITHUB_ACTIONS", "true", 1);
  setenv("GITHUB_STEP_SUMMARY", o->summary, 1);
}

static void assert_junit_report_valid(const char* path) {
  ck_assert_msg(ADC_XMLLINT[0] != '\0', "no xmllint: install libxml2-utils (ci/install-deps.sh)");
  const char* argv[] = {ADC_XMLLINT, "--noout", "--schema", JUNIT_XSD, path, NULL};
  struct run_result run = run_command(argv);
  ck_assert_msg(run.exit_code == 0, "the JUnit report does not validate against %s:\n%s", JUNIT_XSD, run.err);
  run_result_free(&run);
}

static int summary_int(const cJSON* report, const char* key) {
  const cJSON* item = cJSON_GetObjectItem(cJSON_GetObjectItem(report, "summary"), key);
  ck_assert_msg(item != NULL, "no summary.%s", key);
  return item->valueint;
}

/* Whether the report says the device was there. */
static bool device_available(const cJSON* report, const char* name) {
  const cJSON* device;
  cJSON_ArrayForEach(device, cJSON_GetObjectItem(cJSON_GetObjectItem(report, "environment"), "devices")) {
    if (strcmp(cJSON_GetObjectItem(device, "name")->valuestring, name) == 0) {
      return cJSON_IsTrue(cJSON_GetObjectItem(device, "available"));
    }
  }
  ck_abort_msg("device %s is not in the report's environment", name);
  return false;
}

/* The done-when of the console: the reference pair on every device fits a
 * screen, and still names every rule that did not pass on a device that is
 * there.  The same run writes every report, each checked.  In shared
 * processes: a sanitizer build of the harness runs each case alone by
 * default, which made this run 30 s of the ASan build's tests, and
 * reference_pair runs the pair so there. */
START_TEST(reference_pair_reports) {
  struct outputs o;
  make_outputs(&o);
  act_as_github_step(&o);
  const char* args[] = {"--producer", "reference",           "--consumer",  "reference", "--device",
                        "all",        "--report-json",       o.json,        "--junit",   o.junit,
                        "--fixtures", HAND_WRITTEN_FIXTURES, "--isolation", "shared",    NULL};
  struct run_result run = run_conform(args);
  ck_assert_msg(run.exit_code == 0, "exit %d: %s%s", run.exit_code, run.out, run.err);
  ck_assert_msg(count_lines(run.out) < 40, "%d console lines:\n%s", count_lines(run.out), run.out);
  ck_assert_ptr_nonnull(strstr(run.out, "CONFORMS: no MUST rule failed."));
  ck_assert_msg(strstr(run.out, "::error") == NULL, "an annotation for a conforming run: %s", run.out);

  assert_json_report_valid(o.json);
  assert_junit_report_valid(o.junit);
  cJSON* report = read_json_file(o.json);
  ck_assert_ptr_nonnull(report);
  ck_assert_int_eq(cJSON_GetObjectItem(report, "schema_version")->valueint, ADC_REPORT_SCHEMA_VERSION);
  const cJSON* command_line = cJSON_GetObjectItem(report, "command_line");
  ck_assert_int_eq(cJSON_GetArraySize(command_line), 1 + (int)(sizeof(args) / sizeof(args[0])) - 1);
  ck_assert_str_eq(cJSON_GetArrayItem(command_line, 6)->valuestring, "all");
  ck_assert(device_available(report, "cpu"));
  ck_assert(device_available(report, "simulated"));
  const cJSON* item;
  cJSON_ArrayForEach(item, cJSON_GetObjectItem(report, "cases")) {
    const char* status = cJSON_GetObjectItem(item, "status")->valuestring;
    const char* device = cJSON_GetObjectItem(item, "device")->valuestring;
    if (strcmp(status, "pass") == 0 || !device_available(report, device)) continue;
    const char* rule = cJSON_GetObjectItem(item, "rule")->valuestring;
    ck_assert_msg(strstr(run.out, rule) != NULL, "%s ended %s on %s, and the console does not name it:\n%s",
                  rule, status, device, run.out);
  }
  char* summary = read_text_file(o.summary);
  ck_assert_msg(strstr(summary, "## adc-conform: CONFORMS\n") != NULL, "%s", summary);
  ck_assert_msg(strstr(summary, "| pass | ") != NULL, "%s", summary);
  free(summary);
  cJSON_Delete(report);
  run_result_free(&run);
  remove_outputs(&o);
}
END_TEST

/* A twin that fails one rule: TAP alone on standard output, the console
 * and the annotations on standard error, and every report agreeing with
 * the JSON one. */
START_TEST(broken_twin_reports) {
  struct outputs o;
  make_outputs(&o);
  act_as_github_step(&o);
  const char* args[] = {"--fixtures",    HAND_WRITTEN_FIXTURES,
                        "--producer",    WRONG_VALUE_TWIN,
                        "--filter",      "cpu/array.data.*",
                        "--filter",      "cpu/array.move.*",
                        "--report-json", o.json,
                        "--junit",       o.junit,
                        "--tap",         NULL};
  struct run_result run = run_conform(args);
  ck_assert_msg(run.exit_code == 1, "exit %d: %s", run.exit_code, run.err);
  assert_json_report_valid(o.json);
  assert_junit_report_valid(o.junit);
  cJSON* report = read_json_file(o.json);
  ck_assert_ptr_nonnull(report);
  int cases = summary_int(report, "cases");
  ck_assert_int_gt(summary_int(report, "fail"), 0);

  /* TAP 14: the version, the plan, then points numbered in order, YAML
   * blocks indented under them, and after the last point the verdict as
   * comments; nothing else. */
  char expected_head[64];
  snprintf(expected_head, sizeof(expected_head), "TAP version 14\n1..%d\n", cases);
  ck_assert_msg(strncmp(run.out, expected_head, strlen(expected_head)) == 0, "%s", run.out);
  int points = 0;
  int not_ok = 0;
  int skipped = 0;
  char* text = strdup(run.out + strlen(expected_head));
  int comments = 0;
  for (char* line = strtok(text, "\n"); line != NULL; line = strtok(NULL, "\n")) {
    if (strncmp(line, "  ", 2) == 0) continue; /* YAML diagnostics */
    if (strncmp(line, "# ", 2) == 0) {
      comments++;
      continue;
    }
    ck_assert_msg(comments == 0, "a test point after the closing comments: %s", line);
    char prefix[32];
    bool failed = strncmp(line, "not ok ", 7) == 0;
    snprintf(prefix, sizeof(prefix), "%s%d - cpu/", failed ? "not ok " : "ok ", points + 1);
    ck_assert_msg(strncmp(line, prefix, strlen(prefix)) == 0, "not a test point '%s...': %s", prefix, line);
    points++;
    not_ok += failed;
    skipped += strstr(line, " # SKIP ") != NULL;
  }
  free(text);
  ck_assert_int_eq(points, cases);
  ck_assert_int_eq(not_ok, summary_int(report, "failing_run_cases"));
  ck_assert_int_eq(skipped, summary_int(report, "not_supported") + summary_int(report, "unresolved"));
  ck_assert_ptr_nonnull(strstr(run.out, "  ---\n  status: \"fail\"\n  message: \"batch 0: "));
  ck_assert_msg(strstr(run.out, "\n# adc-conform: DOES NOT CONFORM\n# producer: does not conform: ") != NULL,
                "%s", run.out);
  ck_assert_int_eq(comments, 2); /* the headline, the one side tested */

  /* The console and the annotation of the failing rule, on standard error. */
  ck_assert_msg(strstr(run.err, "DOES NOT CONFORM") != NULL, "%s", run.err);
  ck_assert_msg(strstr(run.err, "::error title=adc-conform%3A array.data.matches_fixture (MUST)::") != NULL,
                "%s", run.err);
  char* summary = read_text_file(o.summary);
  ck_assert_msg(strstr(summary, "## adc-conform: DOES NOT CONFORM\n") != NULL, "%s", summary);
  ck_assert_msg(strstr(summary, "| `array.data.matches_fixture` | MUST | fail | ") != NULL, "%s", summary);
  free(summary);

  /* JUnit: fail is <failure>, not_supported and unresolved are <skipped>,
   * each case with its rule and clause as properties. */
  char* junit = read_text_file(o.junit);
  ck_assert_int_eq(count_occurrences(junit, "<testcase "), cases);
  ck_assert_int_eq(count_occurrences(junit, "<failure "), summary_int(report, "fail"));
  ck_assert_int_eq(count_occurrences(junit, "<skipped "),
                   summary_int(report, "not_supported") + summary_int(report, "unresolved"));
  ck_assert_int_eq(count_occurrences(junit, "<property name=\"rule\" value=\"array.data.matches_fixture\"/>"),
                   7);
  ck_assert_int_eq(count_occurrences(junit, "<property name=\"clause\" "), cases);
  free(junit);
  cJSON_Delete(report);
  run_result_free(&run);
  remove_outputs(&o);
}
END_TEST

/* crash (and timeout) are JUnit errors; a warning is a pass with a note. */
START_TEST(crash_is_an_error_and_warning_a_note) {
  struct outputs o;
  make_outputs(&o);
  const char* crashing[] = {"--fixtures", HAND_WRITTEN_FIXTURES,
                            "--producer", CRASHING_LIBRARY,
                            "--filter",   "cpu/array.release.sets_null/int32_nulls",
                            "--junit",    o.junit,
                            NULL};
  struct run_result run = run_conform(crashing);
  ck_assert_int_eq(run.exit_code, 1);
  run_result_free(&run);
  assert_junit_report_valid(o.junit);
  char* junit = read_text_file(o.junit);
  ck_assert_msg(strstr(junit, "<error message=\"the case was killed by signal 11") != NULL, "%s", junit);
  ck_assert_msg(strstr(junit, "type=\"crash\">") != NULL, "%s", junit);
  free(junit);

  const char* warning[] = {"--fixtures", HAND_WRITTEN_FIXTURES,
                           "--producer", WARNING_TWIN,
                           "--filter",   "cpu/device_stream.end.repeats/int32_nulls",
                           "--junit",    o.junit,
                           "--tap",      NULL};
  run = run_conform(warning);
  /* A SHOULD shortfall fails nothing; but a SHOULD case alone shows nothing
   * of the producer's MUST rules either. */
  ck_assert_int_eq(run.exit_code, ADC_EXIT_NOT_SHOWN);
  ck_assert_msg(
      strstr(run.out, "\nok 1 - cpu/device_stream.end.repeats/int32_nulls\n  ---\n  status: \"warning\"\n") !=
          NULL,
      "%s", run.out);
  run_result_free(&run);
  assert_junit_report_valid(o.junit);
  junit = read_text_file(o.junit);
  ck_assert_msg(strstr(junit, "<system-out>warning: a SHOULD was not met: ") != NULL, "%s", junit);
  ck_assert_ptr_null(strstr(junit, "<failure"));
  free(junit);
  remove_outputs(&o);
}
END_TEST

/* By default one line per rule; --verbose one line per case. */
START_TEST(verbose_lists_every_case) {
  const char* args[] = {"--fixtures", HAND_WRITTEN_FIXTURES,
                        "--producer", WRONG_VALUE_TWIN,
                        "--filter",   "cpu/array.data.matches_fixture/*",
                        NULL};
  struct run_result run = run_conform(args);
  ck_assert_int_eq(run.exit_code, 1);
  ck_assert_msg(strncmp(run.out, "FAIL    array.data.matches_fixture MUST   2 pass, 5 fail; cpu/", 62) == 0,
                "%s", run.out);
  ck_assert_int_eq(count_occurrences(run.out, "array.data.matches_fixture"), 1);
  /* Standard output is a file here, not a terminal: no colour. */
  ck_assert_ptr_null(strchr(run.out, '\033'));
  run_result_free(&run);

  const char* verbose[] = {"--fixtures", HAND_WRITTEN_FIXTURES,
                           "--producer", WRONG_VALUE_TWIN,
                           "--filter",   "cpu/array.data.matches_fixture/*",
                           "--verbose",  NULL};
  run = run_conform(verbose);
  ck_assert_int_eq(run.exit_code, 1);
  int case_lines = count_occurrences(run.out, "\n  PASS ") + count_occurrences(run.out, "\n  FAIL ");
  ck_assert_msg(case_lines == 7, "%d case lines:\n%s", case_lines, run.out);
  run_result_free(&run);
}
END_TEST

/* --prefix names the library under test's prefix, never the reference's. */
START_TEST(prefix_leaves_the_reference_alone) {
  const char* args[] = {"--fixtures", HAND_WRITTEN_FIXTURES,
                        "--producer", WRONG_VALUE_TWIN,
                        "--consumer", "reference",
                        "--prefix",   "broken",
                        "--list",     NULL};
  struct run_result run = run_conform(args);
  ck_assert_msg(run.exit_code == 0, "exit %d: %s", run.exit_code, run.err);
  ck_assert_str_eq(run.err, "");
  ck_assert_ptr_nonnull(strstr(run.out, "cpu/consumer."));
  ck_assert_ptr_nonnull(strstr(run.out, "cpu/array.data.matches_fixture/"));
  run_result_free(&run);

  const char* wrong[] = {"--fixtures",     HAND_WRITTEN_FIXTURES, "--producer",
                         WRONG_VALUE_TWIN, "--consumer",          "reference",
                         "--prefix",       "nanoarrow",           NULL};
  run = run_conform(wrong);
  ck_assert_int_eq(run.exit_code, 2);
  ck_assert_int_eq(count_lines(run.err), 1);
  ck_assert_msg(strstr(run.err, "producer library") != NULL && strstr(run.err, "prefix 'nanoarrow'") != NULL,
                "%s", run.err);
  run_result_free(&run);
}
END_TEST

/* --list-rules=json: every rule, in catalogue order, every field. */
START_TEST(rule_catalogue_as_json) {
  const char* args[] = {"--list-rules=json", NULL};
  struct run_result run = run_conform(args);
  ck_assert_int_eq(run.exit_code, 0);
  cJSON* rules = cJSON_Parse(run.out);
  ck_assert_msg(cJSON_IsArray(rules), "not a JSON array: %.200s", run.out);
  ck_assert_int_eq(cJSON_GetArraySize(rules), (int)adc_rule_count());
  for (size_t r = 0; r < adc_rule_count(); r++) {
    const struct adc_rule* rule = adc_rule_at(r);
    const cJSON* item = cJSON_GetArrayItem(rules, (int)r);
    ck_assert_str_eq(cJSON_GetObjectItem(item, "id")->valuestring, rule->id);
    ck_assert_str_eq(cJSON_GetObjectItem(item, "severity")->valuestring, adc_severity_name(rule->severity));
    ck_assert_str_eq(cJSON_GetObjectItem(item, "role")->valuestring, adc_role_name(rule->role));
    ck_assert_str_eq(cJSON_GetObjectItem(item, "sentence")->valuestring, rule->sentence);
    ck_assert_str_eq(cJSON_GetObjectItem(item, "clause")->valuestring, rule->clause);
    ck_assert(cJSON_IsArray(cJSON_GetObjectItem(item, "needs")));
  }
  cJSON_Delete(rules);
  run_result_free(&run);
}
END_TEST

/* The schema spells the statuses, outcomes and verdicts as the code does. */
START_TEST(schema_names_what_the_code_names) {
  cJSON* schema = read_json_file(JSON_SCHEMA);
  ck_assert_ptr_nonnull(schema);
  const cJSON* defs = cJSON_GetObjectItem(schema, "$defs");
  const cJSON* statuses = cJSON_GetObjectItem(cJSON_GetObjectItem(defs, "status"), "enum");
  ck_assert_int_eq(cJSON_GetArraySize(statuses), ADC_STATUS_COUNT);
  for (int s = 0; s < ADC_STATUS_COUNT; s++) {
    ck_assert_str_eq(cJSON_GetArrayItem(statuses, s)->valuestring, adc_status_name((enum adc_status)s));
  }
  const cJSON* outcomes = cJSON_GetObjectItem(cJSON_GetObjectItem(defs, "outcome"), "enum");
  ck_assert_int_eq(cJSON_GetArraySize(outcomes), ADC_OUTCOME_COUNT);
  for (int o = 0; o < ADC_OUTCOME_COUNT; o++) {
    ck_assert_str_eq(cJSON_GetArrayItem(outcomes, o)->valuestring,
                     adc_expectation_outcome_name((enum adc_expectation_outcome)o));
  }
  const cJSON* side_verdicts = cJSON_GetObjectItem(
      cJSON_GetObjectItem(cJSON_GetObjectItem(defs, "side_verdict"), "properties"), "verdict");
  const cJSON* side_verdict_names = cJSON_GetObjectItem(side_verdicts, "enum");
  ck_assert_int_eq(cJSON_GetArraySize(side_verdict_names), ADC_SIDE_DOES_NOT_CONFORM + 1);
  for (int v = 0; v <= ADC_SIDE_DOES_NOT_CONFORM; v++) {
    ck_assert_str_eq(cJSON_GetArrayItem(side_verdict_names, v)->valuestring,
                     adc_side_verdict_name((enum adc_side_verdict)v));
  }
  /* The headlines, as the verdict of records that reach each. */
  const cJSON* summary_properties = cJSON_GetObjectItem(cJSON_GetObjectItem(defs, "summary"), "properties");
  const cJSON* headlines = cJSON_GetObjectItem(cJSON_GetObjectItem(summary_properties, "verdict"), "enum");
  const struct adc_case_record passing = {.id = "c",
                                          .rule = "r",
                                          .clause = "",
                                          .sentence = "",
                                          .method = "",
                                          .role = ADC_ROLE_PRODUCER,
                                          .severity = ADC_MUST,
                                          .device = "cpu",
                                          .fixture = "f",
                                          .status = ADC_PASS,
                                          .message = "",
                                          .left_behind = "",
                                          .shared_message = ""};
  struct adc_case_record failing = passing;
  failing.status = ADC_FAIL;
  const struct adc_case_record* cases[][2] = {
      {&passing, NULL}, {NULL, NULL}, {&passing, &failing}, {&passing, NULL}};
  for (int verdict = ADC_RUN_CONFORMS; verdict <= ADC_RUN_INCOMPLETE; verdict++) {
    struct adc_run_record record;
    struct adc_error error;
    ck_assert_int_eq(adc_run_record_begin(&record, 2, "producer.so", NULL, &error), 0);
    for (int i = 0; i < 2 && cases[verdict][i] != NULL; i++) adc_run_record_add(&record, cases[verdict][i]);
    record.interrupted_by = verdict == ADC_RUN_INCOMPLETE ? SIGINT : 0;
    adc_run_record_finish(&record);
    ck_assert_int_eq(record.verdict, verdict);
    ck_assert_str_eq(cJSON_GetArrayItem(headlines, verdict)->valuestring, record.headline);
    adc_run_record_free(&record);
  }
  ck_assert_int_eq(cJSON_GetArraySize(headlines), ADC_RUN_INCOMPLETE + 1);
  ck_assert_int_eq(
      cJSON_GetObjectItem(cJSON_GetObjectItem(schema, "properties"), "schema_version")->child->valueint,
      ADC_REPORT_SCHEMA_VERSION);
  cJSON_Delete(schema);
}
END_TEST

int main(void) {
  Suite* suite = suite_create("reports");
  TCase* runs = tcase_create("runs");
  /* The reference pair on every device takes about 30 s on two cores. */
  tcase_set_timeout(runs, 240);
  tcase_add_test(runs, reference_pair_reports);
  tcase_add_test(runs, broken_twin_reports);
  tcase_add_test(runs, crash_is_an_error_and_warning_a_note);
  tcase_add_test(runs, verbose_lists_every_case);
  tcase_add_test(runs, prefix_leaves_the_reference_alone);
  suite_add_tcase(suite, runs);
  TCase* catalogue = tcase_create("catalogue");
  tcase_add_test(catalogue, rule_catalogue_as_json);
  tcase_add_test(catalogue, schema_names_what_the_code_names);
  suite_add_tcase(suite, catalogue);
  return run_suite(suite);
}
