/* The journal of a run: beside the JSON report, at <report>.journal, one
 * JSON line per case as it ends (JSON Lines), written at once.  A harness
 * killed from outside, which cannot write its report, leaves every case it
 * finished there.  It is removed once the report is written. */
#ifndef ADC_JOURNAL_H
#define ADC_JOURNAL_H

#include <stdbool.h>

#include "outcome/run_record.h"
#include "runner/session.h"
#include "support/error.h"

struct adc_journal;

/* Opens the journal of the report at `report_path`, beginning with a line
 * that says what the run is.  Returns NULL with the reason. */
struct adc_journal* adc_journal_open(const char* report_path, const struct adc_session* session,
                                     size_t n_cases, struct adc_error* error);
/* Adds one ended case (outcome/record_of_run.h: adc_case_record_of_run),
 * written at once: nothing of `c` is kept. */
void adc_journal_add(struct adc_journal* journal, const struct adc_case_record* c);
/* Closes the journal; removes it when the report replacing it was written. */
void adc_journal_close(struct adc_journal* journal, bool report_written);

#endif /* ADC_JOURNAL_H */
