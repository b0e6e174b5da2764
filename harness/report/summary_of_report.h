/* The summary of a JSON report counted again from its cases, as
 * adc_summarize counts a run: merge counts the shards' cases so, and
 * verify a bundle's report, so that neither takes a file's own summary
 * (nor its verdict) on trust. */
#ifndef ADC_REPORT_SUMMARY_OF_REPORT_H
#define ADC_REPORT_SUMMARY_OF_REPORT_H

#include <cjson/cJSON.h>
#include <stdbool.h>

#include "report/report.h"

/* Begins `summary` (adc_summary_begin) with the sides `environment`, a
 * report's, says were tested. */
void adc_summary_begin_for_environment(struct adc_summary* summary, const cJSON* environment);

/* Counts the case object `item` of a report into `summary`; false, counting
 * nothing, when its role, severity, status or expectation outcome is
 * missing or spelled otherwise than the schema says. */
bool adc_summary_count_report_case(struct adc_summary* summary, const cJSON* item);

#endif /* ADC_REPORT_SUMMARY_OF_REPORT_H */
