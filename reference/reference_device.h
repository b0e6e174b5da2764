/* Where the reference producer puts buffers, and how the reference consumer
 * gets at them: one small table of operations per device.
 *
 * spec: "Memory management": "it is *only* the data buffers themselves
 * which reside in device memory ... Everything else should be in CPU
 * memory."  So the export code (export_array.c) builds every structure on
 * the host and hands each buffer's bytes to the device's `upload`; the
 * device decides where they go and when they arrive.
 *
 * An export's work on a device is a stream (as in CUDA): uploads are queued
 * on it, then record_event gives the sync_event that completes once they
 * have all landed (spec: "the producer MUST ensure that the exported data
 * is available on the device before the event is triggered"), or NULL
 * where nothing is left to land (spec: "If the sync_event member is NULL,
 * then it MUST be safe to access the data without any synchronization
 * necessary on the part of the consumer"). */
#ifndef ADC_REFERENCE_DEVICE_H
#define ADC_REFERENCE_DEVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "adc/arrow_c_abi.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ref_stream; /* one export's queued work; each device defines its own */

/* The facts of a device type (its event type, whether the host reads its
 * buffers in place) are not written here but in the kind table the harness
 * shares (adc/device_kinds.h): ref_device_host_readable reads it. */
struct ref_device {
  ArrowDeviceType type; /* the one it serves, a kind of device_kinds.h */
  /* Starts an export on `device_id`.  NULL with `*out` set (possibly to
   * NULL, for devices with nothing to queue), or a message. */
  const char* (*open_stream)(int64_t device_id, struct ref_stream** out);
  /* Takes `host` (from ref_alloc, `size` bytes, `size` > 0) in every case,
   * success or not.  NULL with `*device` set to memory that holds those
   * bytes once the stream's work completes (the caller frees it with
   * free_buffer), or a message (the runtime's own where it has one) with
   * nothing left allocated. */
  const char* (*upload)(struct ref_stream* stream, void* host, size_t size, void** device);
  /* After the last upload: sets `*sync_event` to the event to export, owned
   * by the stream (NULL where the data can be read at once); NULL, or a
   * message. */
  const char* (*record_event)(struct ref_stream* stream, void** sync_event);
  /* Frees a buffer from upload, once no queued work writes it. */
  void (*free_buffer)(struct ref_stream* stream, void* buffer);
  /* Waits for the stream's work, then frees it and its event. */
  void (*close_stream)(struct ref_stream* stream);

  /* Consumer side: blocks until the work behind `sync_event` is done
   * (spec: "the consumer should not attempt to access or read the data
   * until they have synchronized on that event"); NULL or a message. */
  const char* (*wait_event)(void* sync_event);
  /* Consumer side, without blocking: `*complete` set to whether the work
   * behind `sync_event` is done (cudaEventQuery's role); NULL or a message.
   * The deliberately broken consumers that poll with a deadline use it
   * (fixtures/deliberately_broken/rule_twins/consumer_gives_up_on_event.c). */
  const char* (*query_event)(void* sync_event, bool* complete);
  /* Copies `size` device bytes to the host; NULL or a message.  The
   * consumer copies where the CPU may not read the buffers in place
   * (ref_device_host_readable); a device whose memory the CPU reads may
   * have copies too (the simulated device), or none (NULL: the CPU). */
  const char* (*copy_to_host)(void* host, const void* device, size_t size);
  /* And back: copies `size` host bytes into device memory from upload, the
   * bytes there when it returns; NULL or a message.  The deliberately
   * broken libraries spoil exported data through it where the CPU cannot
   * write in place (fixtures/deliberately_broken/rule_twins/broken_common.c). */
  const char* (*copy_from_host)(void* device, const void* host, size_t size);
};

/* The devices the reference serves; NULL for any other (or a GPU device
 * whose module is missing). */
const struct ref_device* ref_device_for(ArrowDeviceType type);
/* Whether the consumer may read `device`'s buffers from the CPU once its
 * sync_event completed: its kind's host_readable. */
int ref_device_host_readable(const struct ref_device* device);
extern const struct ref_device ref_device_cpu;       /* reference_device_cpu.c */
extern const struct ref_device ref_device_simulated; /* reference_device_simulated.c */

/* GPU devices live in modules of their own, libadc_reference_cuda.so
 * (reference_device_cuda.cu) and libadc_reference_rocm.so
 * (reference_device_rocm.hip), built where the toolkits are and loaded
 * next to the reference the first time a GPU device is asked for: a GPU
 * runtime costs every process that loads it, and most never touch one.
 * A module allocates host memory through the reference's allocator, so
 * that BytesAllocated counts it. */
struct ref_allocator {
  void* (*alloc)(size_t size);
  void (*free)(void* pointer);
};
#define REF_GPU_MODULE_ENTRY "adc_reference_gpu_device"
typedef const struct ref_device* (*ref_gpu_module_entry)(ArrowDeviceType type,
                                                         const struct ref_allocator* allocator);

#ifdef __cplusplus
}
#endif

#endif /* ADC_REFERENCE_DEVICE_H */
