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
 * (the run record's fails_run).  A case that failed, crashed or timed out without
 * failing the run (an --expect entry expects it, or a SHOULD rule) is
 * "not ok ... # TODO" with the reason; not_supported and unresolved are
 * "ok ... # SKIP" with the message.  Every point that is not a plain pass
 * has a YAML block: status, message, rule, clause, severity, duration.
 * Comment lines after the points give the verdict (the record's): the
 * headline, then each side tested with its verdict and why:
 *   # adc-conform: NOT SHOWN TO CONFORM
 *   # producer: not shown to conform: 252 MUST cases unresolved, ... */
#include "report/console_style.h"
#include "report/report.h"

/* Enough of a message for any case: the runner's limit. */
#define MESSAGE_BYTES 1400

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

static void put_diagnostics(FILE* out, const struct adc_case_record* c) {
  fputs("  ---\n", out);
  put_yaml_field(out, "status", adc_status_name(c->status));
  put_yaml_field(out, "message", c->message);
  put_yaml_field(out, "rule", c->rule);
  put_yaml_field(out, "severity", adc_severity_name(c->severity));
  put_yaml_field(out, "clause", c->clause);
  put_yaml_field(out, "sentence", c->sentence);
  if (c->has_expectation) put_yaml_field(out, "expectation", adc_expectation_outcome_name(c->outcome));
  fprintf(out, "  duration_ms: %.3f\n", c->duration_ms);
  fputs("  ...\n", out);
}

static void put_point(FILE* out, size_t number, const struct adc_case_record* c) {
  enum adc_status status = c->status;
  bool fails_run = c->fails_run;
  bool excused = !fails_run && adc_status_fails_run(status);
  /* Case IDs hold neither '#' nor '\\', which TAP descriptions would have
   * to escape. */
  fprintf(out, "%s %zu - %s", fails_run || excused ? "not ok" : "ok", number, c->id);
  if (excused) {
    fputs(" # TODO ", out);
    if (c->has_expectation) {
      fprintf(out, "expected (%s): ", c->expectation.statuses);
      adc_put_one_line(out, c->expectation.reason, 200);
    } else {
      fprintf(out, "a SHOULD rule: %s does not fail the run", adc_status_name(status));
    }
  } else if (status == ADC_NOT_SUPPORTED || status == ADC_UNRESOLVED) {
    fprintf(out, " # SKIP %s: ", adc_status_name(status));
    adc_put_one_line(out, c->message, MESSAGE_BYTES);
  }
  fputc('\n', out);
  if (status != ADC_PASS || fails_run) put_diagnostics(out, c);
}

static void put_verdict(FILE* out, const struct adc_run_record* record) {
  fprintf(out, "# adc-conform: %s\n", record->headline);
  for (int role = 0; role < ADC_ROLE_COUNT; role++) {
    const struct adc_side_record* side = &record->sides[role];
    if (!side->tested) continue;
    fprintf(out, "# %s: %s: ", adc_role_name((enum adc_role)role), adc_side_verdict_words(side->verdict));
    adc_put_one_line(out, side->reason, sizeof(side->reason));
    fputc('\n', out);
  }
}

void adc_print_tap_report(FILE* out, const struct adc_run_record* record) {
  fprintf(out, "TAP version 14\n1..%zu\n", record->n_cases);
  for (size_t i = 0; i < record->n_cases; i++) put_point(out, i + 1, &record->cases[i]);
  if (record->interrupted_by != 0) {
    fprintf(out, "# the run was interrupted by %s; the cases it did not finish are unresolved\n",
            adc_signal_name(record->interrupted_by));
  }
  put_verdict(out, record);
  fflush(out);
}
