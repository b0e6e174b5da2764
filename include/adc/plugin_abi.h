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

/* The round-trip ABI: for a library with no reader of Arrow's integration
 * JSON, which has what every Arrow library has, an import and an export of
 * the C structures.  The harness hands it the fixture as C structures (the
 * reference exports them, on the device the case asks for); the library
 * adopts them into its own representation and exports from that.  The
 * consumer rules judge the adoption (releases, moves, events), the
 * producer rules the exports; what the library exports is compared with the
 * fixture by the suite.  Symbols are "<prefix>_RoundTrip_<NAME>".
 *
 * A "held" object is the library's own (a table, a dataframe, columns),
 * opaque to the harness: an Adopt makes it, Free ends it.
 *   AdoptSchema: take `schema` (moved: the library owns it and releases it,
 *     now or later) and make a held object of it.
 *   AdoptBatch: take `schema` and `batch` (a struct array of the schema's
 *     fields, on the CPU), both moved.
 *   AdoptDeviceBatch: the same for a device batch; where its sync_event is
 *     set, wait on it before the buffers are read.
 *   AdoptDeviceStream: take `stream` (moved); read it now or as exported.
 *   AdoptAsync: be an async consumer: build a handler, hand it over with
 *     `start(start_context, handler)`, request batches, and return once
 *     the producer has released the handler, holding what came (as
 *     ImportAsyncAndCompareToJson does, the comparison aside).  An error
 *     message where on_error came or the stream did not end.
 *   ExportSchema, ExportBatch, ExportDeviceBatch, ExportDeviceStream: export
 *     what `held` holds into `out` (its schema; the batch; the batch, on the
 *     device its data are on; a stream over its batches, on that device).
 *     What is exported lives until its consumer releases it, Free or not.
 *   ExportAsync: be an async producer of what `held` holds (a stream's
 *     batches): take `handler` and drive it, as ExportAsyncFromJson does;
 *     Free may follow at once, while the producer goes on.  Where the
 *     stream it adopted fails, it calls on_error.
 *   Free: end `held`.  Everything adopted is released by then, but what an
 *     export still carries.
 * Same conventions as above: NULL or a message; a library may export any
 * subset.  An entry point of the JSON ABI a library lacks is made from
 * these where it has what it takes (CONFORMANCE.md, "The round-trip
 * ABI", lists which): ExportDeviceBatchFromJson is the reference's export,
 * AdoptDeviceBatch, ExportDeviceBatch and Free; ImportDeviceBatchAndCompareToJson
 * is AdoptDeviceBatch, ExportDeviceBatch, the suite's comparison and Free. */
/* clang-format off */
#define ADC_ROUND_TRIP_ENTRY_POINTS(X)                                                                   \
  X(AdoptSchema, const char*, (struct ArrowSchema* schema, void** held), (schema, held))                \
  X(AdoptBatch, const char*, (struct ArrowSchema* schema, struct ArrowArray* batch, void** held),        \
    (schema, batch, held))                                                                               \
  X(AdoptDeviceBatch, const char*,                                                                       \
    (struct ArrowSchema* schema, struct ArrowDeviceArray* batch, void** held), (schema, batch, held))    \
  X(AdoptDeviceStream, const char*, (struct ArrowDeviceArrayStream* stream, void** held),               \
    (stream, held))                                                                                      \
  X(AdoptAsync, const char*,                                                                             \
    (ArrowDeviceType device_type, ADC_AsyncProducerStart start, void* start_context, void** held),       \
    (device_type, start, start_context, held))                                                           \
  X(ExportSchema, const char*, (void* held, struct ArrowSchema* out), (held, out))                       \
  X(ExportBatch, const char*, (void* held, struct ArrowArray* out), (held, out))                         \
  X(ExportDeviceBatch, const char*, (void* held, struct ArrowDeviceArray* out), (held, out))             \
  X(ExportDeviceStream, const char*, (void* held, struct ArrowDeviceArrayStream* out), (held, out))     \
  X(ExportAsync, const char*, (void* held, struct ArrowAsyncDeviceStreamHandler* handler),               \
    (held, handler))                                                                                     \
  X(Free, void, (void* held), (held))
/* clang-format on */

/* The round trip's function types: ADC_RoundTrip_AdoptSchema, ... */
#define ADC_DECLARE_ROUND_TRIP_TYPE(name, result, parameters, arguments) \
  typedef result(*ADC_RoundTrip_##name) parameters;
ADC_ROUND_TRIP_ENTRY_POINTS(ADC_DECLARE_ROUND_TRIP_TYPE)
#undef ADC_DECLARE_ROUND_TRIP_TYPE

/* One member per round-trip entry point; NULL where absent. */
#define ADC_DECLARE_ROUND_TRIP_MEMBER(name, result, parameters, arguments) ADC_RoundTrip_##name name;
struct adc_round_trip_functions {
  ADC_ROUND_TRIP_ENTRY_POINTS(ADC_DECLARE_ROUND_TRIP_MEMBER)
};
#undef ADC_DECLARE_ROUND_TRIP_MEMBER

/* The infix of a round-trip symbol: "<prefix>" ADC_ROUND_TRIP_INFIX "<NAME>". */
#define ADC_ROUND_TRIP_INFIX "_RoundTrip_"

#ifdef __cplusplus
}
#endif

#endif /* ADC_PLUGIN_ABI_H */
