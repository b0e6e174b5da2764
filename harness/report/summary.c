/* What every report says of the run as a whole. */
#include <stdio.h>
#include <string.h>

#include "report/report.h"

struct adc_summary adc_summarize(const struct adc_case* cases, const struct adc_task_result* results,
                                 size_t n) {
  struct adc_summary summary;
  memset(&summary, 0, sizeof(summary));
  for (size_t i = 0; i < n; i++) {
    summary.counts[results[i].status]++;
    if (cases[i].rule->severity == ADC_MUST && adc_status_fails_run(results[i].status)) {
      summary.failing_must_cases++;
    }
  }
  return summary;
}

/* An interrupted run proves nothing about the cases it did not finish. */
bool adc_run_conforms(const struct adc_summary* summary, const struct adc_run_outcome* outcome) {
  return outcome->interrupted_by == 0 && summary->failing_must_cases == 0;
}

const char* adc_signal_name(int signal_number) {
  static char name[16];
  const char* abbreviation = sigabbrev_np(signal_number);
  snprintf(name, sizeof(name), "SIG%s", abbreviation ? abbreviation : "?");
  return name;
}
