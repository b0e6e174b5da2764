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

/* A case a verdict names, copied: its ID, how it ended and its message. */
struct adc_named_case {
  char id[sizeof(((struct adc_case*)0)->id)];
  enum adc_status status;
  char message[sizeof(((struct adc_task_result*)0)->message)];
};

/* What the MUST cases of one side (the producer's rules or the
 * consumer's) came to: what the side's verdict rests on. */
struct adc_side_summary {
  bool tested; /* the side was named on the command line */
  size_t must_cases;
  size_t passing_must_cases;
  size_t failing_must_cases; /* fail, crash or timeout, expected or not */
  size_t unresolved_must_cases;
  size_t not_supported_must_cases;
  /* The first of the failing and of the unresolved, in the run's order;
   * the reason of the verdict names it. */
  struct adc_named_case first_failing;
  struct adc_named_case first_unresolved;
};

struct adc_summary {
  size_t counts[ADC_STATUS_COUNT];
  size_t cases;                         /* run (planned) */
  size_t judged_cases;                  /* adc_status_is_judged: the coverage is judged_cases / cases */
  size_t passing_must_cases;            /* of both sides */
  size_t failing_must_cases;            /* MUST cases in fail, crash or timeout, expected or not */
  size_t unexpected_failing_must_cases; /* of those, the ones no entry expects with that status */
  /* Cases matched by an --expect entry, by how they ended against it. */
  size_t outcomes[ADC_OUTCOME_COUNT];
  /* What makes the exit status 1: MUST cases in fail, crash or timeout that
   * no entry expected, and every unexpected_pass or unexpected_status. */
  size_t failing_run_cases;
  struct adc_side_summary sides[ADC_ROLE_COUNT]; /* by enum adc_role */
};

/* Whether the case makes the exit status 1: a MUST case in fail, crash or
 * timeout that no --expect entry matches, or a case that ended otherwise
 * than the entry matching it says (unexpected_pass, unexpected_status). */
bool adc_case_fails_run(const struct adc_case* c, enum adc_status status);

/* Counts every case of a run, of the sides `session` tested. */
struct adc_summary adc_summarize(const struct adc_session* session, const struct adc_case* cases,
                                 const struct adc_task_result* results, size_t n);

/* One case as adc_summary_count takes it. */
struct adc_counted_case {
  const char* id;
  enum adc_role role;
  enum adc_severity severity;
  enum adc_status status;
  const char* message;
  /* How it ended against the --expect entry that matched it; NULL where
   * none did. */
  const enum adc_expectation_outcome* outcome;
};

/* Empties `summary` for the cases of a run that tested the sides said. */
void adc_summary_begin(struct adc_summary* summary, bool producer_tested, bool consumer_tested);

/* Counts one case into `summary` (begun by adc_summary_begin), in the
 * run's order.  adc_summarize counts every case of a run so; merge and
 * verify count the cases of a JSON report so (summary_of_report.h). */
void adc_summary_count(struct adc_summary* summary, const struct adc_counted_case* counted);

/* How the run as a whole went. */
struct adc_run_outcome {
  double wall_seconds;
  int interrupted_by; /* SIGINT or SIGTERM when the run was interrupted; else 0 */
};

/* The verdict on one side (verdict.c, the one definition every report and
 * verify use):
 *   NOT_TESTED        the side was not named on the command line (the
 *                     bundled reference was only the partner);
 *   DOES_NOT_CONFORM  a MUST case of it ended fail, crash or timeout,
 *                     expected by --expect or not;
 *   NOT_SHOWN         otherwise, when no MUST case of it passed or one
 *                     ended unresolved: nothing failed, but the run did not
 *                     judge enough of it to say it conforms;
 *   CONFORMS          otherwise. */
enum adc_side_verdict {
  ADC_SIDE_NOT_TESTED,
  ADC_SIDE_CONFORMS,
  ADC_SIDE_NOT_SHOWN,
  ADC_SIDE_DOES_NOT_CONFORM,
};
enum adc_side_verdict adc_side_verdict(const struct adc_side_summary* side);

/* "not_tested", "conforms", "not_shown", "does_not_conform": as the JSON
 * report spells a side's verdict. */
const char* adc_side_verdict_name(enum adc_side_verdict verdict);

/* "not tested", "conforms", "not shown to conform", "does not conform". */
const char* adc_side_verdict_words(enum adc_side_verdict verdict);

/* Why the side has its verdict, in one sentence without a final stop:
 * "its 12 MUST cases are all not_supported", "252 MUST cases unresolved,
 * the first: <id>: <message>", ...  Cut to `size` bytes. */
void adc_side_verdict_reason(const struct adc_side_summary* side, char* text, size_t size);
/* Room for any reason: a case's ID and message, and the words around them. */
#define ADC_SIDE_REASON_SIZE (sizeof(struct adc_named_case) + 160)

/* The verdict on the run, from its sides': INCOMPLETE when it was
 * interrupted (it proves nothing of the cases it did not finish); DOES NOT
 * CONFORM when a side does not; NOT SHOWN TO CONFORM when a tested side is
 * not shown to (or no side was tested); else CONFORMS. */
enum adc_run_verdict {
  ADC_RUN_CONFORMS,
  ADC_RUN_NOT_SHOWN,
  ADC_RUN_DOES_NOT_CONFORM,
  ADC_RUN_INCOMPLETE,
};
enum adc_run_verdict adc_run_verdict(const struct adc_summary* summary,
                                     const struct adc_run_outcome* outcome);

/* Whether the run shows conformance: adc_run_verdict is CONFORMS. */
bool adc_run_conforms(const struct adc_summary* summary, const struct adc_run_outcome* outcome);

/* The verdict in words, as the console's verdict line begins: "CONFORMS",
 * "DOES NOT CONFORM", "NOT SHOWN TO CONFORM" or "INCOMPLETE". */
const char* adc_verdict_headline(const struct adc_summary* summary, const struct adc_run_outcome* outcome);

/* The exit status of a run that nothing fails but that does not show every
 * side it tested to conform (a GPU device's run on a machine without the
 * GPU: every case not_supported).  cmake/AdcAddConformanceTest.cmake gives
 * it to ctest as SKIP_RETURN_CODE (cmake/Install.cmake checks they agree). */
#define ADC_EXIT_NOT_SHOWN 3

/* The exit status of a run (or of the merge of its shards): 128 + the
 * signal when the run was interrupted (as a shell reports a command it
 * signalled); 1 when a MUST case failed, crashed or timed out and no
 * --expect entry expected it, or a case matched by an entry ended
 * otherwise; ADC_EXIT_NOT_SHOWN when a side tested is not shown to conform
 * (NOT_SHOWN, or no side was tested); else 0. */
int adc_run_exit_status(const struct adc_summary* summary, const struct adc_run_outcome* outcome);

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
void adc_print_tap_report(FILE* out, const struct adc_session* session, const struct adc_case* cases,
                          const struct adc_task_result* results, size_t n,
                          const struct adc_run_outcome* outcome);

/* GitHub Actions (report_github.c): whether the run is a step of a
 * workflow (GITHUB_ACTIONS=true); an ::error (or ::warning) workflow
 * command per rule that did not pass, and a ::warning per side tested that
 * is not shown to conform, on `out`; and a Markdown table of the run
 * appended to the file $GITHUB_STEP_SUMMARY names, where it does (returns
 * 0, or -1 with the reason). */
bool adc_github_actions(void);
void adc_print_github_annotations(FILE* out, const struct adc_session* session, const struct adc_case* cases,
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
