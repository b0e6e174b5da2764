/* The device layer: how the harness reaches data wherever it lives.
 *
 * Three things, kept apart so that the harness parent never touches a
 * device runtime:
 *
 *   - a driver (struct adc_device_driver): what the harness knows of one
 *     --device name without touching anything: the kind it serves
 *     (adc/device_kinds.h, shared with the reference pair), how
 *     batches travel, and the operations.  Static, listed by the registry.
 *   - a target (struct adc_device_target): a driver and a device_id, made
 *     at run time.  What the parent plans, probes and reports by, and what
 *     rules' `holds` filters judge; it holds no runtime state.
 *   - a device (struct adc_device): a live instance of a target, made by
 *     adc_device_open in a case's child process only (CUDA cannot survive a
 *     fork once initialised) and released by adc_device_close at the end.
 *     Its private state (a runtime's stream, a pinned buffer, a context)
 *     belongs to its driver.
 *
 * The operations are in the spirit of nanoarrow's struct ArrowDevice: wait
 * on a producer's sync_event, copy a buffer to the host, and allocate, fill
 * and free memory for the harness's own feeds (optionally read-only).  The
 * queue that writes data late is an interface of its own, which a driver
 * may offer.  Rules never name a device: producer and consumer calls and
 * comparisons take the case's device and go through these operations, so a
 * new device is a new driver, with no change to any rule.
 *
 * Memory handed out by `allocate` is owned by the caller and given back
 * with `free`, with the same size and protectability. */
#ifndef ADC_DEVICE_H
#define ADC_DEVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "adc/arrow_c_abi.h"
#include "adc/device_kinds.h"
#include "support/error.h"

/* What a device is, for the report's environment; "" where unknown or
 * where the device has no such thing (the CPU has no driver). */
struct adc_device_description {
  char model[160];          /* "NVIDIA H100 80GB HBM3", the CPU's model name */
  char driver_version[64];  /* the GPU driver's API version, "12.4" */
  char runtime_version[64]; /* the runtime the harness loaded, "12.4" */
};

struct adc_device;
struct adc_device_queue; /* each queue interface defines its own */

/* What `open` returns when the device is there but refuses this process
 * now (busy, out of memory, a client limit reached): the runner retries,
 * and never takes it for a device that is absent. */
#define ADC_DEVICE_BUSY (-2)

/* A driver's operations on its live devices.  Each returning int returns
 * 0, or -1 with the reason in `error` (for open, the runtime's own words). */
struct adc_device_ops {
  /* Starts the device: loads the runtime, selects device->device_id and
   * makes what the driver keeps in device->state.  On failure whatever it
   * made is released, and device->state is left NULL; ADC_DEVICE_BUSY
   * rather than -1 where the device is there but refuses the process. */
  int (*open)(struct adc_device* device, struct adc_error* error);
  /* Optional: releases device->state. */
  void (*close)(struct adc_device* device);
  /* Optional: fills what it can find out of `out` (zeroed by the caller),
   * after open, whether it succeeded or not (a runtime without a GPU still
   * has a version). */
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
  /* Optional, on kinds with an event type: 0 when `sync_event` points to
   * a live event of the device's runtime, else -1 with the reason.  Reads
   * nothing the library could have left unreadable without checking. */
  int (*check_event)(const struct adc_device* device, void* sync_event, struct adc_error* error);
  /* Optional: waits until the work queued on the device has ended, and
   * says whether the device can still be used (-1 with the runtime's
   * reason where it cannot: a GPU context with an error that sticks).  A
   * prepared process (runner/task_runner.h), which keeps the device open
   * from case to case, asks after each case. */
  int (*settle)(const struct adc_device* device, struct adc_error* error);
};

/* An in-order queue of work that runs apart from the calling thread, as a
 * GPU stream does.  The consumer feed writes data late through it, so that
 * a consumer which reads before waiting on the sync_event sees the wrong
 * bytes (spec: "Synchronization").  Each operation is queued behind the
 * previous ones; `free` waits for all of them, then frees the queue and
 * every event it recorded.  A queue belongs to one live device and is
 * freed before the device is closed. */
struct adc_device_queue_ops {
  /* The hold opens as a synchronisation on a later event begins, not after
   * a time: a late write through it is exact. */
  bool hold_follows_synchronisation;
  struct adc_device_queue* (*create)(const struct adc_device* device, struct adc_error* error);
  /* Holds the work queued after it: where hold_follows_synchronisation,
   * until a synchronisation begins on an event recorded after the hold, or
   * the queue is finished or freed; elsewhere, for `seconds` (a host
   * function sleeping on a GPU's stream). */
  int (*hold)(struct adc_device_queue* queue, double seconds, struct adc_error* error);
  /* Optional, where hold_follows_synchronisation: holds the work queued
   * after it until a synchronisation begins on an event recorded after the
   * hold, then `patience_seconds` more (a finish or the queue's end opens
   * it at once): a hold longer than a consumer's patience.  Elsewhere the
   * consumer feed holds for that long after the export (hold). */
  int (*hold_past_synchronisation)(struct adc_device_queue* queue, double patience_seconds,
                                   struct adc_error* error);
  /* `host` is copied before this returns; `destination` is written later. */
  int (*copy_from_host)(struct adc_device_queue* queue, void* destination, const void* host, size_t size,
                        struct adc_error* error);
  /* An event of the device's event type that completes once everything
   * queued before it has; what a producer hands out as sync_event. */
  void* (*record_event)(struct adc_device_queue* queue, struct adc_error* error);
  /* Blocks until everything queued has run (every hold opened). */
  void (*finish)(struct adc_device_queue* queue);
  void (*free)(struct adc_device_queue* queue);
};

struct adc_device_driver {
  const char* name;                   /* as given to --device */
  const struct adc_device_kind* kind; /* the shared facts: ARROW_DEVICE_*, ids, event type, host reads */
  /* Batches travel as ArrowDeviceArray through the device entry points
   * (ExportDeviceBatchFromJson, ImportDeviceBatchAndCompareToJson), as they
   * must off the CPU; on the CPU, only for the driver that judges those
   * entry points there. */
  bool batches_as_device_arrays;
  /* The harness reads the buffers only through copy_to_host, even where
   * the kind lets the host read them in place: the simulated device, so
   * that every rule takes the path it takes on a GPU. */
  bool reads_through_copies;
  const struct adc_device_ops* ops;
  const struct adc_device_queue_ops* queue; /* NULL where the driver has no queue */
  /* Optional: maps the runtime's libraries into the calling process and
   * calls nothing in them (no runtime starts, no thread).  The run's
   * preloading server does (runner/preload_server.h), so that each case's
   * process finds them loaded; a runtime that is slow to load (PoCL brings
   * LLVM) offers it.  Never called in the harness parent. */
  void (*preload_runtime)(void);
  /* Optional: whether opening a device costs its process a runtime start
   * worth sharing between cases (a GPU's context: 0.2 s and more, which
   * the driver serialises; PoCL's queue and threads).  Its cases then run
   * in prepared processes (runner/task_runner.h), a process's start is
   * timed apart from its case, and the processes holding one physical
   * device are admitted together.  Called in the harness parent: it reads
   * nothing but the environment, never a runtime.  NULL: not costly. */
  bool (*start_is_costly)(void);
  /* Optional: whether the environment asks the driver not to make memory
   * read-only although it can (the simulated device, under
   * ADC_SIMULATED_NO_READ_ONLY, to take the way a GPU's memory takes).
   * Read in the parent and in cases alike: it reads the environment only.
   * NULL: never. */
  bool (*read_only_declined)(void);
  /* What the devices of the driver are physically, for admission: drivers
   * naming the same one share a device of each device_id ("CUDA GPU" for
   * cuda, cuda_host and cuda_managed).  NULL: the driver's own name. */
  const char* physical_device;
  /* The driver's own description of what it serves (which runtime, which
   * kind of memory); NULL where it needs none. */
  const void* backend;
};

/* A device to run on, as the parent knows it: no runtime state. */
struct adc_device_target {
  const struct adc_device_driver* driver;
  int64_t device_id; /* asked of producers; -1 on kinds without ids (spec convention) */
  /* As --device names it, and case IDs and reports show it: the driver's
   * name for its first device ("opencl"), "NAME:ID" for another
   * ("opencl:1"). */
  char name[48];
};

/* A live device, in a case's child process. */
struct adc_device {
  const struct adc_device_driver* driver;
  int64_t device_id;
  void* state; /* the driver's own; NULL where it keeps none */
};

/* The target of `driver`'s first device: device_id 0, or -1 where the kind
 * has no ids. */
struct adc_device_target adc_device_target_of(const struct adc_device_driver* driver);
/* The target `text` names: "NAME" (the driver's first device) or
 * "NAME:ID" (device_id ID of a driver whose kind has ids).  0, or -1 with
 * the reason (an unknown name, an id on a kind without ids, an id that is
 * no number). */
int adc_device_target_parse(const char* text, struct adc_device_target* out, struct adc_error* error);

/* Makes the live device of `target` in `*device` (a case's child only);
 * 0, or -1 with the reason the device is unavailable, in the runtime's
 * words (ADC_DEVICE_BUSY where it is there but refuses the process).  After either, adc_device_close releases
 * what was made. */
int adc_device_open(const struct adc_device_target* target, struct adc_device* device,
                    struct adc_error* error);
void adc_device_close(struct adc_device* device);

/* The operations of a live device (struct adc_device_ops). */
void adc_device_describe(const struct adc_device* device, struct adc_device_description* out);
int adc_device_wait_event(const struct adc_device* device, void* sync_event, struct adc_error* error);
int adc_device_copy_to_host(const struct adc_device* device, void* host, const void* source, size_t size,
                            struct adc_error* error);
int adc_device_copy_from_host(const struct adc_device* device, void* destination, const void* host,
                              size_t size, struct adc_error* error);
void* adc_device_allocate(const struct adc_device* device, size_t size, bool protectable,
                          struct adc_error* error);
void adc_device_free(const struct adc_device* device, void* memory, size_t size, bool protectable);
/* -1 with the reason where the driver cannot (adc_device_can_protect). */
int adc_device_protect_read_only(const struct adc_device* device, void* memory, size_t size,
                                 struct adc_error* error);
/* -1 with the reason where the driver cannot check events. */
int adc_device_check_event(const struct adc_device* device, void* sync_event, struct adc_error* error);

/* Waits for the device's queued work and says whether it can still be
 * used (struct adc_device_ops.settle); 0 where the driver cannot tell. */
int adc_device_settle(const struct adc_device* device, struct adc_error* error);

/* What a driver offers, known without a live device (the parent's
 * planning asks). */
bool adc_device_can_protect(const struct adc_device_driver* driver);
/* Whether the harness reads the buffers in place (its kind is host
 * readable and the driver does not insist on copies); otherwise through
 * copy_to_host. */
bool adc_device_reads_in_place(const struct adc_device_driver* driver);
bool adc_device_can_check_events(const struct adc_device_driver* driver);
/* Whether opening the driver's devices is a costly runtime start
 * (adc_device_driver.start_is_costly). */
bool adc_device_start_is_costly(const struct adc_device_driver* driver);
/* The physical device the driver's devices are (adc_device_driver.physical_device). */
const char* adc_device_physical_name(const struct adc_device_driver* driver);
/* Whether the driver has every queue operation. */
bool adc_device_has_queue(const struct adc_device_driver* driver);
/* Whether the driver has every operation a rule may use.  Every registered
 * driver must (tests/test_device_layer.c checks): the runner calls them
 * unchecked. */
bool adc_device_has_operations(const struct adc_device_driver* driver);

/* The registered drivers, in registry order. */
size_t adc_device_count(void);
const struct adc_device_driver* adc_device_at(size_t index);
/* The registered drivers, by name; NULL for a name no driver has. */
const struct adc_device_driver* adc_device_find(const char* name);
/* "cpu, simulated, cuda, rocm" */
const char* adc_device_names(void);

#endif /* ADC_DEVICE_H */
