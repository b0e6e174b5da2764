/* Expectations files (--expect FILE): the shortfalls a library is known to
 * have, so that CI stays green on them and notices any change.
 *
 * Each line is `case-glob status reason`: a glob over case IDs
 * (<device>/<rule id>/<fixture>, matched with fnmatch as --filter is), a
 * status name other than pass, and the reason, the rest of the line (never
 * empty).  For a known intermittent result the status may list
 * alternatives joined by '|' (`fail|pass`), pass included: the case ends as
 * expected with any of them.  Blank lines and lines starting with '#' are
 * skipped.  A case is judged by the first entry whose glob matches its ID. */
#ifndef ADC_EXPECTATIONS_H
#define ADC_EXPECTATIONS_H

#include <stddef.h>

#include "rule_api/status.h"
#include "support/error.h"

struct adc_expectation {
  char* glob;
  enum adc_status status; /* the first status named */
  unsigned statuses;      /* every status named, a bit (1 << status) each */
  char* statuses_text;    /* as written: "fail", "fail|pass" */
  char* reason;
  int line;             /* in the file, from 1 */
  size_t matched_cases; /* cases this entry was the first to match */
};

struct adc_expectations {
  char* path; /* as given on the command line */
  struct adc_expectation* entries;
  size_t n_entries;
};

/* How a case matched by an entry ended, against the entry. */
enum adc_expectation_outcome {
  ADC_EXPECTED_FAIL,     /* a status the entry names: the run stays green */
  ADC_UNEXPECTED_PASS,   /* passed: the entry can go; fails the run */
  ADC_UNEXPECTED_STATUS, /* another shortfall than the entry's; fails the run */
  ADC_OUTCOME_COUNT
};

/* Reads `path`.  Returns 0, or -1 with one line naming the file (and the
 * line, for a bad entry). */
int adc_expectations_read(const char* path, struct adc_expectations* out, struct adc_error* error);
void adc_expectations_free(struct adc_expectations* expectations);

enum adc_expectation_outcome adc_expectation_outcome(const struct adc_expectation* expectation,
                                                     enum adc_status status);
/* "expected_fail", "unexpected_pass", "unexpected_status". */
const char* adc_expectation_outcome_name(enum adc_expectation_outcome outcome);

#endif /* ADC_EXPECTATIONS_H */
