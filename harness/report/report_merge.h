/* Merging the JSON reports of a run's shards (--shard INDEX/COUNT) into
 * the report that one unsharded run of the same command writes: its cases
 * in the plan's order, its summary counted again over them. */
#ifndef ADC_REPORT_MERGE_H
#define ADC_REPORT_MERGE_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

#include "report/report.h"
#include "support/error.h"

struct adc_merged_report {
  cJSON* root;                    /* the merged report (owned: adc_merged_report_free) */
  struct adc_summary summary;     /* counted over the merged cases */
  struct adc_run_outcome outcome; /* interrupted as the first interrupted shard was */
  bool with_expectations;         /* the shards ran with --expect */
  int shard_count;                /* COUNT of their --shard; 1 for one unsharded report */
};

/* Merges the reports at `paths` (`n` of them, at least one), each shard of
 * one run given once and every shard given: the same suite version and
 * commit (this adc-conform's, whose rule catalogue gives the cases their
 * order), the same command line but for the output and sharding options,
 * no case twice.  One report without --shard (a whole run) merges only
 * alone.  Returns 0 with `out` filled, or -1 with one line that names the
 * file and the problem. */
int adc_merge_reports(const char* const* paths, size_t n, struct adc_merged_report* out,
                      struct adc_error* error);
void adc_merged_report_free(struct adc_merged_report* merged);

#endif /* ADC_REPORT_MERGE_H */
