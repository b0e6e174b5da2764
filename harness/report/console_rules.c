/* The console by default: one line per rule that did not pass every case,
 * across every device of the run, so that a run of several hundred cases
 * fits on a screen and still names each rule worth reading about.  The
 * cases themselves are in --verbose and in the JSON report. */
#include <stdint.h>
#include <string.h>

#include "report/console_parts.h"
#include "report/console_style.h"
#include "report/report.h"
#include "report/rule_tally.h"

/* Enough of a message to recognise it; the JSON report has all of it. */
#define MESSAGE_BYTES 160

static void put_counts(FILE* out, const struct adc_rule_tally* entry) {
  const char* separator = "";
  for (int s = 0; s < ADC_STATUS_COUNT; s++) {
    if (entry->counts[s] == 0) continue;
    fprintf(out, "%s%zu %s", separator, entry->counts[s], adc_status_name((enum adc_status)s));
    separator = ", ";
  }
  separator = " [";
  for (int o = 0; o < ADC_OUTCOME_COUNT; o++) {
    if (entry->outcomes[o] == 0) continue;
    fprintf(out, "%s%zu %s", separator, entry->outcomes[o],
            adc_expectation_outcome_name((enum adc_expectation_outcome)o));
    separator = ", ";
  }
  if (separator[0] == ',') fputc(']', out);
}

/* A rule is worth a line when a case did not pass, or passed against an
 * --expect entry (which should then go). */
static bool worth_a_line(const struct adc_rule_tally* entry) {
  return entry->first_problem != SIZE_MAX || entry->outcomes[ADC_UNEXPECTED_PASS] > 0;
}

static void put_rule_line(FILE* out, const struct adc_rule_tally* entry, const struct adc_run_record* record,
                          int id_width, bool colour) {
  adc_put_status_label(out, adc_tally_worst(entry, record), 7, colour);
  fprintf(out, " %-*s %-6s ", id_width, entry->rule->rule, adc_severity_name(entry->rule->severity));
  put_counts(out, entry);
  if (entry->first_problem == SIZE_MAX) {
    fputc('\n', out);
    return;
  }
  const struct adc_case_record* problem = &record->cases[entry->first_problem];
  /* The case the message is from, without the rule's ID, which is on the line. */
  fprintf(out, "; %s/%s: ", problem->device, problem->fixture);
  adc_put_one_line(out, problem->message, MESSAGE_BYTES);
  fputc('\n', out);
}

/* Devices that were not there (or refused the run), one line per reason
 * (the GPU devices of one runtime share theirs). */
static void put_unavailable(FILE* out, const struct adc_tally* tally, const struct adc_run_record* record) {
  bool said[ADC_RECORD_MAX_DEVICES] = {false};
  for (size_t d = 0; d < tally->n_unavailable; d++) {
    if (said[d]) continue;
    const char* reason = record->cases[tally->unavailable[d].example].message;
    enum adc_status status = tally->unavailable[d].status;
    size_t cases = 0;
    fprintf(out, "%s: ", adc_unavailable_word(&tally->unavailable[d]));
    for (size_t e = d; e < tally->n_unavailable; e++) {
      if (said[e] || tally->unavailable[e].status != status ||
          strcmp(record->cases[tally->unavailable[e].example].message, reason) != 0) {
        continue;
      }
      said[e] = true;
      cases += tally->unavailable[e].cases;
      fprintf(out, "%s%s", e == d ? "" : ", ", tally->unavailable[e].device);
    }
    fprintf(out, " (%zu cases %s): ", cases, adc_status_name(status));
    adc_put_one_line(out, reason, MESSAGE_BYTES);
    fputc('\n', out);
  }
}

void adc_console_put_rules(FILE* out, const struct adc_run_record* record, bool colour) {
  struct adc_tally tally;
  if (adc_tally_rules(record, &tally) != 0) {
    fputs("(out of memory: no table of rules)\n", out);
    return;
  }
  int id_width = 0;
  size_t passed = 0;
  for (size_t r = 0; r < tally.n_rules; r++) {
    int width = (int)strlen(tally.rules[r].rule->rule);
    if (!worth_a_line(&tally.rules[r])) {
      passed++;
    } else if (width > id_width) {
      id_width = width;
    }
  }
  for (size_t r = 0; r < tally.n_rules; r++) {
    if (worth_a_line(&tally.rules[r])) put_rule_line(out, &tally.rules[r], record, id_width, colour);
  }
  if (tally.n_rules > 0 && passed == tally.n_rules) {
    fprintf(out, "Every rule (%zu) passed every case.\n", passed);
  } else if (tally.n_rules > 0) {
    fprintf(out, "%zu other rule(s) passed every case (--verbose lists every case).\n", passed);
  }
  put_unavailable(out, &tally, record);
  adc_tally_free(&tally);
}
