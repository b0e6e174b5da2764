/* What a rule body works with, and how it gives its verdict.
 *
 * A body ends in one verdict: adc_violation() when the library breaks the
 * rule (fail for a MUST, warning for a SHOULD), adc_not_supported() when the
 * library lacks what the rule needs or declines the fixture,
 * adc_unresolved() when something outside the rule (another rule's failure,
 * the environment) keeps it from being judged, adc_crash() when the library
 * damaged memory the harness handed it (nothing after that can be trusted),
 * adc_timed_out() when the library never made a call the rule waits for.
 * A body that returns without a verdict passes.  The first verdict given is
 * final. */
#ifndef ADC_CASE_CONTEXT_H
#define ADC_CASE_CONTEXT_H

#include <stdbool.h>

#include "rule_api/rule.h"
#include "rule_api/status.h"

struct adc_case_context {
  const struct adc_rule* rule;
  const struct adc_device* device; /* where the data lives; reached only through its operations */
  const char* fixture_path;
  const struct arrow_json_file* fixture;
  struct adc_library* library; /* the producer or the consumer, as the rule's role says */
  /* A pair rule's case (rule.h, judges_a_pair): the producer whose exports
   * the body hands to the consumer (`library`); NULL otherwise. */
  struct adc_library* pair_producer;
  /* Set in the context through which a pair rule's body calls the
   * producer (rules_pair.c): its calls are checked against the rule's
   * producer_needs, not its needs. */
  bool calls_pair_producer;
  /* Set when a batch was exported to a device with an event type and handed
   * to the rule as ready (its sync_event waited on, or NULL): the event
   * rule that would be broken if its data were still changing.  When the
   * next comparison finds a difference, it watches the data for a while
   * and, when they turn into the fixture's, leaves the case unresolved
   * pointing at that rule (fixture_compare.h); any comparison clears it. */
  const char* late_data_rule;
  /* Set by a rule for which a producer declining to export the fixture is
   * the violation (the baseline rules): adc_exported (producer_calls.h)
   * then gives the rule's violation instead of not_supported. */
  bool decline_is_violation;
  enum adc_status status;
  bool has_verdict;
  char message[1024];
};

void adc_violation(struct adc_case_context* ctx, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
void adc_not_supported(struct adc_case_context* ctx, const char* fmt, ...)
    __attribute__((format(printf, 2, 3)));
void adc_unresolved(struct adc_case_context* ctx, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
void adc_crash(struct adc_case_context* ctx, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
/* The library never made a call the rule waits for (an async producer that
 * never releases its handler): the case ends timeout, the message naming
 * the missing call, before the case's own time limit kills it. */
void adc_timed_out(struct adc_case_context* ctx, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
/* A note kept with a passing verdict (e.g. which entry point was used). */
void adc_note(struct adc_case_context* ctx, const char* fmt, ...) __attribute__((format(printf, 2, 3)));

/* The status a violation of this rule gets: fail for MUST, warning for SHOULD. */
enum adc_status adc_violation_status(const struct adc_rule* rule);

/* Runs the statement after it once per batch of the fixture, in order, with
 * `batch` the batch number, and stops once a verdict is given. */
#define ADC_FOR_EACH_BATCH(ctx, batch) \
  for (int batch = 0; batch < (ctx)->fixture->n_batches && !(ctx)->has_verdict; batch++)

#endif /* ADC_CASE_CONTEXT_H */
