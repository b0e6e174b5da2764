#include "outcome/matrix_record.h"

#include <stdlib.h>
#include <string.h>

const char* adc_matrix_blame_name(enum adc_matrix_blame blame) {
  static const char* const names[ADC_BLAME_COUNT] = {
      [ADC_BLAME_NONE] = "none", [ADC_BLAME_PRODUCER] = "producer", [ADC_BLAME_CONSUMER] = "consumer",
      [ADC_BLAME_BOTH] = "both", [ADC_BLAME_PAIR] = "pair",
  };
  return blame < ADC_BLAME_COUNT ? names[blame] : "none";
}

const struct adc_matrix_pair* adc_matrix_pair_of(const struct adc_matrix_record* matrix, size_t producer,
                                                 size_t consumer) {
  for (size_t p = 0; p < matrix->n_pairs; p++) {
    if (matrix->pairs[p].producer == producer && matrix->pairs[p].consumer == consumer)
      return &matrix->pairs[p];
  }
  return NULL;
}

/* How bad a status is for a cell: the worst of its cases is the one shown. */
static int badness(enum adc_status status) {
  static const int rank[ADC_STATUS_COUNT] = {
      [ADC_PASS] = 0, [ADC_NOT_SUPPORTED] = 1, [ADC_WARNING] = 2, [ADC_UNRESOLVED] = 3,
      [ADC_FAIL] = 4, [ADC_TIMEOUT] = 5,       [ADC_CRASH] = 6,
  };
  return rank[status];
}

struct adc_matrix_cell adc_matrix_cell_of(const struct adc_matrix_pair* pair, const char* device) {
  struct adc_matrix_cell cell = {.worst = ADC_PASS};
  for (size_t k = 0; k < pair->record.n_cases; k++) {
    const struct adc_case_record* c = &pair->record.cases[k];
    if (strcmp(c->device, device) != 0) continue;
    cell.counts[c->status]++;
    cell.cases++;
    if (badness(c->status) > badness(cell.worst)) cell.worst = c->status;
  }
  return cell;
}

/* The case of `pair` on the same rule, device and fixture as `c`; NULL
 * where there is none. */
static const struct adc_case_record* same_case(const struct adc_matrix_pair* pair,
                                               const struct adc_case_record* c) {
  if (pair == NULL) return NULL;
  for (size_t k = 0; k < pair->record.n_cases; k++) {
    const struct adc_case_record* other = &pair->record.cases[k];
    if (strcmp(other->rule, c->rule) == 0 && strcmp(other->device, c->device) == 0 &&
        strcmp(other->fixture, c->fixture) == 0)
      return other;
  }
  return NULL;
}

/* Whether a case found something wrong: a pass or a decline found nothing. */
static bool went_wrong(const struct adc_case_record* c) {
  return c != NULL && !adc_status_found_nothing_wrong(c->status);
}

enum adc_matrix_blame adc_matrix_blame_of(const struct adc_matrix_record* matrix,
                                          const struct adc_matrix_pair* pair, const struct adc_case_record* c,
                                          const char** shown_by) {
  if (shown_by != NULL) *shown_by = NULL;
  if (!went_wrong(c)) return ADC_BLAME_NONE;
  size_t reference = matrix->reference;
  bool producer_is_reference = pair->producer == reference;
  bool consumer_is_reference = pair->consumer == reference;
  /* A pair with the reference: the other side is the one judged (the
   * reference conforms: its own runs say so in the test command). */
  if (producer_is_reference && consumer_is_reference) return ADC_BLAME_PAIR;
  if (producer_is_reference) return ADC_BLAME_CONSUMER;
  if (consumer_is_reference) return ADC_BLAME_PRODUCER;
  const struct adc_case_record* producer_alone =
      same_case(adc_matrix_pair_of(matrix, pair->producer, reference), c);
  const struct adc_case_record* consumer_alone =
      same_case(adc_matrix_pair_of(matrix, reference, pair->consumer), c);
  bool producer_fails = went_wrong(producer_alone);
  bool consumer_fails = went_wrong(consumer_alone);
  if (producer_fails && consumer_fails) {
    if (shown_by != NULL) *shown_by = producer_alone->id;
    return ADC_BLAME_BOTH;
  }
  if (producer_fails) {
    if (shown_by != NULL) *shown_by = producer_alone->id;
    return ADC_BLAME_PRODUCER;
  }
  if (consumer_fails) {
    if (shown_by != NULL) *shown_by = consumer_alone->id;
    return ADC_BLAME_CONSUMER;
  }
  return ADC_BLAME_PAIR;
}

void adc_matrix_record_finish(struct adc_matrix_record* matrix) {
  matrix->cases = 0;
  matrix->failing_run_cases = 0;
  memset(matrix->counts, 0, sizeof(matrix->counts));
  for (size_t p = 0; p < matrix->n_pairs; p++) {
    const struct adc_run_record* record = &matrix->pairs[p].record;
    for (size_t k = 0; k < record->n_cases; k++) {
      matrix->counts[record->cases[k].status]++;
      matrix->cases++;
      matrix->failing_run_cases += record->cases[k].fails_run;
    }
  }
  if (matrix->interrupted_by != 0) {
    matrix->exit_status = 128 + matrix->interrupted_by;
  } else {
    matrix->exit_status = matrix->failing_run_cases > 0 ? 1 : 0;
  }
}

void adc_matrix_record_free(struct adc_matrix_record* matrix) {
  for (size_t p = 0; p < matrix->n_pairs; p++) adc_run_record_free(&matrix->pairs[p].record);
  free(matrix->pairs);
  matrix->pairs = NULL;
  matrix->n_pairs = 0;
}
