#include "report/report_outputs.h"

#include "report/report.h"

int adc_write_report_outputs(const struct adc_run_record* record, const struct adc_report_outputs* outputs,
                             FILE* console, struct adc_error* error) {
  if (outputs->tap) adc_print_tap_report(stdout, record);
  if (adc_github_actions()) {
    adc_print_github_annotations(console, record);
    if (adc_append_github_summary(record, error) != 0) return -1;
  }
  if (outputs->junit != NULL) return adc_write_junit_report(outputs->junit, record, error);
  return 0;
}
