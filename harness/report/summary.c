/* What every report says of the run as a whole. */
#include <stdio.h>
#include <string.h>

#include "report/report.h"

bool adc_case_fails_run(const struct adc_case* c, enum adc_status status) {
  if (c->expectation != NULL) return adc_expectation_outcome(c->expectation, status) != ADC_EXPECTED_FAIL;
  return c->rule->severity == ADC_MUST && adc_status_fails_run(status);
}

struct adc_summary adc_summarize(const struct adc_case* cases, const struct adc_task_result* results,
                                 size_t n) {
  struct adc_summary summary;
  memset(&summary, 0, sizeof(summary));
  summary.cases = n;
  for (size_t i = 0; i < n; i++) {
    enum adc_status status = results[i].status;
    bool must = cases[i].rule->severity == ADC_MUST;
    summary.counts[status]++;
    if (adc_status_is_judged(status)) summary.judged_cases++;
    if (must && status == ADC_PASS) summary.passing_must_cases++;
    bool failing_must = must && adc_status_fails_run(status);
    if (failing_must) summary.failing_must_cases++;
    bool fails_run = adc_case_fails_run(&cases[i], status);
    if (fails_run) summary.failing_run_cases++;
    if (failing_must && fails_run) summary.unexpected_failing_must_cases++;
    if (cases[i].expectation != NULL)
      summary.outcomes[adc_expectation_outcome(cases[i].expectation, status)]++;
  }
  return summary;
}

/* An interrupted run proves nothing about the cases it did not finish. */
bool adc_run_conforms(const struct adc_summary* summary, const struct adc_run_outcome* outcome) {
  return outcome->interrupted_by == 0 && summary->failing_must_cases == 0 && summary->passing_must_cases > 0;
}

const char* adc_verdict_headline(const struct adc_summary* summary, const struct adc_run_outcome* outcome) {
  if (outcome->interrupted_by != 0) return "INCOMPLETE";
  if (summary->failing_must_cases > 0) return "DOES NOT CONFORM";
  if (summary->passing_must_cases == 0) return "NOT SHOWN TO CONFORM";
  return "CONFORMS";
}

const char* adc_signal_name(int signal_number) {
  static char name[16];
  const char* abbreviation = sigabbrev_np(signal_number);
  snprintf(name, sizeof(name), "SIG%s", abbreviation ? abbreviation : "?");
  return name;
}
