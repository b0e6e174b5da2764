/* A run seen rule by rule, across devices: what the default console, the
 * GitHub summary and annotations print.  A run on many devices has a few
 * hundred cases but a few rules that did not pass; this is what lets a
 * report name each of those rules on one line.
 *
 * A device on which every case ended not_supported with one and the same
 * message (a GPU device without its GPU, the runtime's reason), or
 * unresolved with one message (a device that refused the run's probe), is
 * set apart as unavailable, its cases counted there and not under each
 * rule: otherwise it would make every rule look unfinished. */
#ifndef ADC_RULE_TALLY_H
#define ADC_RULE_TALLY_H

#include <stddef.h>

#include "outcome/run_record.h"

struct adc_rule_tally {
  /* The rule's first case: its ID, severity, clause and sentence are the
   * rule's. */
  const struct adc_case_record* rule;
  size_t cases;
  size_t counts[ADC_STATUS_COUNT];
  size_t outcomes[ADC_OUTCOME_COUNT]; /* of the cases an --expect entry matched */
  size_t failing_run_cases;           /* the record's fails_run */
  /* The most telling case that did not pass (the first of the worst status:
   * failing ones first, not_supported last), an index into the record's
   * cases; SIZE_MAX when every case passed. */
  size_t first_problem;
};

/* Devices whose every case ended not_supported, or every one unresolved,
 * with one message. */
struct adc_unavailable_device {
  const char* device;     /* its name */
  enum adc_status status; /* not_supported or unresolved */
  size_t cases;
  size_t example; /* a case of the device: its message is the reason */
};

struct adc_tally {
  struct adc_rule_tally* rules; /* in the order their first case appears */
  size_t n_rules;
  struct adc_unavailable_device unavailable[ADC_RECORD_MAX_DEVICES];
  size_t n_unavailable;
};

/* "Unavailable" (not_supported) or "Not judged" (unresolved): the word a
 * report opens an unavailable device's line with. */
const char* adc_unavailable_word(const struct adc_unavailable_device* device);

/* Tallies the record's cases, pointing into it (it must outlive `out`).
 * Returns 0, or -1 when out of memory.  Free with adc_tally_free. */
int adc_tally_rules(const struct adc_run_record* record, struct adc_tally* out);
void adc_tally_free(struct adc_tally* tally);

/* The worst status among a rule's cases, as the first problem has it;
 * ADC_PASS when every case passed. */
enum adc_status adc_tally_worst(const struct adc_rule_tally* rule, const struct adc_run_record* record);

#endif /* ADC_RULE_TALLY_H */
