/* Internal to the feed: the layouts of streamed batches (feed_batch.c). */
#ifndef ADC_FEED_BATCH_H
#define ADC_FEED_BATCH_H

#include "consumer_feed/consumer_feed.h"

/* The layout a stream or an async producer of the feed exports batch
 * `batch` with: one value altered when it is `altered_batch`, and late
 * writes when `late_write_seconds` is positive (feed_batch.c). */
struct adc_feed_layout feed_streamed_layout(int64_t batch, int64_t altered_batch, double late_write_seconds,
                                            double patience_seconds);

#endif /* ADC_FEED_BATCH_H */
