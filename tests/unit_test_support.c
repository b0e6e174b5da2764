#include "unit_test_support.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
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

int each_bundled_fixture(void (*visit)(const char* path, void* context), void* context) {
  static const char* const folders[] = {SOURCE_PATH("fixtures/data"), SOURCE_PATH("fixtures/columnar")};
  int n = 0;
  for (size_t f = 0; f < sizeof(folders) / sizeof(folders[0]); f++) {
    DIR* dir = opendir(folders[f]);
    ck_assert_msg(dir != NULL, "%s does not open", folders[f]);
    for (struct dirent* entry; (entry = readdir(dir)) != NULL;) {
      size_t length = strlen(entry->d_name);
      if (length < 6 || strcmp(entry->d_name + length - 5, ".json") != 0) continue;
      char path[1024];
      snprintf(path, sizeof(path), "%s/%s", folders[f], entry->d_name);
      visit(path, context);
      n++;
    }
    closedir(dir);
  }
  return n;
}

int run_suite(Suite* suite) {
  SRunner* runner = srunner_create(suite);
  srunner_run_all(runner, CK_NORMAL);
  int failed = srunner_ntests_failed(runner);
  srunner_free(runner);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

struct run_result run_command(const char* const* argv) {
  struct run_result result = {0, NULL, NULL};
  FILE* out = tmpfile();
  FILE* err = tmpfile();
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fileno(out), STDOUT_FILENO);
    dup2(fileno(err), STDERR_FILENO);
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

void run_result_free(struct run_result* result) {
  free(result->out);
  free(result->err);
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

int count_lines(const char* text) {
  int lines = 0;
  for (const char* p = text; *p; p++) lines += *p == '\n';
  if (text[0] != '\0' && text[strlen(text) - 1] != '\n') lines++;
  return lines;
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
