/* Internal to the feed: the feed's async producers (feed_async.c). */
#ifndef ADC_FEED_ASYNC_H
#define ADC_FEED_ASYNC_H

#include "consumer_feed/feed_records.h"

/* Waits for the delivery threads of the feed's async producers, then frees
 * them and the records of their tasks (feed_async.c). */
void feed_asyncs_free(struct adc_feed* feed);

#endif /* ADC_FEED_ASYNC_H */
