/* The OpenCL device (ARROW_DEVICE_OPENCL), on whatever OpenCL runtime the
 * ICD loader finds: PoCL on the CPU, for one, whose commands run on worker
 * threads of its own, so the event rules meet a real asynchronous runtime
 * where there is no GPU (CONFORMANCE.md, "OpenCL"; the test command
 * installs PoCL).  Its cases are forked by the run's preloading server,
 * which has mapped the runtime's libraries (preload_opencl, below).
 *
 * Buffers are fine-grained SVM allocations (opencl_context.h says why):
 * the host reads them in place once their event completed, so copies are
 * memcpy.  A sync_event is a cl_event*: producer-owned storage holding a
 * cl_event, live until the array's release (spec: "Synchronization event
 * types").  Waiting on it is clWaitForEvents, which takes an event of any
 * context; the harness never needs the producer's context.
 *
 * The queue writes late as a GPU's stream does: a hold is a barrier on a
 * user event that a timer thread completes after the hold's seconds (no
 * kernel: building one costs PoCL a second per process). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "device/device_drivers.h"
#include "device/host_memory.h"
#include "device/opencl_context.h"
#include "support/clock.h"

static struct adc_opencl_context* opened_of(const struct adc_device* device) {
  return device->state;
}

static int opencl_open(struct adc_device* device, struct adc_error* error) {
  struct adc_opencl_context* opened = calloc(1, sizeof(*opened));
  if (opened == NULL) return adc_fail(error, "out of memory");
  if (adc_opencl_open(device->device_id, opened, error) != 0) {
    free(opened);
    return -1;
  }
  device->state = opened;
  return 0;
}

static void opencl_close(struct adc_device* device) {
  if (device->state == NULL) return;
  adc_opencl_close(opened_of(device));
  free(device->state);
  device->state = NULL;
}

static void opencl_describe(const struct adc_device* device, struct adc_device_description* out) {
  if (device->state == NULL) return;
  adc_opencl_describe(opened_of(device), out->model, sizeof(out->model), out->driver_version,
                      sizeof(out->driver_version), out->runtime_version, sizeof(out->runtime_version));
}

static int opencl_check_event(const struct adc_device* device, void* sync_event, struct adc_error* error) {
  return adc_opencl_check_event(opened_of(device), sync_event, error);
}

static int opencl_wait_event(const struct adc_device* device, void* sync_event, struct adc_error* error) {
  if (sync_event == NULL) return 0; /* spec: NULL means the data may be read at once */
  if (opencl_check_event(device, sync_event, error) != 0) return -1;
  const struct adc_opencl_context* opened = opened_of(device);
  cl_event event = *(cl_event*)sync_event;
  return adc_opencl_check(opened->api->wait_for_events(1, &event), "clWaitForEvents on the sync_event",
                          error);
}

static void* opencl_allocate(const struct adc_device* device, size_t size, bool protectable,
                             struct adc_error* error) {
  (void)protectable; /* never protected: protect_read_only is NULL (PoCL aligns SVM to 128 bytes at most) */
  const struct adc_opencl_context* opened = opened_of(device);
  void* memory = opened->api->svm_alloc(opened->context, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER,
                                        size > 0 ? size : 1, 0);
  if (memory == NULL) adc_fail(error, "clSVMAlloc of %zu fine-grained bytes failed", size);
  return memory;
}

static void opencl_free(const struct adc_device* device, void* memory, size_t size, bool protectable) {
  (void)size;
  (void)protectable;
  const struct adc_opencl_context* opened = opened_of(device);
  if (memory != NULL) opened->api->svm_free(opened->context, memory);
}

/* ---- The queue ------------------------------------------------------------ */

/* What a queue keeps until it is freed: staged bytes, events it handed
 * out (a cl_event each, at a stable address: the sync_event), the gates of
 * its holds and the threads that open them. */
struct kept {
  enum { KEPT_BYTES, KEPT_EVENT, KEPT_GATE } kind;
  void* bytes;      /* KEPT_BYTES */
  cl_event event;   /* KEPT_EVENT, KEPT_GATE; the sync_event is &event */
  pthread_t opener; /* KEPT_GATE */
  double seconds;   /* KEPT_GATE */
  const struct adc_opencl_api* api;
  struct kept* next;
};

struct adc_device_queue {
  const struct adc_opencl_context* opened;
  cl_command_queue queue; /* in order, its own */
  struct kept* kept;
};

static struct kept* keep(struct adc_device_queue* queue, int kind, struct adc_error* error) {
  struct kept* item = calloc(1, sizeof(*item));
  if (item == NULL) {
    adc_fail(error, "out of memory");
    return NULL;
  }
  item->kind = kind;
  item->api = queue->opened->api;
  item->next = queue->kept;
  queue->kept = item;
  return item;
}

static struct adc_device_queue* opencl_queue_new(const struct adc_device* device, struct adc_error* error) {
  struct adc_device_queue* queue = calloc(1, sizeof(*queue));
  if (queue == NULL) {
    adc_fail(error, "out of memory");
    return NULL;
  }
  queue->opened = opened_of(device);
  cl_int code = CL_SUCCESS;
  queue->queue = queue->opened->api->create_queue(queue->opened->context, queue->opened->device, NULL, &code);
  if (adc_opencl_check(code, "clCreateCommandQueueWithProperties", error) != 0) {
    free(queue);
    return NULL;
  }
  return queue;
}

/* Opens a hold's gate once its seconds have passed. */
static void* open_gate_later(void* argument) {
  struct kept* gate = argument;
  adc_sleep_seconds(gate->seconds);
  gate->api->set_user_event_status(gate->event, CL_COMPLETE);
  return NULL;
}

static int opencl_queue_hold(struct adc_device_queue* queue, double seconds, struct adc_error* error) {
  const struct adc_opencl_api* api = queue->opened->api;
  struct kept* gate = keep(queue, KEPT_GATE, error);
  if (gate == NULL) return -1;
  cl_int code = CL_SUCCESS;
  gate->event = api->create_user_event(queue->opened->context, &code);
  if (adc_opencl_check(code, "clCreateUserEvent", error) != 0) return -1;
  gate->seconds = seconds;
  if (adc_opencl_check(api->enqueue_barrier(queue->queue, 1, &gate->event, NULL),
                       "clEnqueueBarrierWithWaitList", error) != 0) {
    api->set_user_event_status(gate->event, CL_COMPLETE);
    return -1;
  }
  if (pthread_create(&gate->opener, NULL, open_gate_later, gate) != 0) {
    api->set_user_event_status(gate->event, CL_COMPLETE);
    gate->kind = KEPT_EVENT; /* opened, with no thread to join */
    return adc_fail(error, "cannot start the thread that opens a hold");
  }
  return 0;
}

static int opencl_queue_copy_from_host(struct adc_device_queue* queue, void* destination, const void* host,
                                       size_t size, struct adc_error* error) {
  struct kept* staged = keep(queue, KEPT_BYTES, error);
  if (staged == NULL) return -1;
  staged->bytes = malloc(size > 0 ? size : 1);
  if (staged->bytes == NULL) return adc_fail(error, "out of memory");
  if (size > 0) memcpy(staged->bytes, host, size);
  return adc_opencl_check(queue->opened->api->enqueue_svm_memcpy(queue->queue, CL_FALSE, destination,
                                                                 staged->bytes, size, 0, NULL, NULL),
                          "clEnqueueSVMMemcpy", error);
}

static void* opencl_queue_record_event(struct adc_device_queue* queue, struct adc_error* error) {
  const struct adc_opencl_api* api = queue->opened->api;
  struct kept* marker = keep(queue, KEPT_EVENT, error);
  if (marker == NULL) return NULL;
  if (adc_opencl_check(api->enqueue_marker(queue->queue, 0, NULL, &marker->event),
                       "clEnqueueMarkerWithWaitList", error) != 0) {
    return NULL;
  }
  /* Submitted now: a runtime may hold commands until a flush. */
  api->flush(queue->queue);
  return &marker->event;
}

static void opencl_queue_finish(struct adc_device_queue* queue) {
  queue->opened->api->finish(queue->queue);
}

static void opencl_queue_free(struct adc_device_queue* queue) {
  const struct adc_opencl_api* api = queue->opened->api;
  api->finish(queue->queue); /* every hold opens within its seconds */
  while (queue->kept != NULL) {
    struct kept* item = queue->kept;
    queue->kept = item->next;
    if (item->kind == KEPT_GATE) pthread_join(item->opener, NULL);
    if (item->event != NULL) api->release_event(item->event);
    free(item->bytes);
    free(item);
  }
  api->release_queue(queue->queue);
  free(queue);
}

static const struct adc_device_ops opencl_ops = {
    .open = opencl_open,
    .close = opencl_close,
    .describe = opencl_describe,
    .wait_event = opencl_wait_event,
    /* Fine-grained SVM: the host reads and writes it in place. */
    .copy_to_host = adc_host_copy,
    .copy_from_host = adc_host_copy,
    .allocate = opencl_allocate,
    .free = opencl_free,
    .check_event = opencl_check_event,
};

static const struct adc_device_queue_ops opencl_queue = {
    .hold_follows_synchronisation = false,
    .create = opencl_queue_new,
    .hold = opencl_queue_hold,
    .copy_from_host = opencl_queue_copy_from_host,
    .record_event = opencl_queue_record_event,
    .finish = opencl_queue_finish,
    .free = opencl_queue_free,
};

/* PoCL brings LLVM: about 30 ms a process to load, which each case's
 * process is spared by finding it mapped (runner/preload_server.h). */
static void preload_opencl(void) {
  adc_opencl_map_libraries();
}

ADC_DEFINE_OPENCL_DRIVER(&opencl_ops, &opencl_queue, preload_opencl)
