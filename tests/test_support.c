#include "test_support.h"

#include "runner/orphans.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* adc-conform's argv: its path, then `args` (at most 62). */
static void conform_argv(const char* const* args, const char* argv[64]) {
  int n = 0;
  argv[n++] = ADC_CONFORM;
  for (int i = 0; args[i] != NULL && n < 63; i++) argv[n++] = args[i];
  argv[n] = NULL;
}

pid_t spawn_conform(const char* const* args) {
  const char* argv[64];
  conform_argv(args, argv);
  pid_t pid = fork();
  if (pid == 0) {
    int null_output = open("/dev/null", O_WRONLY);
    dup2(null_output, STDOUT_FILENO);
    dup2(null_output, STDERR_FILENO);
    execv(ADC_CONFORM, (char* const*)argv);
    _exit(127);
  }
  return pid;
}

struct run_result run_conform(const char* const* args) {
  const char* argv[64];
  conform_argv(args, argv);
  return run_command(argv);
}

cJSON* run_conform_report_and_output(const char* const* args, struct run_result* run) {
  char path[] = "/tmp/adc_report_XXXXXX";
  int fd = mkstemp(path);
  close(fd);
  const char* all[64];
  int n = 0;
  for (int i = 0; args[i] != NULL && n < 60; i++) all[n++] = args[i];
  all[n++] = "--report-json";
  all[n++] = path;
  all[n] = NULL;
  *run = run_conform(all);
  cJSON* report = read_json_file(path);
  unlink(path);
  return report;
}

cJSON* run_conform_report(const char* const* args, int* exit_code) {
  struct run_result run;
  cJSON* report = run_conform_report_and_output(args, &run);
  *exit_code = run.exit_code;
  run_result_free(&run);
  return report;
}

char* async_case_statuses(const char* producer, const char* consumer) {
  /* One report over both devices: every device, filtered to these two.
   * consumer.async.sync_event.waited_out_a_long_hold is left out: its case
   * holds a batch 1 s by design (spec-tests/consumer_waiting.h), which a
   * hundred runs would pay a hundred times; the self-test table checks
   * it. */
  const char* args[] = {"--fixtures", HAND_WRITTEN_FIXTURES,
                        "--producer", producer,
                        "--consumer", consumer,
                        "--device",   "all",
                        "--filter",   "cpu/async.*",
                        "--filter",   "simulated/async.*",
                        "--filter",   "cpu/consumer.async.*",
                        "--filter",   "simulated/consumer.async.[!s]*",
                        "--filter",   "simulated/consumer.async.sync_event.waited_before_reading/*",
                        NULL};
  int exit_code;
  cJSON* report = run_conform_report(args, &exit_code);
  ck_assert_msg(report != NULL, "%s and %s: no report", producer, consumer);
  char* lines = report_statuses(report);
  cJSON_Delete(report);
  ck_assert_msg(lines[0] != '\0', "%s and %s: the report has no async case", producer, consumer);
  return lines;
}

bool is_suite_crash(const cJSON* item) {
  const cJSON* site = cJSON_GetObjectItem(item, "crash_site");
  const char* in = cJSON_GetStringValue(cJSON_GetObjectItem(site, "in"));
  return in != NULL && strcmp(in, "suite") == 0;
}

int count_suite_crashes(const cJSON* report, char* first, size_t size) {
  int count = 0;
  const cJSON* item;
  cJSON_ArrayForEach(item, cJSON_GetObjectItem(report, "cases")) {
    if (!is_suite_crash(item) || count++ > 0) continue;
    snprintf(first, size, "%s: %s", cJSON_GetStringValue(cJSON_GetObjectItem(item, "id")),
             cJSON_GetStringValue(cJSON_GetObjectItem(item, "message")));
  }
  return count;
}

char* report_statuses(const cJSON* report) {
  size_t size = 1, used = 0;
  char* lines = calloc(1, size);
  const cJSON* item;
  cJSON_ArrayForEach(item, cJSON_GetObjectItem(report, "cases")) {
    char line[512];
    int length = snprintf(line, sizeof(line), "%s %s\n", cJSON_GetObjectItem(item, "id")->valuestring,
                          cJSON_GetObjectItem(item, "status")->valuestring);
    size += (size_t)length;
    lines = realloc(lines, size);
    memcpy(lines + used, line, (size_t)length + 1);
    used += (size_t)length;
  }
  return lines;
}

void lines_that_differ(const char* first, const char* again, char* out, size_t size) {
  out[0] = '\0';
  size_t used = 0;
  for (const char* line = again; *line != '\0';) {
    const char* end = strchr(line, '\n');
    size_t length = end != NULL ? (size_t)(end - line) + 1 : strlen(line);
    char* copy = strndup(line, length);
    if (copy != NULL && strstr(first, copy) == NULL && used + length < size) {
      memcpy(out + used, copy, length + 1);
      used += length;
    }
    free(copy);
    line += length;
  }
}

size_t processes_left_behind(double grace_seconds) {
  for (double waited = 0;; waited += 0.01) {
    while (waitpid(-1, NULL, WNOHANG) > 0) continue;
    pid_t pid;
    if (adc_list_children(&pid, 1) == 0) return 0;
    if (waited >= grace_seconds) break;
    struct timespec pause = {0, 10000000};
    nanosleep(&pause, NULL);
  }
  size_t left = adc_list_children(NULL, 0);
  adc_kill_all_orphans(1.0);
  return left;
}

void assert_json_valid_against(const char* schema, const char* path, const char* referenced) {
  ck_assert_msg(ADC_SCHEMA_PYTHON[0] != '\0',
                "no Python with the jsonschema package: install python3-jsonschema (ci/install-deps.sh)");
  const char* argv[] = {
      ADC_SCHEMA_PYTHON, SOURCE_PATH("tests/validate_json_report.py"), schema, path, referenced, NULL};
  struct run_result run = run_command(argv);
  ck_assert_msg(run.exit_code == 0, "%s does not validate against %s:\n%s%s", path, schema, run.out, run.err);
  run_result_free(&run);
}

void assert_json_report_valid(const char* path) {
  assert_json_valid_against(JSON_SCHEMA, path, NULL);
}

const cJSON* report_case(const cJSON* report, const char* id) {
  const cJSON* item;
  cJSON_ArrayForEach(item, cJSON_GetObjectItem(report, "cases")) {
    if (strcmp(cJSON_GetObjectItem(item, "id")->valuestring, id) == 0) return item;
  }
  ck_abort_msg("no case %s in the report", id);
  return NULL;
}

void expect_one_error_line(const char* const* args, const char* needle) {
  struct run_result run = run_conform(args);
  ck_assert_msg(run.exit_code == 2, "exit %d, stderr: %s", run.exit_code, run.err);
  ck_assert_msg(count_lines(run.err) == 1, "expected one line, got: %s", run.err);
  ck_assert_msg(strncmp(run.err, "adc-conform: error: ", 20) == 0, "stderr: %s", run.err);
  ck_assert_msg(strstr(run.err, needle) != NULL, "'%s' not in: %s", needle, run.err);
  run_result_free(&run);
}

static int python_can_be_embedded(void) {
  const char* python = getenv("ADC_PYTHON");
  char command[1024];
  snprintf(
      command, sizeof(command),
      "'%s' -c 'import sys, sysconfig; sys.exit(0 if sysconfig.get_config_var(\"Py_ENABLE_SHARED\") else 1)' "
      ">/dev/null 2>&1",
      python && python[0] ? python : "python3");
  return system(command) == 0;
}

void require_embeddable_python(void) {
  if (!python_can_be_embedded()) {
    printf("not run: no python3 (or $ADC_PYTHON) with a shared libpython\n");
    exit(77);
  }
  setenv("PYTHONPATH", SOURCE_PATH("fixtures/deliberately_broken/misbehaving/python"), 1);
}
