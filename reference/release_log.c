/* Release instrumentation for testing consumers (see reference_core.h). */
#include <stdlib.h>

#include "release_log.h"

struct ref_release_log {
  struct ref_release_record** records;
  int64_t n_records;
  int64_t records_capacity;
  struct ref_read_only_region* regions;
  int64_t n_regions;
  int64_t regions_capacity;
};

static void* grow(void* items, int64_t* capacity, int64_t needed, size_t item_size) {
  if (needed <= *capacity) return items;
  int64_t bigger = *capacity ? *capacity * 2 : 16;
  void* grown = realloc(items, (size_t)bigger * item_size);
  if (grown == NULL) abort(); /* instrumentation has no way to report */
  *capacity = bigger;
  return grown;
}

struct ref_release_log* ref_release_log_new(void) {
  return calloc(1, sizeof(struct ref_release_log));
}

void ref_release_log_free(struct ref_release_log* log) {
  if (log == NULL) return;
  for (int64_t i = 0; i < log->n_records; i++) free(log->records[i]);
  free(log->records);
  free(log->regions);
  free(log);
}

struct ref_release_record* ref_release_log_add(struct ref_release_log* log, void* payload,
                                               const void* home,
                                               struct ref_release_record* parent) {
  log->records = grow(log->records, &log->records_capacity, log->n_records + 1,
                      sizeof(*log->records));
  struct ref_release_record* record = calloc(1, sizeof(*record));
  if (record == NULL) abort();
  record->payload = payload;
  record->is_base = parent == NULL;
  record->home = home;
  record->parent = parent;
  log->records[log->n_records++] = record;
  return record;
}

void ref_release_log_add_region(struct ref_release_log* log, const void* start, size_t size) {
  log->regions = grow(log->regions, &log->regions_capacity, log->n_regions + 1,
                      sizeof(*log->regions));
  log->regions[log->n_regions].start = start;
  log->regions[log->n_regions].size = size;
  log->n_regions++;
}

void* ref_release_record_enter(struct ref_release_record* record, const void* structure) {
  record->release_calls++;
  if (record->payload == NULL) return NULL;
  /* A child released at the address its parent gave it, while the parent is
   * not releasing it, was released by the consumer in place.  A child moved
   * out first (spec: "Moving child arrays") lives at another address. */
  if (!record->is_base && structure == record->home && !record->parent->releasing) {
    record->released_in_place = true;
  }
  record->releasing = true;
  return record->payload;
}

void ref_release_record_leave(struct ref_release_record* record) {
  record->payload = NULL;
  record->releasing = false;
}

int ref_release_log_base_calls(const struct ref_release_log* log) {
  int calls = 0;
  for (int64_t i = 0; i < log->n_records; i++) {
    if (log->records[i]->is_base) calls += log->records[i]->release_calls;
  }
  return calls;
}

int ref_release_log_children_released_in_place(const struct ref_release_log* log) {
  int count = 0;
  for (int64_t i = 0; i < log->n_records; i++) count += log->records[i]->released_in_place;
  return count;
}

int64_t ref_release_log_read_only_regions(const struct ref_release_log* log,
                                          const struct ref_read_only_region** regions) {
  *regions = log->regions;
  return log->n_regions;
}
