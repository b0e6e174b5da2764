#include "test_groups.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_support.h"

/* Whether `group` can run, asked in a child process; why not into `why`. */
static bool holds(const struct test_group* group, char* why, size_t size) {
  why[0] = '\0';
  if (group->unmet == NULL) return true;
  int ends[2];
  if (pipe(ends) != 0) {
    snprintf(why, size, "no pipe to ask in a child process");
    return false;
  }
  fflush(NULL);
  pid_t child = fork();
  if (child == 0) {
    close(ends[0]);
    char reason[1024];
    const char* unmet = group->unmet(group->arg, reason, sizeof(reason));
    /* An empty answer: the precondition holds. */
    if (unmet != NULL && write(ends[1], unmet, strlen(unmet)) < 0) _exit(1);
    _exit(0);
  }
  close(ends[1]);
  size_t used = 0;
  ssize_t n;
  while (child > 0 && used + 1 < size && (n = read(ends[0], why + used, size - used - 1)) > 0)
    used += (size_t)n;
  why[used] = '\0';
  close(ends[0]);
  int status = 0;
  if (child < 0 || waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    snprintf(why, size, "the check whether it can run ended abnormally (status %d)", status);
    return false;
  }
  return used == 0;
}

int run_test_groups(const char* suite_name, const struct test_group* groups, size_t n_groups, int argc,
                    char** argv) {
  for (int a = 1; a < argc; a++) {
    bool known = false;
    for (size_t g = 0; g < n_groups; g++) known |= strcmp(argv[a], groups[g].name) == 0;
    if (!known) {
      fprintf(stderr, "%s: no test group is named '%s'; the groups:", argv[0], argv[a]);
      for (size_t g = 0; g < n_groups; g++) fprintf(stderr, " %s", groups[g].name);
      fprintf(stderr, "\n");
      return 2;
    }
  }
  Suite* suite = NULL;
  int registered = 0;
  for (size_t g = 0; g < n_groups; g++) {
    bool named = argc <= 1;
    for (int a = 1; a < argc; a++) named |= strcmp(argv[a], groups[g].name) == 0;
    if (!named) continue;
    char why[1024];
    if (!holds(&groups[g], why, sizeof(why))) {
      printf("not run: %s: %s\n", groups[g].name, why);
      continue;
    }
    if (suite == NULL) suite = suite_create(suite_name);
    TCase* tcase = tcase_create(groups[g].name);
    if (groups[g].timeout_seconds > 0) tcase_set_timeout(tcase, groups[g].timeout_seconds);
    if (groups[g].add != NULL) {
      groups[g].add(tcase, groups[g].arg);
    } else {
      tcase_add_test(tcase, groups[g].test);
    }
    suite_add_tcase(suite, tcase);
    registered++;
  }
  if (registered == 0) return EXIT_NOT_RUN;
  return run_suite(suite);
}

const char* device_unmet(int index, char* why, size_t size) {
  if (index < 0 || (size_t)index >= adc_device_count()) {
    snprintf(why, size, "no such device in the registry");
    return why;
  }
  const struct adc_device_driver* driver = adc_device_at((size_t)index);
  struct adc_error error;
  if (device_opens(driver, &error) == 0) return NULL;
  snprintf(why, size, "no %s device (%s)", driver->name, error.message);
  return why;
}
