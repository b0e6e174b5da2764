/* A Python library under test (--producer python:MODULE:FACTORY) is judged
 * in each case's process, which embeds CPython (harness/python), and
 * misbehaves there at the cost of its own cases only: an exception, a
 * crash, a hang, an object without the interface's method, a module that
 * fails to import inside the case, each becomes that case's verdict with
 * the cause in its message, and the run goes on.  A module the harness
 * cannot import is one error line before any case.  The factories are in
 * fixtures/misbehaving/python (standard library only), and
 * misbehaving_python:passthrough hands back the harness's own source, so
 * the reference producer judged through the PyCapsule Interface checks the
 * shim itself: every rule it reaches passes.
 *
 * Needs a python3 (or $ADC_PYTHON) with a shared libpython; without one the
 * program exits 77 (skipped). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

#define BATCH_CASE "cpu/array.release.sets_null/int32_nulls"
#define SCHEMA_CASE "cpu/schema.release.sets_null/int32_nulls"
#define STREAM_CASE "cpu/device_stream.release.sets_null/int32_nulls"

static const char* status_of(const cJSON* report, const char* id, const char** message) {
  const cJSON* c = report_case(report, id);
  *message = cJSON_GetStringValue(cJSON_GetObjectItem(c, "message"));
  return cJSON_GetStringValue(cJSON_GetObjectItem(c, "status"));
}

START_TEST(passthrough_judges_the_reference_through_capsules) {
  const char* args[] = {"--producer", "python:misbehaving_python:passthrough",
                        "--fixtures", HAND_WRITTEN_FIXTURES,
                        "--filter",   "cpu/*/int32_nulls",
                        "--filter",   "cpu/*/nested_struct",
                        NULL};
  int exit_code;
  cJSON* report = run_conform_report(args, &exit_code);
  ck_assert_msg(report != NULL, "no report (exit %d)", exit_code);
  ck_assert_msg(exit_code == 0, "exit %d", exit_code);
  const cJSON* c;
  int passed = 0;
  cJSON_ArrayForEach(c, cJSON_GetObjectItem(report, "cases")) {
    const char* status = cJSON_GetStringValue(cJSON_GetObjectItem(c, "status"));
    const char* id = cJSON_GetStringValue(cJSON_GetObjectItem(c, "id"));
    ck_assert_msg(strcmp(status, "pass") == 0 || strcmp(status, "not_supported") == 0, "%s: %s: %s", id,
                  status, cJSON_GetStringValue(cJSON_GetObjectItem(c, "message")));
    passed += strcmp(status, "pass") == 0;
  }
  ck_assert_msg(passed >= 20, "only %d cases passed", passed);
  const char* message;
  ck_assert_str_eq(status_of(report, BATCH_CASE, &message), "pass");
  ck_assert_str_eq(status_of(report, SCHEMA_CASE, &message), "pass");
  /* The source has no device stream: declined, naming the method. */
  ck_assert_str_eq(status_of(report, STREAM_CASE, &message), "not_supported");
  ck_assert_msg(strstr(message, "has no __arrow_c_device_stream__") != NULL, "%s", message);
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

int main(void) {
  if (!python_can_be_embedded()) {
    printf("not run: no python3 (or $ADC_PYTHON) with a shared libpython\n");
    return 77;
  }
  /* The factories' folder, on the sys.path the harness's parent finds. */
  setenv("PYTHONPATH", SOURCE_PATH("fixtures/misbehaving/python"), 1);
  Suite* suite = suite_create("python_side");
  TCase* each = tcase_create("each");
  tcase_set_timeout(each, 240);
  tcase_add_test(each, passthrough_judges_the_reference_through_capsules);
  tcase_add_loop_test(each, misbehaviour_is_the_cases_verdict, 0,
                      (int)(sizeof(misbehaviours) / sizeof(misbehaviours[0])));
  tcase_add_test(each, module_not_found_is_one_error_line);
  suite_add_tcase(suite, each);
  return run_suite(suite);
}
