/* The reports a run writes after its console and JSON report, chosen by the
 * same options in the run and in merge, so that the merge of a run's shards
 * writes each as the unsharded run would: one row of adc_report_formats
 * per format (--junit, --tap), and GitHub Actions from the environment.
 *
 * A new format is a writer of its own file (report_<format>.c), which reads
 * the run record and decides nothing itself, and its row below
 * (report_outputs.c): its option then exists in the run and in merge, in
 * both --help texts, and among the options the shards of one run may give
 * differently (cli/options.c). */
#ifndef ADC_REPORT_OUTPUTS_H
#define ADC_REPORT_OUTPUTS_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

#include "outcome/run_record.h"
#include "support/error.h"

struct adc_report_format {
  const char* option;   /* its long option: "junit" for --junit */
  const char* argument; /* "FILE": the option names the report's file; NULL: a flag, and the report
                           goes to standard output (the console report then to standard error) */
  const char* help;     /* the option's --help text, "\n" between lines */
  /* Writes the report of `record` to `path` (the option's argument; NULL
   * for a flag).  Returns 0, or -1 with the reason. */
  int (*write)(const struct adc_run_record* record, const char* path, struct adc_error* error);
};

#define ADC_REPORT_FORMAT_COUNT 2
extern const struct adc_report_format adc_report_formats[ADC_REPORT_FORMAT_COUNT];

struct adc_report_outputs {
  /* By adc_report_formats' index: whether its option was given, and its
   * argument (NULL for a flag). */
  bool chosen[ADC_REPORT_FORMAT_COUNT];
  const char* argument[ADC_REPORT_FORMAT_COUNT];
};

/* The getopt_long entry of format `format`, whose val is `value`. */
struct option adc_report_format_option(size_t format, int value);
/* Records format `format`'s option in `outputs`, with getopt's `argument`. */
void adc_report_format_chosen(struct adc_report_outputs* outputs, size_t format, const char* argument);
/* Whether any format was chosen (a command that writes none of them
 * refuses it). */
bool adc_report_outputs_any(const struct adc_report_outputs* outputs);
/* Whether a chosen format writes to standard output: the console report
 * then goes to standard error. */
bool adc_report_outputs_use_stdout(const struct adc_report_outputs* outputs);
/* Prints each format's option and help, as --help's other options. */
void adc_print_report_format_help(FILE* out);

/* Writes every chosen format, the GitHub annotations on `console` and the
 * step summary (with GITHUB_ACTIONS=true), from `record` (read only).
 * Returns 0, or -1 with the reason of the first that failed (the others
 * are written all the same). */
int adc_write_report_outputs(const struct adc_run_record* record, const struct adc_report_outputs* outputs,
                             FILE* console, struct adc_error* error);

#endif /* ADC_REPORT_OUTPUTS_H */
