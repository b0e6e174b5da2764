#include "commands/report_read.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/json_file.h"
#include "report/report.h"
#include "runner/expectations.h"

static const char* string_item(const cJSON* object, const char* key) {
  return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(object, key));
}

static bool is_status(const char* name) {
  enum adc_status status;
  return name != NULL && adc_status_from_name(name, &status);
}

static bool is_outcome(const char* name) {
  for (int o = 0; name != NULL && o < ADC_OUTCOME_COUNT; o++) {
    if (strcmp(name, adc_expectation_outcome_name((enum adc_expectation_outcome)o)) == 0) return true;
  }
  return false;
}

/* The first key of a case that merging reads and the case lacks or spells
 * otherwise than the schema says; NULL when there is none. */
static const char* bad_case_key(const cJSON* item) {
  static const char* const strings[] = {"id", "rule", "device", "fixture"};
  for (size_t k = 0; k < sizeof(strings) / sizeof(strings[0]); k++) {
    if (string_item(item, strings[k]) == NULL) return strings[k];
  }
  const char* role = string_item(item, "role");
  if (role == NULL || (strcmp(role, adc_role_name(ADC_ROLE_PRODUCER)) != 0 &&
                       strcmp(role, adc_role_name(ADC_ROLE_CONSUMER)) != 0))
    return "role";
  const char* severity = string_item(item, "severity");
  if (severity == NULL || (strcmp(severity, "MUST") != 0 && strcmp(severity, "SHOULD") != 0))
    return "severity";
  if (!is_status(string_item(item, "status"))) return "status";
  const cJSON* expectation = cJSON_GetObjectItemCaseSensitive(item, "expectation");
  if (expectation != NULL && !is_outcome(string_item(expectation, "outcome"))) return "expectation";
  return NULL;
}

/* The same for a case of a matrix's report: its pair's ID and sides, and
 * the run's case it holds. */
static const char* bad_pair_case_key(const cJSON* item) {
  static const char* const strings[] = {"id", "producer", "consumer", "blame"};
  for (size_t k = 0; k < sizeof(strings) / sizeof(strings[0]); k++) {
    if (string_item(item, strings[k]) == NULL) return strings[k];
  }
  const cJSON* run_case = cJSON_GetObjectItemCaseSensitive(item, "case");
  if (!cJSON_IsObject(run_case)) return "case";
  return bad_case_key(run_case);
}

/* Fills the parts of `out` from its root; returns 0, or -1 with the reason. */
static int take_parts(struct adc_read_report* out, struct adc_error* error) {
  const char* path = out->path;
  const cJSON* root = out->root;
  const cJSON* version = cJSON_GetObjectItemCaseSensitive(root, "schema_version");
  if (!cJSON_IsObject(root) || !cJSON_IsNumber(version)) {
    return adc_fail(error, "%s: not an adc-conform JSON report (no schema_version)", path);
  }
  if (version->valuedouble != ADC_REPORT_SCHEMA_VERSION) {
    return adc_fail(error, "%s: a report of schema_version %g; this adc-conform reads schema_version %d",
                    path, version->valuedouble, ADC_REPORT_SCHEMA_VERSION);
  }
  const cJSON* suite = cJSON_GetObjectItemCaseSensitive(root, "suite");
  out->suite_version = string_item(suite, "version");
  out->git_commit = string_item(suite, "git_commit");
  out->command_line = cJSON_GetObjectItemCaseSensitive(root, "command_line");
  out->cases = cJSON_GetObjectItemCaseSensitive(root, "cases");
  out->summary = cJSON_GetObjectItemCaseSensitive(root, "summary");
  out->environment = cJSON_GetObjectItemCaseSensitive(root, "environment");
  const char* missing = out->suite_version == NULL || out->git_commit == NULL ? "suite"
                        : !cJSON_IsArray(out->command_line)                   ? "command_line"
                        : !cJSON_IsArray(out->cases)                          ? "cases"
                        : !cJSON_IsObject(out->summary)                       ? "summary"
                        : !cJSON_IsObject(out->environment)                   ? "environment"
                                                                              : NULL;
  if (missing != NULL) {
    return adc_fail(error, "%s: not a report of schema_version %d: '%s' is missing or malformed", path,
                    ADC_REPORT_SCHEMA_VERSION, missing);
  }
  out->matrix = cJSON_GetObjectItemCaseSensitive(root, "matrix");
  if (out->matrix != NULL && !cJSON_IsObject(out->matrix)) {
    return adc_fail(error, "%s: not a report of schema_version %d: 'matrix' is malformed", path,
                    ADC_REPORT_SCHEMA_VERSION);
  }
  int index = 0;
  const cJSON* item = NULL;
  cJSON_ArrayForEach(item, out->cases) {
    const char* key = out->matrix == NULL ? bad_case_key(item) : bad_pair_case_key(item);
    if (key != NULL) {
      return adc_fail(error,
                      "%s: case %d is not a case of schema_version %d: its '%s' is missing or malformed",
                      path, index + 1, ADC_REPORT_SCHEMA_VERSION, key);
    }
    index++;
  }
  const char* interrupted_by = string_item(out->summary, "interrupted_by");
  out->interrupted_by = interrupted_by == NULL ? 0 : strcmp(interrupted_by, "SIGINT") == 0 ? SIGINT : SIGTERM;
  return 0;
}

/* The command line as argv; returns 0, or -1 with the reason. */
static int take_command_line(struct adc_read_report* out, struct adc_error* error) {
  int argc = cJSON_GetArraySize(out->command_line);
  out->argv = calloc((size_t)argc + 1, sizeof(*out->argv));
  if (out->argv == NULL) return adc_fail(error, "out of memory");
  const cJSON* argument = NULL;
  cJSON_ArrayForEach(argument, out->command_line) {
    if (!cJSON_IsString(argument)) {
      return adc_fail(error, "%s: not a report of schema_version %d: 'command_line' holds a non-string",
                      out->path, ADC_REPORT_SCHEMA_VERSION);
    }
    out->argv[out->argc++] = argument->valuestring;
  }
  if (out->argc == 0) return adc_fail(error, "%s: its command_line is empty", out->path);
  struct adc_error reason;
  if (adc_shard_command_line_split(out->argc, out->argv, &out->shard, &reason) != 0) {
    return adc_fail(error, "%s: its command line: %s", out->path, reason.message);
  }
  return 0;
}

int adc_read_report(const char* path, struct adc_read_report* out, struct adc_error* error) {
  memset(out, 0, sizeof(*out));
  out->path = path;
  out->root = adc_read_json_file(path, error);
  if (out->root == NULL) return -1;
  if (take_parts(out, error) != 0 || take_command_line(out, error) != 0) {
    adc_read_report_free(out);
    return -1;
  }
  return 0;
}

void adc_read_report_free(struct adc_read_report* report) {
  cJSON_Delete(report->root);
  free(report->argv);
  adc_shard_command_line_free(&report->shard);
  memset(report, 0, sizeof(*report));
}
