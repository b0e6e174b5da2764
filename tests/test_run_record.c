/* The run record (harness/outcome/run_record.h) judges a run once: each
 * case's outcome against its --expect entry and whether it fails the run,
 * the counts, the sides' verdicts and the exit status.  Built from a run's
 * cases and results, and built again from the JSON report written of it
 * (as merge and verify build it), it says the same. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "device/device.h"
#include "outcome/record_of_report.h"
#include "outcome/record_of_run.h"
#include "report/report.h"
#include "rule_api/rule.h"
#include "unit_test_support.h"

/* The first rule of the catalogue of `role` and `severity`. */
static const struct adc_rule* rule_of(enum adc_role role, enum adc_severity severity) {
  for (size_t r = 0; r < adc_rule_count(); r++) {
    const struct adc_rule* rule = adc_rule_at(r);
    if (rule->role == role && rule->severity == severity) return rule;
  }
  ck_abort_msg("no rule of that role and severity");
  return NULL;
}

/* An --expect entry expecting `statuses` (bits), spelled `text`. */
static struct adc_expectation entry_of(unsigned statuses, const char* text, int line) {
  return (struct adc_expectation){.glob = "cpu/*",
                                  .statuses = statuses,
                                  .statuses_text = (char*)text,
                                  .reason = "known",
                                  .line = line,
                                  .matched_cases = 1};
}

/* How each case of the run is planned to end, and what it must come to. */
struct planned {
  enum adc_severity severity;
  enum adc_status status;
  int entry; /* index into the run's entries; -1: none matches */
  bool has_outcome;
  enum adc_expectation_outcome outcome;
  bool fails_run;
};

static const struct planned plan[] = {
    {ADC_MUST, ADC_PASS, -1, false, 0, false},
    {ADC_MUST, ADC_FAIL, -1, false, 0, true},                        /* a failure no entry expects */
    {ADC_MUST, ADC_FAIL, 0, true, ADC_EXPECTED_FAIL, false},         /* expected */
    {ADC_MUST, ADC_PASS, 0, true, ADC_UNEXPECTED_PASS, true},        /* the entry can go */
    {ADC_MUST, ADC_CRASH, 0, true, ADC_UNEXPECTED_STATUS, true},     /* another shortfall */
    {ADC_MUST, ADC_TIMEOUT, 1, true, ADC_EXPECTED_FAIL, false},      /* one of "fail|timeout" */
    {ADC_SHOULD, ADC_CRASH, -1, false, 0, false},                    /* a SHOULD rule's crash */
    {ADC_SHOULD, ADC_WARNING, 1, true, ADC_UNEXPECTED_STATUS, true}, /* matched: judged by its entry */
};
#define N_CASES (sizeof(plan) / sizeof(plan[0]))

/* A run of the plan on the CPU, every case a producer rule's, the
 * producer tested alone; its entries: "fail", "fail|timeout", and one that
 * matched no case. */
struct run {
  struct adc_session session;
  struct adc_expectation entries[3];
  struct adc_expectations expectations;
  struct adc_fixture fixture;
  struct adc_case cases[N_CASES];
  struct adc_task_result results[N_CASES];
};

static void plan_run(struct run* run) {
  memset(run, 0, sizeof(*run));
  run->entries[0] = entry_of(1u << ADC_FAIL, "fail", 2);
  run->entries[1] = entry_of(1u << ADC_FAIL | 1u << ADC_TIMEOUT, "fail|timeout", 3);
  run->entries[2] = entry_of(1u << ADC_FAIL, "fail", 4);
  run->entries[2].glob = "cpu/no.such.rule/*";
  run->entries[2].matched_cases = 0;
  run->expectations = (struct adc_expectations){"expect.txt", run->entries, 3};
  struct adc_session* session = &run->session;
  session->producer.tested = true;
  snprintf(session->producer.path, sizeof(session->producer.path), "libproducer.so");
  session->device_option = "cpu";
  session->devices[0] = adc_device_target_of(adc_device_find("cpu"));
  session->n_devices = 1;
  session->expectations = &run->expectations;
  static char* argv[] = {"adc-conform", "--producer", "libproducer.so", NULL};
  session->argc = 3;
  session->argv = argv;
  run->fixture.name = "int32_nulls";
  for (size_t i = 0; i < N_CASES; i++) {
    struct adc_case* c = &run->cases[i];
    *c = (struct adc_case){.rule = rule_of(ADC_ROLE_PRODUCER, plan[i].severity),
                           .device = &session->devices[0],
                           .fixture = &run->fixture,
                           .expectation = plan[i].entry >= 0 ? &run->entries[plan[i].entry] : NULL};
    snprintf(c->id, sizeof(c->id), "cpu/%s/case%zu", c->rule->id, i);
    run->results[i] = (struct adc_task_result){.status = plan[i].status, .seconds = 0.001 * (double)i};
    snprintf(run->results[i].message, sizeof(run->results[i].message), "why %zu", i);
  }
}

/* What the plan must come to, in either record. */
static void assert_judged(const struct adc_run_record* record) {
  ck_assert_uint_eq(record->n_cases, N_CASES);
  for (size_t i = 0; i < N_CASES; i++) {
    const struct adc_case_record* c = &record->cases[i];
    ck_assert_msg(c->fails_run == plan[i].fails_run, "case %zu: fails_run %d", i, c->fails_run);
    ck_assert_int_eq(c->has_expectation, plan[i].has_outcome);
    if (plan[i].has_outcome) ck_assert_int_eq(c->outcome, plan[i].outcome);
  }
  const struct adc_summary* summary = &record->summary;
  ck_assert_uint_eq(summary->failing_run_cases, 4);
  ck_assert_uint_eq(summary->outcomes[ADC_EXPECTED_FAIL], 2);
  ck_assert_uint_eq(summary->outcomes[ADC_UNEXPECTED_PASS], 1);
  ck_assert_uint_eq(summary->outcomes[ADC_UNEXPECTED_STATUS], 2);
  ck_assert_uint_eq(summary->failing_must_cases, 4);
  ck_assert_uint_eq(summary->unexpected_failing_must_cases, 2);
  /* An expected failure is still a failure of its side. */
  ck_assert_int_eq(record->sides[ADC_ROLE_PRODUCER].verdict, ADC_SIDE_DOES_NOT_CONFORM);
  char reason[ADC_SIDE_REASON_SIZE];
  snprintf(reason, sizeof(reason), "4 MUST cases failed, crashed or timed out, the first: %s: fail: why 1",
           record->cases[1].id);
  ck_assert_str_eq(record->sides[ADC_ROLE_PRODUCER].reason, reason);
  ck_assert_str_eq(record->sides[ADC_ROLE_PRODUCER].path, "libproducer.so");
  ck_assert_int_eq(record->sides[ADC_ROLE_CONSUMER].verdict, ADC_SIDE_NOT_TESTED);
  ck_assert_int_eq(record->verdict, ADC_RUN_DOES_NOT_CONFORM);
  ck_assert_str_eq(record->headline, "DOES NOT CONFORM");
  ck_assert(!record->conforms);
  ck_assert_int_eq(record->exit_status, EXIT_FAILURE);
  ck_assert_str_eq(record->expectations_path, "expect.txt");
  ck_assert_uint_eq(record->n_unmatched, 1);
  ck_assert_str_eq(record->unmatched[0].glob, "cpu/no.such.rule/*");
  ck_assert_int_eq(record->unmatched[0].line, 4);
  ck_assert_uint_eq(record->n_devices, 1);
  ck_assert_str_eq(record->devices[0], "cpu");
  ck_assert_str_eq(record->device_option, "cpu");
}

/* The record of the planned run (`run` must outlive it), which ran 1.5 s. */
static void judge_planned_run(struct run* run, struct adc_run_record* record) {
  plan_run(run);
  struct adc_error error;
  const struct adc_run_outcome outcome = {1.5, 0};
  ck_assert_int_eq(
      adc_run_record_of_run(record, &run->session, run->cases, run->results, N_CASES, &outcome, &error), 0);
}

START_TEST(a_run_is_judged_once) {
  struct run run;
  struct adc_run_record record;
  judge_planned_run(&run, &record);
  assert_judged(&record);
  ck_assert_str_eq(record.cases[2].expectation.statuses, "fail");
  ck_assert_str_eq(record.cases[5].expectation.statuses, "fail|timeout");
  ck_assert_int_eq(record.cases[5].expectation.line, 3);
  ck_assert(record.wall_seconds == 1.5);
  adc_run_record_free(&record);
}
END_TEST

/* The record of a report reads as the record of the run it reports, and
 * writes the same report. */
START_TEST(a_report_reads_back_as_its_run) {
  struct run run;
  struct adc_run_record record;
  judge_planned_run(&run, &record);
  struct adc_error error;
  cJSON* report = adc_report_json(&record);
  const cJSON* cases = cJSON_GetObjectItem(report, "cases");
  struct adc_run_record again;
  ck_assert_int_eq(adc_run_record_begin_for_report(
                       &again, (size_t)cJSON_GetArraySize(cases), cJSON_GetObjectItem(report, "environment"),
                       cJSON_Duplicate(cJSON_GetObjectItem(report, "command_line"), true), &error),
                   0);
  const cJSON* item;
  cJSON_ArrayForEach(item, cases) {
    struct adc_case_record c;
    ck_assert(adc_case_record_of_json(item, &c));
    adc_run_record_add(&again, &c);
  }
  const cJSON* summary = cJSON_GetObjectItem(report, "summary");
  ck_assert_int_eq(
      adc_run_record_take_unmatched(&again, cJSON_GetObjectItem(summary, "unmatched_expectations"), &error),
      0);
  adc_run_record_finish(&again);
  assert_judged(&again);
  cJSON* rewritten = adc_report_json(&again);
  ck_assert(cJSON_Compare(report, rewritten, true));
  cJSON_Delete(rewritten);
  adc_run_record_free(&again);
  cJSON_Delete(report);
  adc_run_record_free(&record);
}
END_TEST

/* A case object the schema does not allow is refused, not judged. */
START_TEST(a_malformed_case_is_refused) {
  cJSON* item = cJSON_Parse(
      "{\"id\": \"cpu/r/f\", \"role\": \"producer\", \"severity\": \"MUST\", \"status\": \"fail\"}");
  struct adc_case_record c;
  ck_assert(adc_case_record_of_json(item, &c));
  ck_assert_str_eq(c.message, "");
  cJSON_ReplaceItemInObject(item, "status", cJSON_CreateString("failed"));
  ck_assert(!adc_case_record_of_json(item, &c));
  cJSON_ReplaceItemInObject(item, "status", cJSON_CreateString("fail"));
  cJSON_ReplaceItemInObject(item, "severity", cJSON_CreateString("MAY"));
  ck_assert(!adc_case_record_of_json(item, &c));
  cJSON_ReplaceItemInObject(item, "severity", cJSON_CreateString("MUST"));
  cJSON_AddItemToObject(item, "expectation", cJSON_Parse("{\"outcome\": \"surprise\"}"));
  ck_assert(!adc_case_record_of_json(item, &c));
  cJSON_Delete(item);
}
END_TEST

int main(void) {
  Suite* suite = suite_create("run_record");
  TCase* tc = tcase_create("record");
  tcase_add_test(tc, a_run_is_judged_once);
  tcase_add_test(tc, a_report_reads_back_as_its_run);
  tcase_add_test(tc, a_malformed_case_is_refused);
  suite_add_tcase(suite, tc);
  return run_suite(suite);
}
