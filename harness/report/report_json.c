/* The machine-readable report, the canonical record of a run; its JSON
 * Schema is harness/report/report.schema.json (tests/test_reports.c
 * validates reports against it):
 *   {"schema_version": ADC_REPORT_SCHEMA_VERSION,
 *    "suite": {"name", "version", "git_commit"},
 *    "command_line": [argv[0], ...],
 *    "cases": [{"id", "rule", "role", "severity", "device", "fixture",
 *               "status", "message", "duration_ms", "clause", "sentence",
 *               "method", and with --expect where an entry matched:
 *               "expectation": {"glob", "status", "reason", "line",
 *                               "outcome"}}],
 *    "summary": {"<status>": count, ..., "cases", "judged_cases",
 *                "passing_must_cases", "failing_must_cases",
 *                "<outcome>": count, ..., "failing_run_cases",
 *                "unmatched_expectations" (with --expect), "complete",
 *                "conforms", "verdict",
 *                "sides": {"producer" and "consumer": {"tested", "verdict",
 *                                                      "reason"}}},
 *    "environment": {...}}
 * and, in a report that `adc-conform merge` wrote (report_merge.c),
 * "merged_from": [{"path", "shard_index", "shard_count", "command_line",
 *                  "environment"}]. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include "report/json_file.h"
#include "report/report.h"
#include "runner/case_plan.h"
#include "runner/runner.h"
#include "support/version.h"

static cJSON* side_json(const struct adc_side* side) {
  cJSON* object = cJSON_CreateObject();
  cJSON_AddBoolToObject(object, "tested", side->tested);
  cJSON_AddStringToObject(object, "path", side->path);
  cJSON_AddStringToObject(object, "prefix", side->prefix);
  cJSON_AddBoolToObject(object, "is_reference", side->is_reference);
  return object;
}

cJSON* adc_suite_json(void) {
  cJSON* suite = cJSON_CreateObject();
  cJSON_AddStringToObject(suite, "name", "adc-conform");
  cJSON_AddStringToObject(suite, "version", ADC_VERSION);
  cJSON_AddStringToObject(suite, "git_commit", ADC_GIT_COMMIT);
  return suite;
}

/* What the device is, as its probe in a child process found (see
 * runner/device_probe.h); a device not probed has only its name and ABI
 * values. */
static cJSON* device_json(const struct adc_session* session, const struct adc_device_target* device,
                          const struct adc_device_facts* facts) {
  cJSON* object = cJSON_CreateObject();
  cJSON_AddStringToObject(object, "name", device->name);
  cJSON_AddBoolToObject(object, "shared_processes", adc_cases_share_processes(session, device));
  cJSON_AddNumberToObject(object, "arrow_device_type", (double)device->driver->kind->arrow_type);
  cJSON_AddNumberToObject(object, "device_id", (double)device->device_id);
  if (device->driver->kind->event_type != NULL)
    cJSON_AddStringToObject(object, "event_type", device->driver->kind->event_type);
  if (!facts->probed) return object;
  cJSON_AddBoolToObject(object, "available", facts->available);
  if (facts->refused) cJSON_AddBoolToObject(object, "refused", true);
  if (!facts->available) cJSON_AddStringToObject(object, "unavailable_reason", facts->reason);
  const struct adc_device_description* description = &facts->description;
  if (description->model[0]) cJSON_AddStringToObject(object, "model", description->model);
  if (description->driver_version[0])
    cJSON_AddStringToObject(object, "driver_version", description->driver_version);
  if (description->runtime_version[0]) {
    cJSON_AddStringToObject(object, "runtime_version", description->runtime_version);
  }
  return object;
}

/* The distribution's own name for itself, from os-release(5); NULL when
 * there is none. */
static cJSON* os_pretty_name(void) {
  FILE* f = fopen("/etc/os-release", "r");
  if (f == NULL) return NULL;
  char line[512];
  cJSON* name = NULL;
  while (name == NULL && fgets(line, sizeof(line), f) != NULL) {
    if (strncmp(line, "PRETTY_NAME=", 12) != 0) continue;
    char* value = line + 12;
    value[strcspn(value, "\n")] = '\0';
    size_t length = strlen(value);
    if (length >= 2 && value[0] == '"' && value[length - 1] == '"') {
      value[length - 1] = '\0';
      value++;
    }
    name = cJSON_CreateString(value);
  }
  fclose(f);
  return name;
}

static cJSON* os_json(void) {
  cJSON* os = cJSON_CreateObject();
  struct utsname host;
  if (uname(&host) == 0) {
    cJSON_AddStringToObject(os, "sysname", host.sysname);
    cJSON_AddStringToObject(os, "release", host.release);
    cJSON_AddStringToObject(os, "version", host.version);
    cJSON_AddStringToObject(os, "machine", host.machine);
  }
  cJSON* pretty = os_pretty_name();
  if (pretty != NULL) cJSON_AddItemToObject(os, "pretty_name", pretty);
  return os;
}

static const char* sanitizers(void) {
#if defined(__SANITIZE_ADDRESS__) || defined(ADC_SANITIZE_ADDRESS)
  return "address,undefined";
#else
  return "none";
#endif
}

static cJSON* environment_json(const struct adc_session* session, double wall_seconds) {
  cJSON* env = cJSON_CreateObject();
  cJSON_AddStringToObject(env, "harness", "adc-conform " ADC_VERSION);
  cJSON_AddItemToObject(env, "producer", side_json(&session->producer));
  cJSON_AddItemToObject(env, "consumer", side_json(&session->consumer));
  cJSON_AddStringToObject(env, "device", session->device_option);
  cJSON* devices = cJSON_AddArrayToObject(env, "devices");
  for (size_t d = 0; d < session->n_devices; d++) {
    cJSON_AddItemToArray(devices, device_json(session, &session->devices[d], &session->device_facts[d]));
  }
  cJSON_AddStringToObject(env, "fixtures_dir", session->fixtures_dir);
  if (session->expectations != NULL)
    cJSON_AddStringToObject(env, "expectations", session->expectations->path);
  /* --timeout, or the limit of cases whose rule sets none */
  cJSON_AddNumberToObject(env, "timeout_seconds", adc_session_timeout(session, 0));
  cJSON_AddNumberToObject(env, "jobs", session->jobs);
  cJSON_AddStringToObject(env, "isolation", adc_isolation_name(session->isolation));
  cJSON_AddNumberToObject(env, "wall_seconds", wall_seconds);
  cJSON_AddStringToObject(env, "harness_sanitizers", sanitizers());
  if (session->harness_wrapper != NULL)
    cJSON_AddStringToObject(env, "harness_wrapper", session->harness_wrapper);
  cJSON_AddStringToObject(env, "compiler", ADC_COMPILER);
  cJSON_AddItemToObject(env, "os", os_json());
  struct utsname host;
  if (uname(&host) == 0) {
    cJSON_AddStringToObject(env, "host", host.nodename);
    cJSON_AddStringToObject(env, "kernel", host.release);
    cJSON_AddStringToObject(env, "machine", host.machine);
  }
  char stamp[32];
  time_t now = time(NULL);
  strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
  cJSON_AddStringToObject(env, "time_utc", stamp);
  return env;
}

cJSON* adc_case_json(const struct adc_case* c, const struct adc_task_result* result) {
  const struct adc_rule* rule = c->rule;
  cJSON* item = cJSON_CreateObject();
  cJSON_AddStringToObject(item, "id", c->id);
  cJSON_AddStringToObject(item, "rule", rule->id);
  cJSON_AddStringToObject(item, "role", adc_role_name(rule->role));
  cJSON_AddStringToObject(item, "severity", adc_severity_name(rule->severity));
  cJSON_AddStringToObject(item, "device", c->device->name);
  cJSON_AddStringToObject(item, "fixture", c->fixture->name);
  cJSON_AddStringToObject(item, "status", adc_status_name(result->status));
  cJSON_AddStringToObject(item, "message", result->message);
  cJSON_AddNumberToObject(item, "duration_ms", result->seconds * 1000.0);
  cJSON_AddStringToObject(item, "clause", rule->clause);
  cJSON_AddStringToObject(item, "sentence", rule->sentence);
  cJSON_AddStringToObject(item, "method", rule->method);
  const struct adc_shared_attempt* shared = &result->shared;
  if (shared->left_behind[0] != '\0') cJSON_AddStringToObject(item, "left_behind", shared->left_behind);
  if (shared->rerun_alone) {
    /* What the prepared process gave: the verdict above is the run alone's. */
    cJSON* attempt = cJSON_AddObjectToObject(item, "shared_attempt");
    cJSON_AddStringToObject(attempt, "status", adc_status_name(shared->status));
    cJSON_AddStringToObject(attempt, "message", shared->message);
  }
  const struct adc_expectation* expectation = c->expectation;
  if (expectation != NULL) {
    cJSON* entry = cJSON_AddObjectToObject(item, "expectation");
    cJSON_AddStringToObject(entry, "glob", expectation->glob);
    cJSON_AddStringToObject(entry, "status", expectation->statuses_text);
    cJSON_AddStringToObject(entry, "reason", expectation->reason);
    cJSON_AddNumberToObject(entry, "line", expectation->line);
    cJSON_AddStringToObject(
        entry, "outcome", adc_expectation_outcome_name(adc_expectation_outcome(expectation, result->status)));
  }
  return item;
}

/* The entries of --expect that matched no case of the run. */
static cJSON* unmatched_json(const struct adc_expectations* expectations) {
  cJSON* unmatched = cJSON_CreateArray();
  for (size_t e = 0; e < expectations->n_entries; e++) {
    const struct adc_expectation* entry = &expectations->entries[e];
    if (entry->matched_cases > 0) continue;
    cJSON* item = cJSON_CreateObject();
    cJSON_AddStringToObject(item, "glob", entry->glob);
    cJSON_AddNumberToObject(item, "line", entry->line);
    cJSON_AddItemToArray(unmatched, item);
  }
  return unmatched;
}

/* Each side's verdict and why (verdict.c), by role. */
static cJSON* sides_json(const struct adc_summary* summary) {
  cJSON* sides = cJSON_CreateObject();
  for (int role = 0; role < ADC_ROLE_COUNT; role++) {
    const struct adc_side_summary* side = &summary->sides[role];
    cJSON* item = cJSON_AddObjectToObject(sides, adc_role_name((enum adc_role)role));
    cJSON_AddBoolToObject(item, "tested", side->tested);
    cJSON_AddStringToObject(item, "verdict", adc_side_verdict_name(adc_side_verdict(side)));
    char reason[ADC_SIDE_REASON_SIZE];
    adc_side_verdict_reason(side, reason, sizeof(reason));
    cJSON_AddStringToObject(item, "reason", reason);
  }
  return sides;
}

cJSON* adc_summary_json(const struct adc_summary* summary, cJSON* unmatched_expectations,
                        const struct adc_run_outcome* outcome) {
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
  if (unmatched_expectations != NULL)
    cJSON_AddItemToObject(totals, "unmatched_expectations", unmatched_expectations);
  /* An interrupted run proves nothing about the cases it did not finish. */
  cJSON_AddBoolToObject(totals, "complete", outcome->interrupted_by == 0);
  if (outcome->interrupted_by != 0) {
    cJSON_AddStringToObject(totals, "interrupted_by", adc_signal_name(outcome->interrupted_by));
  }
  cJSON_AddBoolToObject(totals, "conforms", adc_run_conforms(summary, outcome));
  cJSON_AddStringToObject(totals, "verdict", adc_verdict_headline(summary, outcome));
  cJSON_AddItemToObject(totals, "sides", sides_json(summary));
  return totals;
}

int adc_write_json_report(const char* path, const struct adc_session* session, const struct adc_case* cases,
                          const struct adc_task_result* results, size_t n,
                          const struct adc_run_outcome* outcome, struct adc_error* error) {
  cJSON* root = cJSON_CreateObject();
  cJSON_AddNumberToObject(root, "schema_version", ADC_REPORT_SCHEMA_VERSION);
  cJSON_AddItemToObject(root, "suite", adc_suite_json());
  cJSON* command_line = cJSON_AddArrayToObject(root, "command_line");
  for (int a = 0; a < session->argc; a++)
    cJSON_AddItemToArray(command_line, cJSON_CreateString(session->argv[a]));
  cJSON* list = cJSON_AddArrayToObject(root, "cases");
  for (size_t i = 0; i < n; i++) cJSON_AddItemToArray(list, adc_case_json(&cases[i], &results[i]));
  struct adc_summary summary = adc_summarize(session, cases, results, n);
  cJSON* unmatched = session->expectations != NULL ? unmatched_json(session->expectations) : NULL;
  cJSON_AddItemToObject(root, "summary", adc_summary_json(&summary, unmatched, outcome));
  cJSON_AddItemToObject(root, "environment", environment_json(session, outcome->wall_seconds));
  int written = adc_write_json_file(path, root, error);
  cJSON_Delete(root);
  return written;
}
