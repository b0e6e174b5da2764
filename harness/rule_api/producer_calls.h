/* Calling a producer under test the way every producer rule does: into an
 * output slot (output_slot.h) pre-filled with a non-zero pattern, so that a
 * member the producer never writes shows and a write outside the structure
 * is caught, with failures turned into the right verdict.
 *
 * Each returns the exported structure, where the producer wrote it (the
 * harness never moves it behind a rule's back), or NULL with a verdict
 * given: not_supported when the producer declines the fixture (the rule's
 * violation where the case sets decline_is_violation), unresolved
 * when it returns a released structure (which
 * array.release.non_null_after_export / schema.release.non_null_after_export
 * judge), crash when it wrote outside the structure.  The _raw forms skip
 * the released-structure check.  The structure is released through its own
 * release callback; its memory lives until the case ends. */
#ifndef ADC_PRODUCER_CALLS_H
#define ADC_PRODUCER_CALLS_H

#include <stdbool.h>
#include <stdint.h>

#include "rule_api/case_context.h"

/* The event rules (spec-tests/rules_sync_event.c) that other rules point
 * at when a batch's sync_event cannot be waited on or its data were still
 * being written when the harness was told they were ready. */
/* The rules on a batch's layout (spec-tests/rules_content.c): a data
 * rule whose comparison finds a layout difference names them. */
#define ADC_RULE_ARRAY_LAYOUT "array.layout.buffers_and_children"
/* The rule on a schema's types, which its flags' and metadata's rules name
 * when the types differ. */
#define ADC_RULE_SCHEMA_TYPES "schema.format.matches_fixture"
#define ADC_RULE_ARRAY_DICTIONARY "array.dictionary.present_when_encoded"
/* The rule that judges a comparison's result (enum arrow_json_difference):
 * a layout rule, the schema's types rule (a library that keeps its own
 * model, whose schema's types are not logically the fixture's), or NULL
 * when it is a difference of data. */
const char* adc_layout_rule_of(int difference);
#define ADC_RULE_VALID_EVENT "device_array.sync_event.valid_event"
#define ADC_RULE_DATA_COMPLETE "device_array.sync_event.data_complete"
#define ADC_RULE_NULL_MEANS_READY "device_array.sync_event.null_means_ready"

/* The interfaces through which a producer hands out device arrays: each
 * has event rules of its own (spec-tests/rules_sync_event.c,
 * rules_interface_events.c), so that a late write is the failure of the
 * rule of the interface it came through. */
enum adc_array_source {
  ADC_FROM_DEVICE_BATCH, /* ExportDeviceBatchFromJson */
  ADC_FROM_STREAM,       /* each get_next of ExportDeviceStreamFromJson's stream */
  ADC_FROM_ASYNC_TASK,   /* each extract_data of ExportAsyncFromJson's tasks */
  ADC_ARRAY_SOURCE_COUNT
};

/* The rules judging the arrays of one interface, and how its messages
 * name them. */
struct adc_source_rules {
  const char* valid_event;      /* the event is a live one of the device's type */
  const char* data_complete;    /* the data are complete when it completes */
  const char* null_means_ready; /* NULL: the data are complete at once */
  const char* data;             /* the data equal the fixture's */
  const char* array_noun;       /* "batch", "stream batch", "async task": messages name arrays so */
};
const struct adc_source_rules* adc_source_rules(enum adc_array_source source);

/* The byte every output structure is filled with before an export. */
#define ADC_FILL_BYTE 0xA5

/* A new output slot (output_slot.h) for a `size`-byte `structure` handed to
 * `entry_point`, filled with ADC_FILL_BYTE so that a member the producer
 * never writes shows; NULL with a verdict. */
void* adc_output_slot_new_filled(struct adc_case_context* ctx, size_t size, const char* structure,
                                 const char* entry_point);

/* Whether the `size` bytes at `member` are all ADC_FILL_BYTE: a member of
 * a filled slot the producer never wrote. */
bool adc_output_unwritten(const void* member, size_t size);

/* After a producer call into slot `out` returned `error`: `out`, or NULL
 * when the producer wrote outside the slot (crash) or declined to export
 * `what` (not_supported, with its message). */
void* adc_exported(struct adc_case_context* ctx, void* out, const char* error, const char* what);

/* ExportSchemaFromJson: schemas live in CPU memory on every device. */
struct ArrowSchema* adc_export_schema_raw(struct adc_case_context* ctx);
struct ArrowSchema* adc_export_schema(struct adc_case_context* ctx);

/* Batch `batch` as a consumer on the case's device receives it, ready to be
 * read through fixture_compare.h.
 *   - `cpu`: ExportBatchFromJson (the C Data Interface form) into an
 *     ArrowArray.
 *   - Every other device (cpu_device_arrays included):
 *     ExportDeviceBatchFromJson with the device's type and id into
 *     an ArrowDeviceArray, whose `array` member is returned, after waiting on
 *     its sync_event, as a consumer must before touching the data (spec:
 *     "sync_event"); unresolved when the event cannot be waited on.
 * A rule declares ADC_NEED(ExportBatchFromJson) for either.  To move the
 * batch, move adc_output_slot_size() bytes: the whole ArrowDeviceArray in
 * the device form. */
struct ArrowArray* adc_export_batch_raw(struct adc_case_context* ctx, int batch);
struct ArrowArray* adc_export_batch(struct adc_case_context* ctx, int batch);

/* For device batch `batch`, just exported: waits on its sync_event as a
 * consumer must before reading, and marks the case so that data still
 * changing afterwards point at the event rules (case_context.h).  False,
 * with the array released and an unresolved verdict naming
 * ADC_RULE_VALID_EVENT, when the wait fails. */
bool adc_wait_until_ready(struct adc_case_context* ctx, struct ArrowDeviceArray* array, int batch);
/* The same for an array handed out through `source`: the event rules named
 * are that interface's. */
bool adc_wait_until_ready_from(struct adc_case_context* ctx, struct ArrowDeviceArray* array, int batch,
                               enum adc_array_source source);

/* Batch `batch` as a consumer on the case's device is handed it, with no
 * wait on its sync_event (the consumer's to wait on): on `cpu`,
 * ExportBatchFromJson into the embedded array of a device array the
 * harness fills (device cpu, id -1, no event); on every other device
 * ExportDeviceBatchFromJson.  NULL with a verdict as adc_exported.  A rule
 * declares ADC_NEED(ExportBatchFromJson) for either. */
struct ArrowDeviceArray* adc_export_batch_unwaited(struct adc_case_context* ctx, int batch);

/* The call itself, unchecked: `library`'s export of batch `batch` in the
 * form the case's device takes, into `out` (on `cpu` its embedded array,
 * the device members filled where the export succeeds).  The library's
 * message, NULL when it exported.  For a body that calls a library it
 * does not judge (a pair's producer exporting again). */
const char* adc_call_batch_export(const struct adc_library* library, const struct adc_case_context* ctx,
                                  int batch, struct ArrowDeviceArray* out);

/* ExportDeviceBatchFromJson on every device, the CPU included, with no wait:
 * for rules on the members ArrowDeviceArray adds. */
struct ArrowDeviceArray* adc_export_device_batch(struct adc_case_context* ctx, int batch);

/* ExportBatchFromJson (its device form where batches are device arrays) for batch `batch`,
 * which the fixture does not have: the producer should decline.  Returns its
 * message, read with a bound into `text`, with `well_formed` telling whether
 * it was NUL-terminated UTF-8; or NULL when it exported something anyway
 * (released here when it can be).  NULL with a verdict when the call
 * cannot be made. */
const char* adc_export_missing_batch(struct adc_case_context* ctx, int batch, char* text, size_t size,
                                     bool* well_formed);

/* BytesAllocated into `bytes`. */
bool adc_bytes_allocated(struct adc_case_context* ctx, int64_t* bytes);

#endif /* ADC_PRODUCER_CALLS_H */
