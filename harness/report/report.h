/* Reports of a run: the console, the JSON file (the canonical record) and
 * its journal, JUnit XML, TAP, and GitHub Actions annotations and step
 * summary; and the rule catalogue as --list-rules prints it.  Each writes
 * a run record (outcome/run_record.h), a run's or merged shards', as it
 * is: what a status means, against --expect and for the verdict, is the
 * record's to say.  None keeps or frees anything of the record. */
#ifndef ADC_REPORT_H
#define ADC_REPORT_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdio.h>

#include "outcome/run_record.h"
#include "support/error.h"

struct adc_console_style {
  bool verbose; /* one line per case, not per rule */
  bool colour;  /* console_style.h: adc_console_wants_colour */
};
void adc_print_console_report(FILE* out, const struct adc_run_record* record,
                              const struct adc_console_style* style);

/* Every case, grouped by device and rule, with its message: the body of
 * the console with --verbose. */
void adc_print_console_cases(FILE* out, const struct adc_run_record* record, bool colour);

/* ": 40 pass, 2 fail.\n": the statuses that some case ended with, each with
 * its count, as the console's counts line ends. */
void adc_print_status_counts(FILE* out, const struct adc_run_record* record);

/* The console's verdict line: the headline, what it rests on and the
 * coverage (with how many failures --expect did not expect, where the run
 * had it), then a line per side not shown to conform. */
void adc_print_verdict(FILE* out, const struct adc_run_record* record, bool colour);

/* The version of the JSON report's shape (report.schema.json): raised when
 * a key changes meaning or goes; new keys leave it as it is. */
#define ADC_REPORT_SCHEMA_VERSION 1

/* {"name", "version", "git_commit"}: what wrote a report or journal. */
cJSON* adc_suite_json(void);

/* One case as every report writes it (the caller owns the object). */
cJSON* adc_case_json(const struct adc_case_record* c);

/* The whole JSON report of the record (the caller owns it): merge adds
 * "merged_from" before writing it. */
cJSON* adc_report_json(const struct adc_run_record* record);

/* adc_report_json, written to `path`.  Returns 0, or -1 with the reason. */
int adc_write_json_report(const char* path, const struct adc_run_record* record, struct adc_error* error);

/* JUnit XML (report_junit.c).  Returns 0, or -1 with the reason. */
int adc_write_junit_report(const char* path, const struct adc_run_record* record, struct adc_error* error);

/* TAP version 14 (report_tap.c), the whole of `out`. */
void adc_print_tap_report(FILE* out, const struct adc_run_record* record);

/* GitHub Actions (report_github.c): whether the run is a step of a
 * workflow (GITHUB_ACTIONS=true); an ::error (or ::warning) workflow
 * command per rule that did not pass, and a ::warning per side tested that
 * is not shown to conform, on `out`; and a Markdown table of the run
 * appended to the file $GITHUB_STEP_SUMMARY names, where it does (returns
 * 0, or -1 with the reason). */
bool adc_github_actions(void);
void adc_print_github_annotations(FILE* out, const struct adc_run_record* record);
int adc_append_github_summary(const struct adc_run_record* record, struct adc_error* error);

/* How --list-rules prints the catalogue. */
enum adc_catalogue_format {
  ADC_CATALOGUE_IDS,      /* one rule ID per line */
  ADC_CATALOGUE_MARKDOWN, /* the table of CONFORMANCE.md, one row per rule */
  ADC_CATALOGUE_JSON      /* a JSON array of the rules, every field of each, for tooling */
};
void adc_print_rule_catalogue(FILE* out, enum adc_catalogue_format format);

/* "producer" / "consumer", "MUST" / "SHOULD": as every report spells them. */
const char* adc_role_name(enum adc_role role);
const char* adc_severity_name(enum adc_severity severity);

#endif /* ADC_REPORT_H */
