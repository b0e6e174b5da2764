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

/* A buffer placed with watch_buffers: where it lives on the device, and
 * the copy of its bytes read back once it was placed. */
struct feed_watched {
  void* device_memory;
  size_t size;
  unsigned char* exported;
};

/* Reads `size` bytes at `device_memory` back through the device's copies
 * and keeps them, with the buffer, until the feed is freed (which frees
 * the buffer too); 0, or -1 with the reason (feed_watch.c). */
int feed_watch_add(struct adc_feed* feed, void* device_memory, size_t size, struct adc_error* error);
/* Frees the watched buffers and their copies. */
void feed_watched_free(struct adc_feed* feed);

/* A copy of `file` (batch `batch` and the dictionaries deep-copied, the
 * rest shared) whose batch breaks `family` (arrow_structure_break): 1,
 * or 0 when the batch has no column the family applies to, -1 when out of
 * memory; `out` is to be freed with feed_broken_file_free after 1 only
 * (feed_structure.c). */
int feed_broken_file(const struct arrow_json_file* file, int64_t batch, enum arrow_structure_family family,
                     struct arrow_json_file* out);
void feed_broken_file_free(struct arrow_json_file* broken, int64_t batch);

/* Frees the records of the feed's streams (feed_stream.c). */
void feed_streams_free(struct adc_feed* feed);
/* Waits for the delivery threads of the feed's async producers, then frees
 * them and the records of their tasks (feed_async.c). */
void feed_asyncs_free(struct adc_feed* feed);

/* The layout a stream or an async producer of the feed exports batch
 * `batch` with: one value altered when it is `altered_batch`, and late
 * writes when `late_write_seconds` is positive (feed_batch.c). */
struct adc_feed_layout feed_streamed_layout(int64_t batch, int64_t altered_batch, double late_write_seconds);

/* A record for a structure whose private data is `payload`; `parent` is NULL
 * for a base structure. */
struct feed_record* feed_record_add(struct adc_feed* feed, void* payload, const void* home,
                                    struct feed_record* parent);
void feed_region_add(struct adc_feed* feed, const void* start, size_t size);

/* Called at the top of a release callback.  Returns the payload to free, or
 * NULL when the structure was already released (a second call, which is
 * counted and otherwise ignored). */
void* feed_record_enter(struct feed_record* record, const void* structure);
/* Called at the end of it: the structure is released. */
void feed_record_leave(struct feed_record* record);

#endif /* ADC_FEED_RECORDS_H */
