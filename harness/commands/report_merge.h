/* Merging the JSON reports of a run's shards (--shard INDEX/COUNT) into
 * the record of one unsharded run of the same command: its cases in the
 * plan's order, judged and counted again over them (outcome/run_record.h),
 * so that every report of the run can be written from it. */
#ifndef ADC_REPORT_MERGE_H
#define ADC_REPORT_MERGE_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

#include "commands/report_read.h"
#include "outcome/matrix_record.h"
#include "outcome/run_record.h"
#include "support/error.h"

/* Everything here is owned: adc_merged_report_free. */
struct adc_merged_report {
  /* The whole run, interrupted as the first interrupted shard was; it
   * points into `reports` and `unmatched`. */
  struct adc_run_record record;
  cJSON* merged_from; /* each shard's path, shard, command line and environment */
  int shard_count;    /* COUNT of their --shard; 1 for one unsharded report */
  struct adc_read_report* reports;
  size_t n_reports;
  cJSON* unmatched; /* the --expect entries no shard matched; NULL without --expect */
  /* The shards were an interop matrix's (`adc-conform matrix --shard`):
   * `matrix` holds the whole matrix, a record per pair in the order the
   * matrix ran them (pointing into `reports`), and `record` is empty. */
  bool is_matrix;
  struct adc_matrix_record matrix;
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

/* The merged JSON report: the run's (adc_report_json), or the matrix's
 * (adc_matrix_json), with "merged_from".  The caller owns it. */
cJSON* adc_merged_report_json(const struct adc_merged_report* merged);

#endif /* ADC_REPORT_MERGE_H */
