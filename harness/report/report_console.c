/* The console table: one line per case, grouped under its rule, then a
 * summary and the one-word outcome. */
#include "report/report.h"

static const char* label(enum adc_status status) {
  static const char* const labels[ADC_STATUS_COUNT] = {"PASS", "FAIL", "CRASH", "TIMEOUT",
                                                       "N/S",  "WARN", "UNRES"};
  return labels[status];
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
  if (outcome->interrupted_by != 0) {
    fprintf(out, "INCOMPLETE: the run was interrupted by %s; the cases it did not finish are unresolved.\n",
            adc_signal_name(outcome->interrupted_by));
  } else if (summary.failing_must_cases == 0) {
    fprintf(out, "CONFORMS: no MUST rule failed.\n");
  } else {
    fprintf(out, "DOES NOT CONFORM: %zu MUST case(s) failed, crashed or timed out.\n",
            summary.failing_must_cases);
  }
}
