#include "runner/case_plan.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include "runner/fixture_cover.h"

static bool selected(const char* const* filters, int n_filters, const char* id) {
  if (n_filters == 0) return true;
  for (int i = 0; i < n_filters; i++) {
    if (fnmatch(filters[i], id, 0) == 0) return true;
  }
  return false;
}

static bool applies(const struct adc_rule* rule, const struct adc_device_target* device,
                    const struct adc_fixture* fixture) {
  if (rule->devices != NULL && !rule->devices->holds(device)) return false;
  return adc_rule_applies_to_fixture(rule, &fixture->model);
}

const struct adc_side* adc_side_tested_by(const struct adc_session* session, const struct adc_rule* rule) {
  return rule->role == ADC_ROLE_PRODUCER ? &session->producer : &session->consumer;
}

size_t adc_plan_cases(const struct adc_session* session, const char* const* filters, int n_filters,
                      struct adc_case** out) {
  struct adc_case* cases =
      calloc(session->n_devices * adc_rule_count() * session->n_fixtures + 1, sizeof(*cases));
  bool* planned = calloc(2 * session->n_fixtures + 1, sizeof(*planned)); /* applies, then the cover */
  if (cases == NULL || planned == NULL) abort();
  bool* covering = planned + session->n_fixtures;
  size_t n = 0;
  for (size_t d = 0; d < session->n_devices; d++) {
    const struct adc_device_target* device = &session->devices[d];
    for (size_t r = 0; r < adc_rule_count(); r++) {
      const struct adc_rule* rule = adc_rule_at(r);
      const struct adc_side* side = adc_side_tested_by(session, rule);
      if (!side->tested || (rule->judges_python_objects && !side->is_python)) continue;
      if (rule->judges_a_pair != session->pairs) continue;
      for (size_t f = 0; f < session->n_fixtures; f++)
        planned[f] = applies(rule, device, &session->fixtures[f]);
      if (session->covering_fixtures) adc_cover_fixtures(session, planned, covering);
      for (size_t f = 0; f < session->n_fixtures; f++) {
        const struct adc_fixture* fixture = &session->fixtures[f];
        if (!planned[f] || (session->covering_fixtures && !covering[f])) continue;
        struct adc_case* c = &cases[n];
        snprintf(c->id, sizeof(c->id), "%s/%s/%s", device->name, rule->id, fixture->name);
        if (!selected(filters, n_filters, c->id)) continue;
        c->rule = rule;
        c->device = device;
        c->fixture = fixture;
        n++;
      }
    }
  }
  free(planned);
  *out = cases;
  return n;
}

size_t adc_shard_cases(struct adc_case* cases, size_t n, int index, int count) {
  if (count == 1) return n; /* no --shard: every run comes here */
  /* Dealt like cards, rule after rule (the plan lists devices first), so
   * that a rule's cases on every device go to consecutive shards. */
  bool* keep = calloc(n + 1, sizeof(*keep));
  if (keep == NULL) abort();
  size_t dealt = 0;
  for (size_t r = 0; r < adc_rule_count(); r++) {
    for (size_t i = 0; i < n; i++) {
      if (cases[i].rule == adc_rule_at(r)) keep[i] = dealt++ % (size_t)count == (size_t)(index - 1);
    }
  }
  size_t kept = 0;
  for (size_t i = 0; i < n; i++) {
    if (keep[i]) cases[kept++] = cases[i];
  }
  free(keep);
  return kept;
}

int adc_parse_shard(const char* text, int* index, int* count, struct adc_error* error) {
  char* slash = NULL;
  long i = strtol(text, &slash, 10);
  char* end = NULL;
  long n = slash != text && *slash == '/' ? strtol(slash + 1, &end, 10) : 0;
  if (end == NULL || end == slash + 1 || *end != '\0' || n < 1 || n > ADC_MAX_SHARDS || i < 1 || i > n) {
    return adc_fail(error, "--shard takes INDEX/COUNT with 1 <= INDEX <= COUNT <= %d (e.g. 2/4), not '%s'",
                    ADC_MAX_SHARDS, text);
  }
  *index = (int)i;
  *count = (int)n;
  return 0;
}

double adc_session_timeout(const struct adc_session* session, double own_seconds) {
  if (session->timeout_seconds > 0) return session->timeout_seconds;
  double limit = own_seconds > 0 ? own_seconds : ADC_DEFAULT_TIMEOUT_SECONDS;
  return session->timeout_scale > 0 ? limit * session->timeout_scale : limit;
}

double adc_case_timeout(const struct adc_session* session, const struct adc_case* c) {
  return adc_session_timeout(session, c->rule->timeout_seconds);
}

void adc_expectations_match(struct adc_expectations* expectations, struct adc_case* cases, size_t n) {
  for (size_t c = 0; c < n; c++) {
    cases[c].expectation = NULL;
    for (size_t e = 0; e < expectations->n_entries && cases[c].expectation == NULL; e++) {
      if (fnmatch(expectations->entries[e].glob, cases[c].id, 0) != 0) continue;
      cases[c].expectation = &expectations->entries[e];
      expectations->entries[e].matched_cases++;
    }
  }
}
