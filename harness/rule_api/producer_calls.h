/* Calling a producer under test the way every producer rule does: into an
 * output pre-filled with a non-zero pattern (so that a member the producer
 * never writes shows), with failures turned into the right verdict.
 *
 * Each returns true with `out` exported, or false with a verdict given:
 * not_supported when the producer declines the fixture, unresolved when it
 * returns a released structure (which array.release.non_null_after_export /
 * schema.release.non_null_after_export judge).  The _raw forms skip the
 * released-structure check. */
#ifndef ADC_PRODUCER_CALLS_H
#define ADC_PRODUCER_CALLS_H

#include <stdbool.h>
#include <stdint.h>

#include "rule_api/case_context.h"

/* The byte every output structure is filled with before an export. */
#define ADC_FILL_BYTE 0xA5

/* ExportSchemaFromJson: schemas live in CPU memory on every device. */
bool adc_export_schema_raw(struct adc_case_context* ctx, struct ArrowSchema* out);
bool adc_export_schema(struct adc_case_context* ctx, struct ArrowSchema* out);

/* Batch `batch` as a consumer on the case's device receives it, ready to be
 * read through fixture_compare.h.
 *   - CPU: ExportBatchFromJson (the C Data Interface form), with the device
 *     members a CPU producer gives (device_type CPU, device_id -1, no event,
 *     reserved zeroed) filled in by the harness.
 *   - Elsewhere: ExportDeviceBatchFromJson with the device's type and id,
 *     after which the harness waits on the sync_event, as a consumer must
 *     before touching the data (spec: "sync_event").
 * A rule declares ADC_NEED(ExportBatchFromJson) for either. */
bool adc_export_batch_raw(struct adc_case_context* ctx, int batch, struct ArrowDeviceArray* out);
bool adc_export_batch(struct adc_case_context* ctx, int batch, struct ArrowDeviceArray* out);

/* ExportDeviceBatchFromJson on every device, the CPU included, with no wait:
 * for rules on the members ArrowDeviceArray adds. */
bool adc_export_device_batch(struct adc_case_context* ctx, int batch, struct ArrowDeviceArray* out);

/* BytesAllocated into `bytes`. */
bool adc_bytes_allocated(struct adc_case_context* ctx, int64_t* bytes);

/* Whether `array` equals batch `batch` of the fixture.  If not, gives an
 * unresolved verdict pointing at array.data.matches_fixture: a rule about
 * lifetime cannot be judged on data that was wrong from the start. */
bool adc_batch_matches_before(struct adc_case_context* ctx, int batch, const struct ArrowArray* array);

#endif /* ADC_PRODUCER_CALLS_H */
