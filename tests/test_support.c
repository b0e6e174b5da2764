#include "test_support.h"

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

struct run_result run_conform(const char* const* args) {
  struct run_result result = {0, NULL, NULL};
  FILE* out = tmpfile();
  FILE* err = tmpfile();
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fileno(out), STDOUT_FILENO);
    dup2(fileno(err), STDERR_FILENO);
    const char* argv[64] = {ADC_CONFORM};
    int n = 1;
    for (int i = 0; args[i] != NULL && n < 63; i++) argv[n++] = args[i];
    argv[n] = NULL;
    execv(ADC_CONFORM, (char* const*)argv);
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
  FILE* f = fopen(path, "r");
  cJSON* report = NULL;
  if (f != NULL) {
    char* text = slurp(f);
    fclose(f);
    report = cJSON_Parse(text);
    free(text);
  }
  unlink(path);
  return report;
}

int count_lines(const char* text) {
  int lines = 0;
  for (const char* p = text; *p; p++) lines += *p == '\n';
  if (text[0] != '\0' && text[strlen(text) - 1] != '\n') lines++;
  return lines;
}

int run_suite(Suite* suite) {
  SRunner* runner = srunner_create(suite);
  srunner_run_all(runner, CK_NORMAL);
  int failed = srunner_ntests_failed(runner);
  srunner_free(runner);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
