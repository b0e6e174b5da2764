/* A JSON report read back (report.schema.json), for merging the reports of
 * a run's shards: the file parsed, and checked to be a report of this
 * schema_version as far as merging relies on it. */
#ifndef ADC_REPORT_READ_H
#define ADC_REPORT_READ_H

#include <cjson/cJSON.h>

#include "commands/shard_command_line.h"
#include "support/error.h"

struct adc_read_report {
  const char* path; /* as given (not owned) */
  cJSON* root;      /* the whole report (owned) */
  /* Parts of `root` (not owned): */
  const char* suite_version;
  const char* git_commit;
  const cJSON* command_line; /* array of strings, the program first */
  const cJSON* cases;        /* array of case objects, each checked */
  /* An interop matrix's report (matrix.schema.json): its "matrix" object;
   * each of its cases holds a run's case object, checked, under "case".
   * NULL for a run's report. */
  const cJSON* matrix;
  const cJSON* summary;
  const cJSON* environment;
  /* The argv of command_line (pointers into `root`, in an array owned
   * here) and what it says of the shard. */
  const char** argv;
  int argc;
  struct adc_shard_command_line shard;
  int interrupted_by; /* summary.interrupted_by as a signal number; 0 when complete */
};

/* Reads the report at `path`.  Returns 0, or -1 with one line that names
 * the file and what is wrong with it (missing, not JSON, not a report of
 * this schema_version).  Free with adc_read_report_free. */
int adc_read_report(const char* path, struct adc_read_report* out, struct adc_error* error);
void adc_read_report_free(struct adc_read_report* report);

#endif /* ADC_REPORT_READ_H */
