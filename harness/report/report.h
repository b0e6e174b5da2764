/* Reports of a run: the console table, the JSON file and its journal; and
 * the rule catalogue as --list-rules prints it. */
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

struct adc_summary adc_summarize(const struct adc_case* cases, const struct adc_task_result* results,
                                 size_t n);

/* How the run as a whole went. */
struct adc_run_outcome {
  double wall_seconds;
  int interrupted_by; /* SIGINT or SIGTERM when the run was interrupted; else 0 */
};

/* Whether the run shows conformance: it is complete, no MUST case ended
 * fail, crash or timeout (expected or not), and at least one MUST case
 * passed (a run that judged nothing shows nothing). */
bool adc_run_conforms(const struct adc_summary* summary, const struct adc_run_outcome* outcome);

/* "SIGINT", "SIGTERM", ... */
const char* adc_signal_name(int signal_number);

void adc_print_console_report(FILE* out, const struct adc_session* session, const struct adc_case* cases,
                              const struct adc_task_result* results, size_t n,
                              const struct adc_run_outcome* outcome, bool verbose);

/* One case as every report writes it (the caller owns the object). */
cJSON* adc_case_json(const struct adc_case* c, const struct adc_task_result* result);

/* Returns 0, or -1 with the reason. */
int adc_write_json_report(const char* path, const struct adc_session* session, const struct adc_case* cases,
                          const struct adc_task_result* results, size_t n,
                          const struct adc_run_outcome* outcome, struct adc_error* error);

/* How --list-rules prints the catalogue. */
enum adc_catalogue_format {
  ADC_CATALOGUE_IDS,     /* one rule ID per line */
  ADC_CATALOGUE_MARKDOWN /* the table of CONFORMANCE.md, one row per rule */
};
void adc_print_rule_catalogue(FILE* out, enum adc_catalogue_format format);

/* "producer" / "consumer", "MUST" / "SHOULD": as every report spells them. */
const char* adc_role_name(enum adc_role role);
const char* adc_severity_name(enum adc_severity severity);

#endif /* ADC_REPORT_H */
