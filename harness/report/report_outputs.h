/* The reports a run writes after its console and JSON report, by the same
 * options in the run and in merge (--junit, --tap, and GitHub Actions from
 * the environment), so that the merge of a run's shards writes each as the
 * unsharded run would. */
#ifndef ADC_REPORT_OUTPUTS_H
#define ADC_REPORT_OUTPUTS_H

#include <stdbool.h>
#include <stdio.h>

#include "outcome/run_record.h"
#include "support/error.h"

struct adc_report_outputs {
  const char* junit; /* --junit FILE; NULL when not given */
  bool tap;          /* --tap: TAP 14 on standard output */
};

/* Writes TAP on standard output (with `tap`), the GitHub annotations on
 * `console` and the step summary (with GITHUB_ACTIONS=true), and the JUnit
 * report (with `junit`), from `record` (read only).  Returns 0, or -1 with
 * the reason. */
int adc_write_report_outputs(const struct adc_run_record* record, const struct adc_report_outputs* outputs,
                             FILE* console, struct adc_error* error);

#endif /* ADC_REPORT_OUTPUTS_H */
