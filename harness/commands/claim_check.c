#include "commands/claim_check.h"

#include <stdbool.h>
#include <string.h>

#include "cli/options.h"
#include "commands/bundle.h"
#include "outcome/record_of_report.h"
#include "report/report.h"
#include "rule_api/status.h"

static const char* string_at(const cJSON* object, const char* key) {
  const cJSON* item = cJSON_GetObjectItemCaseSensitive(object, key);
  return cJSON_IsString(item) ? item->valuestring : NULL;
}

static const char* or_missing(const char* text) {
  return text != NULL ? text : "(missing)";
}

static void check_suite(const cJSON* report, const char* version, const char* git_commit,
                        struct adc_reason_list* reasons, struct adc_reason_list* scope) {
  const cJSON* schema = cJSON_GetObjectItemCaseSensitive(report, "schema_version");
  if (!cJSON_IsNumber(schema) || schema->valuedouble != ADC_REPORT_SCHEMA_VERSION) {
    adc_reason_add(reasons, "report.json: schema_version is not %d, this suite's", ADC_REPORT_SCHEMA_VERSION);
  }
  const cJSON* suite = cJSON_GetObjectItemCaseSensitive(report, "suite");
  const char* claimed_version = string_at(suite, "version");
  const char* claimed_commit = string_at(suite, "git_commit");
  adc_reason_add(scope, "suite: adc-conform %s, git commit %s", or_missing(claimed_version),
                 or_missing(claimed_commit));
  if (claimed_version == NULL || strcmp(claimed_version, version) != 0 || claimed_commit == NULL ||
      strcmp(claimed_commit, git_commit) != 0) {
    adc_reason_add(
        reasons,
        "report.json: made by adc-conform %s (git commit %s), not by this one, %s (git commit %s): "
        "verify a bundle with the suite that made it",
        or_missing(claimed_version), or_missing(claimed_commit), version, git_commit);
  }
}

/* The run's command line, read with the run's own option table
 * (cli/options.c), must be one certify makes. */
static void check_command_line(const cJSON* report, struct adc_reason_list* reasons) {
  const cJSON* command_line = cJSON_GetObjectItemCaseSensitive(report, "command_line");
  int n = cJSON_IsArray(command_line) ? cJSON_GetArraySize(command_line) : 0;
  if (n == 0) {
    adc_reason_add(reasons, "report.json: no command_line");
    return;
  }
  const char* device = NULL;
  bool report_json = false, junit = false, library = false;
  for (int a = 1; a < n; a++) {
    const cJSON* item = cJSON_GetArrayItem(command_line, a);
    const char* argument = cJSON_IsString(item) ? item->valuestring : "";
    struct adc_option_facts option;
    bool named = adc_option_facts(argument, &option);
    const char* value = NULL;
    if (named && option.inline_value != NULL) {
      value = option.inline_value;
    } else if (named && option.takes_value && a + 1 < n) {
      const cJSON* next = cJSON_GetArrayItem(command_line, ++a);
      value = cJSON_IsString(next) ? next->valuestring : "";
    }
    if (!named || !(adc_certify_passes_on(option.name) || adc_certify_sets(option.name))) {
      adc_reason_add(reasons,
                     "report.json: the run's command line has '%s', which certify never passes: a claim "
                     "covers every rule on every device present",
                     argument);
      continue;
    }
    if (strcmp(option.name, "device") == 0) device = value;
    report_json |= strcmp(option.name, "report-json") == 0;
    junit |= strcmp(option.name, "junit") == 0;
    library |= strcmp(option.name, "producer") == 0 || strcmp(option.name, "consumer") == 0;
  }
  if (device == NULL || strcmp(device, "all") != 0) {
    adc_reason_add(reasons, "report.json: the run was on device '%s', not on all devices as certify runs",
                   or_missing(device));
  }
  if (!report_json || !junit || !library) {
    adc_reason_add(reasons, "report.json: the run's command line lacks %s: not a certify run",
                   !library       ? "--producer and --consumer"
                   : !report_json ? "--report-json"
                                  : "--junit");
  }
}

/* One side of the run, as the scope says it: a claim certifies only the
 * sides the run tested. */
static void describe_side(const cJSON* environment, const char* role, struct adc_reason_list* scope) {
  const cJSON* side = cJSON_GetObjectItemCaseSensitive(environment, role);
  if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(side, "tested"))) {
    adc_reason_add(scope, "%s: not certified (the bundled reference was the partner)", role);
  } else if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(side, "is_reference"))) {
    adc_reason_add(scope, "%s: certified: the bundled reference", role);
  } else {
    adc_reason_add(scope, "%s: certified: %s (entry-point prefix '%s')", role,
                   or_missing(string_at(side, "path")), or_missing(string_at(side, "prefix")));
  }
}

/* The device named `name` of the environment; NULL when it lists none. */
static const cJSON* device_named(const cJSON* environment, const char* name) {
  const cJSON* device;
  cJSON_ArrayForEach(device, cJSON_GetObjectItemCaseSensitive(environment, "devices")) {
    const char* device_name = string_at(device, "name");
    if (device_name != NULL && name != NULL && strcmp(device_name, name) == 0) return device;
  }
  return NULL;
}

static bool device_present(const cJSON* environment, const char* name) {
  return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(device_named(environment, name), "available"));
}

static void describe_devices(const cJSON* environment, struct adc_reason_list* scope) {
  char present[512] = "";
  const cJSON* device;
  cJSON_ArrayForEach(device, cJSON_GetObjectItemCaseSensitive(environment, "devices")) {
    const char* name = or_missing(string_at(device, "name"));
    if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(device, "available"))) {
      size_t used = strlen(present);
      snprintf(present + used, sizeof(present) - used, "%s%s", used ? ", " : "", name);
    } else {
      adc_reason_add(scope, "device not present, not covered: %s (%s)", name,
                     or_missing(string_at(device, "unavailable_reason")));
    }
  }
  adc_reason_add(scope, "devices judged: %s", present[0] ? present : "none");
}

/* Counts of the cases, for the scope. */
struct case_tally {
  size_t by_status[ADC_STATUS_COUNT];
  size_t cases;
  size_t not_supported_absent_device;  /* the device is not present here */
  size_t not_supported_present_device; /* an entry point not offered, or nothing to judge */
  size_t should_shortfalls;            /* SHOULD cases ending other than pass or not_supported */
};

/* Adds the case to `record` (the verdict's) and counts it into `tally`
 * (the scope's), and names it among the reasons where it breaks the
 * claim. */
static void judge_case(const cJSON* item, const cJSON* environment, struct adc_run_record* record,
                       struct case_tally* tally, struct adc_reason_list* reasons) {
  const char* id = or_missing(string_at(item, "id"));
  struct adc_case_record c;
  if (!adc_case_record_of_json(item, &c)) {
    adc_reason_add(reasons, "report.json: case %s has no known role, severity and status", id);
    return;
  }
  adc_run_record_add(record, &c);
  if (cJSON_GetObjectItemCaseSensitive(item, "expectation") != NULL) {
    adc_reason_add(reasons, "report.json: case %s was judged against an --expect entry", id);
  }
  const char* status_name = string_at(item, "status");
  enum adc_status status = ADC_UNRESOLVED;
  adc_status_from_name(status_name, &status);
  tally->cases++;
  tally->by_status[status]++;
  bool must = strcmp(string_at(item, "severity"), adc_severity_name(ADC_MUST)) == 0;
  if (status == ADC_NOT_SUPPORTED) {
    if (device_present(environment, string_at(item, "device"))) {
      tally->not_supported_present_device++;
    } else {
      tally->not_supported_absent_device++;
    }
  } else if (status != ADC_PASS && must) {
    adc_reason_add(reasons, "MUST case %s ended %s: %s", id, status_name,
                   or_missing(string_at(item, "message")));
  } else if (status != ADC_PASS) {
    tally->should_shortfalls++;
  }
}

/* The run's verdict on each side it tested (the record's, as the run
 * itself printed it): a claim holds only where the run says CONFORMS.
 * The record was finished as a complete run: an interrupted one is a
 * reason of its own (adc_check_claim). */
static void check_verdict(const struct adc_run_record* record, struct adc_reason_list* reasons) {
  if (record->verdict == ADC_RUN_CONFORMS) return;
  size_t before = reasons->count;
  for (int role = 0; role < ADC_ROLE_COUNT; role++) {
    const struct adc_side_record* side = &record->sides[role];
    if (side->verdict == ADC_SIDE_NOT_TESTED || side->verdict == ADC_SIDE_CONFORMS) continue;
    adc_reason_add(reasons, "report.json: the %s %s: %s", adc_role_name((enum adc_role)role),
                   adc_side_verdict_words(side->verdict), side->reason);
  }
  if (reasons->count == before) {
    adc_reason_add(reasons, "report.json: the run says %s: no side was tested", record->headline);
  }
}

static void describe_tally(const struct case_tally* tally, struct adc_reason_list* scope) {
  adc_reason_add(scope, "cases: %zu: %zu pass, %zu warning, %zu not_supported, %zu other", tally->cases,
                 tally->by_status[ADC_PASS], tally->by_status[ADC_WARNING],
                 tally->by_status[ADC_NOT_SUPPORTED],
                 tally->cases - tally->by_status[ADC_PASS] - tally->by_status[ADC_WARNING] -
                     tally->by_status[ADC_NOT_SUPPORTED]);
  adc_reason_add(scope, "not covered: %zu not_supported cases on devices not present",
                 tally->not_supported_absent_device);
  adc_reason_add(scope,
                 "not covered: %zu not_supported cases on devices present (an optional entry point not "
                 "offered, or nothing to judge)",
                 tally->not_supported_present_device);
  adc_reason_add(scope, "SHOULD shortfalls (allowed): %zu cases", tally->should_shortfalls);
}

void adc_check_claim(const cJSON* report, const char* version, const char* git_commit,
                     struct adc_reason_list* reasons, struct adc_reason_list* scope) {
  check_suite(report, version, git_commit, reasons, scope);
  check_command_line(report, reasons);
  const cJSON* environment = cJSON_GetObjectItemCaseSensitive(report, "environment");
  describe_side(environment, "producer", scope);
  describe_side(environment, "consumer", scope);
  describe_devices(environment, scope);
  const cJSON* summary = cJSON_GetObjectItemCaseSensitive(report, "summary");
  if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(summary, "complete"))) {
    adc_reason_add(reasons, "report.json: the run is incomplete (interrupted by %s)",
                   or_missing(string_at(summary, "interrupted_by")));
  }
  struct case_tally tally = {{0}, 0, 0, 0, 0};
  const cJSON* cases = cJSON_GetObjectItemCaseSensitive(report, "cases");
  struct adc_run_record record;
  struct adc_error error;
  if (adc_run_record_begin_for_report(&record, (size_t)cJSON_GetArraySize(cases), environment, NULL,
                                      &error) != 0) {
    adc_reason_add(reasons, "report.json: %s", error.message);
    return;
  }
  const cJSON* item;
  cJSON_ArrayForEach(item, cases) judge_case(item, environment, &record, &tally, reasons);
  adc_run_record_finish(&record);
  describe_tally(&tally, scope);
  check_verdict(&record, reasons);
  adc_run_record_free(&record);
}
