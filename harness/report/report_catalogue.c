/* The rule catalogue as --list-rules prints it.  The Markdown form is the
 * table of CONFORMANCE.md, row for row: tests/test_catalogue.c checks that
 * the document carries exactly these rows, so the code stays the one source
 * of every rule's ID, role, severity, reach, needs, sentence and method.
 * The JSON form carries the same fields for tooling:
 *   [{"id", "role", "severity", "clause", "sentence", "method",
 *     "devices" (null: every device), "fixtures" (null: every fixture),
 *     "needs": ["ExportBatchFromJson", ...], "needs_read_only_memory",
 *     "judges_python_objects", "judges_a_pair", and for a rule judging a
 *     pair "producer_needs" (its "needs" are the consumer's)}] */
#include <stdlib.h>

#include "report/report.h"

const char* adc_role_name(enum adc_role role) {
  return role == ADC_ROLE_PRODUCER ? "producer" : "consumer";
}

const char* adc_severity_name(enum adc_severity severity) {
  return severity == ADC_MUST ? "MUST" : "SHOULD";
}

/* Text inside a table cell: a '|' would end the cell. */
static void put_cell_text(FILE* out, const char* text) {
  for (const char* p = text; *p; p++) {
    if (*p == '|') fputc('\\', out);
    fputc(*p, out);
  }
}

static void put_reach(FILE* out, const struct adc_rule* rule) {
  if (rule->judges_python_objects) fputs("Python libraries (`python:MODULE:FACTORY`) only, ", out);
  if (rule->judges_a_pair) fputs("pairs of libraries (`adc-conform matrix`) only, ", out);
  if (rule->devices == NULL) {
    fputs("every device", out);
  } else {
    fputs("devices ", out);
    put_cell_text(out, rule->devices->description);
  }
  if (rule->fixtures == NULL) {
    fputs(adc_rule_judges_batches(rule) ? ", every fixture with a batch" : ", every fixture", out);
  } else {
    fputs(", fixtures with ", out);
    put_cell_text(out, rule->fixtures->description);
  }
}

/* The entry points of `needs`, after `separator`; the separator next. */
static const char* put_entry_points(FILE* out, adc_entry_point_set needs, const char* separator) {
  for (int i = 0; i < ADC_EP_COUNT; i++) {
    if ((needs & ADC_ENTRY_POINT_BIT(i)) == 0) continue;
    fprintf(out, "%s`%s`", separator, adc_entry_point_name((enum adc_entry_point)i));
    separator = ", ";
  }
  return separator;
}

static void put_needs(FILE* out, const struct adc_rule* rule) {
  const char* separator = "";
  if (rule->judges_a_pair) {
    /* A pair's two libraries each need their own. */
    fputs("the producer: ", out);
    put_entry_points(out, rule->producer_needs, "");
    fputs("; the consumer: ", out);
  }
  separator = put_entry_points(out, rule->needs, separator);
  if (rule->needs_read_only_memory) fprintf(out, "%sread-only device memory", separator);
}

static void put_markdown_row(FILE* out, const struct adc_rule* rule) {
  fprintf(out, "| `%s` | %s | %s | ", rule->id, adc_role_name(rule->role), adc_severity_name(rule->severity));
  put_reach(out, rule);
  fputs(" | ", out);
  put_needs(out, rule);
  fputs(" | *", out);
  put_cell_text(out, rule->clause);
  fputs("*: \"", out);
  put_cell_text(out, rule->sentence);
  fputs("\" | ", out);
  put_cell_text(out, rule->method);
  fputs(" |\n", out);
}

static cJSON* rule_json(const struct adc_rule* rule) {
  cJSON* item = cJSON_CreateObject();
  cJSON_AddStringToObject(item, "id", rule->id);
  cJSON_AddStringToObject(item, "role", adc_role_name(rule->role));
  cJSON_AddStringToObject(item, "severity", adc_severity_name(rule->severity));
  cJSON_AddStringToObject(item, "clause", rule->clause);
  cJSON_AddStringToObject(item, "sentence", rule->sentence);
  cJSON_AddStringToObject(item, "method", rule->method);
  /* The descriptions read after "devices" and "fixtures with". */
  if (rule->devices != NULL) {
    cJSON_AddStringToObject(item, "devices", rule->devices->description);
  } else {
    cJSON_AddNullToObject(item, "devices");
  }
  if (rule->fixtures != NULL) {
    cJSON_AddStringToObject(item, "fixtures", rule->fixtures->description);
  } else {
    cJSON_AddNullToObject(item, "fixtures");
  }
  cJSON* needs = cJSON_AddArrayToObject(item, "needs");
  for (int i = 0; i < ADC_EP_COUNT; i++) {
    if ((rule->needs & ADC_ENTRY_POINT_BIT(i)) == 0) continue;
    cJSON_AddItemToArray(needs, cJSON_CreateString(adc_entry_point_name((enum adc_entry_point)i)));
  }
  cJSON_AddBoolToObject(item, "needs_read_only_memory", rule->needs_read_only_memory);
  cJSON_AddBoolToObject(item, "judges_python_objects", rule->judges_python_objects);
  cJSON_AddBoolToObject(item, "judges_a_pair", rule->judges_a_pair);
  if (rule->judges_a_pair) {
    cJSON* producer_needs = cJSON_AddArrayToObject(item, "producer_needs");
    for (int i = 0; i < ADC_EP_COUNT; i++) {
      if ((rule->producer_needs & ADC_ENTRY_POINT_BIT(i)) == 0) continue;
      cJSON_AddItemToArray(producer_needs, cJSON_CreateString(adc_entry_point_name((enum adc_entry_point)i)));
    }
  }
  return item;
}

static void print_json_catalogue(FILE* out) {
  cJSON* rules = cJSON_CreateArray();
  for (size_t r = 0; r < adc_rule_count(); r++) cJSON_AddItemToArray(rules, rule_json(adc_rule_at(r)));
  char* text = cJSON_Print(rules);
  cJSON_Delete(rules);
  if (text != NULL) fprintf(out, "%s\n", text);
  free(text);
}

void adc_print_rule_catalogue(FILE* out, enum adc_catalogue_format format) {
  if (format == ADC_CATALOGUE_JSON) {
    print_json_catalogue(out);
    return;
  }
  if (format == ADC_CATALOGUE_MARKDOWN) {
    fputs(
        "| Rule ID | Role | Severity | Runs on | Needs | Spec clause and sentence | How the harness tests it "
        "|\n"
        "|---|---|---|---|---|---|---|\n",
        out);
  }
  for (size_t r = 0; r < adc_rule_count(); r++) {
    const struct adc_rule* rule = adc_rule_at(r);
    if (format == ADC_CATALOGUE_MARKDOWN) {
      put_markdown_row(out, rule);
    } else {
      fprintf(out, "%s\n", rule->id);
    }
  }
}
