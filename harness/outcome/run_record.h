/* The run record: a run judged once.  After the runner (record_of_run.h)
 * or from JSON reports (record_of_report.h: merge, verify), every case
 * with what it was, how it ended and what that means against --expect and
 * for the exit status; the counts; the verdict on each side and on the
 * run, and the exit status; the facts of the session that reports print.
 * Every report reads it and decides nothing itself (CONFORMANCE.md,
 * "Verdicts" and "Expectations files" are defined here and in verdict.c).
 *
 * A record points at strings and never copies them: they belong to what
 * it was built from (the session, its cases and results; or the parsed
 * reports), which must outlive it.  It owns its arrays and the two JSON
 * values it holds (adc_run_record_free). */
#ifndef ADC_RUN_RECORD_H
#define ADC_RUN_RECORD_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

#include "outcome/verdict.h"
#include "rule_api/rule.h"
#include "rule_api/status.h"
#include "runner/expectations.h"
#include "support/error.h"

/* The devices one run may cover (as runner/session.h's ADC_MAX_DEVICES). */
#define ADC_RECORD_MAX_DEVICES 16

/* The --expect entry that matched a case, as written in the file. */
struct adc_case_expectation {
  const char* glob;
  const char* statuses; /* "fail", "fail|pass" */
  const char* reason;
  int line;
};

/* One case, everything a report prints of it. */
struct adc_case_record {
  const char* id; /* "<device>/<rule id>/<fixture>" */
  const char* rule;
  const char* clause;
  const char* sentence;
  const char* method;
  enum adc_role role;
  enum adc_severity severity;
  const char* device;
  const char* fixture;
  enum adc_status status;
  const char* message;
  double duration_ms;
  const char* left_behind; /* what it left in its prepared process; "" where nothing */
  /* The threads of the library its prepared process kept after it for the
   * next case, named once (after the case that started them); "" or NULL
   * where none. */
  const char* kept_threads;
  /* It ran in a prepared process, then alone (`status` is the run alone's):
   * what the prepared process gave. */
  bool rerun_alone;
  enum adc_status shared_status;
  const char* shared_message;
  /* It passed alone, and its prepared process was replayed up to it
   * (runner/replay.h): whether that gave its failure again (its status is
   * then the replay's), after how many earlier cases, and the first case of
   * that process that did not pass. */
  bool replayed;
  bool reproduced;
  size_t earlier_cases;
  const char* first_to_go_wrong;
  /* Where a fatal signal killed its process, and whose code that was, as
   * the JSON report writes it (runner/crash_site.h); NULL where none. */
  const cJSON* crash_site;
  /* The --expect entry that matched it, and how it ended against it. */
  bool has_expectation;
  struct adc_case_expectation expectation;
  enum adc_expectation_outcome outcome;
  /* Set by adc_run_record_add: whether it makes the exit status 1 (a MUST
   * case in fail, crash or timeout that no entry matches, or a case that
   * ended otherwise than its entry says). */
  bool fails_run;
};

/* Room for any side's reason: a case's ID and message, and the words
 * around them. */
#define ADC_SIDE_REASON_SIZE 1820

struct adc_side_record {
  bool tested;
  const char* path; /* the library's, as the session settled it */
  enum adc_side_verdict verdict;
  /* Why, in one sentence without a final stop: "its 12 MUST cases are all
   * not_supported", "252 MUST cases unresolved, the first: <id>: <msg>". */
  char reason[ADC_SIDE_REASON_SIZE];
};

/* An --expect entry that matched no case of the run. */
struct adc_unmatched_expectation {
  const char* glob;
  int line;
};

struct adc_run_record {
  /* ---- The session, as the reports name it. */
  const char* device_option;                   /* --device as given: "cpu", "all", ... */
  const char* devices[ADC_RECORD_MAX_DEVICES]; /* the run's devices, in registry order */
  size_t n_devices;
  const char* expectations_path; /* --expect; NULL without */
  cJSON* command_line;           /* the JSON report's (owned) */
  cJSON* environment;            /* the JSON report's (owned) */
  double wall_seconds;
  int interrupted_by; /* SIGINT or SIGTERM when the run was interrupted; else 0 */
  /* ---- The cases, in the run's order (owned array), and the entries of
   * --expect that matched none (owned array). */
  struct adc_case_record* cases;
  size_t n_cases;
  struct adc_unmatched_expectation* unmatched;
  size_t n_unmatched;
  /* ---- The judgement, filled by adc_run_record_finish. */
  struct adc_summary summary;
  struct adc_side_record sides[ADC_ROLE_COUNT]; /* by enum adc_role */
  enum adc_run_verdict verdict;
  const char* headline; /* "CONFORMS", "DOES NOT CONFORM", "NOT SHOWN TO CONFORM", "INCOMPLETE" */
  bool conforms;        /* verdict is CONFORMS */
  /* 128 + the signal when interrupted; 1 when a case fails the run;
   * ADC_EXIT_NOT_SHOWN when a side tested is not shown to conform (or no
   * side was tested); else 0. */
  int exit_status;
};

/* Empties `record` for up to `capacity` cases of a run that tested the
 * sides said (their libraries' paths borrowed; NULL for a side not
 * tested).  Returns 0, or -1 when out of memory. */
int adc_run_record_begin(struct adc_run_record* record, size_t capacity, const char* producer_path,
                         const char* consumer_path, struct adc_error* error);

/* Judges the case (its fails_run) and counts it in, after those added
 * before (the run's order).  Its strings are borrowed.  At most the
 * capacity adc_run_record_begin was given. */
void adc_run_record_add(struct adc_run_record* record, const struct adc_case_record* c);

/* Sets each side's verdict and reason, the run's verdict, headline and
 * exit status, from the cases added and `interrupted_by`, wall_seconds. */
void adc_run_record_finish(struct adc_run_record* record);

/* Frees what the record owns; the strings it points at stay their owners'. */
void adc_run_record_free(struct adc_run_record* record);

/* "not_tested", "conforms", "not_shown", "does_not_conform": as the JSON
 * report spells a side's verdict. */
const char* adc_side_verdict_name(enum adc_side_verdict verdict);

/* "not tested", "conforms", "not shown to conform", "does not conform". */
const char* adc_side_verdict_words(enum adc_side_verdict verdict);

/* "SIGINT", "SIGTERM", ... (a static buffer). */
const char* adc_signal_name(int signal_number);

#endif /* ADC_RUN_RECORD_H */
