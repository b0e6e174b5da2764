/* A progress line while a run goes, on a terminal only: how many cases
 * ended, how many did not pass, how long it has taken.  Redrawn in place
 * at most ten times a second, and erased when the run ends, so that the
 * report starts on a clean line and a log or a pipe never sees it. */
#ifndef ADC_PROGRESS_H
#define ADC_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "rule_api/status.h"

struct adc_progress {
  FILE* out;    /* NULL: no progress line */
  size_t total; /* cases planned */
  size_t done;
  size_t not_passed;
  double started;
  double drawn; /* when the line was last drawn */
};

/* Starts a progress line on `out` if it is a terminal. */
void adc_progress_start(struct adc_progress* progress, FILE* out, size_t total);
void adc_progress_case_ended(struct adc_progress* progress, enum adc_status status);
/* Erases the line. */
void adc_progress_end(struct adc_progress* progress);

#endif /* ADC_PROGRESS_H */
