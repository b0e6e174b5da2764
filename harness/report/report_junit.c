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

static struct junit_counts count(const struct adc_case* cases, const struct adc_task_result* results,
                                 size_t n, const struct adc_device_target* device) {
  struct junit_counts counts = {0, 0, 0, 0, 0.0};
  for (size_t i = 0; i < n; i++) {
    if (device != NULL && cases[i].device != device) continue;
    enum adc_status status = results[i].status;
    counts.tests++;
    counts.failures += status == ADC_FAIL;
    counts.errors += status == ADC_CRASH || status == ADC_TIMEOUT;
    counts.skipped += status == ADC_NOT_SUPPORTED || status == ADC_UNRESOLVED;
    counts.seconds += results[i].seconds;
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
 * the side's verdict (verdict.c), as the JSON summary spells it, and why. */
static void put_side_properties(FILE* out, const char* indent, enum adc_role role,
                                const struct adc_side_summary* side) {
  char name[64];
  snprintf(name, sizeof(name), "%s_verdict", adc_role_name(role));
  put_property(out, indent, name, adc_side_verdict_name(adc_side_verdict(side)));
  char reason[ADC_SIDE_REASON_SIZE];
  adc_side_verdict_reason(side, reason, sizeof(reason));
  snprintf(name, sizeof(name), "%s_verdict_reason", adc_role_name(role));
  put_property(out, indent, name, reason);
}

/* The run as a whole, on each suite: which harness judged which libraries,
 * and the verdicts. */
static void put_run_properties(FILE* out, const struct adc_session* session,
                               const struct adc_summary* summary, const struct adc_run_outcome* outcome) {
  const char* indent = "      ";
  fputs("    <properties>\n", out);
  put_property(out, indent, "suite_version", ADC_VERSION);
  put_property(out, indent, "git_commit", ADC_GIT_COMMIT);
  if (session->producer.tested) put_property(out, indent, "producer", session->producer.path);
  if (session->consumer.tested) put_property(out, indent, "consumer", session->consumer.path);
  put_property(out, indent, "conforms", adc_run_conforms(summary, outcome) ? "true" : "false");
  put_property(out, indent, "verdict", adc_verdict_headline(summary, outcome));
  for (int role = 0; role < ADC_ROLE_COUNT; role++) {
    if (summary->sides[role].tested)
      put_side_properties(out, indent, (enum adc_role)role, &summary->sides[role]);
  }
  fputs("    </properties>\n", out);
}

/* <failure>, <error> or <skipped>: the message as attribute, and in the
 * body the message again with the sentence it was judged against. */
static void put_outcome(FILE* out, const char* element, const struct adc_case* c,
                        const struct adc_task_result* result) {
  fprintf(out, "      <%s message=\"", element);
  adc_put_xml_text(out, result->message);
  fprintf(out, "\" type=\"%s\"", adc_status_name(result->status));
  if (strcmp(element, "skipped") == 0) {
    fputs("/>\n", out);
    return;
  }
  fputs(">", out);
  adc_put_xml_text(out, result->message);
  fputs("\nspec: ", out);
  adc_put_xml_text(out, c->rule->clause);
  fputs(": \"", out);
  adc_put_xml_text(out, c->rule->sentence);
  fprintf(out, "\"</%s>\n", element);
}

static void put_testcase(FILE* out, const struct adc_case* c, const struct adc_task_result* result) {
  const char* indent = "        ";
  fprintf(out, "    <testcase name=\"");
  adc_put_xml_text(out, c->fixture->name);
  fputs("\" classname=\"", out);
  adc_put_xml_text(out, c->rule->id);
  fprintf(out, "\" time=\"%.6f\">\n", result->seconds);
  fputs("      <properties>\n", out);
  put_property(out, indent, "id", c->id);
  put_property(out, indent, "rule", c->rule->id);
  put_property(out, indent, "clause", c->rule->clause);
  put_property(out, indent, "severity", adc_severity_name(c->rule->severity));
  put_property(out, indent, "role", adc_role_name(c->rule->role));
  put_property(out, indent, "status", adc_status_name(result->status));
  if (c->expectation != NULL) {
    put_property(out, indent, "expectation",
                 adc_expectation_outcome_name(adc_expectation_outcome(c->expectation, result->status)));
  }
  fputs("      </properties>\n", out);
  switch (result->status) {
    case ADC_FAIL:
      put_outcome(out, "failure", c, result);
      break;
    case ADC_CRASH:
    case ADC_TIMEOUT:
      put_outcome(out, "error", c, result);
      break;
    case ADC_NOT_SUPPORTED:
    case ADC_UNRESOLVED:
      put_outcome(out, "skipped", c, result);
      break;
    case ADC_WARNING:
      fputs("      <system-out>warning: a SHOULD was not met: ", out);
      adc_put_xml_text(out, result->message);
      fputs("</system-out>\n", out);
      break;
    default:
      break;
  }
  fputs("    </testcase>\n", out);
}

int adc_write_junit_report(const char* path, const struct adc_session* session, const struct adc_case* cases,
                           const struct adc_task_result* results, size_t n,
                           const struct adc_run_outcome* outcome, struct adc_error* error) {
  FILE* out = fopen(path, "w");
  if (out == NULL) return adc_fail(error, "cannot write the JUnit report '%s': %s", path, strerror(errno));
  struct adc_summary summary = adc_summarize(session, cases, results, n);
  char stamp[32];
  time_t now = time(NULL);
  strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
  struct utsname host;
  const char* hostname = uname(&host) == 0 ? host.nodename : "unknown";

  fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"adc-conform\"", out);
  struct junit_counts all = count(cases, results, n, NULL);
  put_counts(out, &all);
  fputs(">\n", out);
  for (size_t d = 0; d < session->n_devices; d++) {
    const struct adc_device_target* device = &session->devices[d];
    struct junit_counts counts = count(cases, results, n, device);
    if (counts.tests == 0) continue;
    fprintf(out, "  <testsuite name=\"%s\"", device->name);
    put_counts(out, &counts);
    fprintf(out, " timestamp=\"%s\" hostname=\"", stamp);
    adc_put_xml_text(out, hostname);
    fputs("\">\n", out);
    put_run_properties(out, session, &summary, outcome);
    for (size_t i = 0; i < n; i++) {
      if (cases[i].device == device) put_testcase(out, &cases[i], &results[i]);
    }
    fputs("  </testsuite>\n", out);
  }
  fputs("</testsuites>\n", out);
  if (fclose(out) != 0) return adc_fail(error, "cannot write the JUnit report '%s'", path);
  return 0;
}
