/* The one definition of a verdict (CONFORMANCE.md, "Verdicts"): on each
 * side the run tested, and on the run from its sides, and the exit status
 * that follows.  Only the run record (run_record.c) calls these: every
 * report, merge and verify read the verdicts it holds. */
#ifndef ADC_OUTCOME_VERDICT_H
#define ADC_OUTCOME_VERDICT_H

#include <stddef.h>

#include "outcome/run_record.h"

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
