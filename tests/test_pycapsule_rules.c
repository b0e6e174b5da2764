/* The PyCapsule rules (spec-tests/rules_pycapsule.c) and their twins: each
 * deliberately broken Python producer of fixtures/deliberately_broken/misbehaving/python/
 * pycapsule_twins.py fails the rule its `fails_rule` names, and no other
 * rule fails, crashes, times out or warns (a rule depending on the broken
 * one may end unresolved, naming it); every PyCapsule rule has a twin; and
 * the rules do not apply to a library that is not a Python one.  The twins
 * are listed from the module itself, so this test keeps no list of its
 * own, as the self-test table reads broken_FailsRule from each C twin.
 * (misbehaving_python:passthrough, the conforming baseline, passes them in
 * test_python_side.)
 *
 * Needs a python3 (or $ADC_PYTHON) with a shared libpython; without one the
 * program exits 77 (skipped). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rule_api/case_context.h"
#include "rule_api/rule.h"
#include "test_support.h"

#define TWINS_MODULE "pycapsule_twins"
#define MAX_TWINS 32
#define FIXTURE "int32_nulls"

static struct twin {
  char name[128];
  char rule[128];
} twins[MAX_TWINS];
static int n_twins;

/* Every factory of the module with a `fails_rule`, by asking its Python. */
static void list_twins(void) {
  const char* python = getenv("ADC_PYTHON");
  char command[1024];
  snprintf(command, sizeof(command),
           "'%s' -c 'import " TWINS_MODULE
           " as m\n"
           "for name, f in sorted(vars(m).items()):\n"
           "    if callable(f) and hasattr(f, \"fails_rule\"): print(name, f.fails_rule)'",
           python && python[0] ? python : "python3");
  FILE* listing = popen(command, "r");
  if (listing == NULL) return;
  char line[512];
  while (n_twins < MAX_TWINS && fgets(line, sizeof(line), listing) != NULL) {
    struct twin* t = &twins[n_twins];
    if (sscanf(line, "%127s %127s", t->name, t->rule) == 2) n_twins++;
  }
  pclose(listing);
}

START_TEST(every_pycapsule_rule_has_a_twin) {
  ck_assert_msg(n_twins > 0, "no twin listed from " TWINS_MODULE);
  int python_rules = 0;
  for (size_t r = 0; r < adc_rule_count(); r++) {
    const struct adc_rule* rule = adc_rule_at(r);
    if (!rule->judges_python_objects) continue;
    python_rules++;
    bool covered = false;
    for (int t = 0; t < n_twins; t++) covered |= strcmp(twins[t].rule, rule->id) == 0;
    ck_assert_msg(covered, "rule %s has no twin in " TWINS_MODULE ".py", rule->id);
  }
  ck_assert_int_gt(python_rules, 0);
  for (int t = 0; t < n_twins; t++) {
    const struct adc_rule* rule = adc_rule_find(twins[t].rule);
    ck_assert_msg(rule != NULL && rule->judges_python_objects, "twin %s names %s, no PyCapsule rule",
                  twins[t].name, twins[t].rule);
  }
}
END_TEST

/* Every rule of the producer role on one fixture, on the CPU. */
START_TEST(twin_fails_exactly_its_rule) {
  const struct twin* t = &twins[_i];
  char producer[256];
  snprintf(producer, sizeof(producer), "python:" TWINS_MODULE ":%s", t->name);
  const char* args[] = {"--producer",          producer,   "--device",       "cpu", "--fixtures",
                        HAND_WRITTEN_FIXTURES, "--filter", "cpu/*/" FIXTURE, NULL};
  int exit_code;
  cJSON* report = run_conform_report(args, &exit_code);
  ck_assert_msg(report != NULL, "%s: no report (exit %d)", t->name, exit_code);
  const struct adc_rule* own = adc_rule_find(t->rule);
  ck_assert_ptr_nonnull(own);
  const char* caught_as = adc_status_name(adc_violation_status(own));
  bool caught = false;
  const cJSON* c;
  cJSON_ArrayForEach(c, cJSON_GetObjectItem(report, "cases")) {
    const char* id = cJSON_GetStringValue(cJSON_GetObjectItem(c, "id"));
    const char* rule = cJSON_GetStringValue(cJSON_GetObjectItem(c, "rule"));
    const char* status = cJSON_GetStringValue(cJSON_GetObjectItem(c, "status"));
    const char* message = cJSON_GetStringValue(cJSON_GetObjectItem(c, "message"));
    if (strcmp(rule, t->rule) == 0) {
      ck_assert_msg(strcmp(status, caught_as) == 0, "%s: %s ended %s (%s), not %s", t->name, id, status,
                    message, caught_as);
      caught = true;
    } else if (strcmp(status, "unresolved") == 0) {
      ck_assert_msg(strstr(message, t->rule) != NULL, "%s: %s unresolved without naming %s: %s", t->name, id,
                    t->rule, message);
    } else {
      ck_assert_msg(strcmp(status, "pass") == 0 || strcmp(status, "not_supported") == 0,
                    "%s also made %s end %s: %s", t->name, id, status, message);
    }
  }
  ck_assert_msg(caught, "%s: no case of %s ran", t->name, t->rule);
  cJSON_Delete(report);
}
END_TEST

/* A library of C entry points has no Python objects: no PyCapsule case is
 * planned for it. */
START_TEST(pycapsule_rules_do_not_apply_to_c_libraries) {
  const char* args[] = {"--producer", "reference",     "--device", "cpu",
                        "--filter",   "*/pycapsule.*", "--list",   NULL};
  struct run_result run = run_conform(args);
  ck_assert_msg(strstr(run.out, "pycapsule.") == NULL, "PyCapsule cases planned for the reference:\n%s",
                run.out);
  run_result_free(&run);
  const char* python[] = {"--producer", "python:misbehaving_python:passthrough",
                          "--device",   "cpu",
                          "--fixtures", HAND_WRITTEN_FIXTURES,
                          "--filter",   "*/pycapsule.*",
                          "--list",     NULL};
  run = run_conform(python);
  ck_assert_msg(strstr(run.out, "cpu/pycapsule.capsule.names/" FIXTURE) != NULL,
                "no PyCapsule case planned for a Python library:\n%s%s", run.out, run.err);
  run_result_free(&run);
}
END_TEST

int main(void) {
  require_embeddable_python();
  list_twins();
  Suite* suite = suite_create("pycapsule_rules");
  TCase* each = tcase_create("each");
  tcase_set_timeout(each, 240);
  tcase_add_test(each, every_pycapsule_rule_has_a_twin);
  tcase_add_loop_test(each, twin_fails_exactly_its_rule, 0, n_twins);
  tcase_add_test(each, pycapsule_rules_do_not_apply_to_c_libraries);
  suite_add_tcase(suite, each);
  return run_suite(suite);
}
