/* The feed's records: what each release callback was called on, and when. */
#include <stdlib.h>

#include "consumer_feed/feed_records.h"

/* Instrumentation has no way to report running out of memory. */
static void* grow(void* items, size_t* capacity, size_t needed, size_t item_size) {
  if (needed <= *capacity) return items;
  size_t bigger = *capacity ? *capacity * 2 : 16;
  void* grown = realloc(items, bigger * item_size);
  if (grown == NULL) abort();
  *capacity = bigger;
  return grown;
}

void feed_records_free(struct adc_feed* feed) {
  for (size_t i = 0; i < feed->n_records; i++) free(feed->records[i]);
  free(feed->records);
  free(feed->regions);
}

struct feed_record* feed_record_add(struct adc_feed* feed, void* payload, const void* home,
                                    struct feed_record* parent) {
  feed->records = grow(feed->records, &feed->records_capacity, feed->n_records + 1, sizeof(*feed->records));
  struct feed_record* record = calloc(1, sizeof(*record));
  if (record == NULL) abort();
  *record =
      (struct feed_record){.payload = payload, .is_base = parent == NULL, .home = home, .parent = parent};
  feed->records[feed->n_records++] = record;
  return record;
}

void feed_region_add(struct adc_feed* feed, const void* start, size_t size) {
  feed->regions = grow(feed->regions, &feed->regions_capacity, feed->n_regions + 1, sizeof(*feed->regions));
  feed->regions[feed->n_regions++] = (struct adc_region){start, size};
}

void* feed_record_enter(struct feed_record* record, const void* structure) {
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

void feed_record_leave(struct feed_record* record) {
  record->payload = NULL;
  record->releasing = false;
}

int adc_feed_base_release_calls(const struct adc_feed* feed) {
  int calls = 0;
  for (size_t i = 0; i < feed->n_records; i++) {
    if (feed->records[i]->is_base) calls += feed->records[i]->release_calls;
  }
  return calls;
}

int adc_feed_bases_exported(const struct adc_feed* feed) {
  int count = 0;
  for (size_t i = 0; i < feed->n_records; i++) count += feed->records[i]->is_base;
  return count;
}

int adc_feed_bases_never_released(const struct adc_feed* feed) {
  int count = 0;
  for (size_t i = 0; i < feed->n_records; i++) {
    count += feed->records[i]->is_base && feed->records[i]->release_calls == 0;
  }
  return count;
}

int adc_feed_bases_released_more_than_once(const struct adc_feed* feed) {
  int count = 0;
  for (size_t i = 0; i < feed->n_records; i++) {
    count += feed->records[i]->is_base && feed->records[i]->release_calls > 1;
  }
  return count;
}

int adc_feed_children_released_in_place(const struct adc_feed* feed) {
  int count = 0;
  for (size_t i = 0; i < feed->n_records; i++) count += feed->records[i]->released_in_place;
  return count;
}

size_t adc_feed_read_only_regions(const struct adc_feed* feed, const struct adc_region** regions) {
  *regions = feed->regions;
  return feed->n_regions;
}
