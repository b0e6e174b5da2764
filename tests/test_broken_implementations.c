/* Every rule is implemented: a deliberately broken implementation makes it
 * fail, and makes no other rule fail.  Rules depending on the broken one may
 * end unresolved; none may end fail, crash, timeout or warning.  Each
 * library names the rule it must fail (broken_FailsRule), so this test keeps
 * no list of its own.  Each is run on every device its rule applies to and
 * this machine has (the CPU and the simulated device everywhere), since a
 * rule must hold on every device. */
#include <check.h>
#include <dirent.h>
#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device/device.h"
#include "rule_api/rule.h"
#include "test_support.h"

#define MAX_DEFECTS 128

struct defect {
  char name[128]; /* fixtures/broken/<name>.c */
  char library[512];
  char rule[128]; /* the one rule it must fail */
};

static struct defect defects[MAX_DEFECTS];
static int n_defects;

/* Asks the library which rule it must fail.  Loading a twin runs no code
 * of its own but a constructor filling its forwarding table. */
static void read_fails_rule(struct defect* d) {
  void* handle = dlopen(d->library, RTLD_NOW | RTLD_LOCAL);
  if (handle == NULL) {
    fprintf(stderr, "cannot load %s: %s\n", d->library, dlerror());
    exit(EXIT_FAILURE);
  }
  void* address = dlsym(handle, "broken_FailsRule");
  const char* (*fails_rule)(void) = NULL;
  if (address != NULL) memcpy(&fails_rule, &address, sizeof(address));
  snprintf(d->rule, sizeof(d->rule), "%s", fails_rule != NULL ? fails_rule() : "");
  dlclose(handle);
}

static int by_name(const void* a, const void* b) {
  return strcmp(((const struct defect*)a)->name, ((const struct defect*)b)->name);
}

static void discover_defects(void) {
  DIR* dir = opendir(ADC_BUILD_DIR);
  if (dir == NULL) exit(EXIT_FAILURE);
  struct dirent* entry;
  while ((entry = readdir(dir)) != NULL && n_defects < MAX_DEFECTS) {
    size_t length = strlen(entry->d_name);
    if (strncmp(entry->d_name, "libbroken_", 10) != 0 || length < 14 ||
        strcmp(entry->d_name + length - 3, ".so") != 0) {
      continue;
    }
    struct defect* d = &defects[n_defects++];
    snprintf(d->name, sizeof(d->name), "%.*s", (int)(length - 13), entry->d_name + 10);
    snprintf(d->library, sizeof(d->library), "%s/%s", ADC_BUILD_DIR, entry->d_name);
    read_fails_rule(d);
  }
  closedir(dir);
  qsort(defects, (size_t)n_defects, sizeof(defects[0]), by_name);
}

static bool is_failing(const char* status) {
  return strcmp(status, "fail") == 0 || strcmp(status, "crash") == 0 || strcmp(status, "timeout") == 0 ||
         strcmp(status, "warning") == 0;
}

/* Whether the rule can be judged on `device` on this machine. */
static bool runs_here(const struct adc_rule* rule, const struct adc_device* device) {
  struct adc_error error;
  if (device->probe(device, &error) != 0) return false;
  return rule->devices == NULL || rule->devices->holds(device);
}

static void check_defect_on(const struct defect* d, const struct adc_rule* rule,
                            const struct adc_device* device) {
  const char* side = rule->role == ADC_ROLE_PRODUCER ? "--producer" : "--consumer";
  const char* args[] = {side, d->library, "--device", device->name, NULL};
  int exit_code;
  cJSON* report = run_conform_report(args, &exit_code);
  ck_assert_msg(report != NULL, "no report for %s on %s", d->name, device->name);
  int failures_of_rule = 0;
  const cJSON* item;
  cJSON_ArrayForEach(item, cJSON_GetObjectItem(report, "cases")) {
    const char* id = cJSON_GetObjectItem(item, "id")->valuestring;
    const char* rule_id = cJSON_GetObjectItem(item, "rule")->valuestring;
    const char* status = cJSON_GetObjectItem(item, "status")->valuestring;
    if (strcmp(rule_id, d->rule) == 0) {
      if (is_failing(status)) failures_of_rule++;
      if (rule->severity == ADC_SHOULD)
        ck_assert_msg(strcmp(status, "fail") != 0, "%s: a SHOULD rule failed", id);
    } else {
      ck_assert_msg(!is_failing(status), "%s: %s also made %s end %s: %s", d->name, d->rule, id, status,
                    cJSON_GetObjectItem(item, "message")->valuestring);
    }
  }
  ck_assert_msg(failures_of_rule > 0, "%s did not make %s fail on %s", d->name, d->rule, device->name);
  /* MUST failures fail the run; a SHOULD shortfall alone does not. */
  ck_assert_int_eq(exit_code, rule->severity == ADC_MUST ? 1 : 0);
  cJSON_Delete(report);
}

START_TEST(defect_fails_exactly_its_rule) {
  const struct defect* d = &defects[_i];
  const struct adc_rule* rule = adc_rule_find(d->rule);
  ck_assert_msg(rule != NULL, "%s names no rule of the catalogue: '%s'", d->name, d->rule);
  int devices = 0;
  for (size_t i = 0; i < adc_device_count(); i++) {
    if (!runs_here(rule, adc_device_at(i))) continue;
    check_defect_on(d, rule, adc_device_at(i));
    devices++;
  }
  ck_assert_msg(devices > 0, "%s: rule %s runs on no device of this machine", d->name, d->rule);
}
END_TEST

START_TEST(every_rule_has_a_defect) {
  for (size_t r = 0; r < adc_rule_count(); r++) {
    bool covered = false;
    for (int d = 0; d < n_defects; d++) covered |= strcmp(defects[d].rule, adc_rule_at(r)->id) == 0;
    ck_assert_msg(covered, "rule %s has no deliberately broken implementation", adc_rule_at(r)->id);
  }
}
END_TEST

START_TEST(every_defect_source_was_built) {
  DIR* dir = opendir(ADC_SOURCE_DIR "/fixtures/broken");
  ck_assert_ptr_nonnull(dir);
  struct dirent* entry;
  int sources = 0;
  while ((entry = readdir(dir)) != NULL) {
    const char* name = entry->d_name;
    size_t length = strlen(name);
    bool defect = strncmp(name, "producer_", 9) == 0 || strncmp(name, "consumer_", 9) == 0;
    if (!defect || strcmp(name + length - 2, ".c") != 0) continue;
    sources++;
    bool built = false;
    for (int d = 0; d < n_defects; d++)
      built |= strncmp(defects[d].name, name, length - 2) == 0 && defects[d].name[length - 2] == '\0';
    ck_assert_msg(built, "fixtures/broken/%s has no library in the build folder", name);
  }
  closedir(dir);
  ck_assert_int_eq(sources, n_defects);
}
END_TEST

int main(void) {
  discover_defects();
  Suite* suite = suite_create("broken_implementations");
  TCase* each = tcase_create("each_defect");
  tcase_set_timeout(each, 60);
  tcase_add_loop_test(each, defect_fails_exactly_its_rule, 0, n_defects);
  tcase_add_test(each, every_rule_has_a_defect);
  tcase_add_test(each, every_defect_source_was_built);
  suite_add_tcase(suite, each);
  return run_suite(suite);
}
