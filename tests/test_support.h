/* What the tests of a run share, beside unit_test_support.h: running
 * adc-conform as a user would, reading its JSON report, and what a run
 * left behind. */
#ifndef ADC_TEST_SUPPORT_H
#define ADC_TEST_SUPPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "unit_test_support.h"

/* Runs adc-conform with `args` (NULL-terminated).  Free with run_result_free. */
struct run_result run_conform(const char* const* args);

/* Runs adc-conform with `args` and asserts bad input: exit status 2 and one
 * line "adc-conform: error: ..." on standard error that holds `needle`. */
void expect_one_error_line(const char* const* args, const char* needle);

/* For the tests of a Python side: exits 77 (ctest's skip), saying why,
 * where no python3 (or $ADC_PYTHON) has a shared libpython; otherwise puts
 * the deliberately broken Python factories and functions
 * (fixtures/deliberately_broken/misbehaving/python) on the PYTHONPATH the
 * harness's parent reads. */
void require_embeddable_python(void);

/* Starts adc-conform with `args` in the background, its output discarded;
 * returns its pid. */
pid_t spawn_conform(const char* const* args);

/* Runs adc-conform with `args` plus --report-json, returns the parsed report
 * (NULL if none was written) and the exit code. */
cJSON* run_conform_report(const char* const* args, int* exit_code);

/* The same, keeping the run's exit code and output in `*run` (free it
 * with run_result_free). */
cJSON* run_conform_report_and_output(const char* const* args, struct run_result* run);

/* The case `id` of a JSON report; the test fails when there is none. */
const cJSON* report_case(const cJSON* report, const char* id);

/* For a test that has made itself a child subreaper (so that what a run
 * leaves behind becomes its child): the processes of its runs still alive
 * after `grace_seconds`, killed and reaped, and counted. */
size_t processes_left_behind(double grace_seconds);

/* The JSON report's schema, and a check that the report at `path`
 * validates against it (tests/validate_json_report.py, run with a Python
 * that has jsonschema; the check fails naming it where there is none). */
#define JSON_SCHEMA SOURCE_PATH("harness/report/report.schema.json")
/* Validates the JSON document at `path` against `schema`, whose $refs
 * may reach the schema file `referenced` (NULL: none). */
void assert_json_valid_against(const char* schema, const char* path, const char* referenced);
void assert_json_report_valid(const char* path);

/* The status of each case of a run of the async rules, producer and
 * consumer, on the CPU and the simulated device over the hand-written
 * fixtures (the cases whose waits end on what the library's threads do:
 * test_async_repeatability, test_verdicts_under_load), with `producer` and
 * `consumer`: "<case id> <status>" lines in report order, which the caller
 * frees.  The test fails when the run wrote no report or ran no case. */
char* async_case_statuses(const char* producer, const char* consumer);

/* Whether a case of a JSON report is a crash in the suite's own code (its
 * crash_site says so: runner/crash_site.h): a defect of the suite, never
 * the library's verdict, which every test that runs cases fails on. */
bool is_suite_crash(const cJSON* item);

/* How many cases of a JSON report are suite crashes; the first, as
 * "<id>: <message>", into `first` (of `size`) where there is one. */
int count_suite_crashes(const cJSON* report, char* first, size_t size);

/* "<id> <status>" lines, one per case of a JSON report, in its order
 * (free them). */
char* report_statuses(const cJSON* report);

/* The lines of `again` that `first` lacks, into `out` (as many as fit):
 * the whole of two runs' statuses would overflow Check's message. */
void lines_that_differ(const char* first, const char* again, char* out, size_t size);

#endif /* ADC_TEST_SUPPORT_H */
