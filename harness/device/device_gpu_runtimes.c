/* CUDA and ROCm (HIP) devices.  The runtimes are looked up with dlopen the
 * first time a case's child uses a device, never in the harness parent
 * (CUDA cannot survive a fork once initialised), so the harness builds and
 * runs where they are missing and reports the runtime's own reason when a
 * device is.  Both runtimes have the same shape; a table of symbol names
 * per runtime lets one implementation serve both.
 *
 * Memory kinds: device memory (cudaMalloc, hipMalloc) is read through
 * copies; pinned host memory and managed memory are readable by the CPU
 * once the producer's event completed.  The queue is a stream: a pause is a
 * host function sleeping on it (cudaLaunchHostFunc), so that no kernel has
 * to be compiled into the harness.
 *
 * Every stream of the harness is non-blocking (cudaStreamNonBlocking), and
 * the harness copies only on streams of its own, through pinned memory:
 * the legacy default stream waits for all work on blocking streams and is
 * waited for by them, so a copy there would wait for a producer's late
 * writes (and hide them), and a pageable copy may return before its bytes
 * have landed, or wait for the stream's earlier work before it starts. */
#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device/device_drivers.h"
#include "support/clock.h"
#include "support/safe_read.h"

/* Return codes and enumerators both runtimes share: cudaMemcpyDefault and
 * hipMemcpyDefault (the direction read from the pointers, which may be
 * device, pinned host or managed memory), cudaStreamNonBlocking and
 * hipStreamNonBlocking. */
enum { GPU_SUCCESS = 0, GPU_NOT_READY = 600, GPU_MEMCPY_DEFAULT = 4, GPU_STREAM_NON_BLOCKING = 1 };

/* The most a copy between host and device moves at once through the
 * pinned bounce buffer; larger copies go in pieces. */
#define BOUNCE_BYTES ((size_t)16 << 20)

typedef void* gpu_stream;
typedef void* gpu_event;
typedef void (*gpu_host_function)(void*);

/* One runtime's entry points, resolved by name. */
struct gpu_api {
  int (*get_device_count)(int*);
  const char* (*get_error_string)(int);
  int (*set_device)(int);
  int (*malloc_device)(void**, size_t);
  int (*malloc_host)(void**, size_t, unsigned);
  int (*malloc_managed)(void**, size_t, unsigned);
  int (*free_device)(void*);
  int (*free_host)(void*);
  int (*memcpy_async)(void*, const void*, size_t, int, gpu_stream);
  int (*stream_create_with_flags)(gpu_stream*, unsigned);
  int (*stream_synchronize)(gpu_stream);
  int (*stream_destroy)(gpu_stream);
  int (*launch_host_function)(gpu_stream, gpu_host_function, void*);
  int (*event_create)(gpu_event*);
  int (*event_record)(gpu_event, gpu_stream);
  int (*event_query)(gpu_event);
  int (*event_synchronize)(gpu_event);
  int (*event_destroy)(gpu_event);
  int (*device_get_attribute)(int*, int, int);
  int (*device_synchronize)(void);
};

/* The index of the one member a runtime may lack. */
#define LAUNCH_HOST_FUNCTION (offsetof(struct gpu_api, launch_host_function) / sizeof(gpu_host_function))

/* The symbol of each member of struct gpu_api, in member order. */
struct gpu_runtime {
  const char* name;               /* "CUDA" */
  const char* const* libraries;   /* tried in order */
  const char* symbols[20];        /* as struct gpu_api */
  unsigned host_alloc_flags;      /* cudaHostAllocDefault, hipHostMallocDefault */
  unsigned managed_attach_global; /* cudaMemAttachGlobal, hipMemAttachGlobal */
  /* cudaDevAttrConcurrentManagedAccess, hipDeviceAttributeConcurrentManagedAccess */
  int concurrent_managed_access;
  const char* concurrent_managed_access_name;
  /* Loaded once per process, in a child, by the first device opened. */
  struct gpu_api api;
  void* handle; /* the runtime library, once loaded */
  bool loaded;
  char load_error[256];
};

static const char* const cuda_libraries[] = {"libcudart.so", "libcudart.so.13", "libcudart.so.12", NULL};
static struct gpu_runtime cuda = {
    .name = "CUDA",
    .libraries = cuda_libraries,
    .symbols = {"cudaGetDeviceCount",
                "cudaGetErrorString",
                "cudaSetDevice",
                "cudaMalloc",
                "cudaHostAlloc",
                "cudaMallocManaged",
                "cudaFree",
                "cudaFreeHost",
                "cudaMemcpyAsync",
                "cudaStreamCreateWithFlags",
                "cudaStreamSynchronize",
                "cudaStreamDestroy",
                "cudaLaunchHostFunc",
                "cudaEventCreate",
                "cudaEventRecord",
                "cudaEventQuery",
                "cudaEventSynchronize",
                "cudaEventDestroy",
                "cudaDeviceGetAttribute",
                "cudaDeviceSynchronize"},
    .host_alloc_flags = 0,
    .managed_attach_global = 1,
    .concurrent_managed_access = 89,
    .concurrent_managed_access_name = "cudaDevAttrConcurrentManagedAccess",
};

/* libamdhip64.so.5 is Debian 12's HIP 5.2; ROCm 6 and 7 ship .6 and .7. */
static const char* const hip_libraries[] = {"libamdhip64.so", "libamdhip64.so.7", "libamdhip64.so.6",
                                            "libamdhip64.so.5", NULL};
static struct gpu_runtime hip = {
    .name = "HIP",
    .libraries = hip_libraries,
    .symbols = {"hipGetDeviceCount",
                "hipGetErrorString",
                "hipSetDevice",
                "hipMalloc",
                "hipHostMalloc",
                "hipMallocManaged",
                "hipFree",
                "hipHostFree",
                "hipMemcpyAsync",
                "hipStreamCreateWithFlags",
                "hipStreamSynchronize",
                "hipStreamDestroy",
                "hipLaunchHostFunc",
                "hipEventCreate",
                "hipEventRecord",
                "hipEventQuery",
                "hipEventSynchronize",
                "hipEventDestroy",
                "hipDeviceGetAttribute",
                "hipDeviceSynchronize"},
    .host_alloc_flags = 0,
    .managed_attach_global = 1,
    /* The enumerator's value in HIP 5.2's hip_runtime_api.h, as in ROCm 6. */
    .concurrent_managed_access = 9,
    .concurrent_managed_access_name = "hipDeviceAttributeConcurrentManagedAccess",
};

enum memory_kind { DEVICE_MEMORY, PINNED_HOST_MEMORY, MANAGED_MEMORY };

/* What a driver serves: a runtime and a kind of memory. */
struct gpu_backend {
  struct gpu_runtime* runtime;
  enum memory_kind memory;
};

/* A live device's state: the harness's own copies (copy_to_host,
 * copy_from_host) go through a stream of its own and a pinned bounce
 * buffer of BOUNCE_BYTES, made on first use and released with the device. */
struct gpu_device_state {
  gpu_stream transfers;
  void* bounce;
};

static const struct gpu_backend* backend_of(const struct adc_device* device) {
  return device->driver->backend;
}

static struct gpu_runtime* runtime_of(const struct adc_device* device) {
  return backend_of(device)->runtime;
}

/* Resolves every symbol; -1 with the reason when the runtime is missing. */
static int load(struct gpu_runtime* runtime, struct adc_error* error) {
  if (runtime->loaded) return 0;
  if (runtime->load_error[0] != '\0') return adc_fail(error, "%s", runtime->load_error);
  void* handle = NULL;
  for (int i = 0; runtime->libraries[i] != NULL && handle == NULL; i++) {
    handle = dlopen(runtime->libraries[i], RTLD_NOW | RTLD_LOCAL);
  }
  void* members[sizeof(runtime->symbols) / sizeof(runtime->symbols[0])];
  size_t n = sizeof(members) / sizeof(members[0]);
  if (handle == NULL) {
    snprintf(runtime->load_error, sizeof(runtime->load_error), "%s runtime not found: %s", runtime->name,
             dlerror());
    return adc_fail(error, "%s", runtime->load_error);
  }
  for (size_t i = 0; i < n; i++) {
    members[i] = dlsym(handle, runtime->symbols[i]);
    /* Only pauses need it, and older HIP (Debian 12's 5.2) lacks it. */
    bool optional = i == LAUNCH_HOST_FUNCTION;
    if (members[i] == NULL && !optional) {
      snprintf(runtime->load_error, sizeof(runtime->load_error), "the %s runtime lacks %s", runtime->name,
               runtime->symbols[i]);
      dlclose(handle);
      return adc_fail(error, "%s", runtime->load_error);
    }
  }
  /* dlsym returns object pointers; ISO C only lets their bytes be copied
   * into function pointers, which struct gpu_api holds in symbol order. */
  _Static_assert(sizeof(struct gpu_api) == sizeof(members), "one member per symbol");
  memcpy(&runtime->api, members, sizeof(members));
  runtime->handle = handle;
  runtime->loaded = true;
  return 0;
}

/* 0, or -1 with "<what>: <the runtime's words>". */
static int check(const struct gpu_runtime* runtime, int code, const char* what, struct adc_error* error) {
  if (code == GPU_SUCCESS) return 0;
  return adc_fail(error, "%s: %s", what, runtime->api.get_error_string(code));
}

/* Managed memory is read in place by the harness while a producer's or
 * the feed's stream may still run: only where the device lets the CPU
 * touch managed memory concurrently with GPU work (otherwise any CPU access
 * while a kernel runs faults).  Without it the device is unavailable, with
 * that reason, rather than judged by reads that may fault. */
static int check_concurrent_managed_access(const struct adc_device* device, struct adc_error* error) {
  const struct gpu_backend* backend = backend_of(device);
  struct gpu_runtime* runtime = backend->runtime;
  if (backend->memory != MANAGED_MEMORY) return 0;
  int concurrent = 0;
  if (check(runtime,
            runtime->api.device_get_attribute(&concurrent, runtime->concurrent_managed_access,
                                              (int)device->device_id),
            runtime->concurrent_managed_access_name, error) != 0) {
    return -1;
  }
  if (concurrent) return 0;
  return adc_fail(error,
                  "%s is 0: the CPU may not read managed memory while the GPU runs work, and the harness "
                  "reads %s buffers in place",
                  runtime->concurrent_managed_access_name, device->driver->name);
}

static struct gpu_device_state* ready_transfers(const struct adc_device* device, struct adc_error* error);
static void gpu_close(struct adc_device* device);

/* Whether a runtime's error says the device is there but refuses this
 * process now, which the runner retries: out of memory (2 in both
 * runtimes), CUDA's cudaErrorDevicesUnavailable (46: busy or exclusive to
 * another process) and the MPS errors (805 to 810: its server not ready,
 * its client or connection limit reached). */
static bool refuses_for_now(const struct gpu_runtime* runtime, int code) {
  if (code == 2) return true;
  return runtime == &cuda && (code == 46 || (code >= 805 && code <= 810));
}

/* As check(), but ADC_DEVICE_BUSY where the error is a refusal. */
static int check_open(const struct gpu_runtime* runtime, int code, const char* what,
                      struct adc_error* error) {
  if (check(runtime, code, what, error) == 0) return 0;
  return refuses_for_now(runtime, code) ? ADC_DEVICE_BUSY : -1;
}

static void do_nothing_on_stream(void* unused) {
  (void)unused;
}

/* The runtime runs host functions (cudaLaunchHostFunc) on a thread of its
 * own, which it starts at the first one a process queues and keeps.  One
 * that does nothing, queued as the device opens, starts that thread before
 * any case: otherwise the first case to pause a stream (the late write of
 * the *.sync_event.waited_before_reading rules) seemed to leave a thread
 * running, and ended its prepared process (seen on an H200 on 2026-11-27,
 * docs/gpu-runs/2026-11-27-second-run). */
static int start_host_function_thread(const struct adc_device* device, struct adc_error* error) {
  const struct gpu_runtime* runtime = runtime_of(device);
  const struct gpu_device_state* state = device->state;
  if (runtime->api.launch_host_function == NULL) return 0; /* no pauses either: see gpu_queue_hold */
  if (check(runtime, runtime->api.launch_host_function(state->transfers, do_nothing_on_stream, NULL),
            "starting the runtime's host-function thread", error) != 0) {
    return -1;
  }
  return check(runtime, runtime->api.stream_synchronize(state->transfers),
               "starting the runtime's host-function thread", error);
}

static int gpu_open(struct adc_device* device, struct adc_error* error) {
  struct gpu_runtime* runtime = runtime_of(device);
  if (load(runtime, error) != 0) return -1;
  int count = 0;
  const char* counting = runtime->symbols[0];
  int counted = check_open(runtime, runtime->api.get_device_count(&count), counting, error);
  if (counted != 0) return counted;
  if (count <= device->device_id) return adc_fail(error, "%s found %d device(s)", counting, count);
  int selected =
      check_open(runtime, runtime->api.set_device((int)device->device_id), "selecting the device", error);
  if (selected != 0) return selected;
  if (check_concurrent_managed_access(device, error) != 0) return -1;
  device->state = calloc(1, sizeof(struct gpu_device_state));
  if (device->state == NULL) return adc_fail(error, "out of memory for the device's state");
  /* The transfer stream and the pinned bounce buffer are made now, before
   * any producer has queued work: pinning memory (cudaHostAlloc) may
   * synchronise the device, and made at the first read it would wait for
   * a producer's late writes and hide them. */
  if (ready_transfers(device, error) == NULL) {
    gpu_close(device);
    device->state = NULL;
    /* A device that was found and selected, but cannot give a stream or
     * pinned memory to one more process: a refusal, retried. */
    return ADC_DEVICE_BUSY;
  }
  if (start_host_function_thread(device, error) != 0) {
    gpu_close(device);
    device->state = NULL;
    return -1;
  }
  return 0;
}

static void gpu_close(struct adc_device* device) {
  struct gpu_device_state* state = device->state;
  if (state == NULL) return;
  const struct gpu_api* api = &runtime_of(device)->api;
  if (state->bounce != NULL) api->free_host(state->bounce);
  if (state->transfers != NULL) api->stream_destroy(state->transfers);
  free(state);
}

/* A version number as the runtime encodes it, as text: CUDA writes
 * 1000 * major + 10 * minor, HIP 10000000 * major + 100000 * minor + patch. */
static void put_version(const struct gpu_runtime* runtime, int version, char* out, size_t size) {
  if (runtime == &cuda) {
    snprintf(out, size, "%d.%d", version / 1000, version % 1000 / 10);
  } else {
    snprintf(out, size, "%d.%d.%d", version / 10000000, version / 100000 % 100, version % 100000);
  }
}

/* The symbols are looked up here, not in struct gpu_api: describing is for
 * the report only, and a runtime lacking them still runs every case. */
static void gpu_describe(const struct adc_device* device, struct adc_device_description* out) {
  struct gpu_runtime* runtime = runtime_of(device);
  struct adc_error ignored;
  if (load(runtime, &ignored) != 0) return;
  bool is_cuda = runtime == &cuda;
  const char* version_symbols[2] = {is_cuda ? "cudaDriverGetVersion" : "hipDriverGetVersion",
                                    is_cuda ? "cudaRuntimeGetVersion" : "hipRuntimeGetVersion"};
  char* version_texts[2] = {out->driver_version, out->runtime_version};
  for (int i = 0; i < 2; i++) {
    int (*get_version)(int*) = NULL;
    void* symbol = dlsym(runtime->handle, version_symbols[i]);
    memcpy(&get_version, &symbol, sizeof(symbol)); /* as in load() */
    int version = 0;
    if (get_version != NULL && get_version(&version) == GPU_SUCCESS && version > 0) {
      put_version(runtime, version, version_texts[i], sizeof(out->driver_version));
    }
  }
  /* cudaDeviceProp and hipDeviceProp_t both begin with `char name[256]`;
   * the buffer is larger than either.  Newer runtimes name the function
   * with a suffix, older ones without. */
  const char* const property_symbols[] = {
      is_cuda ? "cudaGetDeviceProperties_v2" : "hipGetDevicePropertiesR0600",
      is_cuda ? "cudaGetDeviceProperties" : "hipGetDeviceProperties"};
  static union {
    char name[256];
    max_align_t align;
    char bytes[16384];
  } properties;
  for (int i = 0; i < 2; i++) {
    int (*get_properties)(void*, int) = NULL;
    void* symbol = dlsym(runtime->handle, property_symbols[i]);
    if (symbol == NULL) continue;
    memcpy(&get_properties, &symbol, sizeof(symbol));
    if (get_properties(&properties, (int)device->device_id) == GPU_SUCCESS) {
      snprintf(out->model, sizeof(out->model), "%.*s", (int)strnlen(properties.name, 255), properties.name);
    }
    break;
  }
}

/* spec: sync_event points to a cudaEvent_t / hipEvent_t.  The slot and the
 * handle in it are read only where they are readable (an event handle is
 * the address of the runtime's own record of it, in host memory), so that
 * a wild pointer, or an event exported by value instead of by address (a
 * common mistake), fails here with a clear message rather than crashing
 * inside the runtime. */
static int gpu_check_event(const struct adc_device* device, void* sync_event, struct adc_error* error) {
  struct gpu_runtime* runtime = runtime_of(device);
  const char* type = device->driver->kind->event_type;
  gpu_event event;
  if (adc_copy_readable(&event, sync_event, sizeof(event)) < sizeof(event)) {
    return adc_fail(error, "sync_event %p is not readable memory holding a %s", sync_event, type);
  }
  unsigned char record[sizeof(void*)];
  if (event == NULL || adc_copy_readable(record, event, sizeof(record)) < sizeof(record)) {
    return adc_fail(error,
                    "the %s at sync_event %p is %p, not the handle of an event (is sync_event the event "
                    "itself rather than its address?)",
                    type, sync_event, event);
  }
  int code = runtime->api.event_query(event);
  if (code == GPU_SUCCESS || code == GPU_NOT_READY) return 0;
  return adc_fail(error, "sync_event %p holds no valid %s event: %s", sync_event, runtime->name,
                  runtime->api.get_error_string(code));
}

static int gpu_wait_event(const struct adc_device* device, void* sync_event, struct adc_error* error) {
  if (sync_event == NULL) return 0;
  if (gpu_check_event(device, sync_event, error) != 0) return -1;
  const struct gpu_runtime* runtime = runtime_of(device);
  gpu_event event;
  memcpy(&event, sync_event, sizeof(event));
  return check(runtime, runtime->api.event_synchronize(event), "waiting on sync_event", error);
}

/* The device's transfer stream and bounce buffer (made at open). */
static struct gpu_device_state* ready_transfers(const struct adc_device* device, struct adc_error* error) {
  struct gpu_runtime* runtime = runtime_of(device);
  struct gpu_device_state* state = device->state;
  if (state->bounce != NULL) return state;
  if (state->transfers == NULL &&
      check(runtime, runtime->api.stream_create_with_flags(&state->transfers, GPU_STREAM_NON_BLOCKING),
            "creating the harness's transfer stream", error) != 0) {
    return NULL;
  }
  if (check(runtime, runtime->api.malloc_host(&state->bounce, BOUNCE_BYTES, runtime->host_alloc_flags),
            "allocating pinned memory for the harness's copies", error) != 0) {
    return NULL;
  }
  return state;
}

/* One piece of a copy on the transfer stream, complete when this returns:
 * the bytes have landed (a pageable cudaMemcpy may return before), and no
 * stream of a producer was waited for. */
static int transfer(const struct gpu_runtime* runtime, gpu_stream transfers, void* destination,
                    const void* source, size_t size, const char* what, struct adc_error* error) {
  if (check(runtime, runtime->api.memcpy_async(destination, source, size, GPU_MEMCPY_DEFAULT, transfers),
            what, error) != 0) {
    return -1;
  }
  return check(runtime, runtime->api.stream_synchronize(transfers), what, error);
}

static int gpu_copy_to_host(const struct adc_device* device, void* host, const void* source, size_t size,
                            struct adc_error* error) {
  const struct gpu_runtime* runtime = runtime_of(device);
  const struct gpu_device_state* state = ready_transfers(device, error);
  if (state == NULL) return -1;
  for (size_t done = 0; done < size; done += BOUNCE_BYTES) {
    size_t piece = size - done < BOUNCE_BYTES ? size - done : BOUNCE_BYTES;
    if (transfer(runtime, state->transfers, state->bounce, (const char*)source + done, piece, "copy to host",
                 error) != 0) {
      return -1;
    }
    memcpy((char*)host + done, state->bounce, piece);
  }
  return 0;
}

static int gpu_copy_from_host(const struct adc_device* device, void* destination, const void* host,
                              size_t size, struct adc_error* error) {
  const struct gpu_runtime* runtime = runtime_of(device);
  const struct gpu_device_state* state = ready_transfers(device, error);
  if (state == NULL) return -1;
  for (size_t done = 0; done < size; done += BOUNCE_BYTES) {
    size_t piece = size - done < BOUNCE_BYTES ? size - done : BOUNCE_BYTES;
    memcpy(state->bounce, (const char*)host + done, piece);
    if (transfer(runtime, state->transfers, (char*)destination + done, state->bounce, piece, "copy from host",
                 error) != 0) {
      return -1;
    }
  }
  return 0;
}

static void* gpu_allocate(const struct adc_device* device, size_t size, bool protectable,
                          struct adc_error* error) {
  (void)protectable; /* GPU memory cannot be made read-only: protect_read_only is NULL */
  const struct gpu_backend* backend = backend_of(device);
  struct gpu_runtime* runtime = backend->runtime;
  void* memory = NULL;
  int code = backend->memory == DEVICE_MEMORY ? runtime->api.malloc_device(&memory, size ? size : 1)
             : backend->memory == PINNED_HOST_MEMORY
                 ? runtime->api.malloc_host(&memory, size ? size : 1, runtime->host_alloc_flags)
                 : runtime->api.malloc_managed(&memory, size ? size : 1, runtime->managed_attach_global);
  return check(runtime, code, "allocating device memory", error) == 0 ? memory : NULL;
}

static void gpu_free(const struct adc_device* device, void* memory, size_t size, bool protectable) {
  (void)size;
  (void)protectable;
  const struct gpu_backend* backend = backend_of(device);
  if (memory == NULL) return;
  if (backend->memory == PINNED_HOST_MEMORY) {
    backend->runtime->api.free_host(memory);
  } else {
    backend->runtime->api.free_device(memory);
  }
}

/* ---- The queue: a stream of the runtime ---------------------------------- */

/* Blocks the queue owns until it is freed, each from malloc. */
struct owned_blocks {
  void** items;
  size_t count;
};

/* Takes `block` into `list`; false (the block left to the caller) when out
 * of memory. */
static bool own(struct owned_blocks* list, void* block) {
  void** grown = realloc(list->items, (list->count + 1) * sizeof(*grown));
  if (grown == NULL) return false;
  grown[list->count++] = block;
  list->items = grown;
  return true;
}

/* Work asked of the queue but not yet given to the stream: a pause of
 * `seconds`, or a copy of `size` bytes from pinned `staging`. */
struct pending_work {
  double* seconds; /* a pause where not NULL */
  void* destination;
  void* staging;
  size_t size;
};

struct adc_device_queue {
  struct gpu_runtime* runtime;
  gpu_stream stream; /* non-blocking: it neither waits for nor holds up the legacy default stream */
  /* What the stream reads later: the seconds of each pause (malloc), and
   * pinned host copies of queued bytes, so that a queued copy returns at
   * once and runs behind the pause (a copy from pageable memory would wait
   * for the stream's earlier work before it returned). */
  struct owned_blocks blocks;
  struct owned_blocks pinned;
  /* Each a gpu_event, created and recorded: handed out as sync_event. */
  struct owned_blocks events;
  /* Pauses and copies kept back until the next event is recorded (or the
   * queue finished): everything that allocates (the pinned staging here,
   * the caller's cudaMalloc of the buffers) then happens before the pause
   * is on the stream.  CUDA's "Implicit Synchronization": a page-locked
   * host or a device memory allocation issued between two commands keeps
   * them from running concurrently, so an allocation made after the pause
   * was queued would wait for it, and the late bytes would land before the
   * export returned. */
  struct pending_work* pending;
  size_t n_pending;
};

static struct adc_device_queue* gpu_queue_new(const struct adc_device* device, struct adc_error* error) {
  struct adc_device_queue* queue = calloc(1, sizeof(*queue));
  if (queue == NULL) {
    adc_fail(error, "out of memory for a queue");
    return NULL;
  }
  queue->runtime = runtime_of(device);
  if (check(queue->runtime,
            queue->runtime->api.stream_create_with_flags(&queue->stream, GPU_STREAM_NON_BLOCKING),
            "creating a stream", error) != 0) {
    free(queue);
    return NULL;
  }
  return queue;
}

/* A copy of `size` bytes at `source` that the queue owns; NULL when out of
 * memory. */
static void* owned_copy(struct adc_device_queue* queue, const void* source, size_t size) {
  void* block = malloc(size ? size : 1);
  if (block == NULL || !own(&queue->blocks, block)) {
    free(block);
    return NULL;
  }
  memcpy(block, source, size);
  return block;
}

static void pause_on_stream(void* seconds) {
  adc_sleep_seconds(*(const double*)seconds);
}

static int keep_pending(struct adc_device_queue* queue, struct pending_work work, struct adc_error* error) {
  struct pending_work* grown = realloc(queue->pending, (queue->n_pending + 1) * sizeof(*grown));
  if (grown == NULL) return adc_fail(error, "out of memory for queued work");
  grown[queue->n_pending++] = work;
  queue->pending = grown;
  return 0;
}

/* Gives the stream, in order, what was kept back. */
static int flush_pending(struct adc_device_queue* queue, struct adc_error* error) {
  const struct gpu_api* api = &queue->runtime->api;
  int status = 0;
  for (size_t i = 0; i < queue->n_pending && status == 0; i++) {
    const struct pending_work* work = &queue->pending[i];
    if (work->seconds != NULL) {
      status = check(queue->runtime, api->launch_host_function(queue->stream, pause_on_stream, work->seconds),
                     "queueing a pause", error);
    } else {
      status = check(
          queue->runtime,
          api->memcpy_async(work->destination, work->staging, work->size, GPU_MEMCPY_DEFAULT, queue->stream),
          "queueing a copy", error);
    }
  }
  queue->n_pending = 0;
  return status;
}

static int gpu_queue_hold(struct adc_device_queue* queue, double seconds, struct adc_error* error) {
  if (queue->runtime->api.launch_host_function == NULL) {
    return adc_fail(error, "the %s runtime lacks %s, with which a stream is made to pause",
                    queue->runtime->name, queue->runtime->symbols[LAUNCH_HOST_FUNCTION]);
  }
  double* pause = owned_copy(queue, &seconds, sizeof(seconds));
  if (pause == NULL) return adc_fail(error, "out of memory for a pause");
  return keep_pending(queue, (struct pending_work){.seconds = pause}, error);
}

static int gpu_queue_copy_from_host(struct adc_device_queue* queue, void* destination, const void* host,
                                    size_t size, struct adc_error* error) {
  struct gpu_runtime* runtime = queue->runtime;
  void* staging = NULL;
  if (check(runtime, runtime->api.malloc_host(&staging, size ? size : 1, runtime->host_alloc_flags),
            "allocating pinned memory for a queued copy", error) != 0) {
    return -1;
  }
  if (!own(&queue->pinned, staging)) {
    runtime->api.free_host(staging);
    return adc_fail(error, "out of memory for a queued copy");
  }
  memcpy(staging, host, size);
  return keep_pending(
      queue, (struct pending_work){.destination = destination, .staging = staging, .size = size}, error);
}

static void* gpu_queue_record_event(struct adc_device_queue* queue, struct adc_error* error) {
  gpu_event* slot = malloc(sizeof(*slot));
  if (slot == NULL) {
    adc_fail(error, "out of memory for an event");
    return NULL;
  }
  if (check(queue->runtime, queue->runtime->api.event_create(slot), "creating an event", error) != 0) {
    free(slot);
    return NULL;
  }
  if (!own(&queue->events, slot)) {
    queue->runtime->api.event_destroy(*slot);
    free(slot);
    adc_fail(error, "out of memory for an event");
    return NULL;
  }
  /* Made before anything kept back reaches the stream: see `pending`. */
  if (flush_pending(queue, error) != 0) return NULL;
  if (check(queue->runtime, queue->runtime->api.event_record(*slot, queue->stream), "recording an event",
            error) != 0) {
    return NULL;
  }
  return slot; /* spec: sync_event is a cudaEvent_t* / hipEvent_t* */
}

static void gpu_queue_finish(struct adc_device_queue* queue) {
  struct adc_error ignored; /* what cannot be queued cannot be waited for either */
  flush_pending(queue, &ignored);
  queue->runtime->api.stream_synchronize(queue->stream);
}

static void gpu_queue_free(struct adc_device_queue* queue) {
  if (queue == NULL) return;
  gpu_queue_finish(queue);
  for (size_t i = 0; i < queue->events.count; i++) {
    queue->runtime->api.event_destroy(*(gpu_event*)queue->events.items[i]);
    free(queue->events.items[i]);
  }
  for (size_t i = 0; i < queue->blocks.count; i++) free(queue->blocks.items[i]);
  for (size_t i = 0; i < queue->pinned.count; i++) queue->runtime->api.free_host(queue->pinned.items[i]);
  free(queue->pinned.items);
  queue->runtime->api.stream_destroy(queue->stream);
  free(queue->events.items);
  free(queue->blocks.items);
  free(queue->pending);
  free(queue);
}

/* Between two cases of a prepared process: whatever a library queued has
 * run, and an error that sticks to the context (a kernel's illegal
 * address) shows here, ending the process rather than the next case. */
static int gpu_settle(const struct adc_device* device, struct adc_error* error) {
  struct gpu_runtime* runtime = runtime_of(device);
  return check(runtime, runtime->api.device_synchronize(), "synchronising the device", error);
}

static const struct adc_device_ops gpu_ops = {
    .open = gpu_open,
    .close = gpu_close,
    .describe = gpu_describe,
    .wait_event = gpu_wait_event,
    .copy_to_host = gpu_copy_to_host,
    .copy_from_host = gpu_copy_from_host,
    .allocate = gpu_allocate,
    .free = gpu_free,
    .check_event = gpu_check_event,
    .settle = gpu_settle,
};

/* A pause is a sleeping host function: the hold follows a time, not a
 * synchronisation. */
static const struct adc_device_queue_ops gpu_queue = {
    .hold_follows_synchronisation = false,
    .create = gpu_queue_new,
    .hold = gpu_queue_hold,
    .copy_from_host = gpu_queue_copy_from_host,
    .record_event = gpu_queue_record_event,
    .finish = gpu_queue_finish,
    .free = gpu_queue_free,
};

/* Every GPU driver: the same operations, its own kind and backend. */
/* Every driver of a runtime is the same GPU: its drivers' processes are
 * admitted together, and each starts the runtime (a context). */
#define GPU_DRIVER(variable, device_name, device_kind, runtime_var, memory_kind, gpu) \
  static const struct gpu_backend variable##_backend = {&runtime_var, memory_kind};   \
  const struct adc_device_driver variable = {                                         \
      .name = device_name,                                                            \
      .kind = &device_kind,                                                           \
      .batches_as_device_arrays = true,                                               \
      .ops = &gpu_ops,                                                                \
      .queue = &gpu_queue,                                                            \
      .backend = &variable##_backend,                                                 \
      .start_is_costly = adc_device_start_always_costly,                              \
      .physical_device = gpu,                                                         \
  };

GPU_DRIVER(adc_device_cuda, "cuda", adc_device_kind_cuda, cuda, DEVICE_MEMORY, "CUDA GPU")
GPU_DRIVER(adc_device_cuda_host, "cuda_host", adc_device_kind_cuda_host, cuda, PINNED_HOST_MEMORY, "CUDA GPU")
GPU_DRIVER(adc_device_cuda_managed, "cuda_managed", adc_device_kind_cuda_managed, cuda, MANAGED_MEMORY,
           "CUDA GPU")
GPU_DRIVER(adc_device_rocm, "rocm", adc_device_kind_rocm, hip, DEVICE_MEMORY, "ROCm GPU")
GPU_DRIVER(adc_device_rocm_host, "rocm_host", adc_device_kind_rocm_host, hip, PINNED_HOST_MEMORY, "ROCm GPU")
