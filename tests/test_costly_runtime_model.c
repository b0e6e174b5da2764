/* The simulated device behind its model of a costly runtime
 * (harness/device/simulated_runtime_model.h): a start that costs 0.2 s,
 * one process at a time, as CUDA's context creation; a client limit past
 * which the device refuses a process, as NVIDIA's MPS does.  What a GPU's
 * runtime did to runs on an H200 must not happen here: the reference
 * pair's statuses are those of a run without the model at --jobs 1 and at
 * --jobs 64, in both isolations; a refusal is retried, never a
 * not_supported; a device that refuses every time leaves its cases
 * unresolved and the run never CONFORMS.  Each run has its own model
 * folder, so that concurrent tests do not share a "device". */
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "support/folders.h"
#include "test_support.h"

/* The model folder of this test process. */
static char model_dir[64];

static void use_model(const char* start_seconds, const char* client_limit) {
  snprintf(model_dir, sizeof(model_dir), "/tmp/adc-model-test-%ld", (long)getpid());
  setenv("ADC_SIMULATED_RUNTIME_DIR", model_dir, 1);
  if (start_seconds != NULL) {
    setenv("ADC_SIMULATED_START_SECONDS", start_seconds, 1);
  } else {
    unsetenv("ADC_SIMULATED_START_SECONDS");
  }
  if (client_limit != NULL) {
    setenv("ADC_SIMULATED_CLIENT_LIMIT", client_limit, 1);
  } else {
    unsetenv("ADC_SIMULATED_CLIENT_LIMIT");
  }
}

/* After each test, in its process: the model's folder and the files the
 * simulated runtime wrote there (its starts, its clients), which would
 * otherwise stay in /tmp, one folder per test run. */
static void remove_model_dir(void) {
  if (model_dir[0] != '\0') adc_remove_folder(model_dir);
}

static void no_model(void) {
  unsetenv("ADC_SIMULATED_START_SECONDS");
  unsetenv("ADC_SIMULATED_CLIENT_LIMIT");
}

/* The reference pair on the simulated device, the hand-written fixtures:
 * "<id> <status>" lines (free them), the exit status, and how many cases
 * were run again alone after a shared process or ended theirs (none may,
 * for a pair that passes everything and leaves nothing behind). */
static char* statuses(const char* jobs, const char* isolation, int* exit_code, int* reruns) {
  const char* args[] = {
      "--producer",          "reference", "--consumer", "reference",   "--device", "simulated", "--fixtures",
      HAND_WRITTEN_FIXTURES, "--jobs",    jobs,         "--isolation", isolation,  NULL};
  cJSON* report = run_conform_report(args, exit_code);
  ck_assert_ptr_nonnull(report);
  *reruns = 0;
  const cJSON* item;
  cJSON_ArrayForEach(item, cJSON_GetObjectItem(report, "cases")) {
    /* The reference pair leaves nothing behind in a prepared process:
     * each of its processes runs case after case (a process per case
     * would pay the model's start each time). */
    *reruns += cJSON_GetObjectItem(item, "shared_attempt") != NULL ||
               cJSON_GetObjectItem(item, "left_behind") != NULL;
  }
  char* lines = report_statuses(report);
  cJSON_Delete(report);
  return lines;
}

static char* quiet_statuses(void) {
  no_model();
  int exit_code;
  int reruns;
  char* quiet = statuses("2", "case", &exit_code, &reruns);
  ck_assert_int_eq(exit_code, 0);
  return quiet;
}

static void expect_statuses(const char* quiet, const char* jobs, const char* isolation) {
  int exit_code;
  int reruns;
  char* got = statuses(jobs, isolation, &exit_code, &reruns);
  char differing[1024];
  lines_that_differ(quiet, got, differing, sizeof(differing));
  ck_assert_msg(strcmp(got, quiet) == 0, "--jobs %s --isolation %s: %s", jobs, isolation, differing);
  ck_assert_msg(exit_code == 0, "--jobs %s --isolation %s: exit %d", jobs, isolation, exit_code);
  ck_assert_msg(reruns == 0, "--jobs %s --isolation %s: %d case(s) ran again alone or ended their process",
                jobs, isolation, reruns);
  free(got);
}

/* A start of 0.2 s, one at a time, in shared prepared processes (named:
 * in a sanitizer build auto would be a process per case, 500 starts a
 * run): --jobs 1 and --jobs 64 give the quiet run's statuses (64 queued starts would be 13 s, past a case's
 * limit, had the limit counted from the fork). */
START_TEST(a_costly_start_changes_no_status) {
  char* quiet = quiet_statuses();
  use_model("0.2", NULL);
  expect_statuses(quiet, "1", "shared");
  expect_statuses(quiet, "64", "shared");
  free(quiet);
}
END_TEST

/* Two clients for 64 jobs: the refused processes are retried, in shared
 * processes and one per case alike, and no status changes. */
START_TEST(a_client_limit_below_the_jobs_is_retried) {
  char* quiet = quiet_statuses();
  use_model(NULL, "2");
  expect_statuses(quiet, "64", "shared");
  expect_statuses(quiet, "64", "case");
  free(quiet);
}
END_TEST

/* A device whose one client another process holds throughout: the run's
 * probe is refused each time, and every case ends unresolved naming the
 * runtime's reason: never not_supported, and the run is not shown to
 * conform (exit 3). */
START_TEST(a_device_that_always_refuses_is_never_not_supported) {
  use_model(NULL, "1");
  ck_assert(mkdir(model_dir, 0700) == 0 || access(model_dir, F_OK) == 0);
  char client[128];
  snprintf(client, sizeof(client), "%s/client.0", model_dir);
  int held = open(client, O_RDWR | O_CREAT, 0600);
  ck_assert_int_ge(held, 0);
  ck_assert_int_eq(flock(held, LOCK_EX), 0);
  const char* args[] = {"--producer", "reference",         "--consumer", "reference",
                        "--device",   "simulated",         "--fixtures", HAND_WRITTEN_FIXTURES,
                        "--filter",   "simulated/array.*", NULL};
  int exit_code;
  cJSON* report = run_conform_report(args, &exit_code);
  close(held);
  ck_assert_ptr_nonnull(report);
  ck_assert_int_eq(exit_code, 3);
  const cJSON* item;
  int cases = 0;
  cJSON_ArrayForEach(item, cJSON_GetObjectItem(report, "cases")) {
    const char* status = cJSON_GetObjectItem(item, "status")->valuestring;
    const char* message = cJSON_GetObjectItem(item, "message")->valuestring;
    ck_assert_msg(strcmp(status, "unresolved") == 0 && strstr(message, "simulated runtime busy") != NULL,
                  "%s ended %s: %s", cJSON_GetObjectItem(item, "id")->valuestring, status, message);
    cases++;
  }
  ck_assert_int_gt(cases, 0);
  const cJSON* summary = cJSON_GetObjectItem(report, "summary");
  ck_assert(cJSON_IsFalse(cJSON_GetObjectItem(summary, "conforms")));
  cJSON_Delete(report);
}
END_TEST

/* The starts the model was paid during one run of the reference producer
 * on the simulated device, in prepared processes at --jobs 4, on the
 * cases `filter` names (the model counts a byte per start in "starts"). */
static long starts_for(const char* filter) {
  use_model("0.05", NULL);
  char starts_path[128];
  snprintf(starts_path, sizeof(starts_path), "%s/starts", model_dir);
  unlink(starts_path);
  const char* args[] = {"--producer", "reference", "--device",    "simulated", "--filter", filter,
                        "--jobs",     "4",         "--isolation", "shared",    NULL};
  int exit_code;
  cJSON* report = run_conform_report(args, &exit_code);
  ck_assert_ptr_nonnull(report);
  ck_assert_int_eq(exit_code, 0);
  cJSON_Delete(report);
  struct stat counted;
  long starts = stat(starts_path, &counted) == 0 ? (long)counted.st_size : 0;
  unlink(starts_path);
  return starts;
}

/* On a device whose start is costly, a few cases share prepared processes
 * rather than a process each for the --jobs free: 8 cases cost the probe's
 * start, one process's (ADC_TASKS_PER_COSTLY_START), and one more, where
 * a case calling ExportSchemaFromJson first in a process judges that entry
 * point's first call (the others call ExportBatchFromJson, judged in the
 * first process: adc_task.calls); starting a process per free job paid 5.
 * A run of many cases still starts several processes. */
START_TEST(a_few_cases_on_a_costly_device_pay_one_start) {
  ck_assert_int_eq(starts_for("simulated/array.*/int32_nulls"), 3);
  ck_assert_int_gt(starts_for("simulated/*"), 3);
}
END_TEST

int main(void) {
  Suite* suite = suite_create("costly_runtime_model");
  TCase* model = tcase_create("model");
  tcase_set_timeout(model, 240);
  tcase_add_checked_fixture(model, NULL, remove_model_dir);
  tcase_add_test(model, a_costly_start_changes_no_status);
  tcase_add_test(model, a_client_limit_below_the_jobs_is_retried);
  tcase_add_test(model, a_device_that_always_refuses_is_never_not_supported);
  tcase_add_test(model, a_few_cases_on_a_costly_device_pay_one_start);
  suite_add_tcase(suite, model);
  return run_suite(suite);
}
