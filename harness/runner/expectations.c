#include "runner/expectations.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char blanks[] = " \t\r\n";

/* The status names an entry may give: every one but pass, which needs no
 * entry. */
static void list_shortfalls(char* text, size_t size) {
  text[0] = '\0';
  for (int s = 0; s < ADC_STATUS_COUNT; s++) {
    if (s == ADC_PASS) continue;
    size_t used = strlen(text);
    snprintf(text + used, size - used, "%s%s", used ? ", " : "", adc_status_name((enum adc_status)s));
  }
}

/* The status field: one name, or alternatives joined by '|'. */
static int parse_statuses(const char* field, const char* path, int line, const char* known,
                          struct adc_expectation* entry, struct adc_error* error) {
  entry->statuses = 0;
  int named = 0;
  for (const char* name = field;; name++) {
    size_t length = strcspn(name, "|");
    char one[32];
    snprintf(one, sizeof(one), "%.*s", (int)(length < sizeof(one) ? length : sizeof(one) - 1), name);
    enum adc_status status;
    if (!adc_status_from_name(one, &status) || length >= sizeof(one)) {
      return adc_fail(error, "%s:%d: unknown status '%.*s' (known: %s)", path, line, (int)length, name,
                      known);
    }
    if (named++ == 0) entry->status = status;
    entry->statuses |= 1u << status;
    name += length;
    if (*name == '\0') break;
  }
  if (entry->statuses == 1u << ADC_PASS) {
    return adc_fail(error,
                    "%s:%d: 'pass' is not an expectation: a case expected to pass needs no entry (known: %s)",
                    path, line, known);
  }
  entry->statuses_text = strdup(field);
  return entry->statuses_text == NULL ? adc_fail(error, "out of memory") : 0;
}

/* Parses one line that is neither blank nor a comment into `entry`. */
static int parse_entry(char* text, const char* path, int line, struct adc_expectation* entry,
                       struct adc_error* error) {
  char* glob = text + strspn(text, blanks);
  char* status = glob + strcspn(glob, blanks);
  if (*status != '\0') *status++ = '\0';
  status += strspn(status, blanks);
  char* reason = status + strcspn(status, blanks);
  if (*reason != '\0') *reason++ = '\0';
  reason += strspn(reason, blanks);
  size_t length = strlen(reason);
  while (length > 0 && strchr(blanks, reason[length - 1]) != NULL) reason[--length] = '\0';

  char known[128];
  list_shortfalls(known, sizeof(known));
  if (*status == '\0') {
    return adc_fail(error, "%s:%d: '%s' has no status (write: case-glob status reason; status: %s)", path,
                    line, glob, known);
  }
  if (parse_statuses(status, path, line, known, entry, error) != 0) return -1;
  if (*reason == '\0') {
    return adc_fail(error, "%s:%d: '%s %s' has no reason (write: case-glob status reason)", path, line, glob,
                    status);
  }
  entry->glob = strdup(glob);
  entry->reason = strdup(reason);
  entry->line = line;
  entry->matched_cases = 0;
  if (entry->glob == NULL || entry->reason == NULL) return adc_fail(error, "out of memory");
  return 0;
}

static int add_entry(struct adc_expectations* out, char* text, const char* path, int line,
                     struct adc_error* error) {
  struct adc_expectation* grown = realloc(out->entries, (out->n_entries + 1) * sizeof(*grown));
  if (grown == NULL) return adc_fail(error, "out of memory");
  out->entries = grown;
  struct adc_expectation* entry = &out->entries[out->n_entries];
  memset(entry, 0, sizeof(*entry));
  out->n_entries++; /* counted at once, so that free() finds what parse_entry kept */
  return parse_entry(text, path, line, entry, error);
}

int adc_expectations_read(const char* path, struct adc_expectations* out, struct adc_error* error) {
  memset(out, 0, sizeof(*out));
  FILE* f = fopen(path, "r");
  if (f == NULL) return adc_fail(error, "cannot read the expectations file '%s': %s", path, strerror(errno));
  out->path = strdup(path);
  char* text = NULL;
  size_t capacity = 0;
  int line = 0;
  int status = out->path == NULL ? adc_fail(error, "out of memory") : 0;
  while (status == 0 && getline(&text, &capacity, f) != -1) {
    line++;
    const char* start = text + strspn(text, blanks);
    if (*start == '\0' || *start == '#') continue;
    status = add_entry(out, text, path, line, error);
  }
  if (status == 0 && ferror(f)) {
    status = adc_fail(error, "cannot read the expectations file '%s' after line %d: %s", path, line,
                      strerror(errno));
  }
  free(text);
  fclose(f);
  if (status != 0) adc_expectations_free(out);
  return status;
}

void adc_expectations_free(struct adc_expectations* expectations) {
  for (size_t i = 0; i < expectations->n_entries; i++) {
    free(expectations->entries[i].glob);
    free(expectations->entries[i].reason);
    free(expectations->entries[i].statuses_text);
  }
  free(expectations->entries);
  free(expectations->path);
  memset(expectations, 0, sizeof(*expectations));
}

enum adc_expectation_outcome adc_expectation_outcome(const struct adc_expectation* expectation,
                                                     enum adc_status status) {
  if (expectation->statuses & (1u << status)) return ADC_EXPECTED_FAIL;
  return status == ADC_PASS ? ADC_UNEXPECTED_PASS : ADC_UNEXPECTED_STATUS;
}

const char* adc_expectation_outcome_name(enum adc_expectation_outcome outcome) {
  static const char* const names[ADC_OUTCOME_COUNT] = {"expected_fail", "unexpected_pass",
                                                       "unexpected_status"};
  return (unsigned)outcome < ADC_OUTCOME_COUNT ? names[outcome] : "unknown";
}
