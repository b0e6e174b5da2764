/* The rule catalogue in code and the one in CONFORMANCE.md are the same:
 * the same rule IDs, and each row of the document is exactly the row
 * `adc-conform --list-rules=markdown` prints from the code (role, severity,
 * reach, needs, sentence, method).  Every row of the code is complete.  The
 * plugin ABI's tables there list exactly the entry points of
 * ADC_PLUGIN_ENTRY_POINTS. */
#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adc/plugin_abi.h"
#include "consumer_waiting.h"
#include "rule_api/rule.h"
#include "test_support.h"

#define MAX_DOC_RULES 256

/* Whether a line is a row of the rule catalogue table: its first cell is a
 * dotted rule ID written as `id` (other tables use other first cells). */
static bool is_rule_row(const char* line) {
  if (strncmp(line, "| `", 3) != 0) return false;
  const char* start = line + 3;
  const char* end = strchr(start, '`');
  if (end == NULL || end - start >= 128) return false;
  return memchr(start, '.', (size_t)(end - start)) != NULL &&
         memchr(start, '(', (size_t)(end - start)) == NULL;
}

/* Rule rows of CONFORMANCE.md, whole lines without their newline. */
static int read_documented_rows(char rows[][4096]) {
  FILE* f = fopen(ADC_SOURCE_DIR "/CONFORMANCE.md", "r");
  ck_assert_msg(f != NULL, "CONFORMANCE.md is missing");
  char line[4096];
  int n = 0;
  while (fgets(line, sizeof(line), f) != NULL && n < MAX_DOC_RULES) {
    if (!is_rule_row(line)) continue;
    line[strcspn(line, "\n")] = '\0';
    snprintf(rows[n++], 4096, "%s", line);
  }
  fclose(f);
  return n;
}

/* The ID of a rule row: the first cell, without its backquotes. */
static void row_id(const char* row, char* id, size_t size) {
  snprintf(id, size, "%.*s", (int)strcspn(row + 3, "`"), row + 3);
}

START_TEST(code_and_document_list_the_same_rules) {
  static char documented[MAX_DOC_RULES][4096];
  int n = read_documented_rows(documented);
  char id[128];
  for (size_t r = 0; r < adc_rule_count(); r++) {
    bool found = false;
    for (int d = 0; d < n; d++) {
      row_id(documented[d], id, sizeof(id));
      found |= strcmp(id, adc_rule_at(r)->id) == 0;
    }
    ck_assert_msg(found, "rule %s is in the code but not in CONFORMANCE.md", adc_rule_at(r)->id);
  }
  for (int d = 0; d < n; d++) {
    row_id(documented[d], id, sizeof(id));
    ck_assert_msg(adc_rule_find(id) != NULL, "rule %s is in CONFORMANCE.md but not in the code", id);
  }
}
END_TEST

START_TEST(document_rows_are_the_code_rows) {
  static char documented[MAX_DOC_RULES][4096];
  int n = read_documented_rows(documented);
  const char* args[] = {"--list-rules=markdown", NULL};
  struct run_result run = run_conform(args);
  ck_assert_int_eq(run.exit_code, 0);
  int printed = 0;
  for (char* line = strtok(run.out, "\n"); line != NULL; line = strtok(NULL, "\n")) {
    if (!is_rule_row(line)) continue;
    printed++;
    bool found = false;
    for (int d = 0; d < n && !found; d++) found = strcmp(documented[d], line) == 0;
    ck_assert_msg(found,
                  "CONFORMANCE.md lacks this row, or has it in another wording (paste the output of "
                  "adc-conform --list-rules=markdown):\n%s",
                  line);
  }
  ck_assert_int_eq(printed, (int)adc_rule_count());
  ck_assert_int_eq(n, printed);
  run_result_free(&run);
}
END_TEST

START_TEST(rules_are_complete_and_unique) {
  for (size_t r = 0; r < adc_rule_count(); r++) {
    const struct adc_rule* rule = adc_rule_at(r);
    ck_assert_msg(rule->id && rule->clause && rule->sentence && rule->method && rule->run && rule->needs,
                  "rule %s is incomplete", rule->id);
    ck_assert_msg(rule->devices == NULL || (rule->devices->holds && rule->devices->description),
                  "rule %s has an incomplete device filter", rule->id);
    ck_assert_msg(rule->fixtures == NULL || (rule->fixtures->holds && rule->fixtures->description),
                  "rule %s has an incomplete fixture filter", rule->id);
    /* Late writes run where the late-write filter lets them, and the runner
     * reads writes_late to know that such a case may sleep through them. */
    ck_assert_msg(rule->writes_late == (rule->devices == &adc_devices_for_late_writes),
                  "rule %s: writes_late and the late-write device filter must go together", rule->id);
    ck_assert_ptr_eq(adc_rule_find(rule->id), rule); /* the first with its ID is itself: no duplicate */
  }
}
END_TEST

/* The symbol suffixes of the plugin ABI, from its one list. */
#define ADC_SUFFIX_TEXT(name, suffix, result, parameters, arguments) #suffix,
static const char* const entry_point_suffixes[] = {ADC_PLUGIN_ENTRY_POINTS(ADC_SUFFIX_TEXT)};
#undef ADC_SUFFIX_TEXT
#define N_ENTRY_POINTS (sizeof(entry_point_suffixes) / sizeof(entry_point_suffixes[0]))

/* Whether a line is a row of an entry point table: its first cell is a
 * symbol suffix written as `Suffix` (no dot, as rule IDs have). */
static bool is_entry_point_row(const char* line, char* suffix, size_t size) {
  if (strncmp(line, "| `", 3) != 0) return false;
  size_t length = strcspn(line + 3, "`");
  if (length == 0 || length >= size || memchr(line + 3, '.', length) != NULL) return false;
  if (strncmp(line + 3 + length, "` |", 3) != 0) return false;
  snprintf(suffix, size, "%.*s", (int)length, line + 3);
  return strncmp(suffix, "CData", 5) == 0 || strncmp(suffix, "CDevice", 7) == 0 ||
         strcmp(suffix, "BytesAllocated") == 0;
}

START_TEST(plugin_abi_tables_list_every_entry_point) {
  FILE* f = fopen(ADC_SOURCE_DIR "/CONFORMANCE.md", "r");
  ck_assert_ptr_nonnull(f);
  bool documented[N_ENTRY_POINTS] = {false};
  char line[8192];
  char suffix[128];
  while (fgets(line, sizeof(line), f) != NULL) {
    if (!is_entry_point_row(line, suffix, sizeof(suffix))) continue;
    bool known = false;
    for (size_t e = 0; e < N_ENTRY_POINTS; e++) {
      if (strcmp(entry_point_suffixes[e], suffix) != 0) continue;
      ck_assert_msg(!documented[e], "CONFORMANCE.md describes %s twice", suffix);
      documented[e] = known = true;
    }
    ck_assert_msg(known, "CONFORMANCE.md describes %s, which ADC_PLUGIN_ENTRY_POINTS lacks", suffix);
  }
  fclose(f);
  for (size_t e = 0; e < N_ENTRY_POINTS; e++) {
    ck_assert_msg(documented[e], "CONFORMANCE.md (Plugin ABI) does not describe %s", entry_point_suffixes[e]);
  }
}
END_TEST

int main(void) {
  Suite* suite = suite_create("catalogue");
  TCase* tc = tcase_create("catalogue");
  tcase_add_test(tc, code_and_document_list_the_same_rules);
  tcase_add_test(tc, document_rows_are_the_code_rows);
  tcase_add_test(tc, rules_are_complete_and_unique);
  tcase_add_test(tc, plugin_abi_tables_list_every_entry_point);
  suite_add_tcase(suite, tc);
  return run_suite(suite);
}
