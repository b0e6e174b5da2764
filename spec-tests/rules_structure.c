/* Every exported array structurally valid: the invariants of the columnar
 * format that hold whatever the values (arrow_format/arrow_structure.h),
 * one rule per family, each checked on every node of every batch the
 * producer exports, read where the data live.
 *
 * array.data.matches_fixture reads only the rows a consumer reads through
 * valid slots; these rules read every slot the format constrains, null
 * ones included where the format says so.  Two invariants of the same kind
 * are judged elsewhere, on every node: null_count against the validity
 * bitmap (array.data.matches_fixture, which compares it at every depth),
 * and the buffer and child counts (array.layout.buffers_and_children). */
#include "rule_api/fixture_compare.h"
#include "rule_api/producer_calls.h"

static void judge_structure(struct adc_case_context* ctx, enum arrow_structure_family family) {
  ADC_FOR_EACH_BATCH(ctx, batch) {
    struct ArrowArray* array = adc_export_batch(ctx, batch);
    if (array == NULL) return;
    char found[512];
    int result = adc_check_batch_structure(ctx, batch, array, family, found, sizeof(found));
    if (result == ADC_STRUCTURE_BREACH) {
      adc_violation(ctx, "batch %d: %s", batch, found);
    } else if (result == ADC_STRUCTURE_OTHER_TYPES) {
      adc_not_supported(ctx,
                        "the structural checks read the fixture's own types, and the library keeps its own "
                        "representation of the data: %s",
                        found);
    } else if (result == ADC_STRUCTURE_UNREADABLE) {
      adc_unresolved(
          ctx,
          "batch %d: a node is not laid out as its type, so its structure cannot be read (see %s and "
          "array.data.matches_fixture): %s",
          batch, ADC_RULE_ARRAY_LAYOUT, found);
    }
    array->release(array);
  }
}

/* A body and a fixture filter per family: the fixtures with a node the
 * family constrains (a family without such a node there has nothing to
 * judge). */
#define STRUCTURE_BODY(family, key, name, checks, section, quoted)     \
  static void check_##family(struct adc_case_context* ctx) {           \
    judge_structure(ctx, ARROW_STRUCTURE_##family);                    \
  }                                                                    \
  static bool has_##family(const struct arrow_json_file* fixture) {    \
    return arrow_structure_applies(fixture, ARROW_STRUCTURE_##family); \
  }                                                                    \
  static const struct adc_fixture_filter with_##family = {has_##family, name " to check"};
ARROW_STRUCTURE_FAMILIES(STRUCTURE_BODY)
#undef STRUCTURE_BODY

#define STRUCTURE_RULE(family, key, name, checks, section, quoted)                                         \
  {                                                                                                        \
      .id = "array.structure." key,                                                                        \
      .clause = "Columnar format: " section,                                                               \
      .sentence = quoted,                                                                                  \
      .method =                                                                                            \
          "Reads every node of every exported batch (a host copy where the CPU cannot read it in place), " \
          "typed by the fixture's fields, and checks " checks                                              \
          " (arrow_format/arrow_structure.c); "                                                            \
          "a node not laid out as its type is the layout rule's (unresolved here).",                       \
      .role = ADC_ROLE_PRODUCER,                                                                           \
      .severity = ADC_MUST,                                                                                \
      .needs = ADC_NEED(ExportBatchFromJson),                                                              \
      .fixtures = &with_##family,                                                                          \
      .run = check_##family,                                                                               \
  },

static const struct adc_rule rules[] = {ARROW_STRUCTURE_FAMILIES(STRUCTURE_RULE)};
#undef STRUCTURE_RULE

const struct adc_rule_family adc_structure_rules = ADC_RULE_FAMILY(rules);
