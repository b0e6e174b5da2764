/* The rule catalogue: every family of rules, in report order.
 *
 * A rule's row (ID, spec sentence, method, role, severity, needs) sits next
 * to its body in the family's file; adding a rule to a family touches that
 * file alone here, and a new family is one line below.  IDs are stable:
 * reports, expectation files and CONFORMANCE.md key on them, and
 * tests/test_catalogue.c fails when CONFORMANCE.md's table and these rows
 * disagree. */
#include <string.h>

#include "rule_api/rule.h"

extern const struct adc_rule_family adc_baseline_rules;           /* rules_baseline.c */
extern const struct adc_rule_family adc_device_array_rules;       /* rules_device_array.c */
extern const struct adc_rule_family adc_sync_event_rules;         /* rules_sync_event.c */
extern const struct adc_rule_family adc_interface_event_rules;    /* rules_interface_events.c */
extern const struct adc_rule_family adc_release_rules;            /* rules_release.c */
extern const struct adc_rule_family adc_content_rules;            /* rules_content.c */
extern const struct adc_rule_family adc_structure_rules;          /* rules_structure.c */
extern const struct adc_rule_family adc_move_rules;               /* rules_move.c */
extern const struct adc_rule_family adc_lifetime_rules;           /* rules_lifetime.c */
extern const struct adc_rule_family adc_consumer_rules;           /* rules_consumer.c */
extern const struct adc_rule_family adc_consumer_value_rules;     /* rules_consumer_values.c */
extern const struct adc_rule_family adc_consumer_stream_rules;    /* rules_consumer_stream.c */
extern const struct adc_rule_family adc_consumer_async_rules;     /* rules_consumer_async.c */
extern const struct adc_rule_family adc_consumer_structure_rules; /* rules_consumer_structure.c */
extern const struct adc_rule_family adc_plugin_rules;             /* rules_plugin.c */
extern const struct adc_rule_family adc_pycapsule_rules;          /* rules_pycapsule.c */
extern const struct adc_rule_family adc_device_stream_rules;      /* rules_device_stream.c */
extern const struct adc_rule_family adc_async_data_rules;         /* rules_async_data.c */
extern const struct adc_rule_family adc_async_protocol_rules;     /* rules_async_protocol.c */
extern const struct adc_rule_family adc_async_error_rules;        /* rules_async_errors.c */
extern const struct adc_rule_family adc_pair_rules;               /* rules_pair.c */

/* One family a line, in report order. */
/* clang-format off */
static const struct adc_rule_family* const families[] = {
    &adc_baseline_rules,
    &adc_device_array_rules,
    &adc_sync_event_rules,
    &adc_release_rules,
    &adc_content_rules,
    &adc_structure_rules,
    &adc_move_rules,
    &adc_lifetime_rules,
    &adc_device_stream_rules,
    &adc_interface_event_rules,
    &adc_async_data_rules,
    &adc_async_protocol_rules,
    &adc_async_error_rules,
    &adc_consumer_rules,
    &adc_consumer_value_rules,
    &adc_consumer_stream_rules,
    &adc_consumer_async_rules,
    &adc_consumer_structure_rules,
    &adc_plugin_rules,
    &adc_pycapsule_rules,
    &adc_pair_rules,
};
/* clang-format on */
#define N_FAMILIES (sizeof(families) / sizeof(families[0]))

size_t adc_rule_count(void) {
  size_t count = 0;
  for (size_t f = 0; f < N_FAMILIES; f++) count += families[f]->count;
  return count;
}

const struct adc_rule* adc_rule_at(size_t index) {
  for (size_t f = 0; f < N_FAMILIES; f++) {
    if (index < families[f]->count) return &families[f]->rules[index];
    index -= families[f]->count;
  }
  return NULL;
}

const struct adc_rule* adc_rule_find(const char* id) {
  for (size_t r = 0; r < adc_rule_count(); r++) {
    if (strcmp(adc_rule_at(r)->id, id) == 0) return adc_rule_at(r);
  }
  return NULL;
}
