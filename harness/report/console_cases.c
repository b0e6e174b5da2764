/* The console with --verbose: one line per case, grouped under its rule
 * (and its device, when the run has several), with every message. */
#include "report/console_parts.h"
#include "report/console_style.h"
#include "report/report.h"

/* After a case matched by an --expect entry: how it ended against it. */
static void put_expectation(FILE* out, const struct adc_session* session, const struct adc_expectation* e,
                            enum adc_status status) {
  enum adc_expectation_outcome outcome = adc_expectation_outcome(e, status);
  fprintf(out, "  [%s: %s:%d expects %s", adc_expectation_outcome_name(outcome), session->expectations->path,
          e->line, e->statuses_text);
  if (outcome == ADC_UNEXPECTED_PASS) fputs("; remove the entry", out);
  fprintf(out, ": %s]", e->reason);
}

void adc_console_put_cases(FILE* out, const struct adc_session* session, const struct adc_case* cases,
                           const struct adc_task_result* results, size_t n, bool colour) {
  const struct adc_rule* current = NULL;
  const struct adc_device_target* current_device = NULL;
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
    fputs("  ", out);
    adc_put_status_label(out, results[i].status, 7, colour);
    fprintf(out, " %-28s %7.1f ms", cases[i].fixture->name, results[i].seconds * 1000.0);
    if (results[i].message[0] != '\0') {
      fputs("  ", out);
      adc_put_one_line(out, results[i].message, sizeof(results[i].message));
    }
    if (cases[i].expectation != NULL) put_expectation(out, session, cases[i].expectation, results[i].status);
    fputc('\n', out);
  }
  fputc('\n', out);
}
