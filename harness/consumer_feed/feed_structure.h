/* Internal to the feed: the structurally broken copies of a fixture (feed_structure.c). */
#ifndef ADC_FEED_STRUCTURE_H
#define ADC_FEED_STRUCTURE_H

#include "consumer_feed/consumer_feed.h"

/* A copy of `file` (batch `batch` and the dictionaries deep-copied, the
 * rest shared) whose batch breaks `family` (arrow_structure_break): 1,
 * or 0 when the batch has no column the family applies to, -1 when out of
 * memory; `out` is to be freed with feed_broken_file_free after 1 only
 * (feed_structure.c). */
int feed_broken_file(const struct arrow_json_file* file, int64_t batch, enum arrow_structure_family family,
                     struct arrow_json_file* out);
void feed_broken_file_free(struct arrow_json_file* broken, int64_t batch);

#endif /* ADC_FEED_STRUCTURE_H */
