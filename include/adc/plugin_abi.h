/* The plugin ABI: the entry points the harness looks up in a library under
 * test.  Every name is "<prefix>_" followed by the names below, where the
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

/* ---- CPU: exactly the entry points Apache Arrow's integration tooling
 * (archery) loads, so existing builds load unchanged. */

/* Export the schema of the JSON file into `out`. */
typedef const char* (*ADC_ExportSchemaFromJson)(const char* json_path,
                                                struct ArrowSchema* out);
/* Import `schema`, compare it with the JSON file's schema, release it. */
typedef const char* (*ADC_ImportSchemaAndCompareToJson)(const char* json_path,
                                                        struct ArrowSchema* schema);
/* Export batch `num_batch` of the JSON file, as a struct array, into `out`. */
typedef const char* (*ADC_ExportBatchFromJson)(const char* json_path, int num_batch,
                                               struct ArrowArray* out);
/* Import `batch`, compare it with batch `num_batch` of the file, release it. */
typedef const char* (*ADC_ImportBatchAndCompareToJson)(const char* json_path,
                                                       int num_batch,
                                                       struct ArrowArray* batch);
/* Bytes the library currently holds for exported data; used to detect leaks. */
typedef int64_t (*ADC_BytesAllocated)(void);

/* ---- Devices: one batch on a given device. */

/* Export batch `num_batch` of the JSON file with its buffers on the device
 * (`device_type`, `device_id`); device_id is -1 for devices without ids,
 * such as the CPU.  A producer that cannot serve the device returns an error
 * message and leaves `out` untouched. */
typedef const char* (*ADC_ExportDeviceBatchFromJson)(const char* json_path, int num_batch,
                                                     ArrowDeviceType device_type,
                                                     int64_t device_id,
                                                     struct ArrowDeviceArray* out);
/* Import a device batch: wait on `sync_event` if it is set, compare with batch
 * `num_batch` of the file, release it. */
typedef const char* (*ADC_ImportDeviceBatchAndCompareToJson)(const char* json_path,
                                                             int num_batch,
                                                             struct ArrowDeviceArray* batch);

/* ---- Device streams: every batch of the file, in order. */

/* Fill `out` with a stream over every batch of the file, on the device. */
typedef const char* (*ADC_ExportDeviceStreamFromJson)(const char* json_path,
                                                      ArrowDeviceType device_type,
                                                      int64_t device_id,
                                                      struct ArrowDeviceArrayStream* out);
/* Drain `stream` (schema, then every batch until end of stream), compare each
 * with the file, release every result and the stream itself. */
typedef const char* (*ADC_ImportDeviceStreamAndCompareToJson)(
    const char* json_path, struct ArrowDeviceArrayStream* stream);

/* ---- Async device streams. */

/* Producer side.  Take `handler` (owned by the caller) and drive it over
 * every batch of the file: populate handler->producer, call on_schema, then
 * on_next_task as the consumer requests, ending with on_next_task(NULL), and
 * finally call handler->release exactly once, from any thread, possibly
 * before this function returns.  NULL means the handler was accepted.  An
 * error message means it was refused and no callback of it was or will be
 * called. */
typedef const char* (*ADC_ExportAsyncFromJson)(const char* json_path,
                                               ArrowDeviceType device_type,
                                               int64_t device_id,
                                               struct ArrowAsyncDeviceStreamHandler* handler);

/* Handed by the harness to an async consumer: gives `handler` to a producer.
 * Same return convention as ADC_ExportAsyncFromJson. */
typedef const char* (*ADC_AsyncProducerStart)(void* start_context,
                                              struct ArrowAsyncDeviceStreamHandler* handler);

/* Consumer side.  Build a handler, hand it over with `start(start_context,
 * handler)`, request batches, and block until the producer has released the
 * handler.  Returns NULL only if the schema and every batch matched the file,
 * the stream ended with on_next_task(NULL) and on_error was never called. */
typedef const char* (*ADC_ImportAsyncAndCompareToJson)(const char* json_path,
                                                       ArrowDeviceType device_type,
                                                       ADC_AsyncProducerStart start,
                                                       void* start_context);

#ifdef __cplusplus
}
#endif

#endif /* ADC_PLUGIN_ABI_H */
