/* What a consumer's answer to an Import showed, beyond its message.
 *
 * Through the JSON ABI a consumer compares what it imported with the
 * fixture itself, and returns one message for a decline (a type it does
 * not support) and for a difference its own comparison found: the two
 * look alike.  Through the round-trip ABI (round_trip.c) the suite sees
 * which: an Adopt, or the export back, that fails is the library saying
 * no before it handed anything on; an export back whose data are not the
 * fixture's is an acceptance that handed on other data, the quiet kind
 * of wrong (consumer.accepted.values_kept; CONFORMANCE.md, "What a
 * consumer accepts").  The Python route is a round trip. */
#ifndef ADC_RULE_API_CONSUMER_ANSWER_H
#define ADC_RULE_API_CONSUMER_ANSWER_H

enum adc_consumer_answer {
  /* No message: the data were found equal to the fixture. */
  ADC_CONSUMER_FOUND_EQUAL,
  /* A message the suite cannot read further: the consumer's own
   * comparison (the JSON ABI), or the harness's side failed. */
  ADC_CONSUMER_REPORTED,
  /* An error before the library handed anything on. */
  ADC_CONSUMER_DECLINED,
  /* It accepted the data and handed on other data: other values, a
   * dictionary's ordered flag lost. */
  ADC_CONSUMER_HANDED_ON_OTHER,
  /* A library keeping its own model handed on a batch the columnar format
   * forbids, by its own schema: what it exported of what it accepted
   * (the producer rules judge its exports); handed on as it came, it let
   * invalid input through (the consumer.structure.* rules). */
  ADC_CONSUMER_HANDED_ON_INVALID,
  /* A library keeping its own model handed the data on in other names or
   * logical types (polars has no date64): a model difference each peer
   * documents, which the rules read as they read a decline. */
  ADC_CONSUMER_OWN_TYPES,
};

/* The rule that a consumer handing on other data than it accepted fails
 * (spec-tests/rules_consumer_values.c); the rules whose own subject is something
 * else end unresolved on such an answer, naming it. */
#define ADC_RULE_CONSUMER_VALUES_KEPT "consumer.accepted.values_kept"

#endif /* ADC_RULE_API_CONSUMER_ANSWER_H */
