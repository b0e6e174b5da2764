#include "report/rule_tally.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"

/* How much a status says about the library: the first problem shown is the
 * first case of the highest rank. */
static int rank(enum adc_status status) {
  switch (status) {
    case ADC_FAIL:
    case ADC_CRASH:
    case ADC_TIMEOUT:
      return 4;
    case ADC_WARNING:
      return 3;
    case ADC_UNRESOLVED:
      return 2;
    case ADC_NOT_SUPPORTED:
      return 1;
    default:
      return 0;
  }
}

const char* adc_unavailable_word(const struct adc_unavailable_device* device) {
  return device->status == ADC_UNRESOLVED ? "Not judged" : "Unavailable";
}

/* Finds the devices whose every case ended not_supported, or every one
 * unresolved, with one message. */
static void find_unavailable(const struct adc_run_record* record, struct adc_tally* out) {
  const struct adc_case_record* cases = record->cases;
  size_t n = record->n_cases;
  const char* seen[ADC_RECORD_MAX_DEVICES];
  size_t n_seen = 0;
  for (size_t i = 0; i < n; i++) {
    const char* device = cases[i].device;
    bool known = false;
    for (size_t d = 0; d < n_seen && !known; d++) known = strcmp(seen[d], device) == 0;
    if (known || n_seen == ADC_RECORD_MAX_DEVICES) continue;
    seen[n_seen++] = device;
    size_t count = 0;
    bool uniform = true;
    for (size_t j = i; j < n && uniform; j++) {
      if (strcmp(cases[j].device, device) != 0) continue;
      count++;
      enum adc_status status = cases[j].status;
      uniform = (status == ADC_NOT_SUPPORTED || status == ADC_UNRESOLVED) && status == cases[i].status &&
                strcmp(cases[j].message, cases[i].message) == 0;
    }
    if (uniform) {
      out->unavailable[out->n_unavailable++] =
          (struct adc_unavailable_device){device, cases[i].status, count, i};
    }
  }
}

static bool is_unavailable(const struct adc_tally* tally, const char* device) {
  for (size_t d = 0; d < tally->n_unavailable; d++) {
    if (strcmp(tally->unavailable[d].device, device) == 0) return true;
  }
  return false;
}

static struct adc_rule_tally* rule_entry(struct adc_tally* tally, const struct adc_case_record* c) {
  for (size_t r = 0; r < tally->n_rules; r++) {
    if (strcmp(tally->rules[r].rule->rule, c->rule) == 0) return &tally->rules[r];
  }
  struct adc_rule_tally* entry = &tally->rules[tally->n_rules++];
  memset(entry, 0, sizeof(*entry));
  entry->rule = c;
  entry->first_problem = SIZE_MAX;
  return entry;
}

int adc_tally_rules(const struct adc_run_record* record, struct adc_tally* out) {
  memset(out, 0, sizeof(*out));
  size_t n = record->n_cases;
  /* At most one entry per case. */
  out->rules = calloc(n ? n : 1, sizeof(*out->rules));
  if (out->rules == NULL) return -1;
  find_unavailable(record, out);
  for (size_t i = 0; i < n; i++) {
    const struct adc_case_record* c = &record->cases[i];
    if (is_unavailable(out, c->device)) continue;
    struct adc_rule_tally* entry = rule_entry(out, c);
    enum adc_status status = c->status;
    entry->cases++;
    entry->counts[status]++;
    entry->failing_run_cases += c->fails_run;
    if (c->has_expectation) entry->outcomes[c->outcome]++;
    if (status == ADC_PASS) continue;
    if (entry->first_problem == SIZE_MAX || rank(status) > rank(record->cases[entry->first_problem].status)) {
      entry->first_problem = i;
    }
  }
  return 0;
}

void adc_tally_free(struct adc_tally* tally) {
  free(tally->rules);
  tally->rules = NULL;
}

enum adc_status adc_tally_worst(const struct adc_rule_tally* rule, const struct adc_run_record* record) {
  return rule->first_problem == SIZE_MAX ? ADC_PASS : record->cases[rule->first_problem].status;
}
