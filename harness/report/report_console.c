/* The console report: one line per rule that did not pass (or, with
 * --verbose, one line per case), then a summary and the one-word outcome. */
#include <string.h>

#include "report/console_parts.h"
#include "report/console_style.h"
#include "report/report.h"

/* Enough of a side's reason for one console line; the JSON report has all
 * of it. */
#define REASON_BYTES 300

/* The summary of an --expect run: each outcome, and whether the run met
 * the file. */
static void put_expectations_summary(FILE* out, const struct adc_run_record* record) {
  fprintf(out, "Expectations of %s:", record->expectations_path);
  for (int o = 0; o < ADC_OUTCOME_COUNT; o++) {
    fprintf(out, "%s %zu %s", o ? "," : "", record->summary.outcomes[o],
            adc_expectation_outcome_name((enum adc_expectation_outcome)o));
  }
  size_t unmatched = record->n_unmatched;
  fprintf(out, "; %zu entr%s matched no case.\n", unmatched, unmatched == 1 ? "y" : "ies");
}

/* "N cases on cpu, simulated: 40 pass, 2 fail." */
static void put_counts_line(FILE* out, const struct adc_run_record* record) {
  fprintf(out, "%zu cases on ", record->n_cases);
  for (size_t d = 0, listed = 0; d < record->n_devices; d++) {
    bool has_cases = false;
    for (size_t i = 0; i < record->n_cases && !has_cases; i++) {
      has_cases = strcmp(record->cases[i].device, record->devices[d]) == 0;
    }
    if (has_cases) fprintf(out, "%s%s", listed++ > 0 ? ", " : "", record->devices[d]);
  }
  adc_print_status_counts(out, record);
}

void adc_print_status_counts(FILE* out, const struct adc_run_record* record) {
  const struct adc_summary* summary = &record->summary;
  fputc(':', out);
  const char* separator = " ";
  for (int s = 0; s < ADC_STATUS_COUNT; s++) {
    if (summary->counts[s] == 0) continue;
    fprintf(out, "%s%zu %s", separator, summary->counts[s], adc_status_name((enum adc_status)s));
    separator = ", ";
  }
  fprintf(out, ".\n");
}

/* Green for a run that conforms, red for one that does not, yellow for
 * one that shows nothing either way (interrupted, or a side not shown). */
static const char* verdict_colour(enum adc_run_verdict verdict) {
  if (verdict == ADC_RUN_CONFORMS) return ADC_ANSI_GREEN;
  if (verdict == ADC_RUN_DOES_NOT_CONFORM) return ADC_ANSI_RED;
  return ADC_ANSI_YELLOW;
}

/* A line for each side tested that the run does not show to conform, and
 * why: which side holds back the verdict.  A side that does not conform
 * has its failing rules listed above the counts. */
static void put_sides_not_shown(FILE* out, const struct adc_run_record* record, bool colour) {
  for (int role = 0; role < ADC_ROLE_COUNT; role++) {
    const struct adc_side_record* side = &record->sides[role];
    if (side->verdict != ADC_SIDE_NOT_SHOWN) continue;
    adc_put_colour(out, colour, ADC_ANSI_YELLOW);
    fprintf(out, "  %s: %s", adc_role_name((enum adc_role)role), adc_side_verdict_words(side->verdict));
    adc_put_colour(out, colour, ADC_ANSI_RESET);
    fputs(": ", out);
    adc_put_one_line(out, side->reason, REASON_BYTES);
    fputc('\n', out);
  }
}

static bool tested_any_side(const struct adc_run_record* record) {
  for (int role = 0; role < ADC_ROLE_COUNT; role++) {
    if (record->sides[role].tested) return true;
  }
  return false;
}

void adc_print_verdict(FILE* out, const struct adc_run_record* record, bool colour) {
  const struct adc_summary* summary = &record->summary;
  enum adc_run_verdict verdict = record->verdict;
  adc_put_colour(out, colour, verdict_colour(verdict));
  fprintf(out, "%s: ", record->headline);
  if (verdict == ADC_RUN_INCOMPLETE) {
    fprintf(out, "the run was interrupted by %s; the cases it did not finish are unresolved.",
            adc_signal_name(record->interrupted_by));
  } else if (verdict == ADC_RUN_DOES_NOT_CONFORM) {
    fprintf(out, "%zu MUST case(s) failed, crashed or timed out", summary->failing_must_cases);
    if (record->expectations_path != NULL) {
      fprintf(out, " (%zu of them not expected)", summary->unexpected_failing_must_cases);
    }
    fputc('.', out);
  } else if (verdict == ADC_RUN_NOT_SHOWN) {
    fputs(tested_any_side(record) ? "no MUST rule failed, but a side tested is not shown to conform (below)."
                                  : "no side was tested.",
          out);
  } else {
    fprintf(out, "no MUST rule failed.");
  }
  adc_put_colour(out, colour, ADC_ANSI_RESET);
  /* Beside the verdict, what it rests on. */
  fprintf(out, " Coverage: %zu of %zu cases judged.\n", summary->judged_cases, summary->cases);
  if (verdict != ADC_RUN_INCOMPLETE) put_sides_not_shown(out, record, colour);
}

static void put_expectations_verdict(FILE* out, const struct adc_run_record* record) {
  const struct adc_summary* summary = &record->summary;
  size_t mismatches = summary->outcomes[ADC_UNEXPECTED_PASS] + summary->outcomes[ADC_UNEXPECTED_STATUS];
  if (summary->failing_run_cases == 0) {
    fprintf(out, "EXPECTATIONS MET: every case ended as %s says.\n", record->expectations_path);
  } else {
    fprintf(out,
            "EXPECTATIONS NOT MET: %zu case(s) ended otherwise than %s says; %zu MUST case(s) without an "
            "entry failed, crashed or timed out.\n",
            mismatches, record->expectations_path, summary->failing_run_cases - mismatches);
  }
}

/* Failures a prepared process gave that neither the run alone nor the
 * replay of that process gave again: passes, said so (never silently). */
static void put_unreproduced(FILE* out, const struct adc_run_record* record) {
  size_t n = 0;
  const struct adc_case_record* first = NULL;
  for (size_t i = 0; i < record->n_cases; i++) {
    const struct adc_case_record* c = &record->cases[i];
    if (!c->replayed || c->reproduced) continue;
    if (n++ == 0) first = c;
  }
  if (n == 0) return;
  fprintf(
      out,
      "Not reproduced: %zu case(s) did not pass in a prepared process, after earlier cases, but passed "
      "alone and in a replay of that process (load, timing or the device?); the first: %s, which gave %s: ",
      n, first->id, adc_status_name(first->shared_status));
  adc_put_one_line(out, first->shared_message, 400);
  fputc('\n', out);
}

void adc_print_console_report(FILE* out, const struct adc_run_record* record,
                              const struct adc_console_style* style) {
  if (style->verbose) {
    adc_print_console_cases(out, record, style->colour);
  } else {
    adc_console_put_rules(out, record, style->colour);
  }
  put_counts_line(out, record);
  put_unreproduced(out, record);
  bool with_expectations = record->expectations_path != NULL;
  if (with_expectations) put_expectations_summary(out, record);
  adc_print_verdict(out, record, style->colour);
  if (with_expectations) put_expectations_verdict(out, record);
}
