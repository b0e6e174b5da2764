/* The main command of adc-conform: settle the session (libraries,
 * prefixes, device, fixtures), plan the cases, hand them to the runner and
 * report them.  The parent never loads a library under test nor a GPU
 * runtime itself.  Every error of the harness's own comes back here and is
 * printed as one line. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/install_layout.h"
#include "cli/library_sides.h"
#include "cli/options.h"
#include "commands/debug_case.h"
#include "commands/session_settle.h"
#include "commands/subcommands.h"
#include "commands/wrapped_harness.h"
#include "outcome/record_of_run.h"
#include "report/console_style.h"
#include "report/journal.h"
#include "report/progress.h"
#include "report/report.h"
#include "report/report_outputs.h"
#include "rule_api/round_trip.h"
#include "runner/case_plan.h"
#include "runner/device_probe.h"
#include "runner/fixture_set.h"
#include "runner/runner.h"
#include "runner/task_runner.h"
#include "support/clock.h"
#include "support/parent_only_memory.h"

/* What hears of each case as it ends. */
struct case_listeners {
  struct adc_journal* journal; /* NULL without --report-json */
  struct adc_progress progress;
};

static void case_ended(const struct adc_case* c, const struct adc_task_result* result, void* context) {
  struct case_listeners* listeners = context;
  if (listeners->journal != NULL) {
    struct adc_case_record record;
    adc_case_record_of_run(c, result, &record);
    adc_journal_add(listeners->journal, &record);
  }
  adc_progress_case_ended(&listeners->progress, result->status);
}

/* Runs the cases and reports them, the JSON report through a journal kept
 * as the run goes; returns the exit status.  With --tap, standard output
 * carries TAP alone and the console report goes to standard error. */
static int run_and_report(const struct adc_options* options, const struct adc_session* session,
                          const struct adc_case* cases, size_t n) {
  struct adc_error error;
  struct case_listeners listeners = {NULL, {0}};
  if (options->report_json != NULL) {
    listeners.journal = adc_journal_open(options->report_json, session, n, &error);
    if (listeners.journal == NULL) return adc_cli_bad_input(&error);
  }
  FILE* console = adc_report_outputs_use_stdout(&options->outputs) ? stderr : stdout;
  /* The parent's alone: no case's process reads them (support/parent_only_memory.h). */
  struct adc_task_result* results = adc_parent_only_calloc(n, sizeof(*results));
  double started = adc_now_seconds();
  adc_progress_start(&listeners.progress, stderr, n);
  int ran = results == NULL ? adc_fail(&error, "out of memory")
                            : adc_run_cases(session, cases, n, results, case_ended, &listeners, &error);
  adc_progress_end(&listeners.progress);
  if (ran != 0) {
    adc_task_results_free(results, n);
    adc_journal_close(listeners.journal, false);
    return adc_cli_bad_input(&error);
  }
  struct adc_run_outcome outcome = {adc_now_seconds() - started, adc_run_interrupted_by()};
  /* The run judged once: every report below reads this record. */
  struct adc_run_record record;
  if (adc_run_record_of_run(&record, session, cases, results, n, &outcome, &error) != 0) {
    adc_task_results_free(results, n);
    adc_journal_close(listeners.journal, false);
    return adc_cli_bad_input(&error);
  }
  struct adc_console_style style = {options->verbose, adc_console_wants_colour(console)};
  adc_print_console_report(console, &record, &style);
  fprintf(console, "Wall time: %.3f s\n", record.wall_seconds);
  int exit_code = record.exit_status;
  /* The canonical record first: the journal goes only once it is written. */
  bool written =
      options->report_json == NULL || adc_write_json_report(options->report_json, &record, &error) == 0;
  adc_journal_close(listeners.journal, written);
  if (!written || adc_write_report_outputs(&record, &options->outputs, console, &error) != 0) {
    exit_code = adc_cli_bad_input(&error);
  }
  adc_run_record_free(&record);
  adc_task_results_free(results, n);
  return exit_code;
}

/* --debug-case ID: the one case whose ID it is, run in this process. */
static int debug_one_case(const struct adc_session* session, const char* id) {
  struct adc_case* cases = NULL;
  const char* const only[] = {id};
  size_t n = adc_plan_cases(session, only, 1, &cases);
  int exit_code;
  if (n != 1) {
    struct adc_error error;
    adc_fail(&error, "--debug-case '%s' names %zu cases; it takes the ID of one (see --list)", id, n);
    exit_code = adc_cli_bad_input(&error);
  } else {
    exit_code = adc_debug_case(session, &cases[0]);
  }
  free(cases);
  return exit_code;
}

int adc_run_command(int argc, char** argv) {
  struct adc_options options;
  struct adc_error error;
  if (adc_parse_options(argc, argv, &options, &error) != 0) return adc_cli_bad_input(&error);
  if (options.help) {
    adc_print_usage();
    adc_print_subcommands();
    return EXIT_SUCCESS;
  }
  if (options.list_rules) {
    adc_print_rule_catalogue(stdout, options.rules_format);
    return EXIT_SUCCESS;
  }
  if (options.producer == NULL && options.consumer == NULL) {
    adc_fail(&error, "name a library with --producer and/or --consumer (see --help)");
    return adc_cli_bad_input(&error);
  }
  /* Only a run goes under --valgrind or --preload. */
  if (!options.list_cases) {
    int wrapped_exit_status = 0;
    int wrapped = adc_wrap_harness_if_asked(&options, argv, &wrapped_exit_status, &error);
    if (wrapped < 0) return adc_cli_bad_input(&error);
    if (wrapped > 0) return wrapped_exit_status;
  }
  struct adc_expectations expectations;
  if (options.expect != NULL && adc_expectations_read(options.expect, &expectations, &error) != 0) {
    return adc_cli_bad_input(&error);
  }
  struct adc_session session;
  if (adc_settle_session(&options, &session, &error) != 0) {
    if (options.expect != NULL) adc_expectations_free(&expectations);
    return adc_cli_bad_input(&error);
  }
  if (options.expect != NULL) session.expectations = &expectations;
  session.argc = argc;
  session.argv = argv;

  if (options.debug_case != NULL) {
    int debugged = debug_one_case(&session, options.debug_case);
    adc_free_fixtures(&session);
    if (options.expect != NULL) adc_expectations_free(&expectations);
    return debugged;
  }
  struct adc_case* cases = NULL;
  size_t n = adc_plan_cases(&session, options.filters, options.n_filters, &cases);
  n = adc_shard_cases(cases, n, options.shard_index, options.shard_count);
  if (options.expect != NULL) {
    adc_expectations_match(&expectations, cases, n);
    adc_warn_unmatched_expectations(&expectations, "run");
  }
  int exit_code = EXIT_SUCCESS;
  if (options.list_cases) {
    for (size_t i = 0; i < n; i++) printf("%s\n", cases[i].id);
  } else if (n == 0) {
    adc_fail(
        &error, "no case to run on device '%s'%s", session.device_option,
        options.n_filters ? " matches the --filter globs" : " (no rule of this catalogue applies to it)");
    exit_code = adc_cli_bad_input(&error);
  } else if (adc_probe_devices(&session, cases, n, &error) != 0) {
    exit_code = adc_cli_bad_input(&error);
  } else if (adc_run_interrupted_by() != 0) {
    /* Interrupted while the devices were probed: nothing ran. */
    exit_code = 128 + adc_run_interrupted_by();
  } else {
    exit_code = run_and_report(&options, &session, cases, n);
  }
  free(cases);
  adc_free_fixtures(&session);
  if (options.expect != NULL) adc_expectations_free(&expectations);
  return exit_code;
}
