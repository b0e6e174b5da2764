/* The merged report is the record of one unsharded run: the shards' cases
 * in the plan's order (runner/case_plan.c: device, then rule in catalogue
 * order, then fixture by name), judged and counted again over them
 * (outcome/record_of_report.h), the sides tested as the first shard's
 * environment says; every report writes it as it writes a run's.  An
 * interop matrix's shards merge into the matrix's record, each pair's
 * cases so (outcome/matrix_record.h).
 * What was merged is recorded under "merged_from" (report.schema.json). */
#include "commands/report_merge.h"

#include <stdlib.h>
#include <string.h>

#include "commands/report_merge_checks.h"
#include "outcome/record_of_report.h"
#include "report/matrix_report.h"
#include "report/report.h"
#include "rule_api/rule.h"

/* A case of some shard's report, with where the plan puts it. */
struct placed_case {
  const cJSON* item;     /* in its report's root */
  const cJSON* run_case; /* the run report's case: `item`, or a matrix case's "case" */
  size_t report;         /* index of its report */
  size_t device_rank;    /* in the run's environment.devices */
  size_t rule_rank;      /* in this adc-conform's rule catalogue */
  const char* fixture;
};

static const char* string_item(const cJSON* object, const char* key) {
  return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(object, key));
}

static int plan_order(const void* a, const void* b) {
  const struct placed_case* x = a;
  const struct placed_case* y = b;
  if (x->device_rank != y->device_rank) return x->device_rank < y->device_rank ? -1 : 1;
  if (x->rule_rank != y->rule_rank) return x->rule_rank < y->rule_rank ? -1 : 1;
  return strcmp(x->fixture, y->fixture);
}

/* The position of the case's device and rule; -1 with the reason when the
 * run lists no such device or the catalogue holds no such rule. */
static int place(const struct adc_read_report* report, const cJSON* devices, struct placed_case* placed,
                 struct adc_error* error) {
  const char* id = string_item(placed->item, "id");
  const char* device = string_item(placed->run_case, "device");
  const char* rule = string_item(placed->run_case, "rule");
  placed->fixture = string_item(placed->run_case, "fixture");
  size_t rank = 0;
  const cJSON* listed = NULL;
  cJSON_ArrayForEach(listed, devices) {
    const char* name = string_item(listed, "name");
    if (name != NULL && strcmp(name, device) == 0) break;
    rank++;
  }
  if (listed == NULL) {
    return adc_fail(error, "%s: case %s is on device '%s', which the run's environment.devices does not list",
                    report->path, id, device);
  }
  placed->device_rank = rank;
  for (placed->rule_rank = 0; placed->rule_rank < adc_rule_count(); placed->rule_rank++) {
    if (strcmp(adc_rule_at(placed->rule_rank)->id, rule) == 0) return 0;
  }
  return adc_fail(error, "%s: case %s is of rule '%s', which this adc-conform's catalogue does not hold",
                  report->path, id, rule);
}

/* Every case of every report, in plan order, each once: returns the array
 * (the caller frees it) and its length in `*n_cases`, or NULL with the
 * reason.  With `producer` (a matrix's reports), the cases of the pair of
 * `producer` and `consumer` alone, each placed by the run's case it holds;
 * NULL: every case of a run's reports. */
static struct placed_case* merge_cases(const struct adc_read_report* reports, size_t n, const char* producer,
                                       const char* consumer, size_t* n_cases, struct adc_error* error) {
  size_t total = 0;
  for (size_t r = 0; r < n; r++) total += (size_t)cJSON_GetArraySize(reports[r].cases);
  struct placed_case* placed = calloc(total + 1, sizeof(*placed));
  if (placed == NULL) {
    adc_fail(error, "out of memory");
    return NULL;
  }
  const cJSON* devices = cJSON_GetObjectItemCaseSensitive(reports[0].environment, "devices");
  size_t count = 0;
  for (size_t r = 0; r < n; r++) {
    const cJSON* item = NULL;
    cJSON_ArrayForEach(item, reports[r].cases) {
      const cJSON* run_case = item;
      if (producer != NULL) {
        if (strcmp(string_item(item, "producer"), producer) != 0 ||
            strcmp(string_item(item, "consumer"), consumer) != 0)
          continue;
        run_case = cJSON_GetObjectItemCaseSensitive(item, "case");
      }
      placed[count] = (struct placed_case){item, run_case, r, 0, 0, NULL};
      if (place(&reports[r], devices, &placed[count], error) != 0) {
        free(placed);
        return NULL;
      }
      count++;
    }
  }
  qsort(placed, count, sizeof(*placed), plan_order);
  /* A case ID says where the plan puts it: equal places are one case twice. */
  for (size_t i = 1; i < count; i++) {
    if (plan_order(&placed[i - 1], &placed[i]) != 0) continue;
    const struct placed_case* earlier = placed[i - 1].report < placed[i].report ? &placed[i - 1] : &placed[i];
    const struct placed_case* later = earlier == &placed[i] ? &placed[i - 1] : &placed[i];
    const char* id = string_item(later->item, "id");
    if (earlier->report == later->report) {
      adc_fail(error, "%s: case %s is in it twice", reports[later->report].path, id);
    } else {
      adc_fail(error, "%s: case %s is in %s too: the shards overlap", reports[later->report].path, id,
               reports[earlier->report].path);
    }
    free(placed);
    return NULL;
  }
  *n_cases = count;
  return placed;
}

static bool lists_entry(const cJSON* unmatched, const cJSON* entry) {
  const cJSON* other = NULL;
  cJSON_ArrayForEach(other, unmatched) {
    if (cJSON_Compare(other, entry, true)) return true;
  }
  return false;
}

/* The --expect entries that matched no case of the whole run: those that
 * matched none in any shard (a new array; NULL when the run had no
 * --expect). */
static cJSON* unmatched_in_every_shard(const struct adc_read_report* reports, size_t n) {
  const cJSON* first = cJSON_GetObjectItemCaseSensitive(reports[0].summary, "unmatched_expectations");
  if (!cJSON_IsArray(first)) return NULL;
  cJSON* unmatched = cJSON_CreateArray();
  const cJSON* entry = NULL;
  cJSON_ArrayForEach(entry, first) {
    bool everywhere = true;
    for (size_t r = 1; r < n && everywhere; r++) {
      everywhere =
          lists_entry(cJSON_GetObjectItemCaseSensitive(reports[r].summary, "unmatched_expectations"), entry);
    }
    if (everywhere) cJSON_AddItemToArray(unmatched, cJSON_Duplicate(entry, true));
  }
  return unmatched;
}

/* The command line of the unsharded run: the first shard's without --shard. */
static cJSON* unsharded_command_line(const struct adc_read_report* report) {
  cJSON* command_line = cJSON_CreateArray();
  for (int a = 0; a < report->argc; a++) {
    if (!report->shard.is_shard_argument[a])
      cJSON_AddItemToArray(command_line, cJSON_CreateString(report->argv[a]));
  }
  return command_line;
}

/* {"path", "shard_index", "shard_count", "command_line", "environment"}. */
static cJSON* merged_from_json(const struct adc_read_report* report) {
  cJSON* item = cJSON_CreateObject();
  cJSON_AddStringToObject(item, "path", report->path);
  cJSON_AddNumberToObject(item, "shard_index", report->shard.shard_index);
  cJSON_AddNumberToObject(item, "shard_count", report->shard.shard_count);
  cJSON_AddItemToObject(item, "command_line", cJSON_Duplicate(report->command_line, true));
  cJSON_AddItemToObject(item, "environment", cJSON_Duplicate(report->environment, true));
  return item;
}

static int by_shard_index(const void* a, const void* b) {
  return ((const struct adc_read_report*)a)->shard.shard_index -
         ((const struct adc_read_report*)b)->shard.shard_index;
}

/* Builds the merged record from checked reports, in shard order, which
 * it points into. */
static int assemble(const struct adc_read_report* reports, size_t n, struct adc_merged_report* out,
                    struct adc_error* error) {
  size_t n_cases = 0;
  struct placed_case* placed = merge_cases(reports, n, NULL, NULL, &n_cases, error);
  if (placed == NULL) return -1;
  struct adc_run_record* record = &out->record;
  if (adc_run_record_begin_for_report(record, n_cases, reports[0].environment,
                                      unsharded_command_line(&reports[0]), error) != 0) {
    free(placed);
    return -1;
  }
  for (size_t r = 0; r < n && record->interrupted_by == 0; r++)
    record->interrupted_by = reports[r].interrupted_by;
  for (size_t i = 0; i < n_cases; i++) {
    struct adc_case_record c;
    adc_case_record_of_json(placed[i].run_case, &c); /* report_read.c checked its keys */
    adc_run_record_add(record, &c);
  }
  free(placed);
  out->unmatched = unmatched_in_every_shard(reports, n);
  if (out->unmatched != NULL && adc_run_record_take_unmatched(record, out->unmatched, error) != 0) return -1;
  adc_run_record_finish(record);
  out->merged_from = cJSON_CreateArray();
  for (size_t r = 0; r < n; r++) cJSON_AddItemToArray(out->merged_from, merged_from_json(&reports[r]));
  out->shard_count = reports[0].shard.shard_count;
  return 0;
}

/* ---- An interop matrix's shards ---------------------------------------- */

/* The library named `name` among the merged matrix's; its index, or
 * ADC_MATRIX_MAX_LIBRARIES when none is. */
static size_t library_named(const struct adc_matrix_record* matrix, const char* name) {
  for (size_t l = 0; l < matrix->n_libraries; l++) {
    if (name != NULL && strcmp(matrix->libraries[l].name, name) == 0) return l;
  }
  return ADC_MATRIX_MAX_LIBRARIES;
}

/* The libraries and devices of the first shard's "matrix", which every
 * shard of one command shares; -1 with the reason when malformed. */
static int take_matrix_frame(const struct adc_read_report* first, struct adc_matrix_record* matrix,
                             struct adc_error* error) {
  const cJSON* library = NULL;
  cJSON_ArrayForEach(library, cJSON_GetObjectItemCaseSensitive(first->matrix, "libraries")) {
    const char* name = string_item(library, "name");
    const char* spec = string_item(library, "spec");
    if (name == NULL || spec == NULL || matrix->n_libraries == ADC_MATRIX_MAX_LIBRARIES)
      return adc_fail(error, "%s: its matrix.libraries is malformed", first->path);
    bool is_reference = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(library, "reference"));
    if (is_reference) matrix->reference = matrix->n_libraries;
    matrix->libraries[matrix->n_libraries++] = (struct adc_matrix_library){
        .name = name,
        .spec = spec,
        .is_reference = is_reference,
        .is_producer = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(library, "producer")),
        .is_consumer = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(library, "consumer")),
    };
  }
  const cJSON* device = NULL;
  cJSON_ArrayForEach(device, cJSON_GetObjectItemCaseSensitive(first->matrix, "devices")) {
    if (!cJSON_IsString(device) || matrix->n_devices == ADC_RECORD_MAX_DEVICES)
      return adc_fail(error, "%s: its matrix.devices is malformed", first->path);
    matrix->devices[matrix->n_devices++] = device->valuestring;
  }
  return 0;
}

/* Pair (producer, consumer)'s record, the matrix's next pair. */
static int assemble_pair(const struct adc_read_report* reports, size_t n, struct adc_matrix_record* matrix,
                         size_t producer, size_t consumer, struct adc_error* error) {
  size_t n_cases = 0;
  struct placed_case* placed = merge_cases(reports, n, matrix->libraries[producer].name,
                                           matrix->libraries[consumer].name, &n_cases, error);
  if (placed == NULL) return -1;
  struct adc_matrix_pair* pair = &matrix->pairs[matrix->n_pairs];
  *pair = (struct adc_matrix_pair){.producer = producer, .consumer = consumer};
  if (adc_run_record_begin_for_report(&pair->record, n_cases, reports[0].environment,
                                      unsharded_command_line(&reports[0]), error) != 0) {
    free(placed);
    return -1;
  }
  matrix->n_pairs++;
  for (size_t i = 0; i < n_cases; i++) {
    struct adc_case_record c;
    adc_case_record_of_json(placed[i].run_case, &c);
    c.id = string_item(placed[i].item, "id"); /* the pair's ID, as the matrix's own record holds it */
    adc_run_record_add(&pair->record, &c);
  }
  free(placed);
  adc_run_record_finish(&pair->record);
  return 0;
}

/* The whole matrix from checked shards, in shard order: its pairs in the
 * order of the first shard's cells (the order the matrix ran them). */
static int assemble_matrix(const struct adc_read_report* reports, size_t n, struct adc_merged_report* out,
                           struct adc_error* error) {
  struct adc_matrix_record* matrix = &out->matrix;
  out->is_matrix = true;
  for (size_t r = 0; r < n; r++) {
    if (reports[r].matrix == NULL)
      return adc_fail(error, "%s: a run's report, but %s is a matrix's: merge one kind", reports[r].path,
                      reports[0].path);
  }
  if (take_matrix_frame(&reports[0], matrix, error) != 0) return -1;
  matrix->pairs = calloc(matrix->n_libraries * matrix->n_libraries + 1, sizeof(*matrix->pairs));
  if (matrix->pairs == NULL) return adc_fail(error, "out of memory");
  const cJSON* cell = NULL;
  cJSON_ArrayForEach(cell, cJSON_GetObjectItemCaseSensitive(reports[0].matrix, "cells")) {
    size_t producer = library_named(matrix, string_item(cell, "producer"));
    size_t consumer = library_named(matrix, string_item(cell, "consumer"));
    if (producer == ADC_MATRIX_MAX_LIBRARIES || consumer == ADC_MATRIX_MAX_LIBRARIES)
      return adc_fail(error, "%s: a cell of its matrix names a library it does not list", reports[0].path);
    if (adc_matrix_pair_of(matrix, producer, consumer) != NULL) continue;
    if (assemble_pair(reports, n, matrix, producer, consumer, error) != 0) return -1;
  }
  for (size_t r = 0; r < n; r++) {
    double wall = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(reports[r].summary, "wall_seconds"));
    if (wall > matrix->wall_seconds)
      matrix->wall_seconds = wall; /* the shards ran side by side, or as long */
    if (matrix->interrupted_by == 0) matrix->interrupted_by = reports[r].interrupted_by;
  }
  adc_matrix_record_finish(matrix);
  out->merged_from = cJSON_CreateArray();
  for (size_t r = 0; r < n; r++) cJSON_AddItemToArray(out->merged_from, merged_from_json(&reports[r]));
  out->shard_count = reports[0].shard.shard_count;
  return 0;
}

int adc_merge_reports(const char* const* paths, size_t n, struct adc_merged_report* out,
                      struct adc_error* error) {
  memset(out, 0, sizeof(*out));
  if (n == 0) return adc_fail(error, "no report to merge");
  struct adc_read_report* reports = calloc(n, sizeof(*reports));
  if (reports == NULL) return adc_fail(error, "out of memory");
  out->reports = reports;
  int merged = 0;
  while (out->n_reports < n && merged == 0) {
    merged = adc_read_report(paths[out->n_reports], &reports[out->n_reports], error);
    if (merged == 0) out->n_reports++;
  }
  if (merged == 0 &&
      (adc_check_same_suite(reports, n, error) != 0 || adc_check_same_command(reports, n, error) != 0 ||
       adc_check_shards(reports, n, error) != 0)) {
    merged = -1;
  }
  if (merged == 0) {
    qsort(reports, n, sizeof(*reports), by_shard_index);
    merged = reports[0].matrix != NULL ? assemble_matrix(reports, n, out, error)
                                       : assemble(reports, n, out, error);
  }
  if (merged != 0) adc_merged_report_free(out);
  return merged;
}

void adc_merged_report_free(struct adc_merged_report* merged) {
  adc_run_record_free(&merged->record);
  adc_matrix_record_free(&merged->matrix);
  cJSON_Delete(merged->merged_from);
  cJSON_Delete(merged->unmatched);
  for (size_t r = 0; r < merged->n_reports; r++) adc_read_report_free(&merged->reports[r]);
  free(merged->reports);
  memset(merged, 0, sizeof(*merged));
}

cJSON* adc_merged_report_json(const struct adc_merged_report* merged) {
  cJSON* root = merged->is_matrix ? adc_matrix_json(&merged->matrix) : adc_report_json(&merged->record);
  cJSON_AddItemToObject(root, "merged_from", cJSON_Duplicate(merged->merged_from, true));
  return root;
}
