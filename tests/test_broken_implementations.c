/* Every rule is implemented: a deliberately broken implementation makes it
 * fail, and makes no other rule fail.  Rules depending on the broken one may
 * end unresolved; none may end fail, crash, timeout or warning. */
#include <check.h>
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rule.h"
#include "test_support.h"

struct expectation {
  const char* defect; /* fixtures/broken/<defect>.c */
  const char* rule;   /* the one rule it must fail */
};

static const struct expectation expectations[] = {
    {"producer_reserved_not_zeroed", "device_array.reserved.zeroed"},
    {"producer_wrong_device_type", "device_array.device_type.matches_request"},
    {"producer_cpu_device_id_zero", "device_array.device_id.cpu_minus_one"},
    {"producer_cpu_sync_event", "device_array.sync_event.null_on_cpu"},
    {"producer_release_missing", "array.release.non_null_after_export"},
    {"producer_schema_release_missing", "schema.release.non_null_after_export"},
    {"producer_release_not_marked", "array.release.sets_null"},
    {"producer_schema_release_not_marked", "schema.release.sets_null"},
    {"producer_wrong_format", "schema.format.matches_fixture"},
    {"producer_wrong_value", "array.data.matches_fixture"},
    {"producer_schema_release_frees_array", "schema.release.independent_of_array"},
    {"producer_release_uses_original_address", "array.move.base_relocatable"},
    {"producer_parent_release_damages_children", "array.move.child_outlives_parent"},
    {"producer_column_release_damages_dictionary", "array.move.dictionary_outlives_parent"},
    {"producer_leaks_on_release", "array.release.no_leak"},
    {"consumer_never_releases", "consumer.release.exactly_once"},
    {"consumer_releases_twice", "consumer.release.exactly_once"},
    {"consumer_releases_child", "consumer.release.not_on_children"},
    {"consumer_schema_never_released", "consumer.schema.release.exactly_once"},
    {"consumer_writes_buffers", "consumer.buffers.not_written"},
    {"consumer_ignores_offset", "consumer.offset.handled"},
    {"consumer_trusts_null_count", "consumer.null_count.unknown_handled"},
    {"consumer_accepts_anything", "consumer.compare.detects_mismatch"},
};
#define N_EXPECTATIONS (sizeof(expectations) / sizeof(expectations[0]))

static const struct adc_rule* find_rule(const char* id) {
  for (size_t i = 0; i < adc_rule_count; i++) {
    if (strcmp(adc_rules[i].id, id) == 0) return &adc_rules[i];
  }
  return NULL;
}

static bool is_failing(const char* status) {
  return strcmp(status, "fail") == 0 || strcmp(status, "crash") == 0 || strcmp(status, "timeout") == 0 ||
         strcmp(status, "warning") == 0;
}

START_TEST(defect_fails_exactly_its_rule) {
  const struct expectation* e = &expectations[_i];
  const struct adc_rule* rule = find_rule(e->rule);
  ck_assert_msg(rule != NULL, "unknown rule %s", e->rule);
  char library[512];
  snprintf(library, sizeof(library), "%s/libbroken_%s.so", ADC_BUILD_DIR, e->defect);
  const char* side = strncmp(e->defect, "producer_", 9) == 0 ? "--producer" : "--consumer";
  const char* args[] = {side, library, NULL};
  int exit_code;
  cJSON* report = run_conform_report(args, &exit_code);
  ck_assert_msg(report != NULL, "no report for %s", e->defect);
  int failures_of_rule = 0;
  const cJSON* item;
  cJSON_ArrayForEach(item, cJSON_GetObjectItem(report, "cases")) {
    const char* id = cJSON_GetObjectItem(item, "id")->valuestring;
    const char* rule_id = cJSON_GetObjectItem(item, "rule")->valuestring;
    const char* status = cJSON_GetObjectItem(item, "status")->valuestring;
    if (strcmp(rule_id, e->rule) == 0) {
      if (is_failing(status)) failures_of_rule++;
      if (rule->severity == ADC_SHOULD) ck_assert_msg(strcmp(status, "fail") != 0, "%s: a SHOULD rule failed", id);
    } else {
      ck_assert_msg(!is_failing(status), "%s: %s also made %s end %s: %s", e->defect, e->rule, id, status,
                    cJSON_GetObjectItem(item, "message")->valuestring);
    }
  }
  ck_assert_msg(failures_of_rule > 0, "%s did not make %s fail", e->defect, e->rule);
  /* MUST failures fail the run; a SHOULD shortfall alone does not. */
  ck_assert_int_eq(exit_code, rule->severity == ADC_MUST ? 1 : 0);
  cJSON_Delete(report);
}
END_TEST

START_TEST(every_rule_has_a_defect) {
  for (size_t r = 0; r < adc_rule_count; r++) {
    bool covered = false;
    for (size_t e = 0; e < N_EXPECTATIONS; e++) covered |= strcmp(expectations[e].rule, adc_rules[r].id) == 0;
    ck_assert_msg(covered, "rule %s has no deliberately broken implementation", adc_rules[r].id);
  }
}
END_TEST

START_TEST(every_defect_library_is_expected) {
  DIR* dir = opendir(ADC_BUILD_DIR);
  ck_assert_ptr_nonnull(dir);
  struct dirent* entry;
  int libraries = 0;
  while ((entry = readdir(dir)) != NULL) {
    if (strncmp(entry->d_name, "libbroken_", 10) != 0) continue;
    libraries++;
    bool known = false;
    for (size_t e = 0; e < N_EXPECTATIONS; e++) {
      char name[256];
      snprintf(name, sizeof(name), "libbroken_%s.so", expectations[e].defect);
      known |= strcmp(name, entry->d_name) == 0;
    }
    ck_assert_msg(known, "%s has no expectation in this test", entry->d_name);
  }
  closedir(dir);
  ck_assert_int_eq(libraries, (int)N_EXPECTATIONS);
}
END_TEST

int main(void) {
  Suite* suite = suite_create("broken_implementations");
  TCase* each = tcase_create("each_defect");
  tcase_set_timeout(each, 60);
  tcase_add_loop_test(each, defect_fails_exactly_its_rule, 0, (int)N_EXPECTATIONS);
  tcase_add_test(each, every_rule_has_a_defect);
  tcase_add_test(each, every_defect_library_is_expected);
  suite_add_tcase(suite, each);
  return run_suite(suite);
}
