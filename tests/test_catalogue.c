/* The rule catalogue in code and the one in CONFORMANCE.md name the same
 * rules, and every row of the code is complete. */
#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "rule.h"

#define MAX_DOC_RULES 256

/* Rule IDs of CONFORMANCE.md: the first cell of each catalogue table row,
 * written as `id`. */
static int read_documented_rules(char ids[][128]) {
  FILE* f = fopen(ADC_SOURCE_DIR "/CONFORMANCE.md", "r");
  ck_assert_msg(f != NULL, "CONFORMANCE.md is missing");
  char line[4096];
  int n = 0;
  while (fgets(line, sizeof(line), f) != NULL && n < MAX_DOC_RULES) {
    if (strncmp(line, "| `", 3) != 0) continue;
    const char* start = line + 3;
    const char* end = strchr(start, '`');
    if (end == NULL || end - start >= 128) continue;
    /* Only dotted rule IDs; other tables (entry points) use other cells. */
    if (memchr(start, '.', (size_t)(end - start)) == NULL || memchr(start, '(', (size_t)(end - start)) != NULL) continue;
    snprintf(ids[n], 128, "%.*s", (int)(end - start), start);
    n++;
  }
  fclose(f);
  return n;
}

START_TEST(code_and_document_list_the_same_rules) {
  static char documented[MAX_DOC_RULES][128];
  int n = read_documented_rules(documented);
  for (size_t r = 0; r < adc_rule_count; r++) {
    bool found = false;
    for (int d = 0; d < n; d++) found |= strcmp(documented[d], adc_rules[r].id) == 0;
    ck_assert_msg(found, "rule %s is in the code but not in CONFORMANCE.md", adc_rules[r].id);
  }
  for (int d = 0; d < n; d++) {
    bool found = false;
    for (size_t r = 0; r < adc_rule_count; r++) found |= strcmp(documented[d], adc_rules[r].id) == 0;
    ck_assert_msg(found, "rule %s is in CONFORMANCE.md but not in the code", documented[d]);
  }
}
END_TEST

START_TEST(rules_are_complete_and_unique) {
  for (size_t r = 0; r < adc_rule_count; r++) {
    const struct adc_rule* rule = &adc_rules[r];
    ck_assert_msg(rule->clause && rule->sentence && rule->method && rule->run && rule->devices,
                  "rule %s is incomplete", rule->id);
    for (size_t s = r + 1; s < adc_rule_count; s++) {
      ck_assert_msg(strcmp(rule->id, adc_rules[s].id) != 0, "rule %s appears twice", rule->id);
    }
  }
}
END_TEST

int main(void) {
  Suite* suite = suite_create("catalogue");
  TCase* tc = tcase_create("catalogue");
  tcase_add_test(tc, code_and_document_list_the_same_rules);
  tcase_add_test(tc, rules_are_complete_and_unique);
  suite_add_tcase(suite, tc);
  return run_suite(suite);
}
