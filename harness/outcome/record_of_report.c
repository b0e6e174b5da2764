#include "outcome/record_of_report.h"

#include <stdlib.h>
#include <string.h>

static const char* string_item(const cJSON* object, const char* key) {
  return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(object, key));
}

static const char* text_item(const cJSON* object, const char* key) {
  const char* text = string_item(object, key);
  return text != NULL ? text : "";
}

/* The library's path of a side the report says was tested; NULL otherwise. */
static const char* tested_path(const cJSON* environment, enum adc_role role) {
  const cJSON* side =
      cJSON_GetObjectItemCaseSensitive(environment, role == ADC_ROLE_PRODUCER ? "producer" : "consumer");
  if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(side, "tested"))) return NULL;
  return text_item(side, "path");
}

int adc_run_record_begin_for_report(struct adc_run_record* record, size_t capacity, const cJSON* environment,
                                    cJSON* command_line, struct adc_error* error) {
  if (adc_run_record_begin(record, capacity, tested_path(environment, ADC_ROLE_PRODUCER),
                           tested_path(environment, ADC_ROLE_CONSUMER), error) != 0) {
    cJSON_Delete(command_line);
    return -1;
  }
  record->command_line = command_line;
  record->environment = cJSON_Duplicate(environment, true);
  record->device_option = text_item(environment, "device");
  record->expectations_path = string_item(environment, "expectations");
  const cJSON* device = NULL;
  cJSON_ArrayForEach(device, cJSON_GetObjectItemCaseSensitive(environment, "devices")) {
    if (record->n_devices < ADC_RECORD_MAX_DEVICES)
      record->devices[record->n_devices++] = text_item(device, "name");
  }
  return 0;
}

static bool role_named(const char* name, enum adc_role* role) {
  static const char* const names[ADC_ROLE_COUNT] = {"producer", "consumer"};
  for (int r = 0; name != NULL && r < ADC_ROLE_COUNT; r++) {
    if (strcmp(name, names[r]) == 0) {
      *role = (enum adc_role)r;
      return true;
    }
  }
  return false;
}

static bool severity_named(const char* name, enum adc_severity* severity) {
  if (name == NULL) return false;
  if (strcmp(name, "MUST") == 0) {
    *severity = ADC_MUST;
  } else if (strcmp(name, "SHOULD") == 0) {
    *severity = ADC_SHOULD;
  } else {
    return false;
  }
  return true;
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

/* The entry that matched the case, and how the case ended against it;
 * false when the outcome is not one the schema names. */
static bool take_expectation(const cJSON* entry, struct adc_case_record* out) {
  if (entry == NULL) return true;
  out->has_expectation = true;
  const cJSON* line = cJSON_GetObjectItemCaseSensitive(entry, "line");
  out->expectation =
      (struct adc_case_expectation){text_item(entry, "glob"), text_item(entry, "status"),
                                    text_item(entry, "reason"), cJSON_IsNumber(line) ? line->valueint : 0};
  return outcome_named(string_item(entry, "outcome"), &out->outcome);
}

bool adc_case_record_of_json(const cJSON* item, struct adc_case_record* out) {
  const cJSON* duration = cJSON_GetObjectItemCaseSensitive(item, "duration_ms");
  *out = (struct adc_case_record){
      .id = string_item(item, "id") != NULL ? string_item(item, "id") : "(no id)",
      .rule = text_item(item, "rule"),
      .clause = text_item(item, "clause"),
      .sentence = text_item(item, "sentence"),
      .method = text_item(item, "method"),
      .device = text_item(item, "device"),
      .fixture = text_item(item, "fixture"),
      .message = text_item(item, "message"),
      .duration_ms = cJSON_IsNumber(duration) ? duration->valuedouble : 0.0,
      .left_behind = text_item(item, "left_behind"),
      .kept_threads = text_item(item, "kept_threads"),
      .shared_message = "",
      .crash_site = cJSON_GetObjectItemCaseSensitive(item, "crash_site"),
  };
  const cJSON* attempt = cJSON_GetObjectItemCaseSensitive(item, "shared_attempt");
  if (attempt != NULL) {
    out->rerun_alone = true;
    out->shared_message = text_item(attempt, "message");
    const char* shared_status = string_item(attempt, "status");
    if (shared_status != NULL) adc_status_from_name(shared_status, &out->shared_status);
    const cJSON* replay = cJSON_GetObjectItemCaseSensitive(attempt, "replay");
    const cJSON* earlier = cJSON_GetObjectItemCaseSensitive(replay, "earlier_cases");
    if (replay != NULL) {
      out->replayed = true;
      out->reproduced = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(replay, "reproduced"));
      out->earlier_cases =
          cJSON_IsNumber(earlier) && earlier->valuedouble > 0 ? (size_t)earlier->valuedouble : 0;
      out->first_to_go_wrong = text_item(replay, "first_to_go_wrong");
    }
  }
  const char* status = string_item(item, "status");
  return role_named(string_item(item, "role"), &out->role) &&
         severity_named(string_item(item, "severity"), &out->severity) && status != NULL &&
         adc_status_from_name(status, &out->status) &&
         take_expectation(cJSON_GetObjectItemCaseSensitive(item, "expectation"), out);
}

int adc_run_record_take_unmatched(struct adc_run_record* record, const cJSON* entries,
                                  struct adc_error* error) {
  free(record->unmatched);
  record->n_unmatched = 0;
  record->unmatched = calloc((size_t)cJSON_GetArraySize(entries) + 1, sizeof(*record->unmatched));
  if (record->unmatched == NULL) return adc_fail(error, "out of memory");
  const cJSON* entry = NULL;
  cJSON_ArrayForEach(entry, entries) {
    const cJSON* line = cJSON_GetObjectItemCaseSensitive(entry, "line");
    record->unmatched[record->n_unmatched++] = (struct adc_unmatched_expectation){
        text_item(entry, "glob"), cJSON_IsNumber(line) ? line->valueint : 0};
  }
  return 0;
}
