/* The reference producer and consumer, as a library of plain functions.
 *
 * This is the example to copy from: each function follows the spec clause
 * by clause and cites it.  reference_plugin.c exposes these functions
 * through the plugin ABI (include/adc/plugin_abi.h) under the prefix
 * "adc_reference"; nothing here serves the harness's own instrumentation,
 * which lives in harness/consumer_feed.  The fixture model
 * (arrow_format) says what a fixture holds. */
#ifndef ADC_REFERENCE_CORE_H
#define ADC_REFERENCE_CORE_H

#include <stddef.h>
#include <stdint.h>

#include "adc/arrow_c_abi.h"
#include "arrow_format/arrow_json.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Allocation accounting (reference_allocator.c, which says what the
 * count means; backs <prefix>_BytesAllocated).  Every allocation of the
 * reference goes through these, the fixture model's own memory aside. */
void* ref_alloc(size_t size);
void* ref_calloc(size_t count, size_t size);
char* ref_strdup(const char* text);
void ref_free(void* pointer);
int64_t ref_bytes_allocated(void);

/* ---- Producer side (export_schema.c, export_array.c): export part of a
 * loaded fixture, which stays the caller's (the export copies what it
 * needs).  Each returns NULL with `out` exported (the caller owns it and
 * releases it through its release callback), else a message and `out`
 * untouched. */
const char* ref_export_schema(const struct arrow_json_file* file, struct ArrowSchema* out);
const char* ref_export_batch(const struct arrow_json_file* file, int64_t batch_index, struct ArrowArray* out);
/* A batch as a device array on `device_type` (device_id -1 on the CPU),
 * with a sync_event where its data are still on their way when the export
 * returns (a GPU's copies, the simulated device's worker), else NULL. */
const char* ref_export_device_batch(const struct arrow_json_file* file, int64_t batch_index,
                                    ArrowDeviceType device_type, int64_t device_id,
                                    struct ArrowDeviceArray* out);

/* ---- Consumer side (reference_consumer.c): compare with the fixture, then
 * release.  Each takes ownership of what it is handed and releases it on
 * every path; NULL when it matched, else a message, kept until the
 * thread's next call. */
const char* ref_import_schema(const char* json_path, struct ArrowSchema* schema);
const char* ref_import_batch(const char* json_path, int num_batch, struct ArrowArray* batch);
/* Waits on the batch's sync_event, then compares it (through a host copy
 * where the CPU cannot read the buffers in place). */
const char* ref_import_device_batch(const char* json_path, int num_batch, struct ArrowDeviceArray* batch);
/* The same steps, with `import` comparing and releasing the embedded array
 * where the CPU can read it in place: ref_import_batch, or another
 * consumer's. */
typedef const char* (*ref_import_host_batch_fn)(const char* json_path, int num_batch,
                                                struct ArrowArray* batch);
const char* ref_import_device_batch_with(const char* json_path, int num_batch, struct ArrowDeviceArray* batch,
                                         ref_import_host_batch_fn import);
/* The same steps against batch `num_batch` of a fixture already loaded
 * (what a stream consumer does batch after batch). */
const char* ref_compare_device_batch(const struct arrow_json_file* file, int64_t num_batch,
                                     struct ArrowDeviceArray* batch);

/* ---- Device streams (reference_stream_export.c, reference_stream_import.c).
 * The export returns NULL with `out` a stream the caller owns until it calls
 * its release, else a message and `out` untouched; the import takes the
 * stream, releases it on every path, and returns NULL when the stream held
 * the fixture's schema and batches, else a message. */
const char* ref_export_device_stream(const char* json_path, ArrowDeviceType device_type, int64_t device_id,
                                     struct ArrowDeviceArrayStream* out);
/* The same stream, except that get_next fails with EIO where it would
 * return batch `fail_at_batch` (an injected error, for the error path). */
const char* ref_export_failing_device_stream(const char* json_path, ArrowDeviceType device_type,
                                             int64_t device_id, int64_t fail_at_batch,
                                             struct ArrowDeviceArrayStream* out);
const char* ref_import_device_stream(const char* json_path, struct ArrowDeviceArrayStream* stream);

/* ---- Async streams (reference_async_producer.c,
 * reference_async_consumer.c).  The export takes the consumer's handler and
 * returns at once: NULL with the producer running on a thread of its own,
 * which calls the handler and, last, its release; else a message and no
 * callback at all.  The import hands its handler to `start` (an exporter)
 * and returns once the producer has released it: NULL when the stream held
 * the fixture's schema and batches, else a message. */
const char* ref_export_async(const char* json_path, ArrowDeviceType device_type, int64_t device_id,
                             struct ArrowAsyncDeviceStreamHandler* handler);
/* The same stream, except that batch `fail_at_batch`, once requested, is
 * replaced by on_error (EIO, a message, metadata) and release. */
const char* ref_export_failing_async(const char* json_path, ArrowDeviceType device_type, int64_t device_id,
                                     int64_t fail_at_batch, struct ArrowAsyncDeviceStreamHandler* handler);
typedef const char* (*ref_async_start_fn)(void* context, struct ArrowAsyncDeviceStreamHandler* handler);
const char* ref_import_async(const char* json_path, ArrowDeviceType device_type, ref_async_start_fn start,
                             void* start_context);
/* The same, except that the consumer cancels once it has received batch
 * `cancel_after_batch`, then takes whatever still comes until release. */
const char* ref_import_async_cancelling(const char* json_path, ArrowDeviceType device_type,
                                        int64_t cancel_after_batch, ref_async_start_fn start,
                                        void* start_context);

/* Loads `json_path` into `out` (reference_consumer.c): 0, the caller then
 * owning `out` and freeing it with arrow_json_file_free, or -1 with a
 * message in `error`. */
int ref_load_fixture(const char* json_path, struct arrow_json_file* out, char* error, size_t error_size);

#ifdef __cplusplus
}
#endif

#endif /* ADC_REFERENCE_CORE_H */
