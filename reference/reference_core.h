/* The reference producer and consumer, as a library of plain functions.
 *
 * reference_producer.c and reference_consumer.c wrap these in the plugin
 * ABI (include/adc/plugin_abi.h); the harness links them directly to make
 * instrumented exports for testing consumers, and the broken fixtures wrap
 * them to inject one defect each. */
#ifndef ADC_REFERENCE_CORE_H
#define ADC_REFERENCE_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "adc/arrow_c_abi.h"
#include "arrow_json/arrow_json.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Allocation accounting (backs <prefix>_BytesAllocated). */
void* ref_alloc(size_t size);
void* ref_calloc(size_t count, size_t size);
char* ref_strdup(const char* text);
void ref_free(void* pointer);
/* A buffer on pages of its own, which can later be made read-only. */
void* ref_alloc_pages(size_t size, size_t* mapped_size);
void ref_free_pages(void* pointer, size_t mapped_size);
int64_t ref_bytes_allocated(void);

/* ---- Instrumentation for testing consumers.
 *
 * An export made with a release log keeps one record per structure that
 * outlives the release, so that the log can tell, without undefined
 * behaviour, how often each release callback ran and whether a consumer
 * released a child in place (spec: "they MUST not call any of its children's
 * release callbacks"). */
struct ref_release_log;

struct ref_read_only_region {
  const void* start;
  size_t size;
};

struct ref_release_log* ref_release_log_new(void);
void ref_release_log_free(struct ref_release_log* log);
/* Calls of the release callback of the base structure(s) exported so far. */
int ref_release_log_base_calls(const struct ref_release_log* log);
/* Children (or dictionaries) released in place by someone other than their parent. */
int ref_release_log_children_released_in_place(const struct ref_release_log* log);
/* Buffers made read-only by the export (read_only_buffers). */
int64_t ref_release_log_read_only_regions(const struct ref_release_log* log,
                                          const struct ref_read_only_region** regions);

/* ---- Export. */
struct ref_export_options {
  /* Pad top-level int32 columns with this many leading rows and export them
   * with `offset` set past the padding (spec: "ArrowArray.offset"). */
  int64_t offset_padding;
  /* Export null_count = -1 wherever a validity buffer is present
   * (spec: "MAY be -1 if not yet computed"). */
  bool unknown_null_count;
  /* Put every buffer on its own pages and make them read-only once filled,
   * so that a consumer writing to exported data faults (spec: "Mutability"). */
  bool read_only_buffers;
  /* Export one value that differs from the fixture. */
  bool corrupt_one_value;
  /* Record release calls (NULL: plain export). */
  struct ref_release_log* log;
};

/* NULL on success, else a message.  `out` is written only on success. */
const char* ref_export_schema(const struct arrow_json_file* file, struct ArrowSchema* out,
                              struct ref_release_log* log);
const char* ref_export_batch(const struct arrow_json_file* file, int64_t batch_index,
                             const struct ref_export_options* options, struct ArrowArray* out);

/* Export a batch as a CPU device array (device_id -1, no sync event). */
const char* ref_export_device_batch(const struct arrow_json_file* file, int64_t batch_index,
                                    ArrowDeviceType device_type, int64_t device_id,
                                    struct ArrowDeviceArray* out);

/* ---- Consumer side: compare with the fixture, then release. */
const char* ref_import_schema(const char* json_path, struct ArrowSchema* schema);
const char* ref_import_batch(const char* json_path, int num_batch, struct ArrowArray* batch);
const char* ref_import_device_batch(const char* json_path, int num_batch,
                                    struct ArrowDeviceArray* batch);

/* ---- Device streams and async streams (reference_stream.c, reference_async.c). */
const char* ref_export_device_stream(const char* json_path, ArrowDeviceType device_type,
                                     int64_t device_id, struct ArrowDeviceArrayStream* out);
const char* ref_import_device_stream(const char* json_path, struct ArrowDeviceArrayStream* stream);
const char* ref_export_async(const char* json_path, ArrowDeviceType device_type,
                             int64_t device_id, struct ArrowAsyncDeviceStreamHandler* handler);
typedef const char* (*ref_async_start_fn)(void* context,
                                          struct ArrowAsyncDeviceStreamHandler* handler);
const char* ref_import_async(const char* json_path, ArrowDeviceType device_type,
                             ref_async_start_fn start, void* start_context);

/* Loads `json_path`, keeping a message for the caller in `error` on failure. */
int ref_load_fixture(const char* json_path, struct arrow_json_file* out, char* error,
                     size_t error_size);

#ifdef __cplusplus
}
#endif

#endif /* ADC_REFERENCE_CORE_H */
