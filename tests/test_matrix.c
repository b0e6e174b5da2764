/* adc-conform matrix: every library's exports into every library's
 * imports.  A broken side is blamed where its pairs with the reference
 * show it; the report names both sides of every case and a cell for every
 * pair on every device; an expectations file keys on the pair; the HTML
 * page is written; a side is judged on the devices given for it; bad
 * --library and --ROLE-devices options are one error line. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_support.h"

#define WRONG_VALUE "wrong=" BUILD_PATH("libbroken_producer_wrong_value.so") ":broken"
#define NEVER_RELEASES "never=" BUILD_PATH("libbroken_consumer_never_releases.so") ":broken"

/* The matrix of the reference, a producer exporting one value wrong and a
 * consumer that never releases what it imports, on cpu, one fixture. */
static cJSON* broken_matrix(int* exit_code, const char* expect) {
  const char* args[] = {
      "matrix", "--library",  WRONG_VALUE,           "--library", NEVER_RELEASES,  "--device",
      "cpu",    "--fixtures", HAND_WRITTEN_FIXTURES, "--filter",  "*/int32_nulls", expect ? "--expect" : NULL,
      expect,   NULL};
  cJSON* report = run_conform_report(args, exit_code);
  ck_assert_msg(report != NULL, "no matrix report");
  return report;
}

static const char* field(const cJSON* item, const char* name) {
  return cJSON_GetStringValue(cJSON_GetObjectItem(item, name));
}

/* A field of the run report's case a matrix case holds. */
static const char* case_field(const cJSON* item, const char* name) {
  return field(cJSON_GetObjectItem(item, "case"), name);
}

START_TEST(a_broken_side_is_blamed_by_its_pairs_with_the_reference) {
  int exit_code;
  cJSON* report = broken_matrix(&exit_code, NULL);
  ck_assert_int_eq(exit_code, 1);
  const char* batch = "cpu/pair.batch.imported_equal/int32_nulls";
  char id[256];
  struct {
    const char* pair;
    const char* status;
    const char* blame;
  } expected[] = {
      {"reference>reference", "pass", "none"}, {"wrong>reference", "fail", "producer"},
      {"reference>never", "fail", "consumer"}, {"wrong>never", "fail", "both"},
      {"never>reference", "pass", "none"},     {"wrong>wrong", "fail", "producer"},
  };
  for (size_t i = 0; i < sizeof(expected) / sizeof(expected[0]); i++) {
    snprintf(id, sizeof(id), "%s/%s", expected[i].pair, batch);
    const cJSON* c = report_case(report, id);
    ck_assert_msg(strcmp(case_field(c, "status"), expected[i].status) == 0, "%s: %s (%s)", id,
                  case_field(c, "status"), case_field(c, "message"));
    ck_assert_msg(strcmp(field(c, "blame"), expected[i].blame) == 0, "%s: blamed %s", id, field(c, "blame"));
  }
  /* What the consumer did wrong is said, and both sides are named. */
  snprintf(id, sizeof(id), "reference>never/%s", batch);
  const cJSON* never = report_case(report, id);
  ck_assert_ptr_nonnull(strstr(case_field(never, "message"), "without releasing"));
  /* The run report's case, its ID the pair's run's. */
  ck_assert_str_eq(case_field(never, "id"), batch);
  ck_assert_str_eq(field(never, "producer"), "reference");
  ck_assert_str_eq(field(never, "consumer"), "never");
  /* The pair that shows a blame is named. */
  snprintf(id, sizeof(id), "wrong>never/%s", batch);
  ck_assert_ptr_nonnull(strstr(field(report_case(report, id), "blame_shown_by"), ">reference/"));
  cJSON_Delete(report);
}
END_TEST

/* The twins of the rules judging a pair: each a deliberately broken
 * library of fixtures/deliberately_broken/rule_twins whose defect, in a
 * matrix with the reference, fails the pair rule of its interface in its
 * pair with the reference (its side blamed) and no other pair rule
 * (test_broken_implementations judges their own rules). */
static const struct pair_twin {
  const char* rule;
  const char* library;
  bool is_producer;
} pair_twins[] = {
    {"pair.batch.imported_equal", "producer_wrong_value", true},
    {"pair.batch.imported_equal", "consumer_never_releases", false},
    {"pair.device_stream.imported_equal", "producer_stream_wrong_value", true},
    {"pair.device_stream.imported_equal", "consumer_stream_keeps_first_array", false},
    {"pair.async.imported_equal", "producer_async_wrong_value", true},
    {"pair.async.imported_equal", "consumer_async_keeps_first_array", false},
    {"pair.async.imported_equal", "consumer_async_extracts_twice", false},
};

START_TEST(each_pair_rule_is_failed_by_its_twins_alone) {
  const struct pair_twin* twin = &pair_twins[_i];
  char library[512];
  snprintf(library, sizeof(library), "twin=" ADC_BUILD_DIR "/libbroken_%s.so:broken", twin->library);
  const char* args[] = {"matrix",     "--library",           library, "--device", "cpu",
                        "--fixtures", HAND_WRITTEN_FIXTURES, NULL};
  int exit_code;
  cJSON* report = run_conform_report(args, &exit_code);
  ck_assert_msg(report != NULL, "%s: no matrix report", twin->library);
  ck_assert_int_eq(exit_code, 1);
  const char* pair = twin->is_producer ? "twin>reference" : "reference>twin";
  size_t pair_length = strlen(pair);
  int failed = 0;
  const cJSON* item;
  cJSON_ArrayForEach(item, cJSON_GetObjectItem(report, "cases")) {
    const char* id = field(item, "id");
    const char* status = case_field(item, "status");
    bool found_wrong = strcmp(status, "pass") != 0 && strcmp(status, "not_supported") != 0;
    bool of_the_pair = strncmp(id, pair, pair_length) == 0 && id[pair_length] == '/';
    bool of_the_rule = strcmp(case_field(item, "rule"), twin->rule) == 0;
    if (of_the_pair && of_the_rule && found_wrong) {
      failed++;
      ck_assert_msg(strcmp(field(item, "blame"), twin->is_producer ? "producer" : "consumer") == 0,
                    "%s: %s blamed %s", twin->library, id, field(item, "blame"));
    } else if (!of_the_rule || strncmp(id, "reference>reference/", 20) == 0) {
      /* Another interface, or the reference alone: nothing wrong. */
      ck_assert_msg(!found_wrong, "%s: %s ended %s: %s", twin->library, id, status,
                    case_field(item, "message"));
    }
  }
  ck_assert_msg(failed > 0, "%s: no case of %s in %s found anything wrong", twin->library, twin->rule, pair);
  cJSON_Delete(report);
}
END_TEST

START_TEST(every_pair_has_a_cell_on_every_device) {
  int exit_code;
  cJSON* report = broken_matrix(&exit_code, NULL);
  const cJSON* matrix = cJSON_GetObjectItem(report, "matrix");
  /* Three libraries, each a producer and a consumer, one device. */
  ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(matrix, "libraries")), 3);
  const cJSON* cells = cJSON_GetObjectItem(matrix, "cells");
  ck_assert_int_eq(cJSON_GetArraySize(cells), 9);
  const cJSON* cell;
  cJSON_ArrayForEach(cell, cells) {
    if (strcmp(field(cell, "producer"), "wrong") == 0 && strcmp(field(cell, "consumer"), "reference") == 0) {
      ck_assert_str_eq(field(cell, "worst"), "fail");
      ck_assert_int_gt(cJSON_GetObjectItem(cell, "cases")->valueint, 0);
    }
  }
  cJSON_Delete(report);
}
END_TEST

START_TEST(expectations_key_on_the_pair) {
  char path[] = "/tmp/adc_matrix_expect_XXXXXX";
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  const char* entries =
      "wrong>*/cpu/pair.batch.*/int32_nulls  fail  the producer exports one value wrong\n"
      "*>never/cpu/pair.batch.*/int32_nulls  fail  the consumer never releases\n";
  ck_assert_int_eq(write(fd, entries, strlen(entries)), (ssize_t)strlen(entries));
  close(fd);
  int exit_code;
  cJSON* report = broken_matrix(&exit_code, path);
  unlink(path);
  ck_assert_int_eq(exit_code, 0);
  const cJSON* c = report_case(report, "wrong>never/cpu/pair.batch.imported_equal/int32_nulls");
  ck_assert_str_eq(field(cJSON_GetObjectItem(cJSON_GetObjectItem(c, "case"), "expectation"), "outcome"),
                   "expected_fail");
  cJSON_Delete(report);
}
END_TEST

/* Runs the matrix of the producer exporting a value wrong and the
 * reference on cpu, one fixture, with `option` writing into a new file
 * (its path in `path`, "/tmp/adc_matrix_XXXXXX"): it fails, as it must. */
static void write_matrix_file(const char* option, char* path) {
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  close(fd);
  const char* args[] = {
      "matrix",   "--library",     WRONG_VALUE, "--device", "cpu", "--fixtures", HAND_WRITTEN_FIXTURES,
      "--filter", "*/int32_nulls", option,      path,       NULL};
  struct run_result run = run_conform(args);
  ck_assert_int_eq(run.exit_code, 1);
  run_result_free(&run);
}

/* The report is the run report's cases, both sides named beside each:
 * matrix.schema.json, which reaches report.schema.json's case. */
START_TEST(the_report_validates_against_its_schema) {
  char path[] = "/tmp/adc_matrix_XXXXXX";
  write_matrix_file("--report-json", path);
  assert_json_valid_against(SOURCE_PATH("harness/report/matrix.schema.json"), path, JSON_SCHEMA);
  unlink(path);
}
END_TEST

START_TEST(the_page_is_written) {
  char page[] = "/tmp/adc_matrix_XXXXXX";
  write_matrix_file("--html", page);
  char* html = read_text_file(page);
  unlink(page);
  ck_assert_ptr_nonnull(html);
  ck_assert_ptr_nonnull(strstr(html, "data-producer=\"wrong\""));
  ck_assert_ptr_null(strstr(html, "<script"));
  free(html);
}
END_TEST

/* The matrix's shards merge into the matrix: the same cases in the same
 * order, with the same statuses and cells. */
START_TEST(shards_merge_into_the_matrix) {
  char whole[] = "/tmp/adc_matrix_XXXXXX";
  char merged[] = "/tmp/adc_matrix_XXXXXX";
  char shards[3][32];
  int fd = mkstemp(whole);
  ck_assert_int_ge(fd, 0);
  close(fd);
  fd = mkstemp(merged);
  ck_assert_int_ge(fd, 0);
  close(fd);
  const char* args[] = {
      "matrix",     "--library",           WRONG_VALUE,     "--library", NEVER_RELEASES, "--device", "cpu",
      "--fixtures", HAND_WRITTEN_FIXTURES, "--report-json", whole,       NULL,           NULL,       NULL};
  struct run_result run = run_conform(args);
  run_result_free(&run);
  for (int s = 0; s < 3; s++) {
    char shard[8];
    snprintf(shard, sizeof(shard), "%d/3", s + 1);
    snprintf(shards[s], sizeof(shards[s]), "/tmp/adc_matrix_shard_XXXXXX");
    fd = mkstemp(shards[s]);
    ck_assert_int_ge(fd, 0);
    close(fd);
    args[10] = shards[s];
    args[11] = "--shard";
    args[12] = shard;
    run = run_conform(args);
    run_result_free(&run);
  }
  const char* merge[] = {"merge", shards[0], shards[1], shards[2], "--report-json", merged, NULL};
  run = run_conform(merge);
  ck_assert_msg(run.exit_code == 1, "merge exited %d: %s", run.exit_code, run.err);
  run_result_free(&run);
  cJSON* expected = read_json_file(whole);
  cJSON* got = read_json_file(merged);
  ck_assert_ptr_nonnull(expected);
  ck_assert_ptr_nonnull(got);
  const cJSON* cases = cJSON_GetObjectItem(expected, "cases");
  ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(got, "cases")), cJSON_GetArraySize(cases));
  ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(got, "merged_from")), 3);
  for (int i = 0; i < cJSON_GetArraySize(cases); i++) {
    const cJSON* a = cJSON_GetArrayItem(cases, i);
    const cJSON* b = cJSON_GetArrayItem(cJSON_GetObjectItem(got, "cases"), i);
    ck_assert_str_eq(field(b, "id"), field(a, "id"));
    ck_assert_str_eq(case_field(b, "status"), case_field(a, "status"));
    ck_assert_str_eq(field(b, "blame"), field(a, "blame"));
  }
  ck_assert(cJSON_Compare(cJSON_GetObjectItem(cJSON_GetObjectItem(got, "matrix"), "cells"),
                          cJSON_GetObjectItem(cJSON_GetObjectItem(expected, "matrix"), "cells"), true));
  assert_json_valid_against(SOURCE_PATH("harness/report/matrix.schema.json"), merged, JSON_SCHEMA);
  cJSON_Delete(expected);
  cJSON_Delete(got);
  for (int s = 0; s < 3; s++) unlink(shards[s]);
  unlink(whole);
  unlink(merged);
}
END_TEST

/* --consumer-devices and --producer-devices: a pair's cases on a device
 * one of its sides is not judged on are not_supported without running,
 * saying which side; its cases elsewhere run as before. */
START_TEST(a_side_is_judged_on_its_devices_alone) {
  const char* args[] = {"matrix",
                        "--library",
                        NEVER_RELEASES,
                        "--library",
                        WRONG_VALUE,
                        "--consumer-devices",
                        "never=cpu",
                        "--producer-devices=wrong=cpu",
                        "--device",
                        "cpu,simulated",
                        "--fixtures",
                        HAND_WRITTEN_FIXTURES,
                        "--filter",
                        "*/pair.batch.*/int32_nulls",
                        NULL};
  int exit_code;
  cJSON* report = run_conform_report(args, &exit_code);
  ck_assert_msg(report != NULL, "no matrix report (exit %d)", exit_code);
  static const struct {
    const char* id;
    const char* status;
    const char* message; /* in the case's message; NULL: not looked at */
  } expected[] = {
      {"reference>never/simulated/pair.batch.imported_equal/int32_nulls", "not_supported",
       "not run: the consumer is judged on cpu alone here, not on simulated"},
      {"wrong>reference/simulated/pair.batch.imported_equal/int32_nulls", "not_supported",
       "not run: the producer is judged on cpu alone here, not on simulated"},
      {"reference>reference/simulated/pair.batch.imported_equal/int32_nulls", "pass", NULL},
      {"reference>never/cpu/pair.batch.imported_equal/int32_nulls", "fail", NULL},
      {"wrong>reference/cpu/pair.batch.imported_equal/int32_nulls", "fail", NULL},
  };
  for (size_t i = 0; i < sizeof(expected) / sizeof(expected[0]); i++) {
    const cJSON* c = report_case(report, expected[i].id);
    ck_assert_msg(c != NULL, "no case %s", expected[i].id);
    const char* message = case_field(c, "message");
    ck_assert_msg(strcmp(case_field(c, "status"), expected[i].status) == 0 &&
                      (expected[i].message == NULL || strstr(message, expected[i].message) != NULL),
                  "%s: %s: %s", expected[i].id, case_field(c, "status"), message);
  }
  cJSON_Delete(report);
}
END_TEST

START_TEST(bad_library_options_are_one_error_line) {
  const char* not_named[] = {"matrix", "--library", "reference", NULL};
  expect_one_error_line(not_named, "is not NAME=SPEC");
  const char* twice[] = {"matrix", "--library", "a=reference", "--library", "a=reference", NULL};
  expect_one_error_line(twice, "names 'a' twice");
  const char* missing[] = {"matrix", "--library", "gone=/nonexistent/libgone.so", NULL};
  expect_one_error_line(missing, "/nonexistent/libgone.so");
  const char* producer[] = {"matrix", "--producer", "reference", NULL};
  expect_one_error_line(producer, "--library NAME=SPEC, not --producer");
  const char* paged[] = {"matrix", "--library", "a=reference", "--junit", "x.xml", NULL};
  expect_one_error_line(paged, "report formats");
  const char* nobody[] = {"matrix", "--consumer-devices", "nobody=cpu", NULL};
  expect_one_error_line(nobody, "--consumer-devices 'nobody=cpu' names no library of --library");
  const char* elsewhere[] = {"matrix", "--producer-devices", "reference=simulated", "--device", "cpu", NULL};
  expect_one_error_line(elsewhere, "'simulated' is not a device of --device cpu");
  const char* no_list[] = {"matrix", "--producer-devices", "reference", NULL};
  expect_one_error_line(no_list, "is not NAME=DEVICE[,DEVICE...]");
}
END_TEST

int main(void) {
  Suite* suite = suite_create("matrix");
  TCase* tc = tcase_create("matrix");
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, a_broken_side_is_blamed_by_its_pairs_with_the_reference);
  tcase_add_loop_test(tc, each_pair_rule_is_failed_by_its_twins_alone, 0,
                      (int)(sizeof(pair_twins) / sizeof(pair_twins[0])));
  tcase_add_test(tc, every_pair_has_a_cell_on_every_device);
  tcase_add_test(tc, expectations_key_on_the_pair);
  tcase_add_test(tc, the_report_validates_against_its_schema);
  tcase_add_test(tc, the_page_is_written);
  tcase_add_test(tc, shards_merge_into_the_matrix);
  tcase_add_test(tc, a_side_is_judged_on_its_devices_alone);
  tcase_add_test(tc, bad_library_options_are_one_error_line);
  suite_add_tcase(suite, tc);
  return run_suite(suite);
}
