/* A feed made and freed: it owns every part the other files add (its
 * records, streams, async producers and watched buffers), so freeing it
 * calls each part's own free, the async producers first. */
#include <stdlib.h>

#include "consumer_feed/feed_async.h"
#include "consumer_feed/feed_records.h"
#include "consumer_feed/feed_stream.h"
#include "consumer_feed/feed_watch.h"

struct adc_feed* adc_feed_new(const struct adc_device* device) {
  struct adc_feed* feed = calloc(1, sizeof(*feed));
  if (feed == NULL) abort();
  feed->device = device;
  return feed;
}

void adc_feed_free(struct adc_feed* feed) {
  if (feed == NULL) return;
  feed_asyncs_free(feed); /* first: its delivery threads may still be running */
  if (feed->queue != NULL) feed->device->driver->queue->free(feed->queue);
  feed_streams_free(feed);
  feed_watched_free(feed);
  feed_records_free(feed);
  free(feed);
}
