/* The machine-readable report, the canonical record of a run; its JSON
 * Schema is harness/report/report.schema.json (tests/test_reports.c
 * validates reports against it):
 *   {"schema_version": ADC_REPORT_SCHEMA_VERSION,
 *    "suite": {"name", "version", "git_commit"},
 *    "command_line": [argv[0], ...],
 *    "cases": [{"id", "rule", "role", "severity", "device", "fixture",
 *               "status", "message", "duration_ms", "clause", "sentence",
 *               "method", "left_behind" and "shared_attempt" where it
 *               ran in a prepared process, "crash_site" where a fatal
 *               signal killed its process, and with --expect where an
 *               entry matched:
 *               "expectation": {"glob", "status", "reason", "line",
 *                               "outcome"}}],
 *    "summary": {"<status>": count, ..., "cases", "judged_cases",
 *                "passing_must_cases", "failing_must_cases",
 *                "<outcome>": count, ..., "failing_run_cases",
 *                "unmatched_expectations" (with --expect), "complete",
 *                "conforms", "verdict",
 *                "sides": {"producer" and "consumer": {"tested", "verdict",
 *                                                      "reason"}}},
 *    "environment": {...} (outcome/run_environment.c)}
 * and, in a report that `adc-conform merge` wrote (report_merge.c),
 * "merged_from": [{"path", "shard_index", "shard_count", "command_line",
 *                  "environment"}]. */
#include <cjson/cJSON.h>

#include "report/json_file.h"
#include "report/report.h"
#include "support/version.h"

cJSON* adc_suite_json(void) {
  cJSON* suite = cJSON_CreateObject();
  cJSON_AddStringToObject(suite, "name", "adc-conform");
  cJSON_AddStringToObject(suite, "version", ADC_VERSION);
  cJSON_AddStringToObject(suite, "git_commit", ADC_GIT_COMMIT);
  return suite;
}

cJSON* adc_case_json(const struct adc_case_record* c) {
  cJSON* item = cJSON_CreateObject();
  cJSON_AddStringToObject(item, "id", c->id);
  cJSON_AddStringToObject(item, "rule", c->rule);
  cJSON_AddStringToObject(item, "role", adc_role_name(c->role));
  cJSON_AddStringToObject(item, "severity", adc_severity_name(c->severity));
  cJSON_AddStringToObject(item, "device", c->device);
  cJSON_AddStringToObject(item, "fixture", c->fixture);
  cJSON_AddStringToObject(item, "status", adc_status_name(c->status));
  cJSON_AddStringToObject(item, "message", c->message);
  cJSON_AddNumberToObject(item, "duration_ms", c->duration_ms);
  cJSON_AddStringToObject(item, "clause", c->clause);
  cJSON_AddStringToObject(item, "sentence", c->sentence);
  cJSON_AddStringToObject(item, "method", c->method);
  if (c->left_behind[0] != '\0') cJSON_AddStringToObject(item, "left_behind", c->left_behind);
  if (c->kept_threads != NULL && c->kept_threads[0] != '\0')
    cJSON_AddStringToObject(item, "kept_threads", c->kept_threads);
  if (c->rerun_alone) {
    /* What the prepared process gave: the verdict above is the run alone's. */
    cJSON* attempt = cJSON_AddObjectToObject(item, "shared_attempt");
    cJSON_AddStringToObject(attempt, "status", adc_status_name(c->shared_status));
    cJSON_AddStringToObject(attempt, "message", c->shared_message);
    if (c->replayed) {
      cJSON* replay = cJSON_AddObjectToObject(attempt, "replay");
      cJSON_AddBoolToObject(replay, "reproduced", c->reproduced);
      cJSON_AddNumberToObject(replay, "earlier_cases", (double)c->earlier_cases);
      cJSON_AddStringToObject(replay, "first_to_go_wrong", c->first_to_go_wrong);
    }
  }
  if (c->crash_site != NULL) cJSON_AddItemToObject(item, "crash_site", cJSON_Duplicate(c->crash_site, true));
  if (c->has_expectation) {
    cJSON* entry = cJSON_AddObjectToObject(item, "expectation");
    cJSON_AddStringToObject(entry, "glob", c->expectation.glob);
    cJSON_AddStringToObject(entry, "status", c->expectation.statuses);
    cJSON_AddStringToObject(entry, "reason", c->expectation.reason);
    cJSON_AddNumberToObject(entry, "line", c->expectation.line);
    cJSON_AddStringToObject(entry, "outcome", adc_expectation_outcome_name(c->outcome));
  }
  return item;
}

/* The entries of --expect that matched no case of the run. */
static cJSON* unmatched_json(const struct adc_run_record* record) {
  cJSON* unmatched = cJSON_CreateArray();
  for (size_t e = 0; e < record->n_unmatched; e++) {
    cJSON* item = cJSON_CreateObject();
    cJSON_AddStringToObject(item, "glob", record->unmatched[e].glob);
    cJSON_AddNumberToObject(item, "line", record->unmatched[e].line);
    cJSON_AddItemToArray(unmatched, item);
  }
  return unmatched;
}

/* Each side's verdict and why, by role. */
static cJSON* sides_json(const struct adc_run_record* record) {
  cJSON* sides = cJSON_CreateObject();
  for (int role = 0; role < ADC_ROLE_COUNT; role++) {
    const struct adc_side_record* side = &record->sides[role];
    cJSON* item = cJSON_AddObjectToObject(sides, adc_role_name((enum adc_role)role));
    cJSON_AddBoolToObject(item, "tested", side->tested);
    cJSON_AddStringToObject(item, "verdict", adc_side_verdict_name(side->verdict));
    cJSON_AddStringToObject(item, "reason", side->reason);
  }
  return sides;
}

static cJSON* summary_json(const struct adc_run_record* record) {
  const struct adc_summary* summary = &record->summary;
  cJSON* totals = cJSON_CreateObject();
  for (int s = 0; s < ADC_STATUS_COUNT; s++) {
    cJSON_AddNumberToObject(totals, adc_status_name((enum adc_status)s), (double)summary->counts[s]);
  }
  cJSON_AddNumberToObject(totals, "cases", (double)summary->cases);
  cJSON_AddNumberToObject(totals, "judged_cases", (double)summary->judged_cases);
  cJSON_AddNumberToObject(totals, "passing_must_cases", (double)summary->passing_must_cases);
  cJSON_AddNumberToObject(totals, "failing_must_cases", (double)summary->failing_must_cases);
  for (int o = 0; o < ADC_OUTCOME_COUNT; o++) {
    cJSON_AddNumberToObject(totals, adc_expectation_outcome_name((enum adc_expectation_outcome)o),
                            (double)summary->outcomes[o]);
  }
  cJSON_AddNumberToObject(totals, "failing_run_cases", (double)summary->failing_run_cases);
  if (record->expectations_path != NULL)
    cJSON_AddItemToObject(totals, "unmatched_expectations", unmatched_json(record));
  /* An interrupted run proves nothing about the cases it did not finish. */
  cJSON_AddBoolToObject(totals, "complete", record->interrupted_by == 0);
  if (record->interrupted_by != 0) {
    cJSON_AddStringToObject(totals, "interrupted_by", adc_signal_name(record->interrupted_by));
  }
  cJSON_AddBoolToObject(totals, "conforms", record->conforms);
  cJSON_AddStringToObject(totals, "verdict", record->headline);
  cJSON_AddItemToObject(totals, "sides", sides_json(record));
  return totals;
}

cJSON* adc_report_json(const struct adc_run_record* record) {
  cJSON* root = cJSON_CreateObject();
  cJSON_AddNumberToObject(root, "schema_version", ADC_REPORT_SCHEMA_VERSION);
  cJSON_AddItemToObject(root, "suite", adc_suite_json());
  cJSON_AddItemToObject(root, "command_line", cJSON_Duplicate(record->command_line, true));
  cJSON* list = cJSON_AddArrayToObject(root, "cases");
  for (size_t i = 0; i < record->n_cases; i++) cJSON_AddItemToArray(list, adc_case_json(&record->cases[i]));
  cJSON_AddItemToObject(root, "summary", summary_json(record));
  cJSON_AddItemToObject(root, "environment", cJSON_Duplicate(record->environment, true));
  return root;
}

int adc_write_json_report(const char* path, const struct adc_run_record* record, struct adc_error* error) {
  cJSON* root = adc_report_json(record);
  int written = adc_write_json_file(path, root, error);
  cJSON_Delete(root);
  return written;
}
