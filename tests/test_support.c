#include "test_support.h"

#include "runner/orphans.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char* slurp(FILE* f) {
  size_t size = 0;
  size_t capacity = 4096;
  char* text = malloc(capacity);
  size_t n;
  while ((n = fread(text + size, 1, capacity - size - 1, f)) > 0) {
    size += n;
    if (capacity - size < 2) text = realloc(text, capacity *= 2);
  }
  text[size] = '\0';
  return text;
}

/* execv's adc-conform with `args` after its own name; never returns. */
static void exec_conform(const char* const* args) {
  const char* argv[64] = {ADC_CONFORM};
  int n = 1;
  for (int i = 0; args[i] != NULL && n < 63; i++) argv[n++] = args[i];
  argv[n] = NULL;
  execv(ADC_CONFORM, (char* const*)argv);
  _exit(127);
}

pid_t spawn_conform(const char* const* args) {
  pid_t pid = fork();
  if (pid == 0) {
    int null_output = open("/dev/null", O_WRONLY);
    dup2(null_output, STDOUT_FILENO);
    dup2(null_output, STDERR_FILENO);
    exec_conform(args);
  }
  return pid;
}

char* read_text_file(const char* path) {
  FILE* f = fopen(path, "r");
  ck_assert_msg(f != NULL, "%s was not written", path);
  char* text = slurp(f);
  fclose(f);
  return text;
}

cJSON* read_json_file(const char* path) {
  FILE* f = fopen(path, "r");
  if (f == NULL) return NULL;
  char* text = slurp(f);
  fclose(f);
  cJSON* json = cJSON_Parse(text);
  free(text);
  return json;
}

/* Runs `argv` (exec_command) or adc-conform with `args` (exec_conform). */
static struct run_result run_captured(const char* const* argv, const char* const* args) {
  struct run_result result = {0, NULL, NULL};
  FILE* out = tmpfile();
  FILE* err = tmpfile();
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fileno(out), STDOUT_FILENO);
    dup2(fileno(err), STDERR_FILENO);
    if (argv == NULL) exec_conform(args);
    execv(argv[0], (char* const*)argv);
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  rewind(out);
  rewind(err);
  result.out = slurp(out);
  result.err = slurp(err);
  fclose(out);
  fclose(err);
  return result;
}

struct run_result run_conform(const char* const* args) {
  return run_captured(NULL, args);
}

struct run_result run_command(const char* const* argv) {
  return run_captured(argv, NULL);
}

void run_result_free(struct run_result* result) {
  free(result->out);
  free(result->err);
}

cJSON* run_conform_report(const char* const* args, int* exit_code) {
  char path[] = "/tmp/adc_report_XXXXXX";
  int fd = mkstemp(path);
  close(fd);
  const char* all[64];
  int n = 0;
  for (int i = 0; args[i] != NULL && n < 60; i++) all[n++] = args[i];
  all[n++] = "--report-json";
  all[n++] = path;
  all[n] = NULL;
  struct run_result run = run_conform(all);
  *exit_code = run.exit_code;
  run_result_free(&run);
  cJSON* report = read_json_file(path);
  unlink(path);
  return report;
}

int count_lines(const char* text) {
  int lines = 0;
  for (const char* p = text; *p; p++) lines += *p == '\n';
  if (text[0] != '\0' && text[strlen(text) - 1] != '\n') lines++;
  return lines;
}

char* async_case_statuses(const char* producer, const char* consumer) {
  /* One report over both devices: every device, filtered to these two. */
  const char* args[] = {"--fixtures", HAND_WRITTEN_FIXTURES,
                        "--producer", producer,
                        "--consumer", consumer,
                        "--device",   "all",
                        "--filter",   "cpu/async.*",
                        "--filter",   "simulated/async.*",
                        "--filter",   "cpu/consumer.async.*",
                        "--filter",   "simulated/consumer.async.*",
                        NULL};
  int exit_code;
  cJSON* report = run_conform_report(args, &exit_code);
  ck_assert_msg(report != NULL, "%s and %s: no report", producer, consumer);
  char* lines = report_statuses(report);
  cJSON_Delete(report);
  ck_assert_msg(lines[0] != '\0', "%s and %s: the report has no async case", producer, consumer);
  return lines;
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

int run_suite(Suite* suite) {
  SRunner* runner = srunner_create(suite);
  srunner_run_all(runner, CK_NORMAL);
  int failed = srunner_ntests_failed(runner);
  srunner_free(runner);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

void assert_json_report_valid(const char* path) {
  ck_assert_msg(ADC_SCHEMA_PYTHON[0] != '\0',
                "no Python with the jsonschema package: install python3-jsonschema (ci/install-deps.sh)");
  const char* argv[] = {ADC_SCHEMA_PYTHON, SOURCE_PATH("tests/validate_json_report.py"), JSON_SCHEMA, path,
                        NULL};
  struct run_result run = run_command(argv);
  ck_assert_msg(run.exit_code == 0, "the JSON report does not validate against %s:\n%s%s", JSON_SCHEMA,
                run.out, run.err);
  run_result_free(&run);
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

int device_opens(const struct adc_device_driver* driver, struct adc_error* error) {
  struct adc_device_target target = adc_device_target_of(driver);
  return target_opens(&target, error);
}

int target_opens(const struct adc_device_target* target, struct adc_error* error) {
  struct adc_device device;
  int status = adc_device_open(target, &device, error);
  adc_device_close(&device);
  return status;
}

const struct adc_device* live_device(const char* name) {
  static struct adc_device devices[8];
  static size_t n_devices;
  const struct adc_device_driver* driver = adc_device_find(name);
  ck_assert_msg(driver != NULL, "no device %s", name);
  for (size_t i = 0; i < n_devices; i++) {
    if (devices[i].driver == driver) return &devices[i];
  }
  ck_assert_uint_lt(n_devices, sizeof(devices) / sizeof(devices[0]));
  struct adc_device_target target = adc_device_target_of(driver);
  struct adc_error error;
  ck_assert_msg(adc_device_open(&target, &devices[n_devices], &error) == 0, "%s", error.message);
  return &devices[n_devices++];
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
