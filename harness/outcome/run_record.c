/* Builds a run record: each case judged as it is added (what fails the
 * run), counted into the summary, and the verdicts set at the end
 * (verdict.h). */
#include "outcome/run_record.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "outcome/verdict.h"

int adc_run_record_begin(struct adc_run_record* record, size_t capacity, const char* producer_path,
                         const char* consumer_path, struct adc_error* error) {
  memset(record, 0, sizeof(*record));
  /* One more, so that a run of no case still has an array to free. */
  record->cases = calloc(capacity + 1, sizeof(*record->cases));
  if (record->cases == NULL) return adc_fail(error, "out of memory");
  const char* paths[ADC_ROLE_COUNT] = {producer_path, consumer_path};
  for (int role = 0; role < ADC_ROLE_COUNT; role++) {
    record->sides[role].tested = paths[role] != NULL;
    record->sides[role].path = paths[role];
    record->summary.sides[role].tested = paths[role] != NULL;
  }
  return 0;
}

/* The one rule of what fails a run. */
static bool fails_run(const struct adc_case_record* c) {
  if (c->has_expectation) return c->outcome != ADC_EXPECTED_FAIL;
  return c->severity == ADC_MUST && adc_status_fails_run(c->status);
}

/* Keeps the case as the first of its kind, unless one came before it. */
static void name_first(struct adc_named_case* first, size_t count_before, const struct adc_case_record* c) {
  if (count_before > 0) return;
  *first = (struct adc_named_case){c->id, c->status, c->message};
}

/* A MUST case, into its side's counts. */
static void count_on_side(struct adc_side_summary* side, const struct adc_case_record* c) {
  side->must_cases++;
  if (c->status == ADC_PASS) side->passing_must_cases++;
  if (c->status == ADC_NOT_SUPPORTED) side->not_supported_must_cases++;
  if (adc_status_fails_run(c->status)) name_first(&side->first_failing, side->failing_must_cases++, c);
  if (c->status == ADC_UNRESOLVED) name_first(&side->first_unresolved, side->unresolved_must_cases++, c);
}

void adc_run_record_add(struct adc_run_record* record, const struct adc_case_record* added) {
  struct adc_case_record* c = &record->cases[record->n_cases++];
  *c = *added;
  c->fails_run = fails_run(c);
  struct adc_summary* summary = &record->summary;
  bool must = c->severity == ADC_MUST;
  summary->cases++;
  summary->counts[c->status]++;
  if (adc_status_is_judged(c->status)) summary->judged_cases++;
  if (must) count_on_side(&summary->sides[c->role], c);
  if (must && c->status == ADC_PASS) summary->passing_must_cases++;
  bool failing_must = must && adc_status_fails_run(c->status);
  if (failing_must) summary->failing_must_cases++;
  if (c->fails_run) summary->failing_run_cases++;
  if (failing_must && c->fails_run) summary->unexpected_failing_must_cases++;
  if (c->has_expectation) summary->outcomes[c->outcome]++;
}

void adc_run_record_finish(struct adc_run_record* record) {
  for (int role = 0; role < ADC_ROLE_COUNT; role++) {
    struct adc_side_record* side = &record->sides[role];
    side->verdict = adc_side_verdict(&record->summary.sides[role]);
    adc_side_verdict_reason(&record->summary.sides[role], side->reason, sizeof(side->reason));
  }
  record->verdict = adc_run_verdict(&record->summary, record->interrupted_by);
  record->headline = adc_run_verdict_headline(record->verdict);
  record->conforms = record->verdict == ADC_RUN_CONFORMS;
  record->exit_status = adc_run_exit_status(&record->summary, record->interrupted_by);
}

void adc_run_record_free(struct adc_run_record* record) {
  free(record->cases);
  free(record->unmatched);
  cJSON_Delete(record->command_line);
  cJSON_Delete(record->environment);
  memset(record, 0, sizeof(*record));
}

const char* adc_signal_name(int signal_number) {
  static char name[16];
  const char* abbreviation = sigabbrev_np(signal_number);
  snprintf(name, sizeof(name), "SIG%s", abbreviation ? abbreviation : "?");
  return name;
}
