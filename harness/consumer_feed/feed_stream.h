/* Internal to the feed: the feed's streams (feed_stream.c). */
#ifndef ADC_FEED_STREAM_H
#define ADC_FEED_STREAM_H

#include "consumer_feed/feed_records.h"

/* Frees the records of the feed's streams (feed_stream.c). */
void feed_streams_free(struct adc_feed* feed);

#endif /* ADC_FEED_STREAM_H */
