/* Internal to the feed: the buffers watch_buffers reads back (feed_watch.c). */
#ifndef ADC_FEED_WATCH_H
#define ADC_FEED_WATCH_H

#include "consumer_feed/feed_records.h"

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

#endif /* ADC_FEED_WATCH_H */
