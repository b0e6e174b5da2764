/* TAP version 14 (--tap): the whole of standard output, one test point
 * per case, for TAP consumers (prove, tappy, CI plugins):
 *   TAP version 14
 *   1..N
 *   ok 1 - cpu/array.move.base_relocatable/int32_nulls
 *   not ok 2 - cpu/array.data.matches_fixture/dictionary
 *     ---
 *     status: "fail"
 *     message: "..."
 *     ...
 * A point is "not ok" exactly when its case makes the exit status 1
 * (adc_case_fails_run).  A case that failed, crashed or timed out without
 * failing the run (an --expect entry expects it, or a SHOULD rule) is
 * "not ok ... # TODO" with the reason; not_supported and unresolved are
 * "ok ... # SKIP" with the message.  Every point that is not a plain pass
 * has a YAML block: status, message, rule, clause, severity, duration.
 * Comment lines after the points give the verdict (verdict.c): the
 * headline, then each side tested with its verdict and why:
 *   # adc-conform: NOT SHOWN TO CONFORM
 *   # producer: not shown to conform: 252 MUST cases unresolved, ... */
#include "report/console_style.h"
#include "report/report.h"

/* A YAML double-quoted scalar: JSON-style escapes, which YAML shares. */
static void put_yaml_string(FILE* out, const char* text) {
  fputc('"', out);
  for (const unsigned char* p = (const unsigned char*)text; *p; p++) {
    if (*p == '"' || *p == '\\') {
      fprintf(out, "\\%c", *p);
    } else if (*p == '\n') {
      fputs("\\n", out);
    } else if (*p == '\t') {
      fputs("\\t", out);
    } else if (*p < 0x20 || *p == 0x7F) {
      fprintf(out, "\\x%02x", *p);
    } else {
      fputc(*p, out);
    }
  }
  fputc('"', out);
}

static void put_yaml_field(FILE* out, const char* key, const char* value) {
  fprintf(out, "  %s: ", key);
  put_yaml_string(out, value);
  fputc('\n', out);
}

static void put_diagnostics(FILE* out, const struct adc_case* c, const struct adc_task_result* result) {
  fputs("  ---\n", out);
  put_yaml_field(out, "status", adc_status_name(result->status));
  put_yaml_field(out, "message", result->message);
  put_yaml_field(out, "rule", c->rule->id);
  put_yaml_field(out, "severity", adc_severity_name(c->rule->severity));
  put_yaml_field(out, "clause", c->rule->clause);
  put_yaml_field(out, "sentence", c->rule->sentence);
  if (c->expectation != NULL) {
    put_yaml_field(out, "expectation",
                   adc_expectation_outcome_name(adc_expectation_outcome(c->expectation, result->status)));
  }
  fprintf(out, "  duration_ms: %.3f\n", result->seconds * 1000.0);
  fputs("  ...\n", out);
}

static void put_point(FILE* out, size_t number, const struct adc_case* c,
                      const struct adc_task_result* result) {
  enum adc_status status = result->status;
  bool fails_run = adc_case_fails_run(c, status);
  bool excused = !fails_run && adc_status_fails_run(status);
  /* Case IDs hold neither '#' nor '\\', which TAP descriptions would have
   * to escape. */
  fprintf(out, "%s %zu - %s", fails_run || excused ? "not ok" : "ok", number, c->id);
  if (excused) {
    fputs(" # TODO ", out);
    if (c->expectation != NULL) {
      fprintf(out, "expected (%s): ", c->expectation->statuses_text);
      adc_put_one_line(out, c->expectation->reason, 200);
    } else {
      fprintf(out, "a SHOULD rule: %s does not fail the run", adc_status_name(status));
    }
  } else if (status == ADC_NOT_SUPPORTED || status == ADC_UNRESOLVED) {
    fprintf(out, " # SKIP %s: ", adc_status_name(status));
    adc_put_one_line(out, result->message, sizeof(result->message));
  }
  fputc('\n', out);
  if (status != ADC_PASS || fails_run) put_diagnostics(out, c, result);
}

static void put_verdict(FILE* out, const struct adc_summary* summary, const struct adc_run_outcome* outcome) {
  fprintf(out, "# adc-conform: %s\n", adc_verdict_headline(summary, outcome));
  for (int role = 0; role < ADC_ROLE_COUNT; role++) {
    const struct adc_side_summary* side = &summary->sides[role];
    if (!side->tested) continue;
    char reason[ADC_SIDE_REASON_SIZE];
    adc_side_verdict_reason(side, reason, sizeof(reason));
    fprintf(out, "# %s: %s: ", adc_role_name((enum adc_role)role),
            adc_side_verdict_words(adc_side_verdict(side)));
    adc_put_one_line(out, reason, sizeof(reason));
    fputc('\n', out);
  }
}

void adc_print_tap_report(FILE* out, const struct adc_session* session, const struct adc_case* cases,
                          const struct adc_task_result* results, size_t n,
                          const struct adc_run_outcome* outcome) {
  fprintf(out, "TAP version 14\n1..%zu\n", n);
  for (size_t i = 0; i < n; i++) put_point(out, i + 1, &cases[i], &results[i]);
  if (outcome->interrupted_by != 0) {
    fprintf(out, "# the run was interrupted by %s; the cases it did not finish are unresolved\n",
            adc_signal_name(outcome->interrupted_by));
  }
  struct adc_summary summary = adc_summarize(session, cases, results, n);
  put_verdict(out, &summary, outcome);
  fflush(out);
}
