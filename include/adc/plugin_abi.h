/* The plugin ABI: the entry points the harness looks up in a library under
 * test.  Every symbol is "<prefix>_" followed by a suffix below, where the
 * prefix is the library's own (nanoarrow, ArrowCpp, adc_reference, ...).
 *
 * Conventions shared by every entry point returning `const char*`:
 *   - NULL means success; otherwise a UTF-8 message owned by the library and
 *     valid until its next call.
 *   - An Import function takes ownership of what it is given and must have
 *     released it when it returns, whether it succeeded or not.
 *   - A library may export any subset.  The harness reports a rule whose
 *     entry point is missing as not_supported, naming the symbol.
 *
 * CONFORMANCE.md, section "Plugin ABI", is the reference text. */
#ifndef ADC_PLUGIN_ABI_H
#define ADC_PLUGIN_ABI_H

#include <stdint.h>

#include "adc/arrow_c_abi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Handed by the harness to an async consumer (ImportAsyncAndCompareToJson):
 * gives `handler` to a producer.  Same return convention as
 * ExportAsyncFromJson. */
typedef const char* (*ADC_AsyncProducerStart)(void* start_context,
                                              struct ArrowAsyncDeviceStreamHandler* handler);

/* Every entry point, once.  X(NAME, SUFFIX, RETURN, PARAMETERS, ARGUMENTS):
 * NAME is what the code calls it (the function type is ADC_<NAME>), SUFFIX
 * the exact symbol after "<prefix>_".  The harness derives its enum, symbol
 * names and loader from this list, and the deliberately broken libraries
 * their forwarding exports; a new entry point is one line here.
 *
 * CPU: exactly the entry points Apache Arrow's integration tooling (archery)
 * loads, so existing builds load unchanged.
 *   ExportSchemaFromJson: export the schema of the JSON file into `out`.
 *   ImportSchemaAndCompareToJson: import `schema`, compare it with the file's
 *     schema, release it.
 *   ExportBatchFromJson: export batch `num_batch` of the file, as a struct
 *     array, into `out`.
 *   ImportBatchAndCompareToJson: import `batch`, compare it with batch
 *     `num_batch` of the file, release it.
 *   BytesAllocated: bytes the library currently holds for exported data; used
 *     to detect leaks.
 *
 * Devices: one batch on a given device.
 *   ExportDeviceBatchFromJson: export batch `num_batch` with its buffers on
 *     the device (`device_type`, `device_id`); device_id is -1 for devices
 *     without ids, such as the CPU.  A producer that cannot serve the device
 *     returns an error message and leaves `out` untouched.
 *   ImportDeviceBatchAndCompareToJson: wait on `sync_event` if it is set,
 *     compare with batch `num_batch` of the file, release it.
 *
 * Device streams: every batch of the file, in order.
 *   ExportDeviceStreamFromJson: fill `out` with a stream over every batch of
 *     the file, on the device.
 *   ImportDeviceStreamAndCompareToJson: drain `stream` (schema, then every
 *     batch until end of stream), compare each with the file, release every
 *     result and the stream itself.
 *   ExportFailingDeviceStreamFromJson (optional, for the rules on the error
 *     path): the same stream as ExportDeviceStreamFromJson, except that the
 *     get_next call that would return batch `fail_at_batch` fails instead:
 *     it returns a non-zero error code, and get_last_error describes the
 *     failure.  Earlier batches and the schema are as usual.
 *
 * Async device streams.
 *   ExportAsyncFromJson: take `handler` (owned by the caller) and drive it
 *     over every batch of the file: populate handler->producer, call
 *     on_schema, then on_next_task as the consumer requests, ending with
 *     on_next_task(NULL), and finally call handler->release exactly once,
 *     from any thread, possibly before this function returns.  NULL means the
 *     handler was accepted; an error message means it was refused and no
 *     callback of it was or will be called.
 *   ImportAsyncAndCompareToJson: build a handler, hand it over with
 *     `start(start_context, handler)`, request batches, and block until the
 *     producer has released the handler.  Returns NULL only if the schema and
 *     every batch matched the file, the stream ended with on_next_task(NULL)
 *     and on_error was never called.
 *   ExportFailingAsyncFromJson (optional, for the rules on the producer's
 *     error path): the same as ExportAsyncFromJson, except that once batch
 *     `fail_at_batch` has been requested, the producer calls on_error
 *     instead of handing it over (an errno code, a message, optionally
 *     metadata), then release.  Earlier batches and the schema are as usual.
 *   ImportAsyncAndCancelAfterBatch (optional, for the rule on what follows
 *     a consumer's cancel): the same as ImportAsyncAndCompareToJson, except
 *     that the consumer calls cancel once it has received batch
 *     `cancel_after_batch`, keeps a request pending beyond that batch, and
 *     then handles whatever the producer still calls (tasks, on_error) until
 *     release.  Returns NULL only if every batch received matched the file
 *     and on_error was never called. */
/* clang-format off */
#define ADC_PLUGIN_ENTRY_POINTS(X)                                                                       \
  X(ExportSchemaFromJson, CDataIntegration_ExportSchemaFromJson, const char*,                            \
    (const char* json_path, struct ArrowSchema* out), (json_path, out))                                  \
  X(ImportSchemaAndCompareToJson, CDataIntegration_ImportSchemaAndCompareToJson, const char*,            \
    (const char* json_path, struct ArrowSchema* schema), (json_path, schema))                            \
  X(ExportBatchFromJson, CDataIntegration_ExportBatchFromJson, const char*,                              \
    (const char* json_path, int num_batch, struct ArrowArray* out), (json_path, num_batch, out))         \
  X(ImportBatchAndCompareToJson, CDataIntegration_ImportBatchAndCompareToJson, const char*,              \
    (const char* json_path, int num_batch, struct ArrowArray* batch), (json_path, num_batch, batch))     \
  X(BytesAllocated, BytesAllocated, int64_t, (void), ())                                                 \
  X(ExportDeviceBatchFromJson, CDeviceIntegration_ExportDeviceBatchFromJson, const char*,                \
    (const char* json_path, int num_batch, ArrowDeviceType device_type, int64_t device_id,               \
     struct ArrowDeviceArray* out),                                                                      \
    (json_path, num_batch, device_type, device_id, out))                                                 \
  X(ImportDeviceBatchAndCompareToJson, CDeviceIntegration_ImportDeviceBatchAndCompareToJson, const char*, \
    (const char* json_path, int num_batch, struct ArrowDeviceArray* batch), (json_path, num_batch, batch)) \
  X(ExportDeviceStreamFromJson, CDeviceIntegration_ExportDeviceStreamFromJson, const char*,              \
    (const char* json_path, ArrowDeviceType device_type, int64_t device_id,                              \
     struct ArrowDeviceArrayStream* out),                                                                \
    (json_path, device_type, device_id, out))                                                            \
  X(ImportDeviceStreamAndCompareToJson, CDeviceIntegration_ImportDeviceStreamAndCompareToJson,           \
    const char*, (const char* json_path, struct ArrowDeviceArrayStream* stream), (json_path, stream))    \
  X(ExportFailingDeviceStreamFromJson, CDeviceIntegration_ExportFailingDeviceStreamFromJson,             \
    const char*,                                                                                         \
    (const char* json_path, ArrowDeviceType device_type, int64_t device_id, int fail_at_batch,           \
     struct ArrowDeviceArrayStream* out),                                                                \
    (json_path, device_type, device_id, fail_at_batch, out))                                             \
  X(ExportAsyncFromJson, CDeviceIntegration_ExportAsyncFromJson, const char*,                            \
    (const char* json_path, ArrowDeviceType device_type, int64_t device_id,                              \
     struct ArrowAsyncDeviceStreamHandler* handler),                                                     \
    (json_path, device_type, device_id, handler))                                                        \
  X(ImportAsyncAndCompareToJson, CDeviceIntegration_ImportAsyncAndCompareToJson, const char*,            \
    (const char* json_path, ArrowDeviceType device_type, ADC_AsyncProducerStart start,                   \
     void* start_context),                                                                               \
    (json_path, device_type, start, start_context))                                                    \
  X(ExportFailingAsyncFromJson, CDeviceIntegration_ExportFailingAsyncFromJson, const char*,              \
    (const char* json_path, ArrowDeviceType device_type, int64_t device_id, int fail_at_batch,           \
     struct ArrowAsyncDeviceStreamHandler* handler),                                                     \
    (json_path, device_type, device_id, fail_at_batch, handler))                                         \
  X(ImportAsyncAndCancelAfterBatch, CDeviceIntegration_ImportAsyncAndCancelAfterBatch, const char*,      \
    (const char* json_path, ArrowDeviceType device_type, int cancel_after_batch,                         \
     ADC_AsyncProducerStart start, void* start_context),                                                 \
    (json_path, device_type, cancel_after_batch, start, start_context))
/* clang-format on */

/* The function types: ADC_ExportSchemaFromJson, ADC_BytesAllocated, ... */
#define ADC_DECLARE_ENTRY_POINT_TYPE(name, suffix, result, parameters, arguments) \
  typedef result(*ADC_##name) parameters;
ADC_PLUGIN_ENTRY_POINTS(ADC_DECLARE_ENTRY_POINT_TYPE)
#undef ADC_DECLARE_ENTRY_POINT_TYPE

/* One member per entry point, named as in the list; NULL where absent. */
#define ADC_DECLARE_ENTRY_POINT_MEMBER(name, suffix, result, parameters, arguments) ADC_##name name;
struct adc_plugin_functions {
  ADC_PLUGIN_ENTRY_POINTS(ADC_DECLARE_ENTRY_POINT_MEMBER)
};
#undef ADC_DECLARE_ENTRY_POINT_MEMBER

#ifdef __cplusplus
}
#endif

#endif /* ADC_PLUGIN_ABI_H */
