/* --covering-fixtures (runner/fixture_cover.h): each rule's cases are on a
 * subset of the fixtures it applies to that holds every type those
 * fixtures hold, and the subsets together are smaller than the whole set
 * (what the sanitizer presets run, CMakePresets.json). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner/fixture_cover.h"
#include "test_support.h"

#define MAX_CASES 8192
#define MAX_FIXTURES 64

struct case_list {
  char* ids[MAX_CASES];
  int n;
};

static void list_cases(bool covering, struct case_list* out) {
  const char* args[] = {"--producer", "reference", "--consumer", "reference",
                        "--device",   "simulated", "--list",     covering ? "--covering-fixtures" : NULL,
                        NULL};
  struct run_result run = run_conform(args);
  ck_assert_msg(run.exit_code == 0, "exit %d: %s", run.exit_code, run.err);
  out->n = 0;
  for (char* line = strtok(run.out, "\n"); line != NULL && out->n < MAX_CASES; line = strtok(NULL, "\n"))
    out->ids[out->n++] = strdup(line);
  run_result_free(&run);
}

/* The bundled fixtures, by name. */
static struct {
  char name[64];
  struct arrow_json_file model;
} fixtures[MAX_FIXTURES];
static int n_fixtures;

static const struct arrow_json_file* fixture_named(const char* name) {
  for (int f = 0; f < n_fixtures; f++) {
    if (strcmp(fixtures[f].name, name) == 0) return &fixtures[f].model;
  }
  char path[1024], error[512];
  const char* folders[] = {ADC_SOURCE_DIR "/fixtures/data", ADC_SOURCE_DIR "/fixtures/columnar"};
  for (int d = 0; d < 2 && n_fixtures < MAX_FIXTURES; d++) {
    snprintf(path, sizeof(path), "%s/%s.json", folders[d], name);
    if (arrow_json_read_file(path, &fixtures[n_fixtures].model, error, sizeof(error)) != 0) continue;
    snprintf(fixtures[n_fixtures].name, sizeof(fixtures[0].name), "%s", name);
    return &fixtures[n_fixtures++].model;
  }
  ck_abort_msg("no bundled fixture %s", name);
  return NULL;
}

/* The types the listed cases of `rule` reach, marked in `held`. */
static void types_of_rule(const struct case_list* list, const char* rule, bool* held) {
  memset(held, 0, ADC_FIXTURE_TYPE_KEYS * sizeof(*held));
  char prefix[256];
  snprintf(prefix, sizeof(prefix), "simulated/%s/", rule);
  for (int i = 0; i < list->n; i++) {
    if (strncmp(list->ids[i], prefix, strlen(prefix)) == 0)
      adc_fixture_type_keys(fixture_named(list->ids[i] + strlen(prefix)), held);
  }
}

static bool listed(const struct case_list* list, const char* id) {
  for (int i = 0; i < list->n; i++) {
    if (strcmp(list->ids[i], id) == 0) return true;
  }
  return false;
}

START_TEST(each_rule_keeps_every_type_on_fewer_fixtures) {
  static struct case_list all, cover;
  list_cases(false, &all);
  list_cases(true, &cover);
  ck_assert_int_gt(cover.n, 0);
  ck_assert_msg(cover.n * 3 < all.n * 2, "the cover has %d cases of %d", cover.n, all.n);
  bool every[ADC_FIXTURE_TYPE_KEYS], kept[ADC_FIXTURE_TYPE_KEYS];
  int rules = 0;
  for (int i = 0; i < all.n; i++) {
    char rule[256];
    const char* start = strchr(all.ids[i], '/') + 1;
    snprintf(rule, sizeof(rule), "%.*s", (int)(strchr(start, '/') - start), start);
    if (i > 0 && strncmp(all.ids[i - 1] + (start - all.ids[i]), rule, strlen(rule)) == 0) continue;
    rules++;
    types_of_rule(&all, rule, every);
    types_of_rule(&cover, rule, kept);
    for (size_t k = 0; k < ADC_FIXTURE_TYPE_KEYS; k++)
      ck_assert_msg(every[k] == kept[k], "%s: type key %zu is %s in the cover", rule, k,
                    kept[k] ? "only" : "not");
  }
  for (int i = 0; i < cover.n; i++)
    ck_assert_msg(listed(&all, cover.ids[i]), "%s is not a case", cover.ids[i]);
  ck_assert_int_gt(rules, 100);
}
END_TEST

int main(void) {
  Suite* suite = suite_create("covering_fixtures");
  TCase* tc = tcase_create("plan");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, each_rule_keeps_every_type_on_fewer_fixtures);
  suite_add_tcase(suite, tc);
  SRunner* runner = srunner_create(suite);
  srunner_run_all(runner, CK_NORMAL);
  int failed = srunner_ntests_failed(runner);
  srunner_free(runner);
  return failed == 0 ? 0 : 1;
}
