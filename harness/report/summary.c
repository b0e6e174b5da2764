/* What every report says of the run as a whole. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"

/* The one rule of what fails a run, for a case of a rule of `severity`
 * that ended `status`; `outcome` is how it ended against the --expect
 * entry that matched it, NULL where none did. */
static bool fails_run(enum adc_severity severity, enum adc_status status,
                      const enum adc_expectation_outcome* outcome) {
  if (outcome != NULL) return *outcome != ADC_EXPECTED_FAIL;
  return severity == ADC_MUST && adc_status_fails_run(status);
}

bool adc_case_fails_run(const struct adc_case* c, enum adc_status status) {
  if (c->expectation == NULL) return fails_run(c->rule->severity, status, NULL);
  enum adc_expectation_outcome outcome = adc_expectation_outcome(c->expectation, status);
  return fails_run(c->rule->severity, status, &outcome);
}

void adc_summary_count(struct adc_summary* summary, enum adc_severity severity, enum adc_status status,
                       const enum adc_expectation_outcome* outcome) {
  bool must = severity == ADC_MUST;
  summary->cases++;
  summary->counts[status]++;
  if (adc_status_is_judged(status)) summary->judged_cases++;
  if (must && status == ADC_PASS) summary->passing_must_cases++;
  bool failing_must = must && adc_status_fails_run(status);
  if (failing_must) summary->failing_must_cases++;
  bool fails = fails_run(severity, status, outcome);
  if (fails) summary->failing_run_cases++;
  if (failing_must && fails) summary->unexpected_failing_must_cases++;
  if (outcome != NULL) summary->outcomes[*outcome]++;
}

struct adc_summary adc_summarize(const struct adc_case* cases, const struct adc_task_result* results,
                                 size_t n) {
  struct adc_summary summary;
  memset(&summary, 0, sizeof(summary));
  for (size_t i = 0; i < n; i++) {
    enum adc_status status = results[i].status;
    const struct adc_expectation* expectation = cases[i].expectation;
    enum adc_expectation_outcome outcome =
        expectation != NULL ? adc_expectation_outcome(expectation, status) : ADC_EXPECTED_FAIL;
    adc_summary_count(&summary, cases[i].rule->severity, status, expectation != NULL ? &outcome : NULL);
  }
  return summary;
}

int adc_run_exit_status(const struct adc_summary* summary, const struct adc_run_outcome* outcome) {
  if (outcome->interrupted_by != 0) return 128 + outcome->interrupted_by;
  return summary->failing_run_cases == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
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
