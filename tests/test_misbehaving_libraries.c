/* A misbehaving library costs exactly its own cases.  For each library of
 * fixtures/deliberately_broken/misbehaving: the run ends by itself, its JSON report is complete
 * (every planned case) and valid, a case that reaches the misbehaviour ends
 * with the expected status and a message naming the cause, a case that does
 * not reach it passes, and no process of the run is left alive (this test
 * process is a subreaper, so whatever the run leaves behind becomes its
 * child, and is counted).  Each in both isolations: a process per case,
 * and prepared processes shared by the cases (where a case that does not
 * pass after other cases is run again alone, which gives its verdict:
 * the report keeps what the shared process gave). */
#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "rule_api/library_text.h"
#include "test_support.h"

struct expectation {
  const char* library;      /* libmisbehaving_<library>.so */
  const char* side;         /* --producer or --consumer */
  const char* misbehaviour; /* ADC_MISBEHAVIOUR for on_request, else NULL */
  const char* reaching;     /* a case that runs the misbehaving code */
  const char* status;       /* ... ends so */
  const char* cause;        /* ... with this in its message */
  const char* untouched;    /* a case that does not reach it, and passes; NULL: none */
};

/* Each case's limit: a hang costs it.  Under AddressSanitizer a crash
 * takes the sanitizer's report (symbolised) before the process ends, which
 * on a loaded machine can take longer than a second. */
#ifdef ADC_SANITIZE_ADDRESS
#define CASE_TIMEOUT "5"
#else
#define CASE_TIMEOUT "1"
#endif

/* The limit of a case expected to end otherwise than by it (a crash, a
 * pass): it bounds only a library that hangs where it should not, and
 * leaves a loaded machine room (filling 256 MiB page by page until the
 * memory limit stops it took over a second beside other builds). */
#define ROOMY_TIMEOUT "60"

#define BATCH_CASE "cpu/array.release.sets_null/int32_nulls"
#define SCHEMA_CASE "cpu/schema.release.sets_null/int32_nulls"

static const struct expectation expectations[] = {
    {"forges_verdict", "--producer", NULL, BATCH_CASE, "crash", "malformed verdict", SCHEMA_CASE},
    {"kills_process_group", "--producer", NULL, BATCH_CASE, "crash", "signal 15", SCHEMA_CASE},
    {"raises_segv", "--producer", NULL, BATCH_CASE, "crash", "signal 11", SCHEMA_CASE},
    {"exports_unmapped_buffer", "--producer", NULL, "cpu/array.data.matches_fixture/int32_nulls", "crash",
     "in the library under test: a fault on memory a pointer it handed over points into", SCHEMA_CASE},
    {"constructor_hangs", "--producer", NULL, BATCH_CASE, "timeout",
     "loading the library: no verdict within " CASE_TIMEOUT " s", NULL},
    {"constructor_crashes", "--producer", NULL, BATCH_CASE, "crash", "loading the library: the case", NULL},
    {"constructor_prints", "--producer", NULL, BATCH_CASE, "pass", "", SCHEMA_CASE},
    {"forks_children", "--producer", NULL, BATCH_CASE, "pass", "", SCHEMA_CASE},
    {"writes_outside_output", "--producer", NULL, BATCH_CASE, "crash",
     "wrote past the end of the 80-byte ArrowArray it was given by ExportBatchFromJson",
     "cpu/device_array.reserved.zeroed/int32_nulls"},
    {"writes_outside_output", "--producer", NULL, SCHEMA_CASE, "crash",
     "wrote before the start of the ArrowSchema it was given by ExportSchemaFromJson",
     "cpu/device_array.reserved.zeroed/int32_nulls"},
    {"unterminated_message", "--consumer", NULL,
     "cpu/baseline.consumer.imports_baseline_fixtures/int32_nulls", "fail",
     "(unreadable memory after 100 bytes, no NUL before it)",
     "cpu/consumer.schema.release.exactly_once/int32_nulls"},
    {"stops_itself", "--producer", NULL, BATCH_CASE, "timeout",
     "the case stopped itself (signal 19, SIGSTOP)", SCHEMA_CASE},
    {"floods_output", "--producer", NULL, BATCH_CASE, "crash", "Assertion `rows_fit' failed.", SCHEMA_CASE},
    {"on_request", "--producer", "abort", BATCH_CASE, "crash", "SIGABRT", SCHEMA_CASE},
    {"on_request", "--producer", "exit", BATCH_CASE, "crash", "the case exited with status 0", SCHEMA_CASE},
    {"on_request", "--producer", "_exit", BATCH_CASE, "crash", "the case exited with status 0", SCHEMA_CASE},
    {"on_request", "--producer", "kill_self", BATCH_CASE, "crash", "signal 9", SCHEMA_CASE},
    {"on_request", "--producer", "ignore_term_and_hang", BATCH_CASE, "timeout",
     "no verdict within " CASE_TIMEOUT " s", SCHEMA_CASE},
    {"on_request", "--producer", "close_all_fds", BATCH_CASE, "crash", "the case exited with status 0",
     SCHEMA_CASE},
#ifndef ADC_SANITIZE_ADDRESS /* a sanitizer's reserved address space exceeds any useful limit */
    {"on_request", "--producer", "allocate_until_failure", BATCH_CASE, "crash", "signal 11", SCHEMA_CASE},
#endif
};
#define N_EXPECTATIONS ((int)(sizeof(expectations) / sizeof(expectations[0])))

static bool is_status(const char* status) {
  static const char* const known[] = {"pass",          "fail",    "crash",     "timeout",
                                      "not_supported", "warning", "unresolved"};
  for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
    if (strcmp(status, known[i]) == 0) return true;
  }
  return false;
}

/* Processes the runs of this test left: killed, reaped and counted. */

/* The isolations each expectation is checked in (--isolation). */
static const char* const isolations[] = {"case", "shared"};
#define N_ISOLATIONS 2

START_TEST(misbehaviour_costs_only_its_cases) {
  const struct expectation* e = &expectations[_i / N_ISOLATIONS];
  const char* isolation = isolations[_i % N_ISOLATIONS];
  ck_assert_int_eq(prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0), 0);
  if (e->misbehaviour != NULL) setenv("ADC_MISBEHAVIOUR", e->misbehaviour, 1);
  char library[512];
  snprintf(library, sizeof(library), "%s/libmisbehaving_%s.so", ADC_BUILD_DIR, e->library);
  const char* limit = strcmp(e->status, "timeout") == 0 ? CASE_TIMEOUT : ROOMY_TIMEOUT;
  const char* args[] = {
      e->side,       library,    "--timeout", limit,      "--memory-limit",
      "256",         "--filter", e->reaching, "--filter", e->untouched ? e->untouched : e->reaching,
      "--isolation", isolation,  NULL};
#ifdef ADC_SANITIZE_ADDRESS
  args[4] = "--jobs"; /* no memory limit under a sanitizer */
  args[5] = "2";
#endif
  const char* list_args[] = {e->side, library,    "--timeout", limit,    "--filter",
                             args[7], "--filter", args[9],     "--list", NULL};
  struct run_result listed = run_conform(list_args);
  int planned = count_lines(listed.out);
  ck_assert_msg(strstr(listed.out, "hello from a constructor") == NULL, "a constructor's output leaked: %s",
                listed.out);
  run_result_free(&listed);

  int exit_code;
  cJSON* report = run_conform_report(args, &exit_code);
  ck_assert_msg(report != NULL, "%s: no report", e->library);
  ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(report, "cases")), planned);
  const cJSON* item;
  cJSON_ArrayForEach(item, cJSON_GetObjectItem(report, "cases")) {
    ck_assert(cJSON_IsString(cJSON_GetObjectItem(item, "message")));
    ck_assert(is_status(cJSON_GetObjectItem(item, "status")->valuestring));
  }
  const cJSON* reached = report_case(report, e->reaching);
  ck_assert_msg(reached != NULL, "%s: no case %s", e->library, e->reaching);
  const char* status = cJSON_GetObjectItem(reached, "status")->valuestring;
  const char* message = cJSON_GetObjectItem(reached, "message")->valuestring;
  ck_assert_msg(strcmp(status, e->status) == 0 && strstr(message, e->cause) != NULL,
                "%s %s (%s): %s ended %s: %s", e->library, e->misbehaviour ? e->misbehaviour : "", isolation,
                e->reaching, status, message);
  /* Only a case that did not pass in a shared process, after others, was
   * run again alone (the first case of a process was alone there). */
  bool shared = strcmp(isolation, "shared") == 0 && e->untouched != NULL;
  bool rerun = cJSON_GetObjectItem(reached, "shared_attempt") != NULL;
  ck_assert_msg(!rerun || (shared && strcmp(e->status, "pass") != 0), "%s (%s): %s has a shared attempt",
                e->library, isolation, e->reaching);
  if (e->untouched != NULL) {
    const cJSON* other = report_case(report, e->untouched);
    ck_assert_msg(other != NULL && strcmp(cJSON_GetObjectItem(other, "status")->valuestring, "pass") == 0,
                  "%s: %s, which does not reach the misbehaviour, did not pass", e->library, e->untouched);
  }
  ck_assert_int_eq(exit_code, strcmp(e->status, "pass") == 0 ? 0 : 1);
  cJSON_Delete(report);
  ck_assert_msg(processes_left_behind(0) == 0, "%s: processes of the run were still alive after it ended",
                e->library);
}
END_TEST

/* One library as producer and consumer is loaded once before the cases,
 * and a load that crashes is the verdict of both sides' cases. */
START_TEST(one_library_on_both_sides_shares_its_load_verdict) {
  const char* library = BUILD_PATH("libmisbehaving_constructor_crashes.so");
  const char* args[] = {"--producer", library,
                        "--consumer", library,
                        "--timeout",  ROOMY_TIMEOUT,
                        "--filter",   BATCH_CASE,
                        "--filter",   "cpu/consumer.schema.release.exactly_once/int32_nulls",
                        NULL};
  int exit_code;
  cJSON* report = run_conform_report(args, &exit_code);
  ck_assert_ptr_nonnull(report);
  const char* ids[] = {BATCH_CASE, "cpu/consumer.schema.release.exactly_once/int32_nulls"};
  for (size_t i = 0; i < 2; i++) {
    const cJSON* item = report_case(report, ids[i]);
    const char* status = cJSON_GetObjectItem(item, "status")->valuestring;
    const char* message = cJSON_GetObjectItem(item, "message")->valuestring;
    ck_assert_msg(strcmp(status, "crash") == 0 && strncmp(message, "loading the library: ", 21) == 0,
                  "%s ended %s: %s", ids[i], status, message);
  }
  ck_assert_int_eq(exit_code, 1);
  cJSON_Delete(report);
}
END_TEST

/* The bounded reading of library text, on its own. */
START_TEST(library_text_is_read_with_a_bound) {
  char text[ADC_LIBRARY_TEXT_LIMIT + 128];
  static char long_text[2 * ADC_LIBRARY_TEXT_LIMIT];
  memset(long_text, 'y', sizeof(long_text) - 1);
  ck_assert_ptr_nonnull(
      strstr(adc_library_text(long_text, text, sizeof(text)), "(truncated, no NUL within 4096 bytes)"));
  ck_assert_str_eq(adc_library_text("plain", text, sizeof(text)), "plain");
  ck_assert_str_eq(adc_library_text("caf\xc3\xa9", text, sizeof(text)), "caf\xc3\xa9");
  ck_assert_str_eq(adc_library_text("bad \xff byte", text, sizeof(text)),
                   "bad ? byte (not UTF-8: such bytes shown as '?')");
  ck_assert_ptr_null(adc_library_text(NULL, text, sizeof(text)));
}
END_TEST

int main(void) {
  Suite* suite = suite_create("misbehaving_libraries");
  TCase* each = tcase_create("each_library");
  tcase_set_timeout(each, 120);
  tcase_add_loop_test(each, misbehaviour_costs_only_its_cases, 0, N_EXPECTATIONS * N_ISOLATIONS);
  tcase_add_test(each, library_text_is_read_with_a_bound);
  tcase_add_test(each, one_library_on_both_sides_shares_its_load_verdict);
  suite_add_tcase(suite, each);
  return run_suite(suite);
}
