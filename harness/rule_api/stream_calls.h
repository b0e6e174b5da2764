/* Calling a device stream producer under test the way every stream rule
 * does (spec: "Device Stream Interface").
 *
 * The stream, each schema and each array land in output slots
 * (output_slot.h), pre-filled with a non-zero pattern, as for single
 * exports.  Functions returning a pointer return NULL with a verdict given
 * when the case cannot go on: not_supported when the producer declines,
 * crash on a write outside a structure, unresolved when a rule the step
 * depends on is broken (naming that rule).  Everything exported is
 * released through its own callbacks; slots live until the case ends. */
#ifndef ADC_STREAM_CALLS_H
#define ADC_STREAM_CALLS_H

#include <stdbool.h>

#include "rule_api/case_context.h"

/* The rules (spec-tests/rules_device_stream.c) that other stream rules
 * point at when a step they depend on goes wrong. */
#define ADC_RULE_STREAM_CALLBACKS "device_stream.callbacks.non_null"
#define ADC_RULE_STREAM_SCHEMA "device_stream.schema.matches_fixture"
#define ADC_RULE_STREAM_BATCHES "device_stream.next.matches_fixture"
#define ADC_RULE_STREAM_END "device_stream.end.released_array"

/* ExportDeviceStreamFromJson on the case's device.  The _raw form returns
 * the stream as the producer wrote it; the other gives unresolved (naming
 * ADC_RULE_STREAM_CALLBACKS, and releasing it where it can) unless every
 * callback is set. */
struct ArrowDeviceArrayStream* adc_export_stream_raw(struct adc_case_context* ctx);
struct ArrowDeviceArrayStream* adc_export_stream(struct adc_case_context* ctx);

/* ExportFailingDeviceStreamFromJson (optional, plugin ABI): the same
 * stream, whose get_next fails where it would return batch
 * `fail_at_batch`.  Every callback set, as adc_export_stream. */
struct ArrowDeviceArrayStream* adc_export_failing_stream(struct adc_case_context* ctx, int fail_at_batch);

/* get_schema into a new slot: the schema, or NULL, with get_schema's code
 * in `*code` when it failed (no verdict given), or with a verdict. */
struct ArrowSchema* adc_stream_get_schema(struct adc_case_context* ctx, struct ArrowDeviceArrayStream* stream,
                                          int* code);

/* get_next into a new slot, `batch` naming the call in messages: the
 * device array (its `array` released at the end of the stream), or NULL as
 * adc_stream_get_schema.  A batch is returned ready to be read through
 * fixture_compare.h: its sync_event waited on, as a consumer must (spec:
 * "sync_event"), the case unresolved when that fails. */
struct ArrowDeviceArray* adc_stream_get_next(struct adc_case_context* ctx,
                                             struct ArrowDeviceArrayStream* stream, int batch, int* code);

/* get_next into a new slot with no wait on its sync_event: for the event
 * rules, which judge what the producer handed out the moment a consumer
 * may read it.  NULL as adc_stream_get_schema. */
struct ArrowDeviceArray* adc_stream_get_next_raw(struct adc_case_context* ctx,
                                                 struct ArrowDeviceArrayStream* stream, int* code);

/* The same for the event rules, which need the stream to work: a failed
 * call or a stream that ends before the fixture's batch `batch` gives
 * unresolved naming ADC_RULE_STREAM_BATCHES. */
struct ArrowDeviceArray* adc_stream_next_unwaited_or_unresolved(struct adc_case_context* ctx,
                                                                struct ArrowDeviceArrayStream* stream,
                                                                int batch);

/* The same for rules that only need the stream to work: a failed call or
 * a stream that ends before the fixture's batch `batch` (or goes on after
 * its last) gives unresolved naming the rule that judges it. */
struct ArrowDeviceArray* adc_stream_next_or_unresolved(struct adc_case_context* ctx,
                                                       struct ArrowDeviceArrayStream* stream, int batch);

/* Releases an array taken from a stream unless it is the end of the stream
 * (released already). */
void adc_stream_release_array(struct ArrowDeviceArray* array);

#endif /* ADC_STREAM_CALLS_H */
