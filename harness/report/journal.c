#include "report/journal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/report.h"
#include "support/version.h"

struct adc_journal {
  FILE* file;
  char path[4200];
};

static void write_line(struct adc_journal* journal, cJSON* object) {
  char* text = cJSON_PrintUnformatted(object);
  if (text != NULL) {
    fputs(text, journal->file);
    fputc('\n', journal->file);
    /* In the kernel's hands at once: a harness killed next loses nothing. */
    fflush(journal->file);
  }
  free(text);
  cJSON_Delete(object);
}

struct adc_journal* adc_journal_open(const char* report_path, const struct adc_session* session,
                                     size_t n_cases, struct adc_error* error) {
  struct adc_journal* journal = calloc(1, sizeof(*journal));
  if (journal == NULL) {
    adc_fail(error, "out of memory");
    return NULL;
  }
  snprintf(journal->path, sizeof(journal->path), "%s.journal", report_path);
  journal->file = fopen(journal->path, "w");
  if (journal->file == NULL) {
    adc_fail(error, "cannot write the journal '%s': %s", journal->path, strerror(errno));
    free(journal);
    return NULL;
  }
  cJSON* header = cJSON_CreateObject();
  cJSON_AddStringToObject(header, "journal_of", "adc-conform " ADC_VERSION);
  cJSON_AddNumberToObject(header, "schema_version", ADC_REPORT_SCHEMA_VERSION);
  cJSON_AddItemToObject(header, "suite", adc_suite_json());
  cJSON_AddStringToObject(header, "device", session->device_option);
  cJSON_AddNumberToObject(header, "planned_cases", (double)n_cases);
  /* Each case line carries its entry: the journal reads as the report does. */
  if (session->expectations != NULL)
    cJSON_AddStringToObject(header, "expectations", session->expectations->path);
  write_line(journal, header);
  return journal;
}

void adc_journal_add(struct adc_journal* journal, const struct adc_case_record* c) {
  write_line(journal, adc_case_json(c));
}

void adc_journal_close(struct adc_journal* journal, bool report_written) {
  if (journal == NULL) return;
  fclose(journal->file);
  if (report_written) unlink(journal->path);
  free(journal);
}
