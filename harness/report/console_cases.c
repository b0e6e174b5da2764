/* The console with --verbose: one line per case, grouped under its rule
 * (and its device, when the run has several), with every message. */
#include <string.h>

#include "report/console_style.h"
#include "report/report.h"

/* Enough of a message for any case: the runner's limit. */
#define MESSAGE_BYTES 1400

/* After a case matched by an --expect entry: how it ended against it. */
static void put_expectation(FILE* out, const struct adc_run_record* record, const struct adc_case_record* c) {
  fprintf(out, "  [%s: %s:%d expects %s", adc_expectation_outcome_name(c->outcome), record->expectations_path,
          c->expectation.line, c->expectation.statuses);
  if (c->outcome == ADC_UNEXPECTED_PASS) fputs("; remove the entry", out);
  fprintf(out, ": %s]", c->expectation.reason);
}

void adc_print_console_cases(FILE* out, const struct adc_run_record* record, bool colour) {
  const char* current = NULL;
  const char* current_device = NULL;
  for (size_t i = 0; i < record->n_cases; i++) {
    const struct adc_case_record* c = &record->cases[i];
    if ((current_device == NULL || strcmp(c->device, current_device) != 0) && record->n_devices > 1) {
      fprintf(out, "\n==== on %s ====\n", c->device);
      current = NULL;
    }
    current_device = c->device;
    if (current == NULL || strcmp(c->rule, current) != 0) {
      current = c->rule;
      fprintf(out, "\n%s  [%s, %s]  spec: \"%s\"\n", c->rule, adc_role_name(c->role),
              adc_severity_name(c->severity), c->clause);
    }
    fputs("  ", out);
    adc_put_status_label(out, c->status, 7, colour);
    fprintf(out, " %-28s %7.1f ms", c->fixture, c->duration_ms);
    if (c->message[0] != '\0') {
      fputs("  ", out);
      adc_put_one_line(out, c->message, MESSAGE_BYTES);
    }
    if (c->has_expectation) put_expectation(out, record, c);
    fputc('\n', out);
  }
  fputc('\n', out);
}
