/* The judgement of `adc-conform verify` on a bundle's JSON report, apart
 * from reading files: whether the report is a conformance claim that
 * holds (CONFORMANCE.md, "Making a conformance claim"). */
#ifndef ADC_REPORT_CLAIM_CHECK_H
#define ADC_REPORT_CLAIM_CHECK_H

#include <cjson/cJSON.h>

#include "support/reason_list.h"

/* Judges `report` (a parsed JSON report; read only) as a claim made with
 * the suite `version` at `git_commit`:
 *   - its schema_version is this suite's, and its suite version and commit
 *     are `version` and `git_commit`;
 *   - its command line is a certify run: --device all, --report-json and
 *     --junit, and besides them only the options that choose the libraries,
 *     --timeout and --jobs (no --filter, --expect, --shard, --fixtures...);
 *   - the run is complete (not interrupted);
 *   - every case of a MUST rule ended pass or not_supported;
 *   - the run's verdict, judged again from its cases as the run judges
 *     them (outcome/record_of_report.h), is CONFORMS: every side it tested conforms
 *     (on each, one MUST case at least passed and none failed or ended
 *     unresolved).
 * Adds to `reasons` a line for each shortfall (a MUST case by its ID,
 * status and message; a side tested by its verdict and why), and to
 * `scope` the lines saying what the claim
 * covers: the suite, the sides certified, the devices judged and not
 * present, the cases by status, the not_supported cases by why (a device
 * not present; otherwise not offered by the library), SHOULD shortfalls.
 * Both lists stay the caller's. */
void adc_check_claim(const cJSON* report, const char* version, const char* git_commit,
                     struct adc_reason_list* reasons, struct adc_reason_list* scope);

#endif /* ADC_REPORT_CLAIM_CHECK_H */
