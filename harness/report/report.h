/* Reports of a run: the console, the JSON file (the canonical record) and
 * its journal, JUnit XML, TAP, and GitHub Actions annotations and step
 * summary; and the rule catalogue as --list-rules prints it. */
#ifndef ADC_REPORT_H
#define ADC_REPORT_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdio.h>

#include "runner/session.h"
#include "support/error.h"

struct adc_summary {
  size_t counts[ADC_STATUS_COUNT];
  size_t cases;                         /* run (planned) */
  size_t judged_cases;                  /* adc_status_is_judged: the coverage is judged_cases / cases */
  size_t passing_must_cases;            /* none: nothing shows conformance */
  size_t failing_must_cases;            /* MUST cases in fail, crash or timeout, expected or not */
  size_t unexpected_failing_must_cases; /* of those, the ones no entry expects with that status */
  /* Cases matched by an --expect entry, by how they ended against it. */
  size_t outcomes[ADC_OUTCOME_COUNT];
  /* What makes the exit status 1: MUST cases in fail, crash or timeout that
   * no entry expected, and every unexpected_pass or unexpected_status. */
  size_t failing_run_cases;
};

/* Whether the case makes the exit status 1: a MUST case in fail, crash or
 * timeout that no --expect entry matches, or a case that ended otherwise
 * than the entry matching it says (unexpected_pass, unexpected_status). */
bool adc_case_fails_run(const struct adc_case* c, enum adc_status status);

struct adc_summary adc_summarize(const struct adc_case* cases, const struct adc_task_result* results,
                                 size_t n);

/* Counts one case into `summary` (zeroed before the first): its rule's
 * severity, its status and how it ended against the --expect entry that
 * matched it (`outcome`, NULL where none did).  adc_summarize counts every
 * case of a run so; merge counts the cases of the shards' reports so. */
void adc_summary_count(struct adc_summary* summary, enum adc_severity severity, enum adc_status status,
                       const enum adc_expectation_outcome* outcome);

/* How the run as a whole went. */
struct adc_run_outcome {
  double wall_seconds;
  int interrupted_by; /* SIGINT or SIGTERM when the run was interrupted; else 0 */
};

/* Whether the run shows conformance: it is complete, no MUST case ended
 * fail, crash or timeout (expected or not), and at least one MUST case
 * passed (a run that judged nothing shows nothing). */
bool adc_run_conforms(const struct adc_summary* summary, const struct adc_run_outcome* outcome);

/* The exit status of a run (or of the merge of its shards): 1 when a MUST
 * case failed, crashed or timed out and no --expect entry expected it, or
 * a case matched by an entry ended otherwise; 128 + the signal when the run
 * was interrupted (as a shell reports a command it signalled); else 0. */
int adc_run_exit_status(const struct adc_summary* summary, const struct adc_run_outcome* outcome);

/* The verdict in words, as the console's last line begins: "CONFORMS",
 * "DOES NOT CONFORM" (a MUST case failed, crashed or timed out), "NOT
 * SHOWN TO CONFORM" (no MUST case passed) or "INCOMPLETE" (interrupted). */
const char* adc_verdict_headline(const struct adc_summary* summary, const struct adc_run_outcome* outcome);

/* "SIGINT", "SIGTERM", ... */
const char* adc_signal_name(int signal_number);

struct adc_console_style {
  bool verbose; /* one line per case, not per rule */
  bool colour;  /* console_style.h: adc_console_wants_colour */
};
void adc_print_console_report(FILE* out, const struct adc_session* session, const struct adc_case* cases,
                              const struct adc_task_result* results, size_t n,
                              const struct adc_run_outcome* outcome, const struct adc_console_style* style);

/* ": 40 pass, 2 fail.\n": the statuses that some case ended with, each with
 * its count, as the console's counts line ends. */
void adc_print_status_counts(FILE* out, const struct adc_summary* summary);

/* The console's verdict line: the headline (adc_verdict_headline), what it
 * rests on and the coverage; `with_expectations` when the run had --expect. */
void adc_print_verdict(FILE* out, const struct adc_summary* summary, const struct adc_run_outcome* outcome,
                       bool with_expectations, bool colour);

/* The version of the JSON report's shape (report.schema.json): raised when
 * a key changes meaning or goes; new keys leave it as it is. */
#define ADC_REPORT_SCHEMA_VERSION 1

/* {"name", "version", "git_commit"}: what wrote a report or journal. */
cJSON* adc_suite_json(void);

/* One case as every report writes it (the caller owns the object). */
cJSON* adc_case_json(const struct adc_case* c, const struct adc_task_result* result);

/* The report's "summary" object (the caller owns it), as every JSON report
 * writes it: `unmatched_expectations` is the array of --expect entries that
 * matched no case, taken over by the summary, or NULL without --expect. */
cJSON* adc_summary_json(const struct adc_summary* summary, cJSON* unmatched_expectations,
                        const struct adc_run_outcome* outcome);

/* Returns 0, or -1 with the reason. */
int adc_write_json_report(const char* path, const struct adc_session* session, const struct adc_case* cases,
                          const struct adc_task_result* results, size_t n,
                          const struct adc_run_outcome* outcome, struct adc_error* error);

/* JUnit XML (report_junit.c).  Returns 0, or -1 with the reason. */
int adc_write_junit_report(const char* path, const struct adc_session* session, const struct adc_case* cases,
                           const struct adc_task_result* results, size_t n,
                           const struct adc_run_outcome* outcome, struct adc_error* error);

/* TAP version 14 (report_tap.c), the whole of `out`. */
void adc_print_tap_report(FILE* out, const struct adc_case* cases, const struct adc_task_result* results,
                          size_t n, const struct adc_run_outcome* outcome);

/* GitHub Actions (report_github.c): whether the run is a step of a
 * workflow (GITHUB_ACTIONS=true); an ::error (or ::warning) workflow
 * command per rule that did not pass, on `out`; and a Markdown table of
 * the run appended to the file $GITHUB_STEP_SUMMARY names, where it does
 * (returns 0, or -1 with the reason). */
bool adc_github_actions(void);
void adc_print_github_annotations(FILE* out, const struct adc_case* cases,
                                  const struct adc_task_result* results, size_t n);
int adc_append_github_summary(const struct adc_session* session, const struct adc_case* cases,
                              const struct adc_task_result* results, size_t n,
                              const struct adc_run_outcome* outcome, struct adc_error* error);

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
