/* Rules for consumers handed a structurally invalid batch on purpose: one
 * rule per family of the columnar format's invariants
 * (arrow_format/arrow_structure.h), so that an implementation learns
 * which invalid inputs it lets through.
 *
 * The consumer feed breaks the family in a copy of the fixture model where
 * no valid row reads (arrow_structure_break): every valid row still reads
 * the fixture's values, so a consumer that only compares values finds the
 * batch equal to the fixture.  A consumer that says so (returns success)
 * accepted invalid input silently and gets a warning; one that refuses it
 * with a message passes.  SHOULD, not MUST: the format puts validity on the
 * producer (the producer rules, array.structure.*), and a consumer may
 * trust its producer; a consumer that checks keeps an invalid export from
 * being read out of bounds where it is used.
 *
 * The rows derive from ARROW_STRUCTURE_FAMILIES (the family's key, name,
 * clause and sentence), so a family added there is a rule here. */
#include <stdio.h>

#include "consumer_feed/consumer_feed.h"
#include "consumer_plain_export.h"
#include "feed_again.h"
#include "rule_api/consumer_calls.h"

/* Whether the feed can break `family` in some batch of `fixture`. */
static bool breakable(const struct arrow_json_file* fixture, enum arrow_structure_family family) {
  for (int64_t b = 0; b < fixture->n_batches; b++) {
    if (adc_feed_structure_breakable(fixture, b, family)) return true;
  }
  return false;
}

/* Hands the consumer each batch the family applies to, broken. */
static void structure_refused(struct adc_case_context* ctx, enum arrow_structure_family family) {
  const struct arrow_structure_family_info* info = &arrow_structure_families[family];
  const struct adc_feed_layout broken = {.break_structure = true, .broken_family = family};
  ADC_FOR_EACH_BATCH(ctx, batch) {
    if (!adc_feed_structure_breakable(ctx->fixture, batch, family)) continue;
    struct adc_feed* feed = adc_feed_new(ctx->device);
    struct ArrowDeviceArray array;
    struct adc_error error;
    if (adc_feed_export_batch(feed, ctx->fixture, batch, &broken, &array, &error) != 0) {
      adc_unresolved(ctx, "the consumer feed could not export batch %d with its %s broken: %s", batch,
                     info->name, error.message);
    } else {
      struct adc_feed_input input;
      const char* refusal = adc_import_batch(
          ctx, batch, &array, adc_feed_batch_again(&input, feed, ctx->fixture, batch, &broken));
      if (ctx->has_verdict) {
        /* the call could not be made (verdict given) */
      } else if (refusal == NULL) {
        adc_violation(ctx,
                      "batch %d, exported with its %s broken where no valid row reads (%s: \"%s\"), was "
                      "reported equal to the fixture: the consumer accepted structurally invalid input "
                      "silently",
                      batch, info->name, info->clause, info->sentence);
      } else {
        adc_not_supported_if_declined_plainly(ctx, batch);
      }
    }
    adc_feed_free(feed);
  }
}

/* A body and a fixture filter per family (a filter's predicate takes the
 * fixture alone). */
#define REFUSED_BODY(family, key, name, checks, section, quoted)              \
  static void refused_##family(struct adc_case_context* ctx) {                \
    structure_refused(ctx, ARROW_STRUCTURE_##family);                         \
  }                                                                           \
  static bool breakable_##family(const struct arrow_json_file* fixture) {     \
    return breakable(fixture, ARROW_STRUCTURE_##family);                      \
  }                                                                           \
  static const struct adc_fixture_filter with_##family = {breakable_##family, \
                                                          "a column whose " name " the feed can break"};
ARROW_STRUCTURE_FAMILIES(REFUSED_BODY)
#undef REFUSED_BODY

#define REFUSED_RULE(family, key, name, checks, section, quoted)                                      \
  {                                                                                                   \
      .id = "consumer.structure." key "_refused",                                                     \
      .clause = "Columnar format: " section,                                                          \
      .sentence = quoted,                                                                             \
      .method =                                                                                       \
          "Hands the consumer each batch with a column the family applies to, exported from a copy "  \
          "of the fixture model whose " name                                                          \
          " are broken where no valid row reads "                                                     \
          "(arrow_structure_break: every valid row still reads the fixture's values); a consumer "    \
          "that reports it equal to the fixture accepted invalid input silently (warning), one that " \
          "refuses it with a message passes. SHOULD: the format puts validity on the producer "       \
          "(array.structure." key "), and a consumer may trust its producer.",                        \
      .role = ADC_ROLE_CONSUMER,                                                                      \
      .severity = ADC_SHOULD,                                                                         \
      .needs = ADC_NEED(ImportBatchAndCompareToJson),                                                 \
      .fixtures = &with_##family,                                                                     \
      .run = refused_##family,                                                                        \
  },
static const struct adc_rule rules[] = {ARROW_STRUCTURE_FAMILIES(REFUSED_RULE)};
#undef REFUSED_RULE

const struct adc_rule_family adc_consumer_structure_rules = ADC_RULE_FAMILY(rules);
