/* Bad input gets one clear error line on standard error and exit status 2;
 * a library that crashes or hangs becomes a verdict, not the end of the run. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "device/device.h"
#include "report/report.h"
#include "test_support.h"

START_TEST(missing_library) {
  const char* args[] = {"--fixtures", HAND_WRITTEN_FIXTURES, "--producer", "/nonexistent/libnothing.so",
                        NULL};
  expect_one_error_line(args, "/nonexistent/libnothing.so");
}
END_TEST

START_TEST(file_that_is_not_a_library) {
  const char* args[] = {"--fixtures", HAND_WRITTEN_FIXTURES, "--producer", SOURCE_PATH("CMakeLists.txt"),
                        NULL};
  expect_one_error_line(args, "not an ELF file");
}
END_TEST

START_TEST(library_without_entry_points) {
  const char* args[] = {"--consumer", BUILD_PATH("libmisbehaving_not_a_plugin.so"), NULL};
  expect_one_error_line(args, "exports no <prefix>_CDataIntegration_*");
}
END_TEST

START_TEST(unknown_prefix) {
  /* --prefix is the library's: the bundled reference keeps its own. */
  const char* args[] = {
      "--fixtures", HAND_WRITTEN_FIXTURES, "--producer", BUILD_PATH("libbroken_producer_wrong_value.so"),
      "--prefix",   "nosuchprefix",        NULL};
  expect_one_error_line(args, "no entry point with prefix 'nosuchprefix'");
}
END_TEST

START_TEST(unknown_device) {
  const char* args[] = {"--fixtures", HAND_WRITTEN_FIXTURES, "--producer", "reference", "--device", "abacus",
                        NULL};
  expect_one_error_line(args, "unknown device 'abacus'");
}
END_TEST

START_TEST(malformed_shard) {
  static const char* const shards[] = {"0/3", "4/3", "2", "x/2", "1/", "1/1001"};
  for (size_t i = 0; i < sizeof(shards) / sizeof(shards[0]); i++) {
    const char* args[] = {
        "--fixtures", HAND_WRITTEN_FIXTURES, "--producer", "reference", "--shard", shards[i], NULL};
    expect_one_error_line(args, "--shard takes INDEX/COUNT with 1 <= INDEX <= COUNT");
  }
}
END_TEST

START_TEST(unknown_option) {
  const char* args[] = {"--fixtures", HAND_WRITTEN_FIXTURES, "--producer", "reference", "--frobnicate", NULL};
  expect_one_error_line(args, "--frobnicate");
}
END_TEST

START_TEST(missing_fixture_folder) {
  const char* args[] = {"--producer", "reference", "--fixtures", "/nonexistent/fixtures", NULL};
  expect_one_error_line(args, "/nonexistent/fixtures");
}
END_TEST

static const char* const malformed[] = {"not_json", "validity_too_short", "unsupported_type"};

START_TEST(malformed_fixture) {
  /* Each malformed file alone in a folder of its own. */
  char dir[] = "/tmp/adc_fixtures_XXXXXX";
  ck_assert_ptr_nonnull(mkdtemp(dir));
  char source[512];
  char target[600];
  snprintf(source, sizeof(source), "%s/fixtures/malformed/%s.json", ADC_SOURCE_DIR, malformed[_i]);
  snprintf(target, sizeof(target), "%s/%s.json", dir, malformed[_i]);
  ck_assert_int_eq(symlink(source, target), 0);
  const char* args[] = {"--producer", "reference", "--fixtures", dir, NULL};
  expect_one_error_line(args, "malformed fixture");
  unlink(target);
  rmdir(dir);
}
END_TEST

START_TEST(no_side_named) {
  const char* args[] = {NULL};
  expect_one_error_line(args, "--producer");
}
END_TEST

START_TEST(crash_becomes_a_verdict) {
  const char* args[] = {"--fixtures", HAND_WRITTEN_FIXTURES,
                        "--producer", BUILD_PATH("libmisbehaving_crash_on_export.so"),
                        "--filter",   "*/array.release.non_null_after_export/*",
                        NULL};
  int exit_code;
  cJSON* report = run_conform_report(args, &exit_code);
  ck_assert_ptr_nonnull(report);
  ck_assert_int_eq(exit_code, 1);
  const cJSON* cases = cJSON_GetObjectItem(report, "cases");
  ck_assert_int_eq(cJSON_GetArraySize(cases), 7); /* the run went on after the first crash */
  const cJSON* item;
  cJSON_ArrayForEach(item, cases) {
    ck_assert_str_eq(cJSON_GetObjectItem(item, "status")->valuestring, "crash");
    /* The signal, or under UBSan the sanitizer's own headline. */
    const char* message = cJSON_GetObjectItem(item, "message")->valuestring;
    ck_assert_msg(strstr(message, "signal 11") != NULL ||
                      strstr(message, "runtime error: load of null pointer") != NULL,
                  "%s", message);
  }
  cJSON_Delete(report);
}
END_TEST

START_TEST(hang_becomes_a_timeout) {
  const char* args[] = {"--fixtures", HAND_WRITTEN_FIXTURES,
                        "--producer", BUILD_PATH("libmisbehaving_hang_on_export.so"),
                        "--timeout",  "0.5",
                        "--filter",   "*/array.release.sets_null/int32_*",
                        NULL};
  int exit_code;
  cJSON* report = run_conform_report(args, &exit_code);
  ck_assert_ptr_nonnull(report);
  ck_assert_int_eq(exit_code, 1);
  const cJSON* cases = cJSON_GetObjectItem(report, "cases");
  ck_assert_int_eq(cJSON_GetArraySize(cases), 3);
  const cJSON* item;
  cJSON_ArrayForEach(item, cases) {
    ck_assert_str_eq(cJSON_GetObjectItem(item, "status")->valuestring, "timeout");
  }
  cJSON_Delete(report);
}
END_TEST

START_TEST(missing_entry_point_is_not_supported) {
  /* The crashing library exports no device entry point: device rules must
   * say so, naming the symbol, and never pass. */
  const char* args[] = {
      "--fixtures", HAND_WRITTEN_FIXTURES, "--producer", BUILD_PATH("libmisbehaving_crash_on_export.so"),
      "--filter",   "*/device_array.*",    NULL};
  int exit_code;
  cJSON* report = run_conform_report(args, &exit_code);
  ck_assert_ptr_nonnull(report);
  const cJSON* item;
  cJSON_ArrayForEach(item, cJSON_GetObjectItem(report, "cases")) {
    ck_assert_str_eq(cJSON_GetObjectItem(item, "status")->valuestring, "not_supported");
    ck_assert_ptr_nonnull(strstr(cJSON_GetObjectItem(item, "message")->valuestring,
                                 "crashing_CDeviceIntegration_ExportDeviceBatchFromJson"));
  }
  /* Nothing judged, nothing failed: not shown to conform, neither 0 nor 1. */
  ck_assert_int_eq(exit_code, ADC_EXIT_NOT_SHOWN);
  cJSON_Delete(report);
}
END_TEST

START_TEST(library_beyond_the_memory_limit_is_refused_up_front) {
#ifdef ADC_SANITIZE_ADDRESS
  return; /* a sanitizer's reserved address space exceeds any useful limit */
#endif
  /* It loads within 400 MiB (--list loads it once, as every run does)... */
  const char* roomy[] = {"--fixtures",     HAND_WRITTEN_FIXTURES,
                         "--producer",     BUILD_PATH("libmisbehaving_maps_300_mib.so"),
                         "--memory-limit", "400",
                         "--list",         NULL};
  struct run_result listed = run_conform(roomy);
  ck_assert_msg(listed.exit_code == 0, "exit %d: %s", listed.exit_code, listed.err);
  run_result_free(&listed);
  /* ...and not within 200, which every case's process would be held to:
   * one error line, not a report of unresolved cases. */
  const char* tight[] = {
      "--fixtures", HAND_WRITTEN_FIXTURES, "--producer",     BUILD_PATH("libmisbehaving_maps_300_mib.so"),
      "--consumer", "reference",           "--memory-limit", "200",
      NULL};
  expect_one_error_line(tight, "within --memory-limit 200 MiB");
}
END_TEST

/* The number of processes a run of adc-conform with `args` (NULL
 * terminated, at most 12) forks, counted by tests/fork_log.c, which it
 * preloads; -1 where this build has no such library (a sanitizer build).
 * The run's report and exit status go to `*report` and `*exit_code`. */
static int count_forks(const char* const* args, cJSON** report, int* exit_code) {
#ifdef ADC_FORK_LOG_LIBRARY
  char log[] = "/tmp/adc_fork_log_XXXXXX";
  int fd = mkstemp(log);
  ck_assert_int_ge(fd, 0);
  close(fd);
  setenv("ADC_FORK_LOG", log, 1);
  const char* with_preload[16] = {"--preload", ADC_FORK_LOG_LIBRARY};
  for (int a = 0; args[a] != NULL && a < 12; a++) with_preload[a + 2] = args[a];
  *report = run_conform_report(with_preload, exit_code);
  unsetenv("ADC_FORK_LOG");
  FILE* lines = fopen(log, "r");
  ck_assert_ptr_nonnull(lines);
  int forks = 0;
  for (int c; (c = fgetc(lines)) != EOF;) forks += c == '\n';
  fclose(lines);
  unlink(log);
  return forks;
#else
  *report = run_conform_report(args, exit_code);
  return -1;
#endif
}

/* The instrument counts: a run of 6 cases on the CPU forks 6 case
 * processes at least (besides the library's load and the device's probe). */
START_TEST(fork_log_counts_case_processes) {
  const char* args[] = {"--fixtures", HAND_WRITTEN_FIXTURES,           "--producer", "reference",
                        "--filter",   "cpu/array.release.sets_null/*", NULL};
  cJSON* report = NULL;
  int exit_code;
  int forks = count_forks(args, &report, &exit_code);
  ck_assert_ptr_nonnull(report);
  if (forks >= 0) ck_assert_int_ge(forks, cJSON_GetArraySize(cJSON_GetObjectItem(report, "cases")));
  cJSON_Delete(report);
}
END_TEST

static const char* const gpu_devices[] = {"cuda", "cuda_host", "cuda_managed", "rocm", "rocm_host"};

/* Where the device is missing, every case of it ends not_supported with the
 * runtime's own reason; never pass.  The device's probe, once, is all the
 * run spends on it: no case starts a process to learn what it already
 * knows. */
START_TEST(gpu_device_without_gpu_is_never_pass) {
  const struct adc_device_driver* device = adc_device_find(gpu_devices[_i]);
  ck_assert_ptr_nonnull(device);
  struct adc_error reason;
  if (device_opens(device, &reason) == 0) return; /* a GPU is here: the device run judges it */
  const char* args[] = {"--fixtures", HAND_WRITTEN_FIXTURES, "--producer",
                        "reference",  "--consumer",          "reference",
                        "--device",   device->name,          NULL};
  cJSON* report = NULL;
  int exit_code;
  int forks = count_forks(args, &report, &exit_code);
  ck_assert_ptr_nonnull(report);
  /* One load of the library (both sides are the same) and one probe. */
  if (forks >= 0) ck_assert_msg(forks <= 2, "%d processes for a device that is not here", forks);
  char expected[sizeof(reason.message) + 64];
  snprintf(expected, sizeof(expected), "device %s unavailable: %s", device->name, reason.message);
  const cJSON* item;
  int cases = 0;
  cJSON_ArrayForEach(item, cJSON_GetObjectItem(report, "cases")) {
    cases++;
    const char* id = cJSON_GetObjectItem(item, "id")->valuestring;
    ck_assert_msg(strcmp(cJSON_GetObjectItem(item, "status")->valuestring, "not_supported") == 0, "%s: %s",
                  id, cJSON_GetObjectItem(item, "status")->valuestring);
    ck_assert_str_eq(cJSON_GetObjectItem(item, "message")->valuestring, expected);
  }
  ck_assert_int_gt(cases, 50);
  /* A GPU-only run on a machine without the GPU: told apart from a pass
   * (0) and from a failure (1). */
  ck_assert_int_eq(exit_code, ADC_EXIT_NOT_SHOWN);
  cJSON_Delete(report);
}
END_TEST

int main(void) {
  Suite* suite = suite_create("bad_input");
  TCase* input = tcase_create("input");
  tcase_set_timeout(input, 60);
  tcase_add_test(input, missing_library);
  tcase_add_test(input, malformed_shard);
  tcase_add_test(input, file_that_is_not_a_library);
  tcase_add_test(input, library_without_entry_points);
  tcase_add_test(input, unknown_prefix);
  tcase_add_test(input, unknown_device);
  tcase_add_test(input, unknown_option);
  tcase_add_test(input, missing_fixture_folder);
  tcase_add_loop_test(input, malformed_fixture, 0, 3);
  tcase_add_test(input, no_side_named);
  tcase_add_test(input, library_beyond_the_memory_limit_is_refused_up_front);
  tcase_add_test(input, fork_log_counts_case_processes);
  tcase_add_loop_test(input, gpu_device_without_gpu_is_never_pass, 0,
                      (int)(sizeof(gpu_devices) / sizeof(gpu_devices[0])));
  suite_add_tcase(suite, input);
  TCase* isolation = tcase_create("isolation");
  tcase_set_timeout(isolation, 60);
  tcase_add_test(isolation, crash_becomes_a_verdict);
  tcase_add_test(isolation, hang_becomes_a_timeout);
  tcase_add_test(isolation, missing_entry_point_is_not_supported);
  suite_add_tcase(suite, isolation);
  return run_suite(suite);
}
