/* The simulated device (include/adc/simulated_device.h): host memory that
 * the harness treats as device memory, reached only through copies, and an
 * event that completes when a worker thread has done what was queued before
 * it.  It is how the event rules run for real where there is no GPU.
 *
 * Its queue is a worker thread running jobs in order, as a GPU stream runs
 * kernels and copies. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adc/simulated_device.h"
#include "device/device_kinds.h"
#include "device/host_memory.h"
#include "support/clock.h"
#include "support/safe_read.h"

/* A sync_event from a library is read only once it is known to be readable
 * and to carry the event's magic number. */
static int simulated_check_event(const struct adc_device* device, void* sync_event, struct adc_error* error) {
  (void)device;
  struct adc_simulated_event copy;
  size_t readable = adc_copy_readable(&copy, sync_event, sizeof(copy));
  if (readable < sizeof(copy)) {
    return adc_fail(error, "sync_event %p is not readable memory of the size of struct adc_simulated_event",
                    sync_event);
  }
  if (copy.magic != ADC_SIMULATED_EVENT_MAGIC) {
    return adc_fail(error,
                    "sync_event %p is not a live struct adc_simulated_event (magic 0x%08x, 0x%08x expected)",
                    sync_event, copy.magic, ADC_SIMULATED_EVENT_MAGIC);
  }
  return 0;
}

static int simulated_wait_event(const struct adc_device* device, void* sync_event, struct adc_error* error) {
  if (sync_event == NULL) return 0; /* spec: NULL means the data may be read at once */
  if (simulated_check_event(device, sync_event, error) != 0) return -1;
  adc_simulated_event_wait(sync_event);
  return 0;
}

/* ---- The queue ------------------------------------------------------------ */

enum job_kind { JOB_DELAY, JOB_COPY, JOB_SIGNAL };

struct job {
  enum job_kind kind;
  double seconds;                    /* JOB_DELAY */
  void* destination;                 /* JOB_COPY */
  void* host;                        /* JOB_COPY: the queue's own copy of the bytes */
  size_t size;                       /* JOB_COPY */
  struct adc_simulated_event* event; /* JOB_SIGNAL */
  struct job* next;
};

struct adc_device_queue {
  pthread_mutex_t mutex;
  pthread_cond_t changed;
  struct job* head; /* under mutex */
  struct job** tail;
  bool busy;    /* the worker is running a job */
  bool closing; /* the worker ends once the list is empty */
  pthread_t worker;
  struct adc_simulated_event** events; /* recorded so far; destroyed by queue_free */
  size_t n_events;
};

static void run_job(struct job* job) {
  switch (job->kind) {
    case JOB_DELAY:
      adc_sleep_seconds(job->seconds);
      break;
    case JOB_COPY:
      memcpy(job->destination, job->host, job->size);
      break;
    case JOB_SIGNAL:
      adc_simulated_event_signal(job->event);
      break;
  }
}

static void* work(void* argument) {
  struct adc_device_queue* queue = argument;
  pthread_mutex_lock(&queue->mutex);
  for (;;) {
    while (queue->head == NULL && !queue->closing) pthread_cond_wait(&queue->changed, &queue->mutex);
    struct job* job = queue->head;
    if (job == NULL) break;
    queue->head = job->next;
    if (queue->head == NULL) queue->tail = &queue->head;
    queue->busy = true;
    pthread_mutex_unlock(&queue->mutex);
    run_job(job);
    free(job->host);
    free(job);
    pthread_mutex_lock(&queue->mutex);
    queue->busy = false;
    pthread_cond_broadcast(&queue->changed);
  }
  pthread_mutex_unlock(&queue->mutex);
  return NULL;
}

static struct adc_device_queue* simulated_queue_new(const struct adc_device* device,
                                                    struct adc_error* error) {
  (void)device;
  struct adc_device_queue* queue = calloc(1, sizeof(*queue));
  if (queue == NULL) {
    adc_fail(error, "out of memory for a queue");
    return NULL;
  }
  pthread_mutex_init(&queue->mutex, NULL);
  pthread_cond_init(&queue->changed, NULL);
  queue->tail = &queue->head;
  if (pthread_create(&queue->worker, NULL, work, queue) != 0) {
    pthread_cond_destroy(&queue->changed);
    pthread_mutex_destroy(&queue->mutex);
    free(queue);
    adc_fail(error, "cannot start the simulated device's worker thread");
    return NULL;
  }
  return queue;
}

static int push(struct adc_device_queue* queue, struct job* job, struct adc_error* error) {
  if (job == NULL) return adc_fail(error, "out of memory for a queued job");
  pthread_mutex_lock(&queue->mutex);
  *queue->tail = job;
  queue->tail = &job->next;
  pthread_cond_broadcast(&queue->changed);
  pthread_mutex_unlock(&queue->mutex);
  return 0;
}

static struct job* new_job(enum job_kind kind) {
  struct job* job = calloc(1, sizeof(*job));
  if (job != NULL) job->kind = kind;
  return job;
}

static int simulated_queue_delay(struct adc_device_queue* queue, double seconds, struct adc_error* error) {
  struct job* job = new_job(JOB_DELAY);
  if (job != NULL) job->seconds = seconds;
  return push(queue, job, error);
}

static int simulated_queue_copy_from_host(struct adc_device_queue* queue, void* destination, const void* host,
                                          size_t size, struct adc_error* error) {
  struct job* job = new_job(JOB_COPY);
  if (job != NULL) {
    job->host = malloc(size ? size : 1);
    if (job->host == NULL) {
      free(job);
      job = NULL;
    } else {
      memcpy(job->host, host, size);
      job->destination = destination;
      job->size = size;
    }
  }
  return push(queue, job, error);
}

static void* simulated_queue_record_event(struct adc_device_queue* queue, struct adc_error* error) {
  struct adc_simulated_event** grown = realloc(queue->events, (queue->n_events + 1) * sizeof(*grown));
  struct adc_simulated_event* event = malloc(sizeof(*event));
  if (grown != NULL) queue->events = grown;
  if (grown == NULL || event == NULL || adc_simulated_event_init(event) != 0) {
    free(event);
    adc_fail(error, "cannot make a simulated event");
    return NULL;
  }
  queue->events[queue->n_events++] = event;
  struct job* job = new_job(JOB_SIGNAL);
  if (job != NULL) job->event = event;
  return push(queue, job, error) == 0 ? event : NULL;
}

static void simulated_queue_finish(struct adc_device_queue* queue) {
  pthread_mutex_lock(&queue->mutex);
  while (queue->head != NULL || queue->busy) pthread_cond_wait(&queue->changed, &queue->mutex);
  pthread_mutex_unlock(&queue->mutex);
}

static void simulated_queue_free(struct adc_device_queue* queue) {
  if (queue == NULL) return;
  pthread_mutex_lock(&queue->mutex);
  queue->closing = true;
  pthread_cond_broadcast(&queue->changed);
  pthread_mutex_unlock(&queue->mutex);
  pthread_join(queue->worker, NULL);
  for (size_t i = 0; i < queue->n_events; i++) {
    adc_simulated_event_destroy(queue->events[i]);
    free(queue->events[i]);
  }
  free(queue->events);
  pthread_cond_destroy(&queue->changed);
  pthread_mutex_destroy(&queue->mutex);
  free(queue);
}

static void simulated_describe(const struct adc_device* device, struct adc_device_description* out) {
  adc_host_describe(device, out);
  char host[sizeof(out->model)];
  snprintf(host, sizeof(host), "%s", out->model[0] ? out->model : "the host");
  snprintf(out->model, sizeof(out->model), "simulated asynchronous device on %.120s", host);
}

const struct adc_device adc_device_simulated = {
    .name = "simulated",
    .arrow_type = ADC_SIMULATED_DEVICE_TYPE,
    .device_id = ADC_SIMULATED_DEVICE_ID,
    .event_type = "struct adc_simulated_event",
    /* Read only through copies, as a GPU's memory is, so that every rule
     * takes the path it takes on a GPU. */
    .host_accessible = false,
    .batches_as_device_arrays = true,
    .probe = adc_host_probe,
    .describe = simulated_describe,
    .wait_event = simulated_wait_event,
    .copy_to_host = adc_host_copy,
    .copy_from_host = adc_host_copy,
    .allocate = adc_host_allocate,
    .free = adc_host_free,
    .protect_read_only = adc_host_protect_read_only,
    .check_event = simulated_check_event,
    .queue_new = simulated_queue_new,
    .queue_delay = simulated_queue_delay,
    .queue_copy_from_host = simulated_queue_copy_from_host,
    .queue_record_event = simulated_queue_record_event,
    .queue_finish = simulated_queue_finish,
    .queue_free = simulated_queue_free,
};
