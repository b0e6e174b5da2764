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
 * is available on the device before the event is triggered"). */
#ifndef ADC_REFERENCE_DEVICE_H
#define ADC_REFERENCE_DEVICE_H

#include <stddef.h>
#include <stdint.h>

#include "adc/arrow_c_abi.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ref_stream; /* one export's queued work; each device defines its own */

struct ref_device {
  ArrowDeviceType type;
  /* Starts an export on `device_id`.  NULL with `*out` set (possibly to
   * NULL, for devices with nothing to queue), or a message. */
  const char* (*open_stream)(int64_t device_id, struct ref_stream** out);
  /* Takes `host` (from ref_alloc, `size` bytes) in every case and returns
   * device memory that holds those bytes once the stream's work completes;
   * NULL when out of memory. */
  void* (*upload)(struct ref_stream* stream, void* host, size_t size);
  /* After the last upload: sets `*sync_event` to the event to export (NULL
   * where the data can be read at once); NULL, or a message. */
  const char* (*record_event)(struct ref_stream* stream, void** sync_event);
  /* Frees a buffer from upload, once no queued work writes it. */
  void (*free_buffer)(struct ref_stream* stream, void* buffer);
  /* Waits for the stream's work, then frees it and its event. */
  void (*close_stream)(struct ref_stream* stream);

  /* Consumer side: blocks until the work behind `sync_event` is done
   * (spec: "the consumer should not attempt to access or read the data
   * until they have synchronized on that event"); NULL or a message. */
  const char* (*wait_event)(void* sync_event);
  /* Whether the consumer may then read the buffers from the CPU. */
  int host_readable;
};

/* The devices the reference serves (reference_device_cpu.c,
 * reference_device_simulated.c); NULL for any other. */
const struct ref_device* ref_device_for(ArrowDeviceType type);
extern const struct ref_device ref_device_cpu;
extern const struct ref_device ref_device_simulated;

#ifdef __cplusplus
}
#endif

#endif /* ADC_REFERENCE_DEVICE_H */
