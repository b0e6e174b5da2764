/* The one definition of a verdict: on each side the run tested, and on
 * the run from its sides.  The run record (run_record.c) takes its
 * verdicts from here, and every report, merge and verify from the record,
 * so that a run and the claim made of its report cannot disagree. */
#include "outcome/verdict.h"

#include <stdio.h>
#include <stdlib.h>

enum adc_side_verdict adc_side_verdict(const struct adc_side_summary* side) {
  if (!side->tested) return ADC_SIDE_NOT_TESTED;
  if (side->failing_must_cases > 0) return ADC_SIDE_DOES_NOT_CONFORM;
  /* A case that could not be judged may hide a failure; a side of which
   * nothing passed showed nothing. */
  if (side->unresolved_must_cases > 0 || side->passing_must_cases == 0) return ADC_SIDE_NOT_SHOWN;
  return ADC_SIDE_CONFORMS;
}

const char* adc_side_verdict_name(enum adc_side_verdict verdict) {
  static const char* const names[] = {"not_tested", "conforms", "not_shown", "does_not_conform"};
  return names[verdict];
}

const char* adc_side_verdict_words(enum adc_side_verdict verdict) {
  static const char* const words[] = {"not tested", "conforms", "not shown to conform", "does not conform"};
  return words[verdict];
}

static const char* plural(size_t count) {
  return count == 1 ? "" : "s";
}

void adc_side_verdict_reason(const struct adc_side_summary* side, char* text, size_t size) {
  size_t must = side->must_cases;
  const struct adc_named_case* failing = &side->first_failing;
  const struct adc_named_case* unresolved = &side->first_unresolved;
  switch (adc_side_verdict(side)) {
    case ADC_SIDE_NOT_TESTED:
      snprintf(text, size, "not named on the command line");
      break;
    case ADC_SIDE_DOES_NOT_CONFORM:
      snprintf(text, size, "%zu MUST case%s failed, crashed or timed out, the first: %s: %s: %s",
               side->failing_must_cases, plural(side->failing_must_cases), failing->id,
               adc_status_name(failing->status), failing->message);
      break;
    case ADC_SIDE_NOT_SHOWN:
      if (side->unresolved_must_cases > 0) {
        snprintf(text, size, "%zu MUST case%s unresolved, the first: %s: %s", side->unresolved_must_cases,
                 plural(side->unresolved_must_cases), unresolved->id, unresolved->message);
      } else if (must == 0) {
        snprintf(text, size, "no MUST case of it ran");
      } else if (side->not_supported_must_cases == must && must == 1) {
        snprintf(text, size, "its one MUST case is not_supported");
      } else if (side->not_supported_must_cases == must) {
        snprintf(text, size, "its %zu MUST cases are all not_supported", must);
      } else {
        snprintf(text, size, "none of its %zu MUST case%s passed", must, plural(must));
      }
      break;
    case ADC_SIDE_CONFORMS:
      snprintf(text, size, "%zu of its %zu MUST case%s passed, none failed or ended unresolved",
               side->passing_must_cases, must, plural(must));
      break;
  }
}

/* Whether the run showed every side it tested, either way: it tested one
 * at least, and each it tested conforms or does not. */
static bool every_tested_side_shown(const struct adc_summary* summary) {
  bool tested_any = false;
  for (int role = 0; role < ADC_ROLE_COUNT; role++) {
    enum adc_side_verdict verdict = adc_side_verdict(&summary->sides[role]);
    if (verdict == ADC_SIDE_NOT_SHOWN) return false;
    tested_any |= verdict != ADC_SIDE_NOT_TESTED;
  }
  return tested_any;
}

enum adc_run_verdict adc_run_verdict(const struct adc_summary* summary, int interrupted_by) {
  if (interrupted_by != 0) return ADC_RUN_INCOMPLETE;
  for (int role = 0; role < ADC_ROLE_COUNT; role++) {
    if (adc_side_verdict(&summary->sides[role]) == ADC_SIDE_DOES_NOT_CONFORM) return ADC_RUN_DOES_NOT_CONFORM;
  }
  return every_tested_side_shown(summary) ? ADC_RUN_CONFORMS : ADC_RUN_NOT_SHOWN;
}

const char* adc_run_verdict_headline(enum adc_run_verdict verdict) {
  static const char* const headlines[] = {"CONFORMS", "NOT SHOWN TO CONFORM", "DOES NOT CONFORM",
                                          "INCOMPLETE"};
  return headlines[verdict];
}

int adc_run_exit_status(const struct adc_summary* summary, int interrupted_by) {
  if (interrupted_by != 0) return 128 + interrupted_by;
  if (summary->failing_run_cases > 0) return EXIT_FAILURE;
  return every_tested_side_shown(summary) ? EXIT_SUCCESS : ADC_EXIT_NOT_SHOWN;
}
