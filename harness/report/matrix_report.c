#include "report/matrix_report.h"

#include <string.h>

#include "report/console_style.h"
#include "report/json_file.h"
#include "report/report.h"

/* Columns of a cell on the console: "FAIL 118/120". */
#define CELL_WIDTH 14

static size_t name_width(const struct adc_matrix_record* matrix) {
  size_t width = strlen("producer");
  for (size_t l = 0; l < matrix->n_libraries; l++) {
    size_t length = strlen(matrix->libraries[l].name);
    if (length > width) width = length;
  }
  return width;
}

static void print_cell(FILE* out, const struct adc_matrix_pair* pair, const char* device, bool colour) {
  if (pair == NULL) {
    fprintf(out, "  %-*s", CELL_WIDTH, "-");
    return;
  }
  struct adc_matrix_cell cell = adc_matrix_cell_of(pair, device);
  if (cell.cases == 0) {
    fprintf(out, "  %-*s", CELL_WIDTH, "no case");
    return;
  }
  char counts[32];
  snprintf(counts, sizeof(counts), " %zu/%zu", cell.counts[ADC_PASS], cell.cases);
  fputs("  ", out);
  adc_put_status_label(out, cell.worst, 0, colour);
  int used = (int)strlen(adc_status_label(cell.worst)) + (int)strlen(counts);
  fprintf(out, "%s%*s", counts, used < CELL_WIDTH ? CELL_WIDTH - used : 0, "");
}

static void print_grid(FILE* out, const struct adc_matrix_record* matrix, const char* device, bool colour) {
  int width = (int)name_width(matrix);
  fprintf(out, "\n%s: a row per producer, a column per consumer; a cell: its worst status, passed/cases\n",
          device);
  fprintf(out, "%-*s", width, "");
  for (size_t c = 0; c < matrix->n_libraries; c++) {
    if (matrix->libraries[c].is_consumer) fprintf(out, "  %-*s", CELL_WIDTH, matrix->libraries[c].name);
  }
  fputc('\n', out);
  for (size_t p = 0; p < matrix->n_libraries; p++) {
    if (!matrix->libraries[p].is_producer) continue;
    fprintf(out, "%-*s", width, matrix->libraries[p].name);
    for (size_t c = 0; c < matrix->n_libraries; c++) {
      if (matrix->libraries[c].is_consumer) print_cell(out, adc_matrix_pair_of(matrix, p, c), device, colour);
    }
    fputc('\n', out);
  }
}

/* One line per case that did not pass: its ID, status, the side at fault
 * and what shows it, and its message. */
static void print_cases(FILE* out, const struct adc_matrix_record* matrix, bool verbose, bool colour) {
  size_t listed = 0;
  size_t left = 0;
  for (size_t p = 0; p < matrix->n_pairs; p++) {
    const struct adc_matrix_pair* pair = &matrix->pairs[p];
    for (size_t k = 0; k < pair->record.n_cases; k++) {
      const struct adc_case_record* c = &pair->record.cases[k];
      /* A decline found nothing wrong: the grid counts it. */
      if (adc_status_found_nothing_wrong(c->status) && !c->fails_run) continue;
      if (!verbose && listed == ADC_MATRIX_CONSOLE_CASES) {
        left++;
        continue;
      }
      if (listed++ == 0) fputs("\nCases that found something wrong, with the side at fault:\n", out);
      const char* shown_by = NULL;
      enum adc_matrix_blame blame = adc_matrix_blame_of(matrix, pair, c, &shown_by);
      fputs("  ", out);
      adc_put_status_label(out, c->status, 7, colour);
      fprintf(out, " %s", c->id);
      if (blame != ADC_BLAME_NONE) {
        fprintf(out, " [%s%s%s]", adc_matrix_blame_name(blame), shown_by != NULL ? ", shown by " : "",
                shown_by != NULL ? shown_by : "");
      }
      if (c->has_expectation) fprintf(out, " (%s)", adc_expectation_outcome_name(c->outcome));
      fputs("\n      ", out);
      adc_put_one_line(out, c->message, 300);
      fputc('\n', out);
    }
  }
  if (left > 0)
    fprintf(out, "  ... and %zu more (--verbose lists them all; --report-json keeps them)\n", left);
}

void adc_print_matrix_console(FILE* out, const struct adc_matrix_record* matrix, bool verbose, bool colour) {
  fprintf(out, "Interop matrix: %zu libraries, %zu pairs, %zu cases\n", matrix->n_libraries, matrix->n_pairs,
          matrix->cases);
  for (size_t d = 0; d < matrix->n_devices; d++) print_grid(out, matrix, matrix->devices[d], colour);
  print_cases(out, matrix, verbose, colour);
  fprintf(out, "\n%zu cases", matrix->cases);
  for (int s = 0; s < ADC_STATUS_COUNT; s++) {
    if (matrix->counts[s] > 0)
      fprintf(out, ", %zu %s", matrix->counts[s], adc_status_name((enum adc_status)s));
  }
  fprintf(out, "; %zu not as expected\n", matrix->failing_run_cases);
}

static cJSON* counts_json(const size_t counts[ADC_STATUS_COUNT]) {
  cJSON* object = cJSON_CreateObject();
  for (int s = 0; s < ADC_STATUS_COUNT; s++)
    cJSON_AddNumberToObject(object, adc_status_name((enum adc_status)s), (double)counts[s]);
  return object;
}

static cJSON* libraries_json(const struct adc_matrix_record* matrix) {
  cJSON* array = cJSON_CreateArray();
  for (size_t l = 0; l < matrix->n_libraries; l++) {
    const struct adc_matrix_library* library = &matrix->libraries[l];
    cJSON* item = cJSON_CreateObject();
    cJSON_AddStringToObject(item, "name", library->name);
    cJSON_AddStringToObject(item, "spec", library->spec);
    cJSON_AddBoolToObject(item, "reference", library->is_reference);
    cJSON_AddBoolToObject(item, "producer", library->is_producer);
    cJSON_AddBoolToObject(item, "consumer", library->is_consumer);
    cJSON_AddItemToArray(array, item);
  }
  return array;
}

static cJSON* cells_json(const struct adc_matrix_record* matrix) {
  cJSON* array = cJSON_CreateArray();
  for (size_t p = 0; p < matrix->n_pairs; p++) {
    const struct adc_matrix_pair* pair = &matrix->pairs[p];
    for (size_t d = 0; d < matrix->n_devices; d++) {
      struct adc_matrix_cell cell = adc_matrix_cell_of(pair, matrix->devices[d]);
      cJSON* item = cJSON_CreateObject();
      cJSON_AddStringToObject(item, "producer", matrix->libraries[pair->producer].name);
      cJSON_AddStringToObject(item, "consumer", matrix->libraries[pair->consumer].name);
      cJSON_AddStringToObject(item, "device", matrix->devices[d]);
      cJSON_AddStringToObject(item, "worst", adc_status_name(cell.worst));
      cJSON_AddNumberToObject(item, "cases", (double)cell.cases);
      cJSON_AddItemToObject(item, "counts", counts_json(cell.counts));
      cJSON_AddItemToArray(array, item);
    }
  }
  return array;
}

/* Each case as the run report writes it (report.schema.json's case, its
 * "id" the pair's own run's: DEVICE/RULE/FIXTURE), with the pair's ID
 * beside it (PRODUCER>CONSUMER/DEVICE/RULE/FIXTURE, which --expect and
 * --filter read), both sides and the side at fault. */
static cJSON* cases_json(const struct adc_matrix_record* matrix) {
  cJSON* array = cJSON_CreateArray();
  for (size_t p = 0; p < matrix->n_pairs; p++) {
    const struct adc_matrix_pair* pair = &matrix->pairs[p];
    for (size_t k = 0; k < pair->record.n_cases; k++) {
      const struct adc_case_record* c = &pair->record.cases[k];
      cJSON* item = cJSON_CreateObject();
      cJSON_AddStringToObject(item, "id", c->id);
      cJSON_AddStringToObject(item, "producer", matrix->libraries[pair->producer].name);
      cJSON_AddStringToObject(item, "consumer", matrix->libraries[pair->consumer].name);
      const char* shown_by = NULL;
      enum adc_matrix_blame blame = adc_matrix_blame_of(matrix, pair, c, &shown_by);
      cJSON_AddStringToObject(item, "blame", adc_matrix_blame_name(blame));
      if (shown_by != NULL) cJSON_AddStringToObject(item, "blame_shown_by", shown_by);
      cJSON* run_case = adc_case_json(c);
      const char* slash = strchr(c->id, '/');
      cJSON_ReplaceItemInObject(run_case, "id", cJSON_CreateString(slash != NULL ? slash + 1 : c->id));
      cJSON_AddItemToObject(item, "case", run_case);
      cJSON_AddItemToArray(array, item);
    }
  }
  return array;
}

cJSON* adc_matrix_json(const struct adc_matrix_record* matrix) {
  cJSON* root = cJSON_CreateObject();
  cJSON_AddNumberToObject(root, "schema_version", ADC_REPORT_SCHEMA_VERSION);
  cJSON_AddItemToObject(root, "suite", adc_suite_json());
  if (matrix->n_pairs > 0) {
    /* Every pair's run shares the command line and the machine. */
    const struct adc_run_record* first = &matrix->pairs[0].record;
    cJSON_AddItemToObject(root, "command_line", cJSON_Duplicate(first->command_line, true));
    cJSON_AddItemToObject(root, "environment", cJSON_Duplicate(first->environment, true));
  }
  cJSON* grid = cJSON_AddObjectToObject(root, "matrix");
  cJSON_AddItemToObject(grid, "libraries", libraries_json(matrix));
  cJSON* devices = cJSON_AddArrayToObject(grid, "devices");
  for (size_t d = 0; d < matrix->n_devices; d++)
    cJSON_AddItemToArray(devices, cJSON_CreateString(matrix->devices[d]));
  cJSON_AddItemToObject(grid, "cells", cells_json(matrix));
  cJSON_AddItemToObject(root, "cases", cases_json(matrix));
  cJSON* summary = cJSON_AddObjectToObject(root, "summary");
  cJSON_AddNumberToObject(summary, "cases", (double)matrix->cases);
  cJSON_AddItemToObject(summary, "counts", counts_json(matrix->counts));
  cJSON_AddNumberToObject(summary, "failing_run_cases", (double)matrix->failing_run_cases);
  cJSON_AddNumberToObject(summary, "wall_seconds", matrix->wall_seconds);
  if (matrix->interrupted_by != 0)
    cJSON_AddStringToObject(summary, "interrupted_by", adc_signal_name(matrix->interrupted_by));
  cJSON_AddNumberToObject(summary, "exit_status", matrix->exit_status);
  return root;
}

int adc_write_matrix_json(const char* path, const struct adc_matrix_record* matrix, struct adc_error* error) {
  cJSON* root = adc_matrix_json(matrix);
  int written = adc_write_json_file(path, root, error);
  cJSON_Delete(root);
  return written;
}
