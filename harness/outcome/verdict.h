/* The one definition of a verdict (CONFORMANCE.md, "Verdicts"): on each
 * side the run tested, and on the run from its sides, and the exit status
 * that follows, and the counts they are judged from.  Only the run record
 * (run_record.c) calls these: every report, merge and verify read the
 * verdicts it holds. */
#ifndef ADC_OUTCOME_VERDICT_H
#define ADC_OUTCOME_VERDICT_H

#include <stdbool.h>
#include <stddef.h>

#include "rule_api/rule.h"
#include "rule_api/status.h"
#include "runner/expectations.h"

/* A case a verdict names: its ID, how it ended and its message (pointers
 * into the record's case). */
struct adc_named_case {
  const char* id;
  enum adc_status status;
  const char* message;
};

/* What the MUST cases of one side (the producer's rules or the
 * consumer's) came to: what the side's verdict rests on. */
struct adc_side_summary {
  bool tested; /* the side was named on the command line */
  size_t must_cases;
  size_t passing_must_cases;
  size_t failing_must_cases; /* fail, crash or timeout, expected or not */
  size_t unresolved_must_cases;
  size_t not_supported_must_cases;
  /* The first of the failing and of the unresolved, in the run's order;
   * the reason of the verdict names it. */
  struct adc_named_case first_failing;
  struct adc_named_case first_unresolved;
};

struct adc_summary {
  size_t counts[ADC_STATUS_COUNT];
  size_t cases;                         /* run (planned) */
  size_t judged_cases;                  /* adc_status_is_judged: the coverage is judged_cases / cases */
  size_t passing_must_cases;            /* of both sides */
  size_t failing_must_cases;            /* MUST cases in fail, crash or timeout, expected or not */
  size_t unexpected_failing_must_cases; /* of those, the ones no entry expects with that status */
  /* Cases matched by an --expect entry, by how they ended against it. */
  size_t outcomes[ADC_OUTCOME_COUNT];
  /* What makes the exit status 1: MUST cases in fail, crash or timeout that
   * no entry expected, and every unexpected_pass or unexpected_status. */
  size_t failing_run_cases;
  struct adc_side_summary sides[ADC_ROLE_COUNT]; /* by enum adc_role */
};

/* The verdict on one side (verdict.c):
 *   NOT_TESTED        the side was not named on the command line (the
 *                     bundled reference was only the partner);
 *   DOES_NOT_CONFORM  a MUST case of it ended fail, crash or timeout,
 *                     expected by --expect or not;
 *   NOT_SHOWN         otherwise, when no MUST case of it passed or one
 *                     ended unresolved: nothing failed, but the run did not
 *                     judge enough of it to say it conforms;
 *   CONFORMS          otherwise. */
enum adc_side_verdict {
  ADC_SIDE_NOT_TESTED,
  ADC_SIDE_CONFORMS,
  ADC_SIDE_NOT_SHOWN,
  ADC_SIDE_DOES_NOT_CONFORM,
};

/* The verdict on the run, from its sides': INCOMPLETE when it was
 * interrupted (it proves nothing of the cases it did not finish); DOES NOT
 * CONFORM when a side does not; NOT SHOWN TO CONFORM when a tested side is
 * not shown to (or no side was tested); else CONFORMS. */
enum adc_run_verdict {
  ADC_RUN_CONFORMS,
  ADC_RUN_NOT_SHOWN,
  ADC_RUN_DOES_NOT_CONFORM,
  ADC_RUN_INCOMPLETE,
};

/* The exit status of a run that nothing fails but that does not show every
 * side it tested to conform (a GPU device's run on a machine without the
 * GPU: every case not_supported).  cmake/AdcAddConformanceTest.cmake gives
 * it to ctest as SKIP_RETURN_CODE (cmake/Install.cmake checks they agree). */
#define ADC_EXIT_NOT_SHOWN 3

enum adc_side_verdict adc_side_verdict(const struct adc_side_summary* side);

/* Why the side has its verdict, in one sentence without a final stop, cut
 * to `size` bytes of the caller's `text`. */
void adc_side_verdict_reason(const struct adc_side_summary* side, char* text, size_t size);

/* `interrupted_by`: the signal that interrupted the run, or 0. */
enum adc_run_verdict adc_run_verdict(const struct adc_summary* summary, int interrupted_by);

/* "CONFORMS", "NOT SHOWN TO CONFORM", "DOES NOT CONFORM", "INCOMPLETE"
 * (static strings). */
const char* adc_run_verdict_headline(enum adc_run_verdict verdict);

/* As adc_run_record's exit_status says. */
int adc_run_exit_status(const struct adc_summary* summary, int interrupted_by);

#endif /* ADC_OUTCOME_VERDICT_H */
