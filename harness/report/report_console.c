/* The console table: one line per case, grouped under its rule, then a
 * summary and the one-word outcome. */
#include "report/report.h"

static const char* label(enum adc_status status) {
  static const char* const labels[ADC_STATUS_COUNT] = {"PASS", "FAIL", "CRASH", "TIMEOUT",
                                                       "N/S",  "WARN", "UNRES"};
  return labels[status];
}

/* After a case matched by an --expect entry: how it ended against it. */
static void put_expectation(FILE* out, const struct adc_session* session, const struct adc_expectation* e,
                            enum adc_status status) {
  enum adc_expectation_outcome outcome = adc_expectation_outcome(e, status);
  fprintf(out, "  [%s: %s:%d expects %s", adc_expectation_outcome_name(outcome), session->expectations->path,
          e->line, e->statuses_text);
  if (outcome == ADC_UNEXPECTED_PASS) fputs("; remove the entry", out);
  fprintf(out, ": %s]", e->reason);
}

/* The summary of an --expect run: each outcome, and whether the run met
 * the file. */
static void put_expectations_summary(FILE* out, const struct adc_session* session,
                                     const struct adc_summary* summary) {
  fprintf(out, "Expectations of %s:", session->expectations->path);
  for (int o = 0; o < ADC_OUTCOME_COUNT; o++) {
    fprintf(out, "%s %zu %s", o ? "," : "", summary->outcomes[o],
            adc_expectation_outcome_name((enum adc_expectation_outcome)o));
  }
  size_t unmatched = 0;
  for (size_t e = 0; e < session->expectations->n_entries; e++) {
    unmatched += session->expectations->entries[e].matched_cases == 0;
  }
  fprintf(out, "; %zu entr%s matched no case.\n", unmatched, unmatched == 1 ? "y" : "ies");
}

void adc_print_console_report(FILE* out, const struct adc_session* session, const struct adc_case* cases,
                              const struct adc_task_result* results, size_t n,
                              const struct adc_run_outcome* outcome, bool verbose) {
  const struct adc_rule* current = NULL;
  const struct adc_device* current_device = NULL;
  for (size_t i = 0; i < n; i++) {
    const struct adc_rule* rule = cases[i].rule;
    if (cases[i].device != current_device && session->n_devices > 1) {
      fprintf(out, "\n==== on %s ====\n", cases[i].device->name);
      current = NULL;
    }
    current_device = cases[i].device;
    if (rule != current) {
      current = rule;
      fprintf(out, "\n%s  [%s, %s]  spec: \"%s\"\n", rule->id, adc_role_name(rule->role),
              adc_severity_name(rule->severity), rule->clause);
    }
    fprintf(out, "  %-7s %-28s %7.1f ms", label(results[i].status), cases[i].fixture->name,
            results[i].seconds * 1000.0);
    if (results[i].message[0] != '\0' && (results[i].status != ADC_PASS || verbose)) {
      fprintf(out, "  %s", results[i].message);
    }
    if (cases[i].expectation != NULL) put_expectation(out, session, cases[i].expectation, results[i].status);
    fputc('\n', out);
  }
  struct adc_summary summary = adc_summarize(cases, results, n);
  fprintf(out, "\n%zu cases on ", n);
  for (size_t d = 0, listed = 0; d < session->n_devices; d++) {
    bool has_cases = false;
    for (size_t i = 0; i < n && !has_cases; i++) has_cases = cases[i].device == session->devices[d];
    if (has_cases) fprintf(out, "%s%s", listed++ > 0 ? ", " : "", session->devices[d]->name);
  }
  fputc(':', out);
  const char* separator = " ";
  for (int s = 0; s < ADC_STATUS_COUNT; s++) {
    if (summary.counts[s] == 0) continue;
    fprintf(out, "%s%zu %s", separator, summary.counts[s], adc_status_name((enum adc_status)s));
    separator = ", ";
  }
  fprintf(out, ".\n");
  if (session->expectations != NULL) put_expectations_summary(out, session, &summary);
  if (outcome->interrupted_by != 0) {
    fprintf(out, "INCOMPLETE: the run was interrupted by %s; the cases it did not finish are unresolved.",
            adc_signal_name(outcome->interrupted_by));
  } else if (summary.failing_must_cases > 0) {
    fprintf(out, "DOES NOT CONFORM: %zu MUST case(s) failed, crashed or timed out",
            summary.failing_must_cases);
    if (session->expectations != NULL) {
      fprintf(out, " (%zu of them not expected)", summary.unexpected_failing_must_cases);
    }
    fputc('.', out);
  } else if (summary.passing_must_cases == 0) {
    fprintf(out, "NOT SHOWN TO CONFORM: no MUST case passed.");
  } else {
    fprintf(out, "CONFORMS: no MUST rule failed.");
  }
  /* Beside the verdict, what it rests on. */
  fprintf(out, " Coverage: %zu of %zu cases judged.\n", summary.judged_cases, summary.cases);
  if (session->expectations != NULL) {
    size_t mismatches = summary.outcomes[ADC_UNEXPECTED_PASS] + summary.outcomes[ADC_UNEXPECTED_STATUS];
    if (summary.failing_run_cases == 0) {
      fprintf(out, "EXPECTATIONS MET: every case ended as %s says.\n", session->expectations->path);
    } else {
      fprintf(out,
              "EXPECTATIONS NOT MET: %zu case(s) ended otherwise than %s says; %zu MUST case(s) without an "
              "entry failed, crashed or timed out.\n",
              mismatches, session->expectations->path, summary.failing_run_cases - mismatches);
    }
  }
}
