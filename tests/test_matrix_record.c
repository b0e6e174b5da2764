/* The matrix record (harness/outcome/matrix_record.h) blames a pair's
 * failure on the side that fails with the reference too, and on neither
 * where each passes with it; its cells show each pair's worst status. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "outcome/matrix_record.h"
#include "unit_test_support.h"

/* Libraries of the matrix below. */
enum { REFERENCE, PRODUCER, CONSUMER, N_LIBRARIES };

/* How the one case (a rule on cpu, fixture "f") of each pair ended:
 * by producer, then consumer. */
struct pair_plan {
  int producer;
  int consumer;
  enum adc_status status;
};

/* Fills `matrix` with a pair per entry of `plan`, each with one case. */
static void build(struct adc_matrix_record* matrix, const struct pair_plan* plan, size_t n,
                  struct adc_matrix_pair* pairs, char ids[][64]) {
  static const char* const names[N_LIBRARIES] = {"reference", "producer", "consumer"};
  memset(matrix, 0, sizeof(*matrix));
  for (int l = 0; l < N_LIBRARIES; l++) {
    matrix->libraries[l] = (struct adc_matrix_library){.name = names[l],
                                                       .spec = names[l],
                                                       .is_reference = l == REFERENCE,
                                                       .is_producer = true,
                                                       .is_consumer = true};
  }
  matrix->n_libraries = N_LIBRARIES;
  matrix->reference = REFERENCE;
  matrix->devices[matrix->n_devices++] = "cpu";
  for (size_t p = 0; p < n; p++) {
    struct adc_matrix_pair* pair = &pairs[p];
    pair->producer = (size_t)plan[p].producer;
    pair->consumer = (size_t)plan[p].consumer;
    ck_assert_int_eq(adc_run_record_begin(&pair->record, 1, "p", "c", &(struct adc_error){0}), 0);
    snprintf(ids[p], 64, "%s>%s/cpu/pair.rule/f", names[plan[p].producer], names[plan[p].consumer]);
    struct adc_case_record c = {.id = ids[p],
                                .rule = "pair.rule",
                                .clause = "Goals",
                                .sentence = "s",
                                .method = "m",
                                .role = ADC_ROLE_CONSUMER,
                                .severity = ADC_MUST,
                                .device = "cpu",
                                .fixture = "f",
                                .status = plan[p].status,
                                .message = "",
                                .left_behind = ""};
    adc_run_record_add(&pair->record, &c);
  }
  matrix->pairs = pairs;
  matrix->n_pairs = n;
  adc_matrix_record_finish(matrix);
}

static void free_pairs(struct adc_matrix_pair* pairs, size_t n) {
  for (size_t p = 0; p < n; p++) adc_run_record_free(&pairs[p].record);
}

/* The blame of pair (producer, consumer) when the producer with the
 * reference's consumer ends `producer_alone` and the reference's producer
 * with the consumer ends `consumer_alone`, the pair itself failing. */
static enum adc_matrix_blame blame_with(enum adc_status producer_alone, enum adc_status consumer_alone,
                                        const char** shown_by) {
  const struct pair_plan plan[] = {
      {REFERENCE, REFERENCE, ADC_PASS},
      {PRODUCER, REFERENCE, producer_alone},
      {REFERENCE, CONSUMER, consumer_alone},
      {PRODUCER, CONSUMER, ADC_FAIL},
  };
  struct adc_matrix_record matrix;
  struct adc_matrix_pair pairs[4];
  char ids[4][64];
  build(&matrix, plan, 4, pairs, ids);
  const char* shown = NULL;
  enum adc_matrix_blame blame = adc_matrix_blame_of(&matrix, &pairs[3], &pairs[3].record.cases[0], &shown);
  /* The ID named is one of the pair's with the reference. */
  *shown_by = shown == NULL ? NULL : strcmp(shown, ids[1]) == 0 ? "producer alone" : "consumer alone";
  free_pairs(pairs, 4);
  return blame;
}

START_TEST(a_failure_is_the_side_that_fails_with_the_reference_too) {
  const char* shown_by;
  ck_assert_int_eq(blame_with(ADC_FAIL, ADC_PASS, &shown_by), ADC_BLAME_PRODUCER);
  ck_assert_str_eq(shown_by, "producer alone");
  ck_assert_int_eq(blame_with(ADC_PASS, ADC_CRASH, &shown_by), ADC_BLAME_CONSUMER);
  ck_assert_str_eq(shown_by, "consumer alone");
  ck_assert_int_eq(blame_with(ADC_UNRESOLVED, ADC_TIMEOUT, &shown_by), ADC_BLAME_BOTH);
  ck_assert_int_eq(blame_with(ADC_PASS, ADC_PASS, &shown_by), ADC_BLAME_PAIR);
  ck_assert_ptr_null(shown_by);
  /* A decline with the reference shows nothing wrong of that side. */
  ck_assert_int_eq(blame_with(ADC_NOT_SUPPORTED, ADC_PASS, &shown_by), ADC_BLAME_PAIR);
}
END_TEST

START_TEST(a_pair_with_the_reference_blames_the_other_side) {
  const struct pair_plan plan[] = {
      {PRODUCER, REFERENCE, ADC_FAIL},
      {REFERENCE, CONSUMER, ADC_WARNING},
      {REFERENCE, REFERENCE, ADC_FAIL},
      {PRODUCER, CONSUMER, ADC_PASS},
  };
  struct adc_matrix_record matrix;
  struct adc_matrix_pair pairs[4];
  char ids[4][64];
  build(&matrix, plan, 4, pairs, ids);
  ck_assert_int_eq(adc_matrix_blame_of(&matrix, &pairs[0], &pairs[0].record.cases[0], NULL),
                   ADC_BLAME_PRODUCER);
  ck_assert_int_eq(adc_matrix_blame_of(&matrix, &pairs[1], &pairs[1].record.cases[0], NULL),
                   ADC_BLAME_CONSUMER);
  ck_assert_int_eq(adc_matrix_blame_of(&matrix, &pairs[2], &pairs[2].record.cases[0], NULL), ADC_BLAME_PAIR);
  ck_assert_int_eq(adc_matrix_blame_of(&matrix, &pairs[3], &pairs[3].record.cases[0], NULL), ADC_BLAME_NONE);
  /* The cells: each pair's worst; the counts and the exit status. */
  ck_assert_int_eq(adc_matrix_cell_of(&pairs[1], "cpu").worst, ADC_WARNING);
  ck_assert_int_eq(adc_matrix_cell_of(&pairs[3], "cpu").counts[ADC_PASS], 1);
  ck_assert_int_eq(adc_matrix_cell_of(&pairs[3], "gpu").cases, 0);
  ck_assert_uint_eq(matrix.cases, 4);
  ck_assert_uint_eq(matrix.counts[ADC_FAIL], 2);
  ck_assert_uint_eq(matrix.failing_run_cases, 2);
  ck_assert_int_eq(matrix.exit_status, 1);
  ck_assert_ptr_eq(adc_matrix_pair_of(&matrix, CONSUMER, PRODUCER), NULL);
  free_pairs(pairs, 4);
}
END_TEST

int main(void) {
  Suite* suite = suite_create("matrix_record");
  TCase* tc = tcase_create("blame");
  tcase_add_test(tc, a_failure_is_the_side_that_fails_with_the_reference_too);
  tcase_add_test(tc, a_pair_with_the_reference_blames_the_other_side);
  suite_add_tcase(suite, tc);
  return run_suite(suite);
}
