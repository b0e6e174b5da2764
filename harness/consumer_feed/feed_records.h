/* Internal to the feed: the feed itself and the record kept for every
 * structure it exports. */
#ifndef ADC_FEED_RECORDS_H
#define ADC_FEED_RECORDS_H

#include "consumer_feed/consumer_feed.h"

/* One exported structure.  The record, unlike the structure's payload,
 * lives until the feed is freed, so a second release call finds it intact. */
struct feed_record {
  void* payload; /* the structure's private data; NULL once released */
  int release_calls;
  bool is_base;
  const void* home; /* children: the slot the parent placed them in */
  struct feed_record* parent;
  bool releasing; /* inside this structure's release callback */
  bool released_in_place;
};

struct adc_feed {
  const struct adc_device* device;
  struct adc_device_queue* queue; /* for late writes; made on first use */
  struct feed_record** records;
  size_t n_records;
  size_t records_capacity;
  struct adc_region* regions;
  size_t n_regions;
  size_t regions_capacity;
  struct feed_watched* watched; /* watch_buffers (feed_watch.c) */
  size_t n_watched;
  size_t watched_capacity;
  struct feed_stream* streams;   /* the records of its streams, newest first (feed_stream.c) */
  struct adc_feed_async* asyncs; /* its async producers, newest first (feed_async.c) */
};

/* A record for a structure whose private data is `payload`; `parent` is NULL
 * for a base structure. */
struct feed_record* feed_record_add(struct adc_feed* feed, void* payload, const void* home,
                                    struct feed_record* parent);
void feed_region_add(struct adc_feed* feed, const void* start, size_t size);
/* Frees the records and the regions (feed_lifetime.c, last). */
void feed_records_free(struct adc_feed* feed);

/* Called at the top of a release callback.  Returns the payload to free, or
 * NULL when the structure was already released (a second call, which is
 * counted and otherwise ignored). */
void* feed_record_enter(struct feed_record* record, const void* structure);
/* Called at the end of it: the structure is released. */
void feed_record_leave(struct feed_record* record);

#endif /* ADC_FEED_RECORDS_H */
