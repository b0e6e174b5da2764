/* A Python library under test (--producer python:MODULE:FACTORY, or
 * --consumer python:MODULE:FUNCTION) is judged in each case's process,
 * which embeds CPython (harness/python), and misbehaves there at the cost
 * of its own cases only: an exception, a crash, a hang, an object without
 * the interface's method, a module that fails to import inside the case,
 * each becomes that case's verdict with the cause in its message, and the
 * run goes on.  A module the harness cannot import is one error line before
 * any case.  The factories and functions are in fixtures/deliberately_broken/misbehaving/python
 * (standard library only), and misbehaving_python:passthrough hands back
 * what it was given, so the reference producer (or consumer) judged
 * through the PyCapsule Interface checks the shim itself: every rule it
 * reaches passes.  Each of python_consumer_twins breaks one consumer rule,
 * which catches it, and no other.
 *
 * Needs a python3 (or $ADC_PYTHON) with a shared libpython; without one the
 * program exits 77 (skipped). */
#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_support.h"

#define BATCH_CASE "cpu/array.release.sets_null/int32_nulls"
#define SCHEMA_CASE "cpu/schema.release.sets_null/int32_nulls"
#define STREAM_CASE "cpu/device_stream.release.sets_null/int32_nulls"

/* A report case's status, its message into `*message`. */
static const char* status_of_case(const cJSON* c, const char** message) {
  *message = cJSON_GetStringValue(cJSON_GetObjectItem(c, "message"));
  return cJSON_GetStringValue(cJSON_GetObjectItem(c, "status"));
}

/* The same for case `id` of a run report. */
static const char* status_of(const cJSON* report, const char* id, const char** message) {
  return status_of_case(report_case(report, id), message);
}

/* The same for pair case `id` of a matrix report, which holds the run
 * report's case under "case". */
static const char* pair_status_of(const cJSON* report, const char* id, const char** message) {
  return status_of_case(cJSON_GetObjectItem(report_case(report, id), "case"), message);
}

/* Each of the `n` cases `ids` of `report` passed. */
static void assert_each_passed(const cJSON* report, const char* const* ids, size_t n) {
  for (size_t i = 0; i < n; i++) {
    const char* message;
    ck_assert_msg(strcmp(status_of(report, ids[i], &message), "pass") == 0, "%s: %s", ids[i], message);
  }
}

/* One case of a JSON report, as a test reads it. */
struct case_view {
  const char* id;
  const char* status;
  const char* message;
};

static struct case_view view_of(const cJSON* c) {
  return (struct case_view){cJSON_GetStringValue(cJSON_GetObjectItem(c, "id")),
                            cJSON_GetStringValue(cJSON_GetObjectItem(c, "status")),
                            cJSON_GetStringValue(cJSON_GetObjectItem(c, "message"))};
}

/* How many cases of `report` passed; every other must be not_supported. */
static int passed_else_not_supported(const cJSON* report) {
  const cJSON* c;
  int passed = 0;
  cJSON_ArrayForEach(c, cJSON_GetObjectItem(report, "cases")) {
    struct case_view v = view_of(c);
    passed += strcmp(v.status, "pass") == 0;
    ck_assert_msg(strcmp(v.status, "pass") == 0 || strcmp(v.status, "not_supported") == 0, "%s: %s: %s", v.id,
                  v.status, v.message);
  }
  return passed;
}

/* The report of adc-conform with `args`, which must exit `exit_status`. */
static cJSON* report_exiting(const char* const* args, int exit_status) {
  int exit_code;
  cJSON* report = run_conform_report(args, &exit_code);
  ck_assert_msg(report != NULL, "no report (exit %d)", exit_code);
  ck_assert_int_eq(exit_code, exit_status);
  return report;
}

START_TEST(passthrough_judges_the_reference_through_capsules) {
  const char* args[] = {"--producer", "python:misbehaving_python:passthrough",
                        "--fixtures", HAND_WRITTEN_FIXTURES,
                        "--filter",   "cpu/*/int32_nulls",
                        "--filter",   "cpu/*/nested_struct",
                        NULL};
  cJSON* report = report_exiting(args, 0);
  int passed = passed_else_not_supported(report);
  ck_assert_msg(passed >= 20, "only %d cases passed", passed);
  const char* message;
  ck_assert_str_eq(status_of(report, BATCH_CASE, &message), "pass");
  ck_assert_str_eq(status_of(report, SCHEMA_CASE, &message), "pass");
  /* The source's own __arrow_c_device_stream__. */
  ck_assert_str_eq(status_of(report, STREAM_CASE, &message), "pass");
  cJSON_Delete(report);
}
END_TEST

/* How many lines the file at `path` has (0 where there is none). */
static int lines_of(const char* path) {
  FILE* file = fopen(path, "r");
  if (file == NULL) return 0;
  int lines = 0;
  for (int c; (c = fgetc(file)) != EOF;) lines += c == '\n';
  fclose(file);
  return lines;
}

/* Makes `log` ("/tmp/adc-import-log-XXXXXX") the file counted_import
 * appends each import to. */
static void log_imports(char* log) {
  int fd = mkstemp(log);
  ck_assert_int_ge(fd, 0);
  close(fd);
  setenv("ADC_TEST_IMPORT_LOG", log, 1);
}

/* The imports `log` holds; the log is gone after. */
static int imports_logged(const char* log) {
  int imports = lines_of(log);
  unlink(log);
  unsetenv("ADC_TEST_IMPORT_LOG");
  return imports;
}

/* A Python library is imported once, in the preloading server, and each
 * case's process forked from there (include/adc/fork_protocol.h): its
 * imports are the check of the Python the harness was given
 * (harness/cli/python_side.h), the preflight's and the server's, however
 * many processes the cases take (--isolation case: one each).  One whose
 * import starts a thread (_i 1) is imported in every case's process, as a
 * fork would leave that thread behind; one whose import starts only an
 * allocator's background thread (_i 2, named as jemalloc's), which the
 * allocator itself stops in a fork's child, is imported once (DataFusion's
 * cpu run took 3.0 s imported in each process, 1.8 s forked).  Every case
 * passes each way. */
START_TEST(a_python_library_is_imported_once_unless_its_import_starts_a_thread) {
  const char* starts[] = {NULL, "1", "allocator"};
  char log[] = "/tmp/adc-import-log-XXXXXX";
  log_imports(log);
  if (starts[_i] != NULL) setenv("ADC_TEST_IMPORT_STARTS_A_THREAD", starts[_i], 1);
  const char* args[] = {"--producer",  "python:counted_import:make",
                        "--fixtures",  HAND_WRITTEN_FIXTURES,
                        "--filter",    BATCH_CASE,
                        "--filter",    SCHEMA_CASE,
                        "--filter",    STREAM_CASE,
                        "--isolation", "case",
                        NULL};
  cJSON* report = report_exiting(args, 0);
  unsetenv("ADC_TEST_IMPORT_STARTS_A_THREAD");
  const char* ids[] = {BATCH_CASE, SCHEMA_CASE, STREAM_CASE};
  assert_each_passed(report, ids, 3);
  int imports = imports_logged(log);
  if (_i == 1) {
    ck_assert_msg(imports >= 2 + 3, "%d imports: the module was not imported in each case's process",
                  imports);
  } else {
    ck_assert_msg(imports == 3, "%d imports, not the check's, the preflight's and the preloading server's",
                  imports);
  }
  cJSON_Delete(report);
}
END_TEST

/* A Python library whose import starts a thread is imported again in
 * every process (above), which costs far more than a case: its cases share
 * few prepared processes (adc_task_group.starts_slowly: another starts for
 * ADC_TASKS_PER_SLOW_START cases waiting), not a process per free job.  64
 * cases of one device take the check's and the preflight's imports, one
 * process's, and one where ExportSchemaFromJson is judged as a process's
 * first call (adc_task.calls); a process per free job made it 6. */
START_TEST(a_library_slow_to_start_shares_few_processes) {
  char log[] = "/tmp/adc-import-log-XXXXXX";
  log_imports(log);
  setenv("ADC_TEST_IMPORT_STARTS_A_THREAD", "1", 1);
  /* Shared processes asked for: a sanitizer build of the harness runs each
   * case alone by default. */
  const char* args[] = {"--producer",  "python:counted_import:make",
                        "--fixtures",  HAND_WRITTEN_FIXTURES,
                        "--filter",    "cpu/array.*",
                        "--isolation", "shared",
                        NULL};
  cJSON* report = report_exiting(args, 0);
  ck_assert_int_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(report, "summary"), "cases")->valueint, 64);
  cJSON_Delete(report);
  int imports = imports_logged(log);
  unsetenv("ADC_TEST_IMPORT_STARTS_A_THREAD");
  ck_assert_msg(imports <= 4, "%d imports for 64 cases of one device", imports);
}
END_TEST

/* Every device stream case of a Python object with __arrow_c_stream__ and
 * no __arrow_c_device_stream__ (misbehaving_python.cpu_only_methods over
 * the source: the reference's stream, through the shim's reading of a C
 * stream as a CPU device stream).  Every one passes: the reading adds nothing a
 * rule could blame on the library; the stream moves with the device
 * stream (move.relocatable), and its release is the library's. */
START_TEST(a_c_stream_is_judged_as_a_cpu_device_stream) {
  const char* args[] = {"--producer", "python:misbehaving_python:cpu_only_methods",
                        "--device",   "cpu,cpu_device_arrays",
                        "--fixtures", HAND_WRITTEN_FIXTURES,
                        "--filter",   "*/device_stream.*",
                        NULL};
  cJSON* report = report_exiting(args, 0);
  const cJSON* c;
  int passed = 0;
  cJSON_ArrayForEach(c, cJSON_GetObjectItem(report, "cases")) {
    struct case_view v = view_of(c);
    passed += strcmp(v.status, "pass") == 0;
    /* The error rules too: the reference's failing stream is the source
     * the library reads as its own stream is read. */
    ck_assert_msg(strcmp(v.status, "pass") == 0, "%s: %s: %s", v.id, v.status, v.message);
  }
  ck_assert_int_ge(passed, 80);
  const char* message;
  ck_assert_str_eq(status_of(report, "cpu/device_stream.move.relocatable/int32_nulls", &message), "pass");
  ck_assert_str_eq(status_of(report, "cpu/device_stream.release.no_leak/int32_nulls", &message), "pass");
  cJSON_Delete(report);
}
END_TEST

/* `expected` cases of `report`, those whose id holds `rule`, failed with
 * `text` in their message; every other passed or was not_supported. */
static void assert_caught_alone(const cJSON* report, const char* rule, const char* text, int expected) {
  const cJSON* c;
  int caught = 0;
  cJSON_ArrayForEach(c, cJSON_GetObjectItem(report, "cases")) {
    struct case_view v = view_of(c);
    if (strstr(v.id, rule) != NULL) {
      ck_assert_msg(strcmp(v.status, "fail") == 0 && strstr(v.message, text) != NULL, "%s: %s: %s", v.id,
                    v.status, v.message);
      caught++;
    } else {
      ck_assert_msg(strcmp(v.status, "pass") == 0 || strcmp(v.status, "not_supported") == 0, "%s: %s: %s",
                    v.id, v.status, v.message);
    }
  }
  ck_assert_int_eq(caught, expected);
}

/* fixtures/deliberately_broken/misbehaving/python/c_stream_twins.py: a
 * C stream broken in one sentence, with no device stream method, is caught
 * by its device stream rule and no other. */
START_TEST(a_c_stream_twin_is_caught_by_its_rule_alone) {
  const char* args[] = {"--producer", "python:c_stream_twins:release_not_marked",
                        "--device",   "cpu",
                        "--fixtures", HAND_WRITTEN_FIXTURES,
                        "--filter",   "*/*/int32_nulls",
                        "--filter",   "*/*/nested_struct",
                        NULL};
  cJSON* report = report_exiting(args, 1);
  assert_caught_alone(report, "/device_stream.release.sets_null/", "", 2);
  cJSON_Delete(report);
}
END_TEST

/* A Python library that keeps what it imported for ever (its first batch,
 * never released) is caught by the leak rule alone: the harness counts the
 * reference's bytes behind what a round-trip library adopted
 * (misbehaving_python.keeps_what_it_imported). */
START_TEST(a_library_keeping_what_it_imported_leaks) {
  const char* args[] = {"--producer", "python:misbehaving_python:keeps_what_it_imported",
                        "--device",   "cpu",
                        "--fixtures", HAND_WRITTEN_FIXTURES,
                        "--filter",   "cpu/array.*/int32_nulls",
                        NULL};
  cJSON* report = report_exiting(args, 1);
  assert_caught_alone(report, "/array.release.no_leak/", "bytes were not given back", 1);
  cJSON_Delete(report);
}
END_TEST

/* The shim's objects are ordinary Python objects (shim_object.h): a
 * library that names its argument's type (type(o).__module__,
 * __qualname__, repr) imports them, as producer and as consumer
 * (misbehaving_python.inspects_objects raises where they are not). */
START_TEST(the_shims_objects_are_ordinary_objects) {
  const char* args[] = {"--producer", "python:misbehaving_python:inspects_objects",
                        "--consumer", "python:misbehaving_python:inspects_objects",
                        "--fixtures", HAND_WRITTEN_FIXTURES,
                        "--filter",   "cpu/*/int32_nulls",
                        NULL};
  cJSON* report = report_exiting(args, 0);
  int passed = passed_else_not_supported(report);
  const cJSON* c;
  cJSON_ArrayForEach(c, cJSON_GetObjectItem(report, "cases")) {
    const char* message = view_of(c).message;
    ck_assert_msg(message == NULL || strstr(message, "AssertionError") == NULL, "%s: %s", view_of(c).id,
                  message);
  }
  ck_assert_msg(passed >= 40, "only %d cases passed", passed);
  cJSON_Delete(report);
}
END_TEST

/* An object with __arrow_c_stream__ alone (a data frame, a relation) is
 * judged through its stream: its schema is its stream's (made from a
 * schema source, which holds the data too), a batch the one array of its
 * stream (made from a batch source, which has a stream of that batch), on
 * cpu and as a CPU device array (adopted_source.h, python_producer.c). */
START_TEST(a_stream_only_object_is_judged_through_its_stream) {
  const char* args[] = {"--producer", "python:misbehaving_python:stream_only",
                        "--device",   "cpu,cpu_device_arrays",
                        "--fixtures", HAND_WRITTEN_FIXTURES,
                        "--filter",   "*/*/nested_struct",
                        "--filter",   "*/*/int32_nulls",
                        NULL};
  cJSON* report = report_exiting(args, 0);
  int passed = passed_else_not_supported(report);
  ck_assert_int_ge(passed, 100);
  const char* reached[] = {"cpu/schema.format.matches_fixture/nested_struct",
                           "cpu/baseline.producer.exports_baseline_fixtures/int32_nulls",
                           "cpu/array.data.matches_fixture/nested_struct",
                           "cpu_device_arrays/device_array.reserved.zeroed/nested_struct",
                           "cpu/device_stream.next.matches_fixture/nested_struct"};
  assert_each_passed(report, reached, sizeof(reached) / sizeof(reached[0]));
  cJSON_Delete(report);
}
END_TEST

/* A library keeping its own model batches its stream its own way: one
 * that reads a batch ahead (as one prefetching or merging its input does)
 * meets the failure of the input's batch k at its get_next k - 1, before
 * that batch's rows.  The errors rules judge that failure (its code, its
 * text) instead of ending unresolved at the batch it did not hand on
 * (device_stream.errors.*: as DuckDB's stream fails, by timing). */
START_TEST(a_stream_read_ahead_has_its_failure_judged) {
  const char* args[] = {"--producer", "python:misbehaving_python:reads_ahead",
                        "--device",   "cpu",
                        "--fixtures", HAND_WRITTEN_FIXTURES,
                        "--filter",   "cpu/device_stream.*/multi_batch",
                        NULL};
  cJSON* report = report_exiting(args, 0);
  const char* judged[] = {"cpu/device_stream.errors.errno_code/multi_batch",
                          "cpu/device_stream.errors.last_error_text/multi_batch",
                          "cpu/device_stream.next.matches_fixture/multi_batch"};
  assert_each_passed(report, judged, sizeof(judged) / sizeof(judged[0]));
  cJSON_Delete(report);
}
END_TEST

/* A release that, in a child made by fork(), waits for a lock a thread of
 * the library holds (as DuckDB's stream waits on its pool): the probe of
 * pycapsule.capsule.consumed_left_alone, which releases in such a child,
 * sees it waiting for ever at once (harness/python/forked_child_wait.h),
 * says so, and the destructors it watched pass, well within the probe's
 * 5 s bound. */
START_TEST(a_release_that_waits_on_its_threads_in_a_fork_is_seen_at_once) {
  const char* args[] = {"--producer", "python:misbehaving_python:release_needs_its_thread",
                        "--fixtures", HAND_WRITTEN_FIXTURES,
                        "--filter",   "cpu/pycapsule.capsule.consumed_left_alone/int32_nulls",
                        NULL};
  cJSON* report = report_exiting(args, 0);
  const cJSON* c = report_case(report, "cpu/pycapsule.capsule.consumed_left_alone/int32_nulls");
  struct case_view v = view_of(c);
  ck_assert_msg(strcmp(v.status, "pass") == 0, "%s: %s", v.status, v.message);
  ck_assert_msg(
      v.message != NULL && strstr(v.message, "waits for ever on a lock in the forked child") != NULL, "%s",
      v.message);
  double duration_ms = cJSON_GetNumberValue(cJSON_GetObjectItem(c, "duration_ms"));
  ck_assert_msg(duration_ms < 4000, "%.0f ms: the wait was not seen before the bound", duration_ms);
  cJSON_Delete(report);
}
END_TEST

/* An object whose schema (__arrow_c_schema__) says other types than its
 * batches hold: the shim reads a batch by the object's schema, so it
 * declines the batch, naming the difference, rather than read it by the
 * wrong types (harness/python/schema_types.h). */
START_TEST(a_batch_unlike_its_objects_schema_is_declined) {
  const char* args[] = {"--producer", "python:misbehaving_python:schema_unlike_its_batches",
                        "--fixtures", HAND_WRITTEN_FIXTURES,
                        "--filter",   BATCH_CASE,
                        NULL};
  int exit_code;
  cJSON* report = run_conform_report(args, &exit_code);
  ck_assert_msg(report != NULL, "no report (exit %d)", exit_code);
  const char* message;
  ck_assert_str_eq(status_of(report, BATCH_CASE, &message), "not_supported");
  ck_assert_msg(strstr(message, "the batch's own schema has other types than the object's schema") != NULL &&
                    strstr(message, "'i'") != NULL && strstr(message, "'l'") != NULL,
                "%s", message);
  cJSON_Delete(report);
}
END_TEST

/* The JSON report of `adc-conform matrix` of `libraries` (NAME=SPEC, at
 * most three, NULL-terminated) and the reference on cpu, over fixtures
 * `fixtures`, filtered to `filter`; the test fails where there is none.
 * Its standard error into `*err` where `err` is not NULL (free it). */
static cJSON* matrix_report(const char* const* libraries, const char* fixtures, const char* filter,
                            char** err) {
  const char* args[32] = {"matrix"};
  int n = 1;
  for (int i = 0; libraries[i] != NULL && i < 3; i++) {
    args[n++] = "--library";
    args[n++] = libraries[i];
  }
  const char* rest[] = {"--device", "cpu", "--fixtures", fixtures, "--filter", filter};
  for (size_t i = 0; i < sizeof(rest) / sizeof(rest[0]); i++) args[n++] = rest[i];
  args[n] = NULL;
  struct run_result run;
  cJSON* report = run_conform_report_and_output(args, &run);
  ck_assert_msg(report != NULL, "no report (exit %d): %s", run.exit_code, run.err);
  if (err != NULL) {
    *err = run.err;
    run.err = NULL;
  }
  run_result_free(&run);
  return report;
}

/* The status and message of pair case `id` of a matrix of the reference
 * and the Python producer `producer`, on fixtures `fixtures`. */
static const char* pair_case_status(const char* producer, const char* fixtures, const char* id, char* message,
                                    size_t size) {
  static char status[32];
  const char* libraries[] = {producer, NULL};
  cJSON* report = matrix_report(libraries, fixtures, id, NULL);
  const char* said;
  snprintf(status, sizeof(status), "%s", pair_status_of(report, id, &said));
  snprintf(message, size, "%s", said);
  cJSON_Delete(report);
  return status;
}

/* In an interop matrix, a producer keeping its own model in other types
 * than the fixture's has its batches left unjudged, saying so: a batch
 * carries no schema, and the consumer reads it by the fixture's (a string
 * view read as a string faulted in the consumer, blamed on the producer,
 * in the full matrix: rules_pair.c). */
START_TEST(own_types_leave_a_pairs_batches_unjudged) {
  const char* id = "odd>reference/cpu/pair.batch.imported_equal/int32_nulls";
  const char* libraries[] = {"odd=python:misbehaving_python:schema_unlike_its_batches", NULL};
  cJSON* report = matrix_report(libraries, HAND_WRITTEN_FIXTURES, id, NULL);
  const char* message;
  const char* status = pair_status_of(report, id, &message);
  ck_assert_msg(strcmp(status, "not_supported") == 0 && strstr(message, "keeps its own model") != NULL &&
                    strstr(message, "a batch carries no schema") != NULL,
                "%s: %s", status, message);
  cJSON_Delete(report);
}
END_TEST

/* A stream in the producer's own model (its columns all nullable) meets a
 * consumer that compares with the file as written (the reference): the
 * values are the fixture's, so the pair's stream rule leaves the pair
 * unjudged, saying so (pair_own_model.h); a stream whose values are not
 * the fixture's (a batch lost) still fails it. */
START_TEST(a_pairs_stream_in_the_producers_own_model_is_judged_by_value) {
  char message[4096];
  const char* status = pair_case_status(
      "odd=python:misbehaving_python:widens_nullable", SOURCE_PATH("fixtures/columnar"),
      "odd>reference/cpu/pair.device_stream.imported_equal/bool_null", message, sizeof(message));
  ck_assert_msg(strcmp(status, "not_supported") == 0 &&
                    strstr(message, "hands over the fixture's values") != NULL &&
                    strstr(message, "ARROW_FLAG_NULLABLE is set") != NULL,
                "%s: %s", status, message);
  status = pair_case_status("odd=python:misbehaving_python:ends_after_one_batch", HAND_WRITTEN_FIXTURES,
                            "odd>reference/cpu/pair.device_stream.imported_equal/multi_batch", message,
                            sizeof(message));
  ck_assert_msg(strcmp(status, "fail") == 0 && strstr(message, "ended after 1 batches") != NULL, "%s: %s",
                status, message);
}
END_TEST

/* A pair's processes import its own Python libraries alone: of a matrix
 * of two (counted_import settled last), the pair of the reference and the
 * other imports counted_import no more than settling it did (each process
 * of such a pair once imported the library settled last: a pair of the
 * reference and arro3 took 0.9 s, not 0.09 s, importing polars). */
START_TEST(a_pairs_processes_import_its_own_python_libraries_alone) {
  char log[] = "/tmp/adc-import-log-XXXXXX";
  log_imports(log);
  const char* id = "reference>other/cpu/pair.batch.imported_equal/int32_nulls";
  const char* libraries[] = {"other=python:misbehaving_python:passthrough:passthrough",
                             "counted=python:counted_import:make", NULL};
  cJSON_Delete(matrix_report(libraries, HAND_WRITTEN_FIXTURES, "no case", NULL));
  int settling = lines_of(log);
  cJSON* report = matrix_report(libraries, HAND_WRITTEN_FIXTURES, id, NULL);
  const char* message;
  ck_assert_str_eq(pair_status_of(report, id, &message), "pass");
  cJSON_Delete(report);
  int imports = imports_logged(log);
  ck_assert_msg(settling > 0 && imports == 2 * settling,
                "settling imported counted_import %d times, the run with the pair of the reference and the "
                "other library %d times",
                settling, imports - settling);
}
END_TEST

/* Two Python libraries of a pair share one interpreter, which imports
 * both: a pair of one whose import starts no thread and one whose import
 * starts one (counted_import, the producer) is not forked after that
 * import, and no preloading server finds the thread and warns (polars's
 * export into arro3 did, every case of the pair then starting from the
 * harness). */
START_TEST(a_pair_of_python_libraries_forks_only_where_both_imports_may) {
  setenv("ADC_TEST_IMPORT_STARTS_A_THREAD", "1", 1);
  const char* id = "counted>other/cpu/pair.batch.imported_equal/int32_nulls";
  const char* libraries[] = {"other=python:misbehaving_python:passthrough:passthrough",
                             "counted=python:counted_import:make:make", NULL};
  char* err;
  cJSON* report = matrix_report(libraries, HAND_WRITTEN_FIXTURES, id, &err);
  unsetenv("ADC_TEST_IMPORT_STARTS_A_THREAD");
  ck_assert_msg(strstr(err, "preloading server") == NULL, "%s", err);
  free(err);
  const char* message;
  ck_assert_str_eq(pair_status_of(report, id, &message), "pass");
  cJSON_Delete(report);
}
END_TEST

/* The baseline of a Python library: a batch it declines is stood for by
 * its stream of the fixture, read to its end (a library may export tables,
 * not batches); declining both fails it (rules_baseline.c). */
START_TEST(a_python_librarys_stream_stands_for_its_batches_on_the_baseline) {
  const char* baseline = "cpu/baseline.producer.exports_baseline_fixtures/int32_nulls";
  const char* args[] = {"--producer", "python:misbehaving_python:declines_batches",
                        "--fixtures", HAND_WRITTEN_FIXTURES,
                        "--filter",   baseline,
                        NULL};
  cJSON* report = report_exiting(args, 0);
  const char* message;
  ck_assert_str_eq(status_of(report, baseline, &message), "pass");
  ck_assert_msg(message != NULL && strstr(message, "its stream gave the fixture's rows") != NULL, "%s",
                message);
  cJSON_Delete(report);
  args[1] = "python:misbehaving_python:declines_batches_and_streams";
  report = report_exiting(args, 1);
  ck_assert_str_eq(status_of(report, baseline, &message), "fail");
  ck_assert_msg(strstr(message, "declined to export a stream") != NULL &&
                    strstr(message, "this object gives nothing at all") != NULL,
                "%s", message);
  cJSON_Delete(report);
}
END_TEST

struct misbehaviour {
  const char* producer;
  const char* status; /* of both cases: each reaches the factory */
  const char* cause;  /* in their messages */
};

static const struct misbehaviour misbehaviours[] = {
    {"python:misbehaving_python:raises", "not_supported", "ValueError: this factory refuses on purpose"},
    {"python:misbehaving_python:segfaults", "crash", "signal 11"},
    {"python:misbehaving_python:hangs", "timeout", "within"},
    {"python:misbehaving_python:returns_none", "not_supported", "(<class 'NoneType'>) has no __arrow_c_"},
    {"python:misbehaving_python_import:make", "not_supported",
     "importing misbehaving_python_import: ImportError: this module fails to import inside a case"},
};

START_TEST(misbehaviour_is_the_cases_verdict) {
  const struct misbehaviour* m = &misbehaviours[_i];
  /* A hang costs its limit; room for an interpreter's start on a loaded
   * machine otherwise. */
  const char* timeout = strcmp(m->status, "timeout") == 0 ? "5" : "60";
  const char* args[] = {"--producer", m->producer, "--fixtures", HAND_WRITTEN_FIXTURES,
                        "--filter",   BATCH_CASE,  "--filter",   SCHEMA_CASE,
                        "--timeout",  timeout,     NULL};
  int exit_code;
  cJSON* report = run_conform_report(args, &exit_code);
  ck_assert_msg(report != NULL, "%s: no report (exit %d)", m->producer, exit_code);
  ck_assert_msg(exit_code != 2, "%s: bad input", m->producer);
  const char* ids[] = {BATCH_CASE, SCHEMA_CASE};
  for (int i = 0; i < 2; i++) {
    const char* message;
    const char* status = status_of(report, ids[i], &message);
    ck_assert_msg(strcmp(status, m->status) == 0, "%s %s: %s (%s), not %s", m->producer, ids[i], status,
                  message, m->status);
    ck_assert_msg(strstr(message, m->cause) != NULL, "%s %s: '%s' not in: %s", m->producer, ids[i], m->cause,
                  message);
  }
  cJSON_Delete(report);
}
END_TEST

START_TEST(module_not_found_is_one_error_line) {
  const char* args[] = {"--producer", "python:no_such_module_here:make", NULL};
  expect_one_error_line(args, "importing no_such_module_here: ModuleNotFoundError: No module named");
  const char* factory[] = {"--producer", "python:misbehaving_python:no_such_factory", NULL};
  expect_one_error_line(factory, "misbehaving_python has no no_such_factory");
  const char* shape[] = {"--producer", "python:misbehaving_python", NULL};
  expect_one_error_line(shape, "is not python:MODULE:FACTORY");
}
END_TEST

#define CONSUMER_BASELINE_CASE "cpu/baseline.consumer.imports_baseline_fixtures/int32_nulls"
#define CONSUMER_BUFFERS_CASE "cpu/consumer.buffers.not_written/int32_nulls"

/* Every case of the run passes, but those of a rule whose entry point the
 * shim leaves out (the interface has no async stream): not_supported,
 * naming it. */
static int passed_but_async(const cJSON* report) {
  const cJSON* c;
  int passed = 0;
  cJSON_ArrayForEach(c, cJSON_GetObjectItem(report, "cases")) {
    struct case_view v = view_of(c);
    if (strcmp(v.status, "pass") == 0) {
      passed++;
    } else {
      ck_assert_msg(
          strcmp(v.status, "not_supported") == 0 && strstr(v.id, "/consumer.async.") != NULL &&
              strstr(v.message, "does not export adc_python_consumer_CDeviceIntegration_ImportAsync") != NULL,
          "%s: %s: %s", v.id, v.status, v.message);
    }
  }
  return passed;
}

/* A consumer that hands the handover back (the shim then compares the
 * harness's own export), and one that asks it twice first (the harness
 * exports its input afresh: include/adc/export_again.h): every rule the
 * shim reaches passes. */
static const char* const passing_consumers[] = {"python:misbehaving_python:passthrough",
                                                "python:misbehaving_python:asks_twice"};

START_TEST(consumer_passthrough_judges_the_reference_through_capsules) {
  const char* args[] = {"--consumer", passing_consumers[_i], "--device", "cpu,cpu_device_arrays",
                        "--fixtures", HAND_WRITTEN_FIXTURES, "--filter", "*/*/int32_nulls",
                        "--filter",   "*/*/nested_struct",   NULL};
  int exit_code;
  cJSON* report = run_conform_report(args, &exit_code);
  ck_assert_msg(report != NULL, "no report (exit %d)", exit_code);
  ck_assert_msg(exit_code == 0, "exit %d", exit_code);
  int passed = passed_but_async(report);
  ck_assert_msg(passed >= 40, "only %d cases passed", passed);
  /* Each Import entry point of the shim was reached: schema, batch, device
   * batch, device stream. */
  const char* reached[] = {"cpu/consumer.schema.release.exactly_once/int32_nulls",
                           "cpu/consumer.release.exactly_once/int32_nulls",
                           "cpu_device_arrays/consumer.release.exactly_once/int32_nulls",
                           "cpu/consumer.device_stream.releases_stream_once/int32_nulls",
                           "cpu/consumer.compare.detects_mismatch/nested_struct"};
  assert_each_passed(report, reached, sizeof(reached) / sizeof(reached[0]));
  cJSON_Delete(report);
}
END_TEST

/* The consumer's misbehaviour is the verdict of the case, with the
 * traceback's last line in its message: the baseline fails (the consumer
 * declined a plain export), the immutability rule is not_supported (the
 * consumer declines the fixture even exported plainly, so its answer says
 * nothing of immutability); a crash or hang is either case's crash or
 * timeout. */
struct consumer_misbehaviour {
  const char* consumer;
  const char* baseline_status;
  const char* buffers_status;
  const char* cause;
};

static const struct consumer_misbehaviour consumer_misbehaviours[] = {
    {"python:misbehaving_python:raises", "fail", "not_supported",
     "misbehaving_python:raises(handover): ValueError: this factory refuses on purpose"},
    {"python:misbehaving_python:segfaults", "crash", "crash", "signal 11"},
    {"python:misbehaving_python:hangs", "timeout", "timeout", "within"},
    {"python:misbehaving_python:returns_none", "fail", "not_supported",
     "the consumer's result (<class 'NoneType'>) has no __arrow_c_"},
    {"python:misbehaving_python_import:consume", "fail", "not_supported",
     "importing misbehaving_python_import: ImportError: this module fails to import inside a case"},
};

START_TEST(consumer_misbehaviour_is_the_cases_verdict) {
  const struct consumer_misbehaviour* m = &consumer_misbehaviours[_i];
  const char* timeout = strcmp(m->baseline_status, "timeout") == 0 ? "5" : "60";
  const char* args[] = {"--consumer", m->consumer,
                        "--fixtures", HAND_WRITTEN_FIXTURES,
                        "--filter",   CONSUMER_BASELINE_CASE,
                        "--filter",   CONSUMER_BUFFERS_CASE,
                        "--timeout",  timeout,
                        NULL};
  int exit_code;
  cJSON* report = run_conform_report(args, &exit_code);
  ck_assert_msg(report != NULL, "%s: no report (exit %d)", m->consumer, exit_code);
  ck_assert_msg(exit_code != 2, "%s: bad input", m->consumer);
  const char* ids[] = {CONSUMER_BASELINE_CASE, CONSUMER_BUFFERS_CASE};
  const char* statuses[] = {m->baseline_status, m->buffers_status};
  for (int i = 0; i < 2; i++) {
    const char* message;
    const char* status = status_of(report, ids[i], &message);
    ck_assert_msg(strcmp(status, statuses[i]) == 0, "%s %s: %s (%s), not %s", m->consumer, ids[i], status,
                  message, statuses[i]);
    ck_assert_msg(strstr(message, m->cause) != NULL, "%s %s: '%s' not in: %s", m->consumer, ids[i], m->cause,
                  message);
  }
  cJSON_Delete(report);
}
END_TEST

START_TEST(consumer_module_not_found_is_one_error_line) {
  const char* args[] = {"--consumer", "python:no_such_module_here:consume", NULL};
  expect_one_error_line(args, "importing no_such_module_here: ModuleNotFoundError: No module named");
  const char* function[] = {"--consumer", "python:misbehaving_python:no_such_function", NULL};
  expect_one_error_line(function, "misbehaving_python has no no_such_function");
  const char* shape[] = {"--consumer", "python:misbehaving_python", NULL};
  expect_one_error_line(shape, "is not python:MODULE:FUNCTION");
}
END_TEST

/* Consumers that never release what they import (batches; streams taken
 * through the shim's __arrow_c_stream__ view) fail the release rule of
 * that structure, on every device it runs on; one that ignores the offset
 * and hands on other values fails consumer.accepted.values_kept, as does
 * one that hands an ordered dictionary on as unordered, and one that
 * declines an offset gets the offset rule's warning; no other consumer rule
 * catches them: the rules judge a Python consumer. */
struct consumer_twin {
  const char* consumer;
  const char* rule;   /* "/RULE/", within the case ID */
  const char* status; /* fail for a MUST, warning for a SHOULD */
  const char* message;
  int cases; /* its fixtures' cases, on the devices the rule runs on */
  /* The one fixture that shows the defect; NULL: int32_nulls and
   * nested_struct. */
  const char* shown_by;
};

static const struct consumer_twin consumer_twins[] = {
    {"python:python_consumer_twins:never_releases_batches", "/consumer.release.exactly_once/", "fail",
     "the consumer returned without releasing the batch", 4, NULL},
    {"python:python_consumer_twins:never_releases_streams", "/consumer.device_stream.releases_stream_once/",
     "fail", "the consumer returned without releasing the stream", 2, NULL},
    {"python:python_consumer_twins:keeps_batch_asked_again", "/consumer.release.exactly_once/", "fail",
     "the consumer returned without releasing 1 of the 3 exports of the batch it asked for", 4, NULL},
    {"python:python_consumer_twins:keeps_stream_asked_again", "/consumer.device_stream.releases_stream_once/",
     "fail", "the consumer returned without releasing 1 of the 3 streams it asked for", 2, NULL},
    {"python:python_consumer_twins:ignores_offsets", "/consumer.accepted.values_kept/", "fail",
     "exported with offset 3 on its columns: the consumer accepted it and handed on other data: what the "
     "library exported from the",
     4, NULL},
    {"python:python_consumer_twins:declines_offsets", "/consumer.offset.handled/", "warning",
     "exported with offset 3 on its columns, equals the fixture but the consumer reported: "
     "python_consumer_twins:declines_offsets(handover): ValueError",
     4, NULL},
    {"python:python_consumer_twins:hands_on_dictionary_unordered", "/consumer.accepted.values_kept/", "fail",
     "the schema: the consumer accepted it and handed on other data: what the library exported from the "
     "schema it adopted differs from the fixture: column 'code': ARROW_FLAG_DICTIONARY_ORDERED is clear",
     2, "dictionary"},
};

START_TEST(consumer_twin_is_caught_by_its_rule_alone) {
  const struct consumer_twin* twin = &consumer_twins[_i];
  /* Its own fixture alone (the argument list ends after it), else the two. */
  char shown_by[64];
  snprintf(shown_by, sizeof(shown_by), "*/*/%s", twin->shown_by != NULL ? twin->shown_by : "int32_nulls");
  const char* args[] = {"--consumer",
                        twin->consumer,
                        "--device",
                        "cpu,cpu_device_arrays",
                        "--fixtures",
                        HAND_WRITTEN_FIXTURES,
                        "--filter",
                        shown_by,
                        twin->shown_by != NULL ? NULL : "--filter",
                        "*/*/nested_struct",
                        NULL};
  /* A MUST failed: 1; a SHOULD's warning alone: 0. */
  cJSON* report = report_exiting(args, strcmp(twin->status, "fail") == 0 ? 1 : 0);
  const cJSON* c;
  int caught = 0;
  cJSON_ArrayForEach(c, cJSON_GetObjectItem(report, "cases")) {
    struct case_view v = view_of(c);
    if (strstr(v.id, twin->rule) != NULL) {
      ck_assert_msg(strcmp(v.status, twin->status) == 0, "%s %s: %s", twin->consumer, v.id, v.status);
      ck_assert_msg(strstr(v.message, twin->message) != NULL, "%s %s: %s", twin->consumer, v.id, v.message);
      caught++;
    } else if (strcmp(v.status, "pass") != 0) {
      /* A rule depending on the twin's ends unresolved, naming it. */
      char rule_id[128];
      snprintf(rule_id, sizeof(rule_id), "%.*s", (int)strlen(twin->rule) - 2, twin->rule + 1);
      bool dependent = strcmp(v.status, "unresolved") == 0 && strstr(v.message, rule_id) != NULL;
      ck_assert_msg(
          dependent || (strcmp(v.status, "not_supported") == 0 && strstr(v.id, "/consumer.async.") != NULL),
          "%s %s: %s: %s", twin->consumer, v.id, v.status, v.message);
    }
  }
  ck_assert_int_eq(caught, twin->cases);
  cJSON_Delete(report);
}
END_TEST

int main(void) {
  require_embeddable_python();
  Suite* suite = suite_create("python_side");
  TCase* each = tcase_create("each");
  tcase_set_timeout(each, 240);
  tcase_add_test(each, passthrough_judges_the_reference_through_capsules);
  tcase_add_loop_test(each, a_python_library_is_imported_once_unless_its_import_starts_a_thread, 0, 3);
  tcase_add_test(each, a_library_slow_to_start_shares_few_processes);
  tcase_add_test(each, a_c_stream_is_judged_as_a_cpu_device_stream);
  tcase_add_test(each, a_c_stream_twin_is_caught_by_its_rule_alone);
  tcase_add_test(each, a_library_keeping_what_it_imported_leaks);
  tcase_add_test(each, the_shims_objects_are_ordinary_objects);
  tcase_add_test(each, a_stream_only_object_is_judged_through_its_stream);
  tcase_add_test(each, a_stream_read_ahead_has_its_failure_judged);
  tcase_add_test(each, a_release_that_waits_on_its_threads_in_a_fork_is_seen_at_once);
  tcase_add_test(each, a_batch_unlike_its_objects_schema_is_declined);
  tcase_add_test(each, own_types_leave_a_pairs_batches_unjudged);
  tcase_add_test(each, a_pairs_stream_in_the_producers_own_model_is_judged_by_value);
  tcase_add_test(each, a_pairs_processes_import_its_own_python_libraries_alone);
  tcase_add_test(each, a_pair_of_python_libraries_forks_only_where_both_imports_may);
  tcase_add_test(each, a_python_librarys_stream_stands_for_its_batches_on_the_baseline);
  tcase_add_loop_test(each, misbehaviour_is_the_cases_verdict, 0,
                      (int)(sizeof(misbehaviours) / sizeof(misbehaviours[0])));
  tcase_add_test(each, module_not_found_is_one_error_line);
  tcase_add_loop_test(each, consumer_passthrough_judges_the_reference_through_capsules, 0,
                      (int)(sizeof(passing_consumers) / sizeof(passing_consumers[0])));
  tcase_add_loop_test(each, consumer_misbehaviour_is_the_cases_verdict, 0,
                      (int)(sizeof(consumer_misbehaviours) / sizeof(consumer_misbehaviours[0])));
  tcase_add_test(each, consumer_module_not_found_is_one_error_line);
  tcase_add_loop_test(each, consumer_twin_is_caught_by_its_rule_alone, 0,
                      (int)(sizeof(consumer_twins) / sizeof(consumer_twins[0])));
  suite_add_tcase(suite, each);
  return run_suite(suite);
}
