/* What makes reports shards of one run, checked before merging them
 * (report_merge.c): each check returns 0, or -1 with one line that names
 * the file and the problem.  The reports are the caller's. */
#ifndef ADC_REPORT_MERGE_CHECKS_H
#define ADC_REPORT_MERGE_CHECKS_H

#include <stddef.h>

#include "commands/report_read.h"
#include "support/error.h"

/* Every report was written by one suite version at one commit, this
 * adc-conform's: its rule catalogue orders the merged cases. */
int adc_check_same_suite(const struct adc_read_report* reports, size_t n, struct adc_error* error);

/* Every report ran the same command but for the output and sharding
 * options (shard_command_line.h). */
int adc_check_same_command(const struct adc_read_report* reports, size_t n, struct adc_error* error);

/* The reports are the shards 1 to COUNT of one split, each once; a report
 * without --shard (or with 1/1) is a whole run and merges only alone. */
int adc_check_shards(const struct adc_read_report* reports, size_t n, struct adc_error* error);

#endif /* ADC_REPORT_MERGE_CHECKS_H */
