/* GitHub Actions, when the run is a step of a workflow (GITHUB_ACTIONS is
 * "true", as the runner sets it):
 *   - a workflow command per rule that did not pass, on the console's
 *     stream: ::error for a rule with a case that fails the run, ::warning
 *     for one whose shortfalls do not (SHOULD rules, expected failures).
 *     One per rule, not per case: GitHub shows only the first few
 *     annotations of a step, so the sides come first: a ::warning per side
 *     tested that the run does not show to conform (the record's), saying
 *     why (a side whose cases all ended unresolved has no failing rule to
 *     annotate).
 *   - a Markdown summary appended to the file $GITHUB_STEP_SUMMARY names:
 *     the verdict, each side tested with its verdict and why, the cases per
 *     status, and a table of the rules that did not pass (the same rows as
 *     the default console, rule_tally.h).
 * https://docs.github.com/actions/using-workflows/workflow-commands-for-github-actions */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "report/rule_tally.h"
#include "support/version.h"

/* Enough of a message for an annotation or a table cell; the JSON report
 * has all of it. */
#define MESSAGE_BYTES 300

bool adc_github_actions(void) {
  const char* value = getenv("GITHUB_ACTIONS");
  return value != NULL && strcmp(value, "true") == 0;
}

/* Workflow command data escape '%', CR and LF; a property value also ':'
 * and ','. */
static void put_command_text(FILE* out, const char* text, bool property) {
  for (const char* p = text; *p; p++) {
    switch (*p) {
      case '%':
        fputs("%25", out);
        break;
      case '\r':
        fputs("%0D", out);
        break;
      case '\n':
        fputs("%0A", out);
        break;
      case ':':
        fputs(property ? "%3A" : ":", out);
        break;
      case ',':
        fputs(property ? "%2C" : ",", out);
        break;
      default:
        fputc(*p, out);
    }
  }
}

/* "2 pass, 4 fail" */
static void format_counts(char* out, size_t size, const struct adc_rule_tally* entry) {
  size_t used = 0;
  out[0] = '\0';
  for (int s = 0; s < ADC_STATUS_COUNT && used < size; s++) {
    if (entry->counts[s] == 0) continue;
    used += (size_t)snprintf(out + used, size - used, "%s%zu %s", used ? ", " : "", entry->counts[s],
                             adc_status_name((enum adc_status)s));
  }
}

static void put_side_annotations(FILE* out, const struct adc_run_record* record) {
  for (int role = 0; role < ADC_ROLE_COUNT; role++) {
    const struct adc_side_record* side = &record->sides[role];
    if (side->verdict != ADC_SIDE_NOT_SHOWN) continue;
    char title[128];
    snprintf(title, sizeof(title), "adc-conform: %s %s", adc_role_name((enum adc_role)role),
             adc_side_verdict_words(side->verdict));
    fputs("::warning title=", out);
    put_command_text(out, title, true);
    fputs("::", out);
    put_command_text(out, side->reason, false);
    fputc('\n', out);
  }
}

void adc_print_github_annotations(FILE* out, const struct adc_run_record* record) {
  put_side_annotations(out, record);
  struct adc_tally tally;
  if (adc_tally_rules(record, &tally) != 0) return;
  for (size_t r = 0; r < tally.n_rules; r++) {
    const struct adc_rule_tally* entry = &tally.rules[r];
    enum adc_status worst = adc_tally_worst(entry, record);
    bool shortfall = adc_status_fails_run(worst) || worst == ADC_WARNING;
    if (entry->failing_run_cases == 0 && !shortfall) continue;
    char title[256];
    snprintf(title, sizeof(title), "adc-conform: %s (%s)", entry->rule->rule,
             adc_severity_name(entry->rule->severity));
    char counts[256];
    format_counts(counts, sizeof(counts), entry);
    fprintf(out, "::%s title=", entry->failing_run_cases > 0 ? "error" : "warning");
    put_command_text(out, title, true);
    fputs("::", out);
    char text[2048];
    if (entry->first_problem == SIZE_MAX) {
      snprintf(text, sizeof(text), "%s: every case passed, against an --expect entry that expects otherwise",
               counts);
    } else {
      const struct adc_case_record* problem = &record->cases[entry->first_problem];
      snprintf(text, sizeof(text), "%s. First: %s: %.*s\nspec, %s: \"%s\"", counts, problem->id,
               MESSAGE_BYTES, problem->message, entry->rule->clause, entry->rule->sentence);
    }
    put_command_text(out, text, false);
    fputc('\n', out);
  }
  adc_tally_free(&tally);
}

/* Text inside a Markdown table cell, on one line: '|' would end the cell. */
static void put_cell(FILE* out, const char* text, size_t max_bytes) {
  size_t i = 0;
  for (; text[i] != '\0' && i < max_bytes; i++) {
    unsigned char c = (unsigned char)text[i];
    if (c == '|') fputc('\\', out);
    fputc(c < 0x20 ? ' ' : c, out);
  }
  /* Finish the UTF-8 character the limit fell inside. */
  for (; ((unsigned char)text[i] & 0xC0) == 0x80; i++) fputc(text[i], out);
  if (text[i] != '\0') fputs("...", out);
}

static void put_rules_table(FILE* out, const struct adc_run_record* record, const struct adc_tally* tally) {
  size_t passed = 0;
  bool header = false;
  for (size_t r = 0; r < tally->n_rules; r++) {
    const struct adc_rule_tally* entry = &tally->rules[r];
    if (entry->first_problem == SIZE_MAX && entry->failing_run_cases == 0) {
      passed++;
      continue;
    }
    if (!header) {
      fputs("| Rule | Severity | Worst | Cases | First problem |\n|---|---|---|---|---|\n", out);
      header = true;
    }
    char counts[256];
    format_counts(counts, sizeof(counts), entry);
    fprintf(out, "| `%s` | %s | %s | %s | ", entry->rule->rule, adc_severity_name(entry->rule->severity),
            adc_status_name(adc_tally_worst(entry, record)), counts);
    if (entry->first_problem != SIZE_MAX) {
      fprintf(out, "`%s`: ", record->cases[entry->first_problem].id);
      put_cell(out, record->cases[entry->first_problem].message, MESSAGE_BYTES);
    }
    fputs(" |\n", out);
  }
  fprintf(out, "\n%zu rule(s) passed every case.\n", passed);
  for (size_t d = 0; d < tally->n_unavailable; d++) {
    const struct adc_unavailable_device* device = &tally->unavailable[d];
    fprintf(out, "\n%s: `%s` (%zu cases %s): ", adc_unavailable_word(device), device->device, device->cases,
            adc_status_name(device->status));
    put_cell(out, record->cases[device->example].message, MESSAGE_BYTES);
    fputc('\n', out);
  }
}

/* "- producer: not shown to conform: <why>", a line per side tested. */
static void put_sides(FILE* out, const struct adc_run_record* record) {
  for (int role = 0; role < ADC_ROLE_COUNT; role++) {
    const struct adc_side_record* side = &record->sides[role];
    if (!side->tested) continue;
    fprintf(out, "- %s: **%s**: ", adc_role_name((enum adc_role)role), adc_side_verdict_words(side->verdict));
    put_cell(out, side->reason, MESSAGE_BYTES);
    fputc('\n', out);
  }
  fputc('\n', out);
}

int adc_append_github_summary(const struct adc_run_record* record, struct adc_error* error) {
  const char* path = getenv("GITHUB_STEP_SUMMARY");
  if (path == NULL || path[0] == '\0') return 0;
  struct adc_tally tally;
  if (adc_tally_rules(record, &tally) != 0) return adc_fail(error, "out of memory");
  FILE* out = fopen(path, "a");
  if (out == NULL) {
    adc_tally_free(&tally);
    return adc_fail(error, "cannot append to GITHUB_STEP_SUMMARY '%s': %s", path, strerror(errno));
  }
  const struct adc_summary* summary = &record->summary;
  fprintf(out, "## adc-conform: %s\n\n", record->headline);
  put_sides(out, record);
  fprintf(out, "adc-conform %s (commit `%.12s`), device `%s`", ADC_VERSION, ADC_GIT_COMMIT,
          record->device_option);
  for (int role = 0; role < ADC_ROLE_COUNT; role++) {
    const struct adc_side_record* side = &record->sides[role];
    if (side->tested) fprintf(out, ", %s `%s`", adc_role_name((enum adc_role)role), side->path);
  }
  fprintf(out, ". Coverage: %zu of %zu cases judged; %zu case(s) fail the run.\n\n", summary->judged_cases,
          summary->cases, summary->failing_run_cases);
  fputs("| Status | Cases |\n|---|---|\n", out);
  for (int s = 0; s < ADC_STATUS_COUNT; s++) {
    if (summary->counts[s] > 0)
      fprintf(out, "| %s | %zu |\n", adc_status_name((enum adc_status)s), summary->counts[s]);
  }
  fputc('\n', out);
  put_rules_table(out, record, &tally);
  fputc('\n', out);
  adc_tally_free(&tally);
  if (fclose(out) != 0) return adc_fail(error, "cannot append to GITHUB_STEP_SUMMARY '%s'", path);
  return 0;
}
