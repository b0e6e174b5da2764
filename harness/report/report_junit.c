/* JUnit XML (--junit FILE), for CI systems that show test results: one
 * <testsuite> per device, one <testcase> per case (classname the rule ID,
 * name the fixture), so that tools group cases by rule.  The shape is the
 * one harness/report/junit.xsd describes (tests/test_reports.c validates
 * reports against it).  Statuses map as:
 *   pass                  a plain <testcase>
 *   fail                  <failure>
 *   crash, timeout        <error>
 *   not_supported,
 *   unresolved            <skipped> (neither judges the library)
 *   warning               a pass, with the SHOULD shortfall in <system-out>
 * Each case carries its rule ID, spec clause, severity, role and status as
 * <properties>; the JSON report stays the canonical record. */
#include <errno.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include "report/report.h"
#include "report/xml_text.h"
#include "support/version.h"

/* Per device, or the whole run when `device` is NULL. */
struct junit_counts {
  size_t tests, failures, errors, skipped;
  double seconds;
};

static struct junit_counts count(const struct adc_run_record* record, const char* device) {
  struct junit_counts counts = {0, 0, 0, 0, 0.0};
  for (size_t i = 0; i < record->n_cases; i++) {
    const struct adc_case_record* c = &record->cases[i];
    if (device != NULL && strcmp(c->device, device) != 0) continue;
    enum adc_status status = c->status;
    counts.tests++;
    counts.failures += status == ADC_FAIL;
    counts.errors += status == ADC_CRASH || status == ADC_TIMEOUT;
    counts.skipped += status == ADC_NOT_SUPPORTED || status == ADC_UNRESOLVED;
    counts.seconds += c->duration_ms / 1000.0;
  }
  return counts;
}

static void put_counts(FILE* out, const struct junit_counts* counts) {
  fprintf(out, " tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\" time=\"%.6f\"", counts->tests,
          counts->failures, counts->errors, counts->skipped, counts->seconds);
}

static void put_property(FILE* out, const char* indent, const char* name, const char* value) {
  fprintf(out, "%s<property name=\"%s\" value=\"", indent, name);
  adc_put_xml_text(out, value);
  fputs("\"/>\n", out);
}

/* "producer_verdict" and "producer_verdict_reason" (or the consumer's):
 * the side's verdict (the record's), as the JSON summary spells it, and why. */
static void put_side_properties(FILE* out, const char* indent, enum adc_role role,
                                const struct adc_side_record* side) {
  char name[64];
  snprintf(name, sizeof(name), "%s_verdict", adc_role_name(role));
  put_property(out, indent, name, adc_side_verdict_name(side->verdict));
  snprintf(name, sizeof(name), "%s_verdict_reason", adc_role_name(role));
  put_property(out, indent, name, side->reason);
}

/* The run as a whole, on each suite: which harness judged which libraries,
 * and the verdicts. */
static void put_run_properties(FILE* out, const struct adc_run_record* record) {
  const char* indent = "      ";
  fputs("    <properties>\n", out);
  put_property(out, indent, "suite_version", ADC_VERSION);
  put_property(out, indent, "git_commit", ADC_GIT_COMMIT);
  for (int role = 0; role < ADC_ROLE_COUNT; role++) {
    const struct adc_side_record* side = &record->sides[role];
    if (side->tested) put_property(out, indent, adc_role_name((enum adc_role)role), side->path);
  }
  put_property(out, indent, "conforms", record->conforms ? "true" : "false");
  put_property(out, indent, "verdict", record->headline);
  for (int role = 0; role < ADC_ROLE_COUNT; role++) {
    if (record->sides[role].tested)
      put_side_properties(out, indent, (enum adc_role)role, &record->sides[role]);
  }
  fputs("    </properties>\n", out);
}

/* <failure>, <error> or <skipped>: the message as attribute, and in the
 * body the message again with the sentence it was judged against. */
static void put_outcome(FILE* out, const char* element, const struct adc_case_record* c) {
  fprintf(out, "      <%s message=\"", element);
  adc_put_xml_text(out, c->message);
  fprintf(out, "\" type=\"%s\"", adc_status_name(c->status));
  if (strcmp(element, "skipped") == 0) {
    fputs("/>\n", out);
    return;
  }
  fputs(">", out);
  adc_put_xml_text(out, c->message);
  fputs("\nspec: ", out);
  adc_put_xml_text(out, c->clause);
  fputs(": \"", out);
  adc_put_xml_text(out, c->sentence);
  fprintf(out, "\"</%s>\n", element);
}

static void put_testcase(FILE* out, const struct adc_case_record* c) {
  const char* indent = "        ";
  fprintf(out, "    <testcase name=\"");
  adc_put_xml_text(out, c->fixture);
  fputs("\" classname=\"", out);
  adc_put_xml_text(out, c->rule);
  fprintf(out, "\" time=\"%.6f\">\n", c->duration_ms / 1000.0);
  fputs("      <properties>\n", out);
  put_property(out, indent, "id", c->id);
  put_property(out, indent, "rule", c->rule);
  put_property(out, indent, "clause", c->clause);
  put_property(out, indent, "severity", adc_severity_name(c->severity));
  put_property(out, indent, "role", adc_role_name(c->role));
  put_property(out, indent, "status", adc_status_name(c->status));
  if (c->has_expectation) put_property(out, indent, "expectation", adc_expectation_outcome_name(c->outcome));
  fputs("      </properties>\n", out);
  switch (c->status) {
    case ADC_FAIL:
      put_outcome(out, "failure", c);
      break;
    case ADC_CRASH:
    case ADC_TIMEOUT:
      put_outcome(out, "error", c);
      break;
    case ADC_NOT_SUPPORTED:
    case ADC_UNRESOLVED:
      put_outcome(out, "skipped", c);
      break;
    case ADC_WARNING:
      fputs("      <system-out>warning: a SHOULD was not met: ", out);
      adc_put_xml_text(out, c->message);
      fputs("</system-out>\n", out);
      break;
    default:
      break;
  }
  fputs("    </testcase>\n", out);
}

int adc_write_junit_report(const char* path, const struct adc_run_record* record, struct adc_error* error) {
  FILE* out = fopen(path, "w");
  if (out == NULL) return adc_fail(error, "cannot write the JUnit report '%s': %s", path, strerror(errno));
  char stamp[32];
  time_t now = time(NULL);
  strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
  struct utsname host;
  const char* hostname = uname(&host) == 0 ? host.nodename : "unknown";

  fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"adc-conform\"", out);
  struct junit_counts all = count(record, NULL);
  put_counts(out, &all);
  fputs(">\n", out);
  for (size_t d = 0; d < record->n_devices; d++) {
    const char* device = record->devices[d];
    struct junit_counts counts = count(record, device);
    if (counts.tests == 0) continue;
    fprintf(out, "  <testsuite name=\"%s\"", device);
    put_counts(out, &counts);
    fprintf(out, " timestamp=\"%s\" hostname=\"", stamp);
    adc_put_xml_text(out, hostname);
    fputs("\">\n", out);
    put_run_properties(out, record);
    for (size_t i = 0; i < record->n_cases; i++) {
      if (strcmp(record->cases[i].device, device) == 0) put_testcase(out, &record->cases[i]);
    }
    fputs("  </testsuite>\n", out);
  }
  fputs("</testsuites>\n", out);
  if (fclose(out) != 0) return adc_fail(error, "cannot write the JUnit report '%s'", path);
  return 0;
}
