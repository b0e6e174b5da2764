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
 * user event (no kernel: building one costs PoCL a second per process)
 * that the queue's opener thread completes, holds in the order they were
 * queued, once the case's process is quiet after the hold before it opened
 * (support/quiescence.h: every other thread waits on this process alone,
 * so the consumer must be waiting, on the hold's event or on the runtime
 * that waits for it), or after the hold's seconds where it never is (a
 * runtime whose threads wait on timers).  A consumer that reads without
 * waiting runs meanwhile, and reads the bytes not yet written. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "device/device_drivers.h"
#include "device/host_memory.h"
#include "device/opencl_context.h"
#include "support/clock.h"
#include "support/quiescence.h"

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
 * out (a cl_event each, at a stable address: the sync_event) and the gates
 * of its holds. */
struct kept {
  enum { KEPT_BYTES, KEPT_EVENT, KEPT_GATE } kind;
  void* bytes;            /* KEPT_BYTES */
  cl_event event;         /* KEPT_EVENT, KEPT_GATE; the sync_event is &event */
  double opens_at;        /* KEPT_GATE: the latest moment it opens */
  struct kept* next_gate; /* KEPT_GATE, in the order queued */
  const struct adc_opencl_api* api;
  struct kept* next;
};

struct adc_device_queue {
  const struct adc_opencl_context* opened;
  cl_command_queue queue; /* in order, its own */
  struct kept* kept;
  /* The opener thread and the gates it opens, oldest first (under `lock`). */
  pthread_mutex_t lock;
  pthread_cond_t gate_added;
  struct kept* gates;
  struct kept** last_gate;
  bool closing;
  bool has_opener;
  pthread_t opener;
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
  pthread_mutex_init(&queue->lock, NULL);
  adc_monotonic_cond_init(&queue->gate_added);
  queue->last_gate = &queue->gates;
  cl_int code = CL_SUCCESS;
  queue->queue = queue->opened->api->create_queue(queue->opened->context, queue->opened->device, NULL, &code);
  if (adc_opencl_check(code, "clCreateCommandQueueWithProperties", error) != 0) {
    free(queue);
    return NULL;
  }
  return queue;
}

/* The next gate to open, waiting for one to be queued; NULL once the
 * queue closes with none left. */
static struct kept* next_gate(struct adc_device_queue* queue) {
  pthread_mutex_lock(&queue->lock);
  while (queue->gates == NULL && !queue->closing) pthread_cond_wait(&queue->gate_added, &queue->lock);
  struct kept* gate = queue->gates;
  if (gate != NULL) {
    queue->gates = gate->next_gate;
    if (queue->gates == NULL) queue->last_gate = &queue->gates;
  }
  pthread_mutex_unlock(&queue->lock);
  return gate;
}

/* Whether the case's process is quiet: its other threads all wait on it
 * alone.  The opener holds no lock meanwhile (quiescence.h). */
static bool consumer_waits(void) {
  return adc_process_activity() == ADC_ACTIVITY_QUIET;
}

/* Opens each gate in turn, once the process is quiet after the gate before
 * opened, or at its latest moment.  The looks start a millisecond apart
 * and space out to 16 ms while the process is busy. */
static void* open_gates(void* argument) {
  struct adc_device_queue* queue = argument;
  struct kept* gate;
  while ((gate = next_gate(queue)) != NULL) {
    double pause = 0.001;
    while (adc_now_seconds() < gate->opens_at && !consumer_waits()) {
      /* A look takes time of its own (1 ms and more on a loaded machine):
       * the time left may be past by now, and is then no sleep. */
      double left = gate->opens_at - adc_now_seconds();
      adc_sleep_seconds(pause < left ? pause : left);
      if (pause < 0.016) pause *= 2;
    }
    gate->api->set_user_event_status(gate->event, CL_COMPLETE);
  }
  return NULL;
}

/* Hands a gate to the opener, started with the queue's first hold. */
static int add_gate(struct adc_device_queue* queue, struct kept* gate, struct adc_error* error) {
  pthread_mutex_lock(&queue->lock);
  if (!queue->has_opener) queue->has_opener = pthread_create(&queue->opener, NULL, open_gates, queue) == 0;
  bool queued = queue->has_opener;
  if (queued) {
    *queue->last_gate = gate;
    queue->last_gate = &gate->next_gate;
    pthread_cond_signal(&queue->gate_added);
  }
  pthread_mutex_unlock(&queue->lock);
  return queued ? 0 : adc_fail(error, "cannot start the thread that opens holds");
}

static int opencl_queue_hold(struct adc_device_queue* queue, double seconds, struct adc_error* error) {
  const struct adc_opencl_api* api = queue->opened->api;
  struct kept* gate = keep(queue, KEPT_GATE, error);
  if (gate == NULL) return -1;
  cl_int code = CL_SUCCESS;
  gate->event = api->create_user_event(queue->opened->context, &code);
  if (adc_opencl_check(code, "clCreateUserEvent", error) != 0) return -1;
  gate->opens_at = adc_now_seconds() + seconds;
  if (adc_opencl_check(api->enqueue_barrier(queue->queue, 1, &gate->event, NULL),
                       "clEnqueueBarrierWithWaitList", error) != 0) {
    api->set_user_event_status(gate->event, CL_COMPLETE);
    return -1;
  }
  if (add_gate(queue, gate, error) != 0) {
    api->set_user_event_status(gate->event, CL_COMPLETE);
    return -1;
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
  api->finish(queue->queue); /* every hold opens: at once, this thread waiting here */
  pthread_mutex_lock(&queue->lock);
  queue->closing = true;
  pthread_cond_signal(&queue->gate_added);
  pthread_mutex_unlock(&queue->lock);
  if (queue->has_opener) pthread_join(queue->opener, NULL);
  pthread_cond_destroy(&queue->gate_added);
  pthread_mutex_destroy(&queue->lock);
  while (queue->kept != NULL) {
    struct kept* item = queue->kept;
    queue->kept = item->next;
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
