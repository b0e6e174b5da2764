#include "outcome/record_of_run.h"

#include <stdlib.h>

#include "outcome/run_environment.h"

void adc_case_record_of_run(const struct adc_case* c, const struct adc_task_result* result,
                            struct adc_case_record* out) {
  const struct adc_rule* rule = c->rule;
  const struct adc_shared_attempt* shared = &result->shared;
  *out = (struct adc_case_record){
      .id = c->id,
      .rule = rule->id,
      .clause = rule->clause,
      .sentence = rule->sentence,
      .method = rule->method,
      .role = rule->role,
      .severity = rule->severity,
      .device = c->device->name,
      .fixture = c->fixture->name,
      .status = result->status,
      .message = result->message,
      .duration_ms = result->seconds * 1000.0,
      .left_behind = shared->left_behind,
      .kept_threads = shared->kept_threads,
      .rerun_alone = shared->rerun_alone,
      .shared_status = shared->status,
      .shared_message = shared->message,
      .replayed = shared->replayed,
      .reproduced = shared->reproduced,
      .earlier_cases = shared->earlier_tasks,
      .first_to_go_wrong = shared->first_to_go_wrong,
      .crash_site = result->crash_site,
  };
  const struct adc_expectation* entry = c->expectation;
  if (entry == NULL) return;
  out->has_expectation = true;
  out->expectation =
      (struct adc_case_expectation){entry->glob, entry->statuses_text, entry->reason, entry->line};
  out->outcome = adc_expectation_outcome(entry, result->status);
}

/* The entries of --expect that matched no case of the run, into the record. */
static int take_unmatched(struct adc_run_record* record, const struct adc_expectations* expectations,
                          struct adc_error* error) {
  record->expectations_path = expectations->path;
  record->unmatched = calloc(expectations->n_entries + 1, sizeof(*record->unmatched));
  if (record->unmatched == NULL) return adc_fail(error, "out of memory");
  for (size_t e = 0; e < expectations->n_entries; e++) {
    const struct adc_expectation* entry = &expectations->entries[e];
    if (entry->matched_cases == 0) {
      record->unmatched[record->n_unmatched++] = (struct adc_unmatched_expectation){entry->glob, entry->line};
    }
  }
  return 0;
}

static cJSON* command_line_json(const struct adc_session* session) {
  cJSON* command_line = cJSON_CreateArray();
  for (int a = 0; a < session->argc; a++)
    cJSON_AddItemToArray(command_line, cJSON_CreateString(session->argv[a]));
  return command_line;
}

int adc_run_record_of_run(struct adc_run_record* record, const struct adc_session* session,
                          const struct adc_case* cases, const struct adc_task_result* results, size_t n,
                          const struct adc_run_outcome* outcome, struct adc_error* error) {
  if (adc_run_record_begin(record, n, session->producer.tested ? session->producer.path : NULL,
                           session->consumer.tested ? session->consumer.path : NULL, error) != 0) {
    return -1;
  }
  record->device_option = session->device_option;
  for (size_t d = 0; d < session->n_devices && d < ADC_RECORD_MAX_DEVICES; d++) {
    record->devices[record->n_devices++] = session->devices[d].name;
  }
  if (session->expectations != NULL && take_unmatched(record, session->expectations, error) != 0) {
    adc_run_record_free(record);
    return -1;
  }
  record->wall_seconds = outcome->wall_seconds;
  record->interrupted_by = outcome->interrupted_by;
  record->command_line = command_line_json(session);
  record->environment = adc_run_environment_json(session, outcome->wall_seconds);
  for (size_t i = 0; i < n; i++) {
    struct adc_case_record c;
    adc_case_record_of_run(&cases[i], &results[i], &c);
    adc_run_record_add(record, &c);
  }
  adc_run_record_finish(record);
  return 0;
}
