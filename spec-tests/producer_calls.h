/* Calling a producer under test the way every producer rule does: into an
 * output pre-filled with a non-zero pattern (so that a member the producer
 * never writes shows), with failures turned into the right verdict. */
#ifndef ADC_PRODUCER_CALLS_H
#define ADC_PRODUCER_CALLS_H

#include <stdbool.h>

#include "rule.h"

/* The byte every output structure is filled with before an export. */
#define ADC_FILL_BYTE 0xA5

/* Each returns true with `out` exported, or false with a verdict given:
 * not_supported when the entry point is missing or the producer declines
 * the fixture, unresolved when it returns a released structure (which
 * array.release.non_null_after_export / schema.release.non_null_after_export
 * judge).  The _raw forms skip the released-structure check. */
bool adc_export_schema_raw(struct adc_case_context* ctx, struct ArrowSchema* out);
bool adc_export_schema(struct adc_case_context* ctx, struct ArrowSchema* out);
bool adc_export_batch_raw(struct adc_case_context* ctx, int batch, struct ArrowArray* out);
bool adc_export_batch(struct adc_case_context* ctx, int batch, struct ArrowArray* out);
bool adc_export_device_batch(struct adc_case_context* ctx, int batch, struct ArrowDeviceArray* out);

/* Whether `array` equals batch `batch` of the fixture.  If not, gives an
 * unresolved verdict pointing at array.data.matches_fixture: a rule about
 * lifetime cannot be judged on data that was wrong from the start. */
bool adc_batch_matches_before(struct adc_case_context* ctx, int batch, const struct ArrowArray* array);

#endif /* ADC_PRODUCER_CALLS_H */
