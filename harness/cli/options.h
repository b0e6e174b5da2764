/* The command line of adc-conform. */
#ifndef ADC_OPTIONS_H
#define ADC_OPTIONS_H

#include <stdbool.h>

#include "report/report.h"
#include "report/report_outputs.h"
#include "runner/session.h"
#include "support/error.h"

#define ADC_MAX_FILTERS 16
/* Cases run at once, at most. */
#define ADC_MAX_JOBS 64

struct adc_options {
  const char* producer; /* path or "reference"; NULL if not given */
  const char* consumer;
  const char* prefix;
  const char* producer_prefix;
  const char* consumer_prefix;
  const char* device;
  const char* fixtures_dir;
  const char* report_json;
  struct adc_report_outputs outputs; /* --junit, --tap: the formats of report/report_outputs.h */
  const char* expect;                /* --expect FILE; NULL when not given */
  /* --shard INDEX/COUNT; 1/1 when not given. */
  int shard_index;
  int shard_count;
  const char* filters[ADC_MAX_FILTERS];
  int n_filters;
  double timeout_seconds; /* 0 when --timeout is not given */
  int jobs;
  double memory_limit_mib; /* 0 when not given */
  bool valgrind;           /* --valgrind: the harness re-executes itself under memcheck */
  const char* preload;     /* --preload LIB; NULL when not given */
  enum adc_isolation isolation;
  bool covering_fixtures; /* --covering-fixtures */
  bool list_cases;
  bool list_rules;
  /* --debug-case ID: the one case run in the harness's own process
   * (commands/debug_case.h); NULL when not given. */
  const char* debug_case;
  enum adc_catalogue_format rules_format;
  bool verbose;
  bool help;
};

/* What the option table says of one command-line argument. */
struct adc_option_facts {
  const char* name;         /* the option's full name, without "--" */
  bool takes_value;         /* its value is inline ("--NAME=VALUE") or the next argument */
  const char* inline_value; /* what follows "=" in the argument; NULL without one */
  /* It changes only where the results go, how they are shown or how the
   * cases are shared out (--report-json, --junit, --tap, --shard, --jobs,
   * --verbose): the shards of one run may give it differently. */
  bool output_only;
};

/* Fills `facts` when `argument` ("--NAME" or "--NAME=VALUE", NAME possibly
 * abbreviated as getopt_long accepts) names exactly one option of the
 * main command; returns false for anything else (a value, an unknown or
 * ambiguous name). */
bool adc_option_facts(const char* argument, struct adc_option_facts* facts);

/* Returns 0, or -1 with the reason. */
int adc_parse_options(int argc, char** argv, struct adc_options* out, struct adc_error* error);
void adc_print_usage(void);

#endif /* ADC_OPTIONS_H */
