/* --valgrind and --preload, as a user runs them: a library whose only
 * flaws are memory errors that no check of the harness's own can see
 * (fixtures/deliberately_broken/misbehaving/memory_errors.c) passes a plain run, and ends with
 * memcheck's or ASan's headline as its cases' crash under the mode made
 * for it; the reference pair stays clean under both; and each mode's bad
 * input is one error line.  Built only where the harness itself has no
 * sanitizer (memcheck cannot run ASan-built code) and GCC built the ASan
 * twin of the library (its shared ASan runtime is what --preload loads). */
#include <check.h>
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test_support.h"

#define BATCH_CASE "cpu/array.release.sets_null/int32_nulls"
#define SCHEMA_CASE "cpu/schema.release.sets_null/int32_nulls"
#define PLAIN_LIBRARY BUILD_PATH("libmisbehaving_memory_errors.so")
#define ASAN_LIBRARY BUILD_PATH("libmisbehaving_memory_errors_asan.so")

/* The case `id` of `report` ended `status` with `cause` in its message. */
static void assert_case(const cJSON* report, const char* id, const char* status, const char* cause) {
  const cJSON* item = report_case(report, id);
  ck_assert_msg(item != NULL, "no case %s in the report", id);
  const char* got = cJSON_GetObjectItem(item, "status")->valuestring;
  const char* message = cJSON_GetObjectItem(item, "message")->valuestring;
  ck_assert_msg(strcmp(got, status) == 0 && strstr(message, cause) != NULL,
                "%s ended %s (%s), not %s with '%s'", id, got, message, status, cause);
}

/* Runs the memory_errors `library` on the two cases that reach its flaws,
 * with `mode` and `mode_argument` (either may be NULL). */
static cJSON* run_flawed(const char* library, const char* mode, const char* mode_argument, int* exit_code) {
  const char* args[] = {"--producer", library,     "--prefix", "misbehaving", "--filter", BATCH_CASE,
                        "--filter",   SCHEMA_CASE, mode,       mode_argument, NULL};
  return run_conform_report(args, exit_code);
}

static int entries_in(const char* dir) {
  DIR* folder = opendir(dir);
  if (folder == NULL) return -1;
  int n = 0;
  for (struct dirent* entry; (entry = readdir(folder)) != NULL;) n += entry->d_name[0] != '.';
  closedir(folder);
  return n;
}

START_TEST(memcheck_turns_memory_errors_into_crashes) {
  int exit_code;
  cJSON* plain = run_flawed(PLAIN_LIBRARY, NULL, NULL, &exit_code);
  ck_assert_ptr_nonnull(plain);
  assert_case(plain, BATCH_CASE, "pass", "");
  assert_case(plain, SCHEMA_CASE, "pass", "");
  ck_assert_int_eq(exit_code, 0);
  cJSON_Delete(plain);

  /* memcheck's logs go to a folder of TMPDIR, removed when the run ends. */
  char tmp[] = "/tmp/adc-test-memcheck.XXXXXX";
  ck_assert_ptr_nonnull(mkdtemp(tmp));
  setenv("TMPDIR", tmp, 1);
  cJSON* checked = run_flawed(PLAIN_LIBRARY, "--valgrind", NULL, &exit_code);
  unsetenv("TMPDIR");
  ck_assert_ptr_nonnull(checked);
  assert_case(checked, BATCH_CASE, "crash", "Invalid read of size 1");
  assert_case(checked, SCHEMA_CASE, "crash", "64 bytes in 1 blocks are definitely lost");
  ck_assert_int_eq(exit_code, 1);
  const cJSON* wrapper = cJSON_GetObjectItem(cJSON_GetObjectItem(checked, "environment"), "harness_wrapper");
  ck_assert_msg(cJSON_IsString(wrapper) && strstr(wrapper->valuestring, "valgrind") != NULL,
                "the report does not say the run was under memcheck");
  cJSON_Delete(checked);
  ck_assert_int_eq(entries_in(tmp), 0);
  rmdir(tmp);
}
END_TEST

/* No false alarm: the reference pair under memcheck, both roles, every
 * rule on one fixture. */
START_TEST(memcheck_finds_nothing_in_the_reference_pair) {
  const char* args[] = {"--producer", "reference",         "--consumer", "reference",
                        "--filter",   "cpu/*/int32_nulls", "--valgrind", NULL};
  int exit_code;
  cJSON* report = run_conform_report(args, &exit_code);
  ck_assert_ptr_nonnull(report);
  const cJSON* item;
  int cases = 0;
  cJSON_ArrayForEach(item, cJSON_GetObjectItem(report, "cases")) {
    const char* status = cJSON_GetObjectItem(item, "status")->valuestring;
    ck_assert_msg(strcmp(status, "pass") == 0 || strcmp(status, "not_supported") == 0, "%s ended %s: %s",
                  cJSON_GetObjectItem(item, "id")->valuestring, status,
                  cJSON_GetObjectItem(item, "message")->valuestring);
    cases++;
  }
  ck_assert_int_gt(cases, 20);
  ck_assert_int_eq(exit_code, 0);
  cJSON_Delete(report);
}
END_TEST

START_TEST(preloaded_asan_runtime_reports_the_library_errors) {
  int exit_code;
  /* Without the runtime first, the library cannot load: the run says so,
   * in ASan's words, and names the cure. */
  cJSON* unloaded = run_flawed(ASAN_LIBRARY, NULL, NULL, &exit_code);
  ck_assert_ptr_nonnull(unloaded);
  assert_case(unloaded, BATCH_CASE, "crash", "ASan runtime does not come first");
  ck_assert_int_eq(exit_code, 1);
  cJSON_Delete(unloaded);

  cJSON* checked = run_flawed(ASAN_LIBRARY, "--preload", ADC_LIBASAN, &exit_code);
  ck_assert_ptr_nonnull(checked);
  assert_case(checked, BATCH_CASE, "crash", "ERROR: AddressSanitizer: heap-buffer-overflow");
  assert_case(checked, SCHEMA_CASE, "crash", "ERROR: LeakSanitizer: detected memory leaks");
  ck_assert_int_eq(exit_code, 1);
  const cJSON* wrapper = cJSON_GetObjectItem(cJSON_GetObjectItem(checked, "environment"), "harness_wrapper");
  ck_assert_msg(cJSON_IsString(wrapper) && strstr(wrapper->valuestring, ADC_LIBASAN) != NULL,
                "the report does not name the preloaded library");
  cJSON_Delete(checked);

  /* The same runtime under the reference pair: no false alarm. */
  const char* args[] = {"--producer",        "reference", "--consumer", "reference", "--filter",
                        "cpu/*/int32_nulls", "--preload", ADC_LIBASAN,  NULL};
  cJSON* reference = run_conform_report(args, &exit_code);
  ck_assert_ptr_nonnull(reference);
  ck_assert_int_eq(exit_code, 0);
  cJSON_Delete(reference);
}
END_TEST

/* Each mode's bad input: one error line naming the problem, exit status 2. */
START_TEST(bad_modes_are_refused_in_one_line) {
  const char* missing[] = {"--producer", "reference", "--preload", "/nonexistent/libasan.so", NULL};
  expect_one_error_line(missing, "--preload: cannot read '/nonexistent/libasan.so'");
  const char* both[] = {"--producer", "reference", "--valgrind", "--preload", ADC_LIBASAN, NULL};
  expect_one_error_line(both, "--valgrind and --preload exclude each other");
  const char* limited[] = {"--producer", "reference", "--valgrind", "--memory-limit", "512", NULL};
  expect_one_error_line(limited, "--valgrind and --memory-limit exclude each other");
  const char* saved_path = getenv("PATH");
  char* path = saved_path != NULL ? strdup(saved_path) : NULL;
  setenv("PATH", "/nonexistent", 1);
  const char* no_valgrind[] = {"--producer", "reference", "--valgrind", NULL};
  expect_one_error_line(no_valgrind, "--valgrind: no valgrind on PATH");
  if (path != NULL) setenv("PATH", path, 1);
  free(path);
}
END_TEST

int main(void) {
  Suite* suite = suite_create("sanitizer_modes");
  TCase* modes = tcase_create("modes");
  tcase_set_timeout(modes, 240);
  tcase_add_test(modes, memcheck_turns_memory_errors_into_crashes);
  tcase_add_test(modes, memcheck_finds_nothing_in_the_reference_pair);
  tcase_add_test(modes, preloaded_asan_runtime_reports_the_library_errors);
  tcase_add_test(modes, bad_modes_are_refused_in_one_line);
  suite_add_tcase(suite, modes);
  return run_suite(suite);
}
