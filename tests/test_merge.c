/* adc-conform merge: the reports of a run's shards merge into exactly what
 * the run unsharded reports (same cases in the same order with the same
 * statuses, the same summary, valid against the schema), with the run's
 * exit status; and every report that is not a shard of the same run, or a
 * set of shards with one missing, given twice or overlapping, is refused
 * with one error line naming the file, and exit status 2. */
#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands/shard_command_line.h"
#include "test_support.h"

#define WRONG_VALUE_TWIN BUILD_PATH("libbroken_producer_wrong_value.so")

/* A folder of its own for a test's reports; `path` names a file in it. */
struct folder {
  char dir[64];
  char path[8][128];
};

static void make_folder(struct folder* f) {
  snprintf(f->dir, sizeof(f->dir), "/tmp/adc_merge_XXXXXX");
  ck_assert_ptr_nonnull(mkdtemp(f->dir));
}

static const char* in_folder(struct folder* f, int slot, const char* name) {
  snprintf(f->path[slot], sizeof(f->path[slot]), "%s/%s", f->dir, name);
  return f->path[slot];
}

static void remove_folder(struct folder* f) {
  char command[128];
  snprintf(command, sizeof(command), "rm -rf '%s'", f->dir);
  ck_assert_int_eq(system(command), 0);
}

/* Runs the reference producer on `filter` (shard "I/N", or unsharded when
 * NULL), its report written to `report`; returns the exit status.  The
 * consumer is not named: FILTER selects producer rules alone, and a side
 * tested without a MUST case is not shown to conform.  Shared processes
 * asked for: a sanitizer build of the harness runs each case alone by
 * default, which the merge does not depend on (under ASan, the test took
 * 32 s so, 10 s in shared processes). */
static int run_shard(const char* filter, const char* shard, const char* report) {
  const char* args[] = {"--producer",
                        "reference",
                        "--device",
                        "all",
                        "--filter",
                        filter,
                        "--report-json",
                        report,
                        "--jobs",
                        "2",
                        "--isolation",
                        "shared",
                        shard ? "--shard" : NULL,
                        shard,
                        NULL};
  struct run_result run = run_conform(args);
  int exit_code = run.exit_code;
  run_result_free(&run);
  return exit_code;
}

/* Runs `adc-conform merge` on `reports` (NULL-terminated) with
 * --report-json `out` where it is not NULL. */
static struct run_result run_merge(const char* const* reports, const char* out) {
  const char* args[16] = {"merge"};
  int n = 1;
  for (int i = 0; reports[i] != NULL && n < 13; i++) args[n++] = reports[i];
  if (out != NULL) {
    args[n++] = "--report-json";
    args[n++] = out;
  }
  args[n] = NULL;
  return run_conform(args);
}

/* The merge of `reports` is refused: exit 2, one error line that names
 * `file` and says `problem`. */
static void assert_refused(const char* const* reports, const char* file, const char* problem) {
  struct run_result run = run_merge(reports, NULL);
  ck_assert_msg(run.exit_code == 2, "exit %d, not 2: %s", run.exit_code, run.err);
  ck_assert_int_eq(count_lines(run.err), 1);
  ck_assert_msg(strncmp(run.err, "adc-conform: error: ", 20) == 0, "%s", run.err);
  ck_assert_msg(strstr(run.err, file) != NULL, "the error does not name %s: %s", file, run.err);
  ck_assert_msg(strstr(run.err, problem) != NULL, "the error does not say '%s': %s", problem, run.err);
  run_result_free(&run);
}

static void write_json(const char* path, const cJSON* root) {
  char* text = cJSON_Print(root);
  FILE* f = fopen(path, "w");
  ck_assert_ptr_nonnull(f);
  fputs(text, f);
  fclose(f);
  free(text);
}

static void write_text(const char* path, const char* text) {
  FILE* f = fopen(path, "w");
  ck_assert_ptr_nonnull(f);
  fputs(text, f);
  fclose(f);
}

/* The reference pair on every device, in three shards: the rules of
 * schema.release, each with cases on several devices, so that the shards'
 * cases interleave in the unsharded order. */
#define FILTER "*/schema.release.*"

START_TEST(merged_shards_are_the_unsharded_run) {
  struct folder f;
  make_folder(&f);
  const char* whole = in_folder(&f, 0, "whole.json");
  ck_assert_int_eq(run_shard(FILTER, NULL, whole), 0);
  const char* shards[] = {in_folder(&f, 3, "3.json"), in_folder(&f, 1, "1.json"), in_folder(&f, 2, "2.json"),
                          NULL};
  ck_assert_int_eq(run_shard(FILTER, "1/3", shards[1]), 0);
  ck_assert_int_eq(run_shard(FILTER, "2/3", shards[2]), 0);
  ck_assert_int_eq(run_shard(FILTER, "3/3", shards[0]), 0);
  const char* merged_path = in_folder(&f, 4, "merged.json");
  struct run_result run = run_merge(shards, merged_path); /* given out of order on purpose */
  ck_assert_msg(run.exit_code == 0, "exit %d: %s%s", run.exit_code, run.out, run.err);
  ck_assert_msg(strstr(run.out, "Merged 3 shards' reports") != NULL, "%s", run.out);
  ck_assert_msg(strstr(run.out, "CONFORMS") != NULL, "%s", run.out);
  run_result_free(&run);
  assert_json_report_valid(merged_path);

  cJSON* expected = read_json_file(whole);
  cJSON* merged = read_json_file(merged_path);
  ck_assert_ptr_nonnull(expected);
  ck_assert_ptr_nonnull(merged);
  const cJSON* expected_cases = cJSON_GetObjectItem(expected, "cases");
  const cJSON* merged_cases = cJSON_GetObjectItem(merged, "cases");
  ck_assert_int_gt(cJSON_GetArraySize(expected_cases), 6);
  ck_assert_int_eq(cJSON_GetArraySize(merged_cases), cJSON_GetArraySize(expected_cases));
  for (int i = 0; i < cJSON_GetArraySize(expected_cases); i++) {
    const cJSON* want = cJSON_GetArrayItem(expected_cases, i);
    const cJSON* got = cJSON_GetArrayItem(merged_cases, i);
    ck_assert_str_eq(cJSON_GetObjectItem(got, "id")->valuestring,
                     cJSON_GetObjectItem(want, "id")->valuestring);
    ck_assert_str_eq(cJSON_GetObjectItem(got, "status")->valuestring,
                     cJSON_GetObjectItem(want, "status")->valuestring);
  }
  ck_assert_msg(
      cJSON_Compare(cJSON_GetObjectItem(merged, "summary"), cJSON_GetObjectItem(expected, "summary"), true),
      "the merged summary differs from the unsharded run's");
  /* What was merged: the shards by index, the command line without --shard. */
  const cJSON* merged_from = cJSON_GetObjectItem(merged, "merged_from");
  ck_assert_int_eq(cJSON_GetArraySize(merged_from), 3);
  for (int s = 0; s < 3; s++) {
    const cJSON* item = cJSON_GetArrayItem(merged_from, s);
    ck_assert_int_eq(cJSON_GetObjectItem(item, "shard_index")->valueint, s + 1);
    ck_assert_str_eq(cJSON_GetObjectItem(item, "path")->valuestring, f.path[s + 1]);
  }
  const cJSON* argument = NULL;
  cJSON_ArrayForEach(argument, cJSON_GetObjectItem(merged, "command_line")) {
    ck_assert_str_ne(argument->valuestring, "--shard");
  }
  cJSON_Delete(expected);
  cJSON_Delete(merged);
  remove_folder(&f);
}
END_TEST

/* A shard with a failing MUST case makes the merge exit 1, as the run. */
START_TEST(a_failing_shard_fails_the_merge) {
  struct folder f;
  make_folder(&f);
  const char* shards[] = {in_folder(&f, 1, "1.json"), in_folder(&f, 2, "2.json"), NULL};
  int failed = 0;
  for (int s = 0; s < 2; s++) {
    const char* args[] = {"--producer",           WRONG_VALUE_TWIN, "--filter", "cpu/array.*", "--shard",
                          s == 0 ? "1/2" : "2/2", "--report-json",  shards[s],  NULL};
    struct run_result run = run_conform(args);
    failed += run.exit_code == 1;
    run_result_free(&run);
  }
  ck_assert_int_ge(failed, 1);
  struct run_result run = run_merge(shards, in_folder(&f, 3, "merged.json"));
  ck_assert_msg(run.exit_code == 1, "exit %d: %s%s", run.exit_code, run.out, run.err);
  ck_assert_msg(strstr(run.out, "DOES NOT CONFORM") != NULL, "%s", run.out);
  run_result_free(&run);
  assert_json_report_valid(f.path[3]);
  cJSON* merged = read_json_file(f.path[3]);
  ck_assert_int_gt(cJSON_GetObjectItem(cJSON_GetObjectItem(merged, "summary"), "failing_run_cases")->valueint,
                   0);
  cJSON_Delete(merged);
  remove_folder(&f);
}
END_TEST

/* `text` without what differs from one run to the next: the values of
 * JUnit's time and timestamp attributes and TAP's duration_ms (a new
 * string; free it). */
static char* masked(const char* text) {
  static const char* const keys[] = {" time=\"", " timestamp=\"", "duration_ms: "};
  char* out = malloc(strlen(text) + 1);
  ck_assert_ptr_nonnull(out);
  size_t used = 0;
  for (const char* p = text; *p != '\0';) {
    size_t key_length = 0;
    for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]) && key_length == 0; k++) {
      if (strncmp(p, keys[k], strlen(keys[k])) == 0) key_length = strlen(keys[k]);
    }
    if (key_length == 0) {
      out[used++] = *p++;
      continue;
    }
    memcpy(out + used, p, key_length);
    used += key_length;
    for (p += key_length; *p != '\0' && *p != '"' && *p != '\n';) p++;
  }
  out[used] = '\0';
  return out;
}

/* Files `a` and `b` hold the same text but for masked(). */
static void assert_same_but_times(const char* a, const char* b) {
  char* x = read_text_file(a);
  char* y = read_text_file(b);
  ck_assert_ptr_nonnull(x);
  ck_assert_ptr_nonnull(y);
  char* mx = masked(x);
  char* my = masked(y);
  ck_assert_msg(strcmp(mx, my) == 0, "%s and %s differ:\n%.2000s\n----\n%.2000s", a, b, mx, my);
  free(mx);
  free(my);
  free(x);
  free(y);
}

/* Merge writes the JUnit and TAP reports the unsharded run writes, through
 * the run's own writers: here of a twin judged against --expect, so that
 * expected failures (TAP's TODO, JUnit's expectation property), an
 * unexpected pass and the verdicts all come from the merged record. */
START_TEST(merge_writes_the_runs_junit_and_tap) {
  struct folder f;
  make_folder(&f);
  const char* expect = in_folder(&f, 0, "expect.txt");
  write_text(expect,
             "cpu/array.data.matches_fixture/[!i]* fail altered on purpose\n"
             "cpu/array.data.matches_fixture/int32_empty fail passes: an unexpected pass\n");
  const char* whole_junit = in_folder(&f, 1, "whole.xml");
  const char* shards[] = {in_folder(&f, 2, "1.json"), in_folder(&f, 3, "2.json"), NULL};
  char* whole_tap = NULL;
  for (int s = -1; s < 2; s++) {
    const char* args[] = {"--fixtures",
                          SOURCE_PATH("fixtures/data"),
                          "--producer",
                          WRONG_VALUE_TWIN,
                          "--filter",
                          "cpu/array.data.*",
                          "--expect",
                          expect,
                          "--jobs",
                          "2",
                          s < 0 ? "--junit" : "--report-json",
                          s < 0 ? whole_junit : shards[s],
                          s < 0 ? "--tap" : "--shard",
                          s < 0    ? NULL
                          : s == 0 ? "1/2"
                                   : "2/2",
                          NULL};
    struct run_result run = run_conform(args);
    ck_assert_msg(run.exit_code == 1, "exit %d: %s", run.exit_code, run.err);
    if (s < 0) whole_tap = strdup(run.out);
    run_result_free(&run);
  }
  const char* merged_junit = in_folder(&f, 4, "merged.xml");
  const char* args[] = {"merge", shards[1], shards[0], "--junit", merged_junit, "--tap", NULL};
  struct run_result run = run_conform(args);
  ck_assert_msg(run.exit_code == 1, "exit %d: %s", run.exit_code, run.err);
  ck_assert_msg(strstr(run.err, "Merged 2 shards' reports") != NULL, "%s", run.err);
  const char* whole_tap_path = in_folder(&f, 5, "whole.tap");
  const char* merged_tap_path = in_folder(&f, 6, "merged.tap");
  write_text(whole_tap_path, whole_tap);
  write_text(merged_tap_path, run.out);
  run_result_free(&run);
  free(whole_tap);
  char* merged_tap = read_text_file(merged_tap_path);
  ck_assert_msg(strstr(merged_tap, "# TODO expected (fail)") != NULL, "no TODO point: %s", merged_tap);
  free(merged_tap);
  assert_same_but_times(whole_tap_path, merged_tap_path);
  assert_same_but_times(whole_junit, merged_junit);
  remove_folder(&f);
}
END_TEST

START_TEST(bad_reports_are_refused) {
  struct folder f;
  make_folder(&f);
  const char* shard1 = in_folder(&f, 1, "1.json");
  const char* shard2 = in_folder(&f, 2, "2.json");
  ck_assert_int_eq(run_shard(FILTER, "1/2", shard1), 0);
  ck_assert_int_eq(run_shard(FILTER, "2/2", shard2), 0);
  const char* bad = in_folder(&f, 3, "bad.json");

  const char* missing_file[] = {shard1, in_folder(&f, 4, "absent.json"), NULL};
  assert_refused(missing_file, "absent.json", "cannot read");

  const char* with_bad[] = {shard1, bad, NULL};
  write_text(bad, "this is not JSON\n");
  assert_refused(with_bad, "bad.json", "not JSON");

  /* Truncated: the first half of a real report. */
  cJSON* report = read_json_file(shard2);
  char* text = cJSON_Print(report);
  text[strlen(text) / 2] = '\0';
  write_text(bad, text);
  free(text);
  assert_refused(with_bad, "bad.json", "not JSON");

  cJSON* edited = cJSON_Duplicate(report, true);
  cJSON_ReplaceItemInObject(edited, "schema_version", cJSON_CreateNumber(2));
  write_json(bad, edited);
  cJSON_Delete(edited);
  assert_refused(with_bad, "bad.json", "schema_version 2");

  write_text(bad, "{\"cases\": []}\n");
  assert_refused(with_bad, "bad.json", "not an adc-conform JSON report");

  edited = cJSON_Duplicate(report, true);
  cJSON_ReplaceItemInObject(cJSON_GetObjectItem(edited, "suite"), "git_commit",
                            cJSON_CreateString("0123456789012345678901234567890123456789"));
  write_json(bad, edited);
  cJSON_Delete(edited);
  assert_refused(with_bad, "bad.json", "at commit 0123456789012345678901234567890123456789");

  edited = cJSON_Duplicate(report, true);
  cJSON_ReplaceItemInObject(cJSON_GetObjectItem(edited, "suite"), "version", cJSON_CreateString("9.9.9"));
  write_json(bad, edited);
  cJSON_Delete(edited);
  assert_refused(with_bad, "bad.json", "adc-conform 9.9.9");

  /* Another --producer, --timeout or --filter is another run; the output
   * and sharding options may differ. */
  const char* deciding[][2] = {
      {"--producer", "/elsewhere/libother.so"}, {"--timeout", "5"}, {"--filter", "*"}};
  for (size_t d = 0; d < sizeof(deciding) / sizeof(deciding[0]); d++) {
    edited = cJSON_Duplicate(report, true);
    cJSON* command_line = cJSON_GetObjectItem(edited, "command_line");
    cJSON_AddItemToArray(command_line, cJSON_CreateString(deciding[d][0]));
    cJSON_AddItemToArray(command_line, cJSON_CreateString(deciding[d][1]));
    write_json(bad, edited);
    cJSON_Delete(edited);
    assert_refused(with_bad, "bad.json", deciding[d][0]);
  }
  edited = cJSON_Duplicate(report, true);
  cJSON* command_line = cJSON_GetObjectItem(edited, "command_line");
  const char* free_arguments[] = {"--verbose", "--tap",    "--junit",
                                  "x.xml",     "--jobs=7", "--report-json=y.json"};
  for (size_t a = 0; a < sizeof(free_arguments) / sizeof(free_arguments[0]); a++) {
    cJSON_AddItemToArray(command_line, cJSON_CreateString(free_arguments[a]));
  }
  write_json(bad, edited);
  cJSON_Delete(edited);
  struct run_result run = run_merge(with_bad, NULL);
  ck_assert_msg(run.exit_code == 0, "output options made the runs differ: exit %d: %s", run.exit_code,
                run.err);
  run_result_free(&run);

  /* Overlapping: shard 2 that also holds a case of shard 1. */
  cJSON* first = read_json_file(shard1);
  edited = cJSON_Duplicate(report, true);
  const cJSON* stolen = cJSON_GetArrayItem(cJSON_GetObjectItem(first, "cases"), 0);
  cJSON_AddItemToArray(cJSON_GetObjectItem(edited, "cases"), cJSON_Duplicate(stolen, true));
  write_json(bad, edited);
  cJSON_Delete(edited);
  assert_refused(with_bad, "bad.json", "overlap");
  cJSON_Delete(first);
  cJSON_Delete(report);

  const char* twice[] = {shard1, shard1, NULL};
  assert_refused(twice, "1.json", "given twice");
  const char* alone[] = {shard2, NULL};
  assert_refused(alone, "2.json", "shard 1/2 of the run is missing");

  /* 1/4, 2/4 and 4/4: 3/4 is named missing. */
  const char* quarters[] = {in_folder(&f, 4, "q1.json"), in_folder(&f, 5, "q2.json"),
                            in_folder(&f, 6, "q4.json"), NULL};
  const char* quarter_names[] = {"1/4", "2/4", "4/4"};
  for (int q = 0; q < 3; q++) ck_assert_int_eq(run_shard(FILTER, quarter_names[q], quarters[q]), 0);
  assert_refused(quarters, "q4.json", "shard 3/4 of the run is missing");
  const char* mixed_splits[] = {shard1, quarters[1], NULL};
  assert_refused(mixed_splits, "q2.json", "shards of different splits");

  /* A whole run merges alone, never with others. */
  const char* whole = in_folder(&f, 7, "whole.json");
  ck_assert_int_eq(run_shard(FILTER, NULL, whole), 0);
  const char* whole_and_shard[] = {whole, shard1, NULL};
  assert_refused(whole_and_shard, "whole.json", "merge it alone");
  const char* whole_alone[] = {whole, NULL};
  run = run_merge(whole_alone, in_folder(&f, 3, "bad.json"));
  ck_assert_msg(run.exit_code == 0, "exit %d: %s", run.exit_code, run.err);
  run_result_free(&run);
  assert_json_report_valid(f.path[3]);
  remove_folder(&f);
}
END_TEST

/* The command line is read with the run's own option table: a value that
 * looks like an option stays a value, abbreviations and "=" are read as
 * getopt_long reads them, and only the output and sharding options are
 * left out of what the shards must share. */
START_TEST(command_lines_are_read_as_the_run_read_them) {
  const char* argv[] = {"adc-conform", "--producer", "reference", "--filter", "--jobs",
                        "--shard=2/3", "--jobs",     "4",         "--rep",    "x.json",
                        "--verb",      "--timeout",  "5"};
  struct adc_shard_command_line line;
  struct adc_error error;
  ck_assert_int_eq(adc_shard_command_line_split(13, argv, &line, &error), 0);
  const char* deciding[] = {"--producer", "reference", "--filter", "--jobs", "--timeout", "5"};
  ck_assert_uint_eq(line.n_deciding, 6);
  for (size_t i = 0; i < 6; i++) ck_assert_str_eq(line.deciding[i], deciding[i]);
  ck_assert(line.sharded);
  ck_assert_int_eq(line.shard_index, 2);
  ck_assert_int_eq(line.shard_count, 3);
  ck_assert(line.is_shard_argument[5] && !line.is_shard_argument[6]);
  adc_shard_command_line_free(&line);
  const char* dangling[] = {"adc-conform", "--producer", "reference", "--shard"};
  ck_assert_int_eq(adc_shard_command_line_split(4, dangling, &line, &error), -1);
  ck_assert_str_eq(error.message, "--shard has no value");
}
END_TEST

START_TEST(merge_has_its_usage) {
  const char* help[] = {"merge", "--help", NULL};
  struct run_result run = run_conform(help);
  ck_assert_int_eq(run.exit_code, 0);
  ck_assert_msg(strstr(run.out, "Usage: adc-conform merge") != NULL, "%s", run.out);
  run_result_free(&run);
  const char* main_help[] = {"--help", NULL};
  run = run_conform(main_help);
  ck_assert_msg(strstr(run.out, "merge shard reports into one report") != NULL, "%s", run.out);
  run_result_free(&run);
  const char* nothing[] = {"merge", NULL};
  run = run_conform(nothing);
  ck_assert_int_eq(run.exit_code, 2);
  ck_assert_int_eq(count_lines(run.err), 1);
  run_result_free(&run);
}
END_TEST

int main(void) {
  Suite* suite = suite_create("merge");
  TCase* tc = tcase_create("merge");
  tcase_set_timeout(tc, 240);
  tcase_add_test(tc, merged_shards_are_the_unsharded_run);
  tcase_add_test(tc, a_failing_shard_fails_the_merge);
  tcase_add_test(tc, merge_writes_the_runs_junit_and_tap);
  tcase_add_test(tc, bad_reports_are_refused);
  tcase_add_test(tc, merge_has_its_usage);
  tcase_add_test(tc, command_lines_are_read_as_the_run_read_them);
  suite_add_tcase(suite, tc);
  return run_suite(suite);
}
