/* One definition of a verdict, per side (harness/report/verdict.c): a side
 * of which no MUST case was judged is never reported as conforming.  The
 * definition on summaries built case by case. */
#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "test_support.h"

/* ---- The definition, on summaries counted from (role, severity, status). */

struct triple {
  enum adc_role role;
  enum adc_severity severity;
  enum adc_status status;
};

#define P ADC_ROLE_PRODUCER
#define C ADC_ROLE_CONSUMER

/* The summary of cases "case0", "case1", ... ending as `triples` say, none
 * matched by an --expect entry, each with the message "why <n>". */
static struct adc_summary summary_of(bool producer_tested, bool consumer_tested, const struct triple* triples,
                                     size_t n) {
  struct adc_summary summary;
  adc_summary_begin(&summary, producer_tested, consumer_tested);
  for (size_t i = 0; i < n; i++) {
    char id[16], message[16];
    snprintf(id, sizeof(id), "case%zu", i);
    snprintf(message, sizeof(message), "why %zu", i);
    struct adc_counted_case counted = {id,  triples[i].role, triples[i].severity, triples[i].status, message,
                                       NULL};
    adc_summary_count(&summary, &counted);
  }
  return summary;
}
#define SUMMARY_OF(producer_tested, consumer_tested, triples) \
  summary_of(producer_tested, consumer_tested, triples, sizeof(triples) / sizeof(triples[0]))

static const struct adc_run_outcome finished = {1.0, 0};

static void assert_side(const struct adc_summary* summary, enum adc_role role, enum adc_side_verdict verdict,
                        const char* reason) {
  const struct adc_side_summary* side = &summary->sides[role];
  ck_assert_str_eq(adc_side_verdict_name(adc_side_verdict(side)), adc_side_verdict_name(verdict));
  char text[ADC_SIDE_REASON_SIZE];
  adc_side_verdict_reason(side, text, sizeof(text));
  ck_assert_str_eq(text, reason);
}

static void assert_run(const struct adc_summary* summary, const struct adc_run_outcome* outcome,
                       const char* headline, int exit_status) {
  ck_assert_str_eq(adc_verdict_headline(summary, outcome), headline);
  ck_assert_int_eq(adc_run_conforms(summary, outcome), strcmp(headline, "CONFORMS") == 0);
  ck_assert_int_eq(adc_run_exit_status(summary, outcome), exit_status);
}

START_TEST(passes_and_not_supported_conform) {
  const struct triple cases[] = {
      {P, ADC_MUST, ADC_PASS}, {P, ADC_MUST, ADC_NOT_SUPPORTED}, {P, ADC_MUST, ADC_PASS}};
  struct adc_summary summary = SUMMARY_OF(true, false, cases);
  assert_side(&summary, P, ADC_SIDE_CONFORMS,
              "2 of its 3 MUST cases passed, none failed or ended unresolved");
  assert_side(&summary, C, ADC_SIDE_NOT_TESTED, "not named on the command line");
  assert_run(&summary, &finished, "CONFORMS", EXIT_SUCCESS);
}
END_TEST

/* The reported run: the producer's cases all unresolved, the bundled
 * consumer's passing.  It once said CONFORMS. */
START_TEST(a_side_all_unresolved_is_not_shown) {
  const struct triple cases[] = {{P, ADC_MUST, ADC_UNRESOLVED},
                                 {P, ADC_SHOULD, ADC_UNRESOLVED},
                                 {P, ADC_MUST, ADC_UNRESOLVED},
                                 {C, ADC_MUST, ADC_PASS}};
  struct adc_summary summary = SUMMARY_OF(true, true, cases);
  assert_side(&summary, P, ADC_SIDE_NOT_SHOWN, "2 MUST cases unresolved, the first: case0: why 0");
  assert_side(&summary, C, ADC_SIDE_CONFORMS, "1 of its 1 MUST case passed, none failed or ended unresolved");
  assert_run(&summary, &finished, "NOT SHOWN TO CONFORM", ADC_EXIT_NOT_SHOWN);
  ck_assert_int_ne(ADC_EXIT_NOT_SHOWN, EXIT_SUCCESS);
  ck_assert_int_ne(ADC_EXIT_NOT_SHOWN, EXIT_FAILURE);
}
END_TEST

/* One unresolved MUST case may hide a failure: passes beside it do not
 * make the side conform. */
START_TEST(one_unresolved_case_holds_back_a_side) {
  const struct triple cases[] = {{C, ADC_MUST, ADC_PASS},
                                 {C, ADC_MUST, ADC_PASS},
                                 {C, ADC_MUST, ADC_UNRESOLVED},
                                 {C, ADC_MUST, ADC_UNRESOLVED}};
  struct adc_summary summary = SUMMARY_OF(false, true, cases);
  assert_side(&summary, C, ADC_SIDE_NOT_SHOWN, "2 MUST cases unresolved, the first: case2: why 2");
  assert_run(&summary, &finished, "NOT SHOWN TO CONFORM", ADC_EXIT_NOT_SHOWN);
}
END_TEST

/* A GPU device's run without the GPU. */
START_TEST(all_not_supported_is_not_shown) {
  const struct triple cases[] = {
      {P, ADC_MUST, ADC_NOT_SUPPORTED}, {C, ADC_MUST, ADC_NOT_SUPPORTED}, {C, ADC_MUST, ADC_NOT_SUPPORTED}};
  struct adc_summary summary = SUMMARY_OF(true, true, cases);
  assert_side(&summary, P, ADC_SIDE_NOT_SHOWN, "its one MUST case is not_supported");
  assert_side(&summary, C, ADC_SIDE_NOT_SHOWN, "its 2 MUST cases are all not_supported");
  assert_run(&summary, &finished, "NOT SHOWN TO CONFORM", ADC_EXIT_NOT_SHOWN);
}
END_TEST

/* A side tested whose cases --filter left out, or that has SHOULD cases
 * only, showed nothing of its MUST rules. */
START_TEST(a_side_without_must_cases_is_not_shown) {
  const struct triple cases[] = {{P, ADC_MUST, ADC_PASS}, {C, ADC_SHOULD, ADC_PASS}};
  struct adc_summary summary = SUMMARY_OF(true, true, cases);
  assert_side(&summary, P, ADC_SIDE_CONFORMS, "1 of its 1 MUST case passed, none failed or ended unresolved");
  assert_side(&summary, C, ADC_SIDE_NOT_SHOWN, "no MUST case of it ran");
  assert_run(&summary, &finished, "NOT SHOWN TO CONFORM", ADC_EXIT_NOT_SHOWN);
}
END_TEST

/* A SHOULD shortfall neither fails a side nor holds it back: a SHOULD
 * twin's run (tests/test_broken_implementations.c) still exits 0. */
START_TEST(should_shortfalls_leave_a_side_conforming) {
  const struct triple cases[] = {{P, ADC_MUST, ADC_PASS},
                                 {P, ADC_SHOULD, ADC_WARNING},
                                 {P, ADC_SHOULD, ADC_CRASH},
                                 {P, ADC_SHOULD, ADC_UNRESOLVED}};
  struct adc_summary summary = SUMMARY_OF(true, false, cases);
  assert_side(&summary, P, ADC_SIDE_CONFORMS, "1 of its 1 MUST case passed, none failed or ended unresolved");
  assert_run(&summary, &finished, "CONFORMS", EXIT_SUCCESS);
}
END_TEST

/* A failure outweighs everything else, on its side and in the headline. */
START_TEST(a_failing_side_does_not_conform) {
  const struct triple cases[] = {{P, ADC_MUST, ADC_UNRESOLVED},
                                 {P, ADC_MUST, ADC_PASS},
                                 {P, ADC_MUST, ADC_TIMEOUT},
                                 {P, ADC_MUST, ADC_FAIL},
                                 {C, ADC_MUST, ADC_NOT_SUPPORTED}};
  struct adc_summary summary = SUMMARY_OF(true, true, cases);
  assert_side(&summary, P, ADC_SIDE_DOES_NOT_CONFORM,
              "2 MUST cases failed, crashed or timed out, the first: case2: timeout: why 2");
  assert_side(&summary, C, ADC_SIDE_NOT_SHOWN, "its one MUST case is not_supported");
  assert_run(&summary, &finished, "DOES NOT CONFORM", EXIT_FAILURE);
}
END_TEST

/* A failure --expect expects keeps the exit status from 1, not the side
 * from failing; the other side, not shown, then sets the exit status. */
START_TEST(an_expected_failure_still_does_not_conform) {
  struct adc_summary summary;
  adc_summary_begin(&summary, true, true);
  enum adc_expectation_outcome expected = ADC_EXPECTED_FAIL;
  const struct adc_counted_case failing = {"cpu/r/f", P, ADC_MUST, ADC_FAIL, "known", &expected};
  const struct adc_counted_case passing = {"cpu/s/f", P, ADC_MUST, ADC_PASS, "", NULL};
  adc_summary_count(&summary, &failing);
  adc_summary_count(&summary, &passing);
  assert_side(&summary, P, ADC_SIDE_DOES_NOT_CONFORM,
              "1 MUST case failed, crashed or timed out, the first: cpu/r/f: fail: known");
  assert_run(&summary, &finished, "DOES NOT CONFORM", ADC_EXIT_NOT_SHOWN);
  const struct adc_counted_case consumer = {"cpu/t/f", C, ADC_MUST, ADC_PASS, "", NULL};
  adc_summary_count(&summary, &consumer);
  assert_run(&summary, &finished, "DOES NOT CONFORM", EXIT_SUCCESS);
}
END_TEST

START_TEST(an_interrupted_run_is_incomplete) {
  const struct triple cases[] = {{P, ADC_MUST, ADC_PASS}, {P, ADC_MUST, ADC_UNRESOLVED}};
  struct adc_summary summary = SUMMARY_OF(true, false, cases);
  const struct adc_run_outcome interrupted = {1.0, SIGINT};
  assert_run(&summary, &interrupted, "INCOMPLETE", 128 + SIGINT);
}
END_TEST

/* A report that says no side was tested (edited by hand) shows nothing. */
START_TEST(no_side_tested_shows_nothing) {
  const struct triple cases[] = {{P, ADC_MUST, ADC_PASS}};
  struct adc_summary summary = SUMMARY_OF(false, false, cases);
  assert_side(&summary, P, ADC_SIDE_NOT_TESTED, "not named on the command line");
  assert_run(&summary, &finished, "NOT SHOWN TO CONFORM", ADC_EXIT_NOT_SHOWN);
}
END_TEST

int main(void) {
  Suite* suite = suite_create("verdict");
  TCase* definition = tcase_create("definition");
  tcase_add_test(definition, passes_and_not_supported_conform);
  tcase_add_test(definition, a_side_all_unresolved_is_not_shown);
  tcase_add_test(definition, one_unresolved_case_holds_back_a_side);
  tcase_add_test(definition, all_not_supported_is_not_shown);
  tcase_add_test(definition, a_side_without_must_cases_is_not_shown);
  tcase_add_test(definition, should_shortfalls_leave_a_side_conforming);
  tcase_add_test(definition, a_failing_side_does_not_conform);
  tcase_add_test(definition, an_expected_failure_still_does_not_conform);
  tcase_add_test(definition, an_interrupted_run_is_incomplete);
  tcase_add_test(definition, no_side_tested_shows_nothing);
  suite_add_tcase(suite, definition);
  return run_suite(suite);
}
