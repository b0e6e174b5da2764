#include "report/summary_of_report.h"

#include <string.h>

#include "runner/expectations.h"

static const char* string_item(const cJSON* object, const char* key) {
  return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(object, key));
}

static bool tested(const cJSON* environment, const char* role) {
  const cJSON* side = cJSON_GetObjectItemCaseSensitive(environment, role);
  return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(side, "tested"));
}

void adc_summary_begin_for_environment(struct adc_summary* summary, const cJSON* environment) {
  adc_summary_begin(summary, tested(environment, adc_role_name(ADC_ROLE_PRODUCER)),
                    tested(environment, adc_role_name(ADC_ROLE_CONSUMER)));
}

static bool role_named(const char* name, enum adc_role* role) {
  for (int r = 0; name != NULL && r < ADC_ROLE_COUNT; r++) {
    if (strcmp(name, adc_role_name((enum adc_role)r)) == 0) {
      *role = (enum adc_role)r;
      return true;
    }
  }
  return false;
}

static bool severity_named(const char* name, enum adc_severity* severity) {
  const enum adc_severity all[] = {ADC_MUST, ADC_SHOULD};
  for (size_t s = 0; name != NULL && s < sizeof(all) / sizeof(all[0]); s++) {
    if (strcmp(name, adc_severity_name(all[s])) == 0) {
      *severity = all[s];
      return true;
    }
  }
  return false;
}

static bool outcome_named(const char* name, enum adc_expectation_outcome* outcome) {
  for (int o = 0; name != NULL && o < ADC_OUTCOME_COUNT; o++) {
    if (strcmp(name, adc_expectation_outcome_name((enum adc_expectation_outcome)o)) == 0) {
      *outcome = (enum adc_expectation_outcome)o;
      return true;
    }
  }
  return false;
}

bool adc_summary_count_report_case(struct adc_summary* summary, const cJSON* item) {
  struct adc_counted_case counted = {string_item(item, "id"),
                                     ADC_ROLE_PRODUCER,
                                     ADC_MUST,
                                     ADC_UNRESOLVED,
                                     string_item(item, "message"),
                                     NULL};
  const char* status = string_item(item, "status");
  if (!role_named(string_item(item, "role"), &counted.role) ||
      !severity_named(string_item(item, "severity"), &counted.severity) || status == NULL ||
      !adc_status_from_name(status, &counted.status)) {
    return false;
  }
  const cJSON* expectation = cJSON_GetObjectItemCaseSensitive(item, "expectation");
  enum adc_expectation_outcome outcome;
  if (expectation != NULL) {
    if (!outcome_named(string_item(expectation, "outcome"), &outcome)) return false;
    counted.outcome = &outcome;
  }
  if (counted.id == NULL) counted.id = "(no id)";
  if (counted.message == NULL) counted.message = "";
  adc_summary_count(summary, &counted);
  return true;
}
