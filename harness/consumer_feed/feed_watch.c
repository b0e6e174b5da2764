/* The feed's watched buffers (watch_buffers): how a write into exported
 * data is seen on a device whose memory cannot be made read-only (a GPU's).
 *
 * spec ("Mutability"): "Both the producer and the consumer SHOULD consider
 * the exported data ... to be immutable".  Read-only pages catch a write
 * as it happens; without them, what was written is found afterwards: each
 * buffer is read back through the device's copy_to_host once placed, kept
 * allocated past the release of its array (a consumer releases before
 * Import returns, and the memory must not be reused meanwhile), and read
 * again once the consumer has returned.  A write that leaves the bytes as
 * they were leaves no trace this way. */
#include <stdlib.h>
#include <string.h>

#include "consumer_feed/feed_watch.h"

int feed_watch_add(struct adc_feed* feed, void* device_memory, size_t size, struct adc_error* error) {
  unsigned char* exported = malloc(size);
  if (exported == NULL) return adc_fail(error, "out of host memory keeping a copy of an exported buffer");
  if (adc_device_copy_to_host(feed->device, exported, device_memory, size, error) != 0) {
    free(exported);
    return -1;
  }
  if (feed->n_watched == feed->watched_capacity) {
    size_t bigger = feed->watched_capacity ? feed->watched_capacity * 2 : 16;
    struct feed_watched* grown = realloc(feed->watched, bigger * sizeof(*grown));
    if (grown == NULL) {
      free(exported);
      return adc_fail(error, "out of host memory keeping a copy of an exported buffer");
    }
    feed->watched = grown;
    feed->watched_capacity = bigger;
  }
  feed->watched[feed->n_watched++] = (struct feed_watched){device_memory, size, exported};
  return 0;
}

void feed_watched_free(struct adc_feed* feed) {
  for (size_t i = 0; i < feed->n_watched; i++) {
    adc_device_free(feed->device, feed->watched[i].device_memory, feed->watched[i].size, false);
    free(feed->watched[i].exported);
  }
  free(feed->watched);
  feed->watched = NULL;
  feed->n_watched = 0;
}

int adc_feed_written_buffers(const struct adc_feed* feed, struct adc_feed_written* first,
                             struct adc_error* error) {
  int written = 0;
  for (size_t i = 0; i < feed->n_watched; i++) {
    const struct feed_watched* watched = &feed->watched[i];
    unsigned char* now = malloc(watched->size);
    if (now == NULL) return adc_fail(error, "out of host memory reading an exported buffer back");
    if (adc_device_copy_to_host(feed->device, now, watched->device_memory, watched->size, error) != 0) {
      free(now);
      return -1;
    }
    size_t byte = 0;
    while (byte < watched->size && now[byte] == watched->exported[byte]) byte++;
    free(now);
    if (byte == watched->size) continue;
    if (written++ == 0) *first = (struct adc_feed_written){i, feed->n_watched, watched->size, byte};
  }
  return written;
}
