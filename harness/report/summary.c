/* What every report counts of the run as a whole, and of each side. */
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

void adc_summary_begin(struct adc_summary* summary, bool producer_tested, bool consumer_tested) {
  memset(summary, 0, sizeof(*summary));
  summary->sides[ADC_ROLE_PRODUCER].tested = producer_tested;
  summary->sides[ADC_ROLE_CONSUMER].tested = consumer_tested;
}

/* Keeps the case as the first of its kind, unless one came before it. */
static void name_first(struct adc_named_case* first, size_t count_before, const struct adc_counted_case* c) {
  if (count_before > 0) return;
  snprintf(first->id, sizeof(first->id), "%s", c->id);
  first->status = c->status;
  snprintf(first->message, sizeof(first->message), "%s", c->message);
}

/* A MUST case, into its side's counts. */
static void count_on_side(struct adc_side_summary* side, const struct adc_counted_case* c) {
  side->must_cases++;
  if (c->status == ADC_PASS) side->passing_must_cases++;
  if (c->status == ADC_NOT_SUPPORTED) side->not_supported_must_cases++;
  if (adc_status_fails_run(c->status)) name_first(&side->first_failing, side->failing_must_cases++, c);
  if (c->status == ADC_UNRESOLVED) name_first(&side->first_unresolved, side->unresolved_must_cases++, c);
}

void adc_summary_count(struct adc_summary* summary, const struct adc_counted_case* c) {
  bool must = c->severity == ADC_MUST;
  summary->cases++;
  summary->counts[c->status]++;
  if (adc_status_is_judged(c->status)) summary->judged_cases++;
  if (must) count_on_side(&summary->sides[c->role], c);
  if (must && c->status == ADC_PASS) summary->passing_must_cases++;
  bool failing_must = must && adc_status_fails_run(c->status);
  if (failing_must) summary->failing_must_cases++;
  bool fails = fails_run(c->severity, c->status, c->outcome);
  if (fails) summary->failing_run_cases++;
  if (failing_must && fails) summary->unexpected_failing_must_cases++;
  if (c->outcome != NULL) summary->outcomes[*c->outcome]++;
}

struct adc_summary adc_summarize(const struct adc_session* session, const struct adc_case* cases,
                                 const struct adc_task_result* results, size_t n) {
  struct adc_summary summary;
  adc_summary_begin(&summary, session->producer.tested, session->consumer.tested);
  for (size_t i = 0; i < n; i++) {
    const struct adc_expectation* expectation = cases[i].expectation;
    enum adc_expectation_outcome outcome =
        expectation != NULL ? adc_expectation_outcome(expectation, results[i].status) : ADC_EXPECTED_FAIL;
    struct adc_counted_case counted = {
        cases[i].id,       cases[i].rule->role, cases[i].rule->severity,
        results[i].status, results[i].message,  expectation != NULL ? &outcome : NULL};
    adc_summary_count(&summary, &counted);
  }
  return summary;
}

const char* adc_signal_name(int signal_number) {
  static char name[16];
  const char* abbreviation = sigabbrev_np(signal_number);
  snprintf(name, sizeof(name), "SIG%s", abbreviation ? abbreviation : "?");
  return name;
}
