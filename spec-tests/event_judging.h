/* The producer's event rules, judged the same way on every interface
 * through which it hands out device arrays (producer_calls.h,
 * adc_array_source): a single device batch, each get_next of a device
 * stream, each extract_data of an async stream's tasks.  The rules of each
 * interface (rules_sync_event.c, rules_interface_events.c) are rows that
 * call these; what an event must be, and how lateness is told from wrong
 * data, is written here once. */
#ifndef ADC_EVENT_JUDGING_H
#define ADC_EVENT_JUDGING_H

#include <stdbool.h>

#include "rule_api/producer_calls.h"
#include "rule_api/rule.h"

/* The clauses and sentences of the three event rules, the same on every
 * interface. */
#define ADC_VALID_EVENT_CLAUSE "Synchronization event types"
#define ADC_DATA_COMPLETE_CLAUSE "ArrowDeviceArray.sync_event"
#define ADC_NULL_MEANS_READY_CLAUSE "Synchronization"
extern const char adc_valid_event_sentence[];
extern const char adc_data_complete_sentence[];
extern const char adc_null_means_ready_sentence[];

/* Devices with an event type (spec: "Synchronization event types"). */
extern const struct adc_device_filter adc_devices_with_event_type;

/* spec: "Synchronization event types": every non-NULL sync_event of the
 * arrays handed out through `source` is a live event of the device's
 * runtime. */
void adc_judge_valid_events(struct adc_case_context* ctx, enum adc_array_source source);

/* spec: the producer "MUST ensure that the exported data is available on
 * the device before the event is triggered" (`with_event`), and a NULL
 * sync_event means the data may be read at once: every array handed out
 * through `source` whose sync_event is set (or NULL) is read the moment a
 * consumer may, with no other synchronisation; data that differ, then
 * equal the fixture a moment later, were written late.  Not supported
 * when no array of that kind was handed out. */
void adc_judge_readiness(struct adc_case_context* ctx, enum adc_array_source source, bool with_event);

#endif /* ADC_EVENT_JUDGING_H */
