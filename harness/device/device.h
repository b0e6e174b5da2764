/* The device layer: how the harness reaches data wherever it lives.
 *
 * A device is a set of operations, in the spirit of nanoarrow's struct
 * ArrowDevice: probe it, wait on a producer's sync_event, copy a buffer to
 * the host, and allocate, fill and free memory for the harness's own feeds
 * (optionally read-only).  Rules never name a device: producer and consumer
 * calls and comparisons take the case's device and go through these
 * operations, so a new device is a new table, with no change to any rule.
 *
 * Every operation runs in a case's child process only: the harness parent
 * never initialises a GPU runtime (CUDA cannot survive a fork once
 * initialised).  Memory handed out by `allocate` is owned by the caller and
 * given back with `free`, with the same size and protectability. */
#ifndef ADC_DEVICE_H
#define ADC_DEVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "adc/arrow_c_abi.h"
#include "support/error.h"

/* What a device is, for the report's environment; "" where unknown or
 * where the device has no such thing (the CPU has no driver). */
struct adc_device_description {
  char model[160];          /* "NVIDIA H100 80GB HBM3", the CPU's model name */
  char driver_version[64];  /* the GPU driver's API version, "12.4" */
  char runtime_version[64]; /* the runtime the harness loaded, "12.4" */
};

struct adc_device {
  const char* name;           /* as given to --device */
  ArrowDeviceType arrow_type; /* ARROW_DEVICE_* asked of producers */
  int64_t device_id;          /* asked of producers; -1 on devices without ids (spec convention) */
  /* What a producer's sync_event points to ("cudaEvent_t" ...); NULL where
   * the device has no event type (spec: "Synchronization event types"). */
  const char* event_type;
  /* Whether the harness may read the device's buffers in place, as on the
   * CPU; otherwise comparisons read host copies made with copy_to_host. */
  bool host_accessible;
  /* Batches travel as ArrowDeviceArray through the device entry points
   * (ExportDeviceBatchFromJson, ImportDeviceBatchAndCompareToJson), as they
   * must off the CPU; on the CPU, only for the device that judges those
   * entry points there. */
  bool batches_as_device_arrays;
  /* Its queue's hold (queue_hold below) opens as a synchronisation on a
   * later event begins, not after a time: a late write through it is exact. */
  bool hold_follows_synchronisation;
  /* The implementation's own description of the device (which runtime,
   * which kind of memory); NULL where it needs none. */
  const void* backend;

  /* Each returns 0, or -1 with the reason in `error` (for probe, the
   * runtime's own words). */
  int (*probe)(const struct adc_device* device, struct adc_error* error);
  /* Optional: fills what it can find out of `out` (zeroed by the caller),
   * after a probe, whether the probe succeeded or not (a runtime without a
   * GPU still has a version). */
  void (*describe)(const struct adc_device* device, struct adc_device_description* out);
  /* Blocks until the work behind a producer's sync_event is done. */
  int (*wait_event)(const struct adc_device* device, void* sync_event, struct adc_error* error);
  int (*copy_to_host)(const struct adc_device* device, void* host, const void* source, size_t size,
                      struct adc_error* error);
  int (*copy_from_host)(const struct adc_device* device, void* destination, const void* host, size_t size,
                        struct adc_error* error);
  /* NULL with the reason in `error` when nothing could be allocated.
   * `protectable`: the memory may be made read-only later, so it must share
   * no page with anything else. */
  void* (*allocate)(const struct adc_device* device, size_t size, bool protectable, struct adc_error* error);
  void (*free)(const struct adc_device* device, void* memory, size_t size, bool protectable);
  /* Optional (NULL where the device cannot): makes protectable memory from
   * `allocate` read-only, so that a write to it faults. */
  int (*protect_read_only)(const struct adc_device* device, void* memory, size_t size,
                           struct adc_error* error);

  /* Optional, on devices with an event type: 0 when `sync_event` points to
   * a live event of the device's runtime, else -1 with the reason.  Reads
   * nothing the library could have left unreadable without checking. */
  int (*check_event)(const struct adc_device* device, void* sync_event, struct adc_error* error);

  /* Optional: an in-order queue of work that runs apart from the calling
   * thread, as a GPU stream does.  The consumer feed writes data late
   * through it, so that a consumer which reads before waiting on the
   * sync_event sees the wrong bytes (spec: "Synchronization").  Each
   * operation is queued behind the previous ones; queue_free waits for all
   * of them, then frees the queue and every event it recorded. */
  struct adc_device_queue* (*queue_new)(const struct adc_device* device, struct adc_error* error);
  /* Holds the work queued after it: on a device whose events tell when a
   * synchronisation on them begins (the simulated device), until one
   * begins on an event recorded after the hold, or the queue is finished
   * or freed; on the others, for `seconds` (a host function sleeping on a
   * GPU's stream). */
  int (*queue_hold)(struct adc_device_queue* queue, double seconds, struct adc_error* error);
  /* `host` is copied before this returns; `destination` is written later. */
  int (*queue_copy_from_host)(struct adc_device_queue* queue, void* destination, const void* host,
                              size_t size, struct adc_error* error);
  /* An event of the device's event type that completes once everything
   * queued before it has; what a producer hands out as sync_event. */
  void* (*queue_record_event)(struct adc_device_queue* queue, struct adc_error* error);
  /* Blocks until everything queued has run (every hold opened). */
  void (*queue_finish)(struct adc_device_queue* queue);
  void (*queue_free)(struct adc_device_queue* queue);
};

/* Whether the device has the queue operations above. */
bool adc_device_has_queue(const struct adc_device* device);

/* Whether the device has every operation a rule may use.  Every registered
 * device must (tests/test_device_layer.c checks): the runner calls them
 * unchecked. */
bool adc_device_has_operations(const struct adc_device* device);

/* The registered devices, in registry order. */
size_t adc_device_count(void);
const struct adc_device* adc_device_at(size_t index);
/* The registered devices, by name; NULL for a name no device has. */
const struct adc_device* adc_device_find(const char* name);
/* "cpu, simulated, cuda, rocm" */
const char* adc_device_names(void);

#endif /* ADC_DEVICE_H */
