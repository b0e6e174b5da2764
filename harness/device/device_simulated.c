/* The simulated device (include/adc/simulated_device.h): host memory that
 * the harness treats as device memory, reached only through copies, and an
 * event that completes when a worker thread has done what was queued before
 * it.  It is how the event rules run for real where there is no GPU.
 *
 * Its queue is a worker thread running jobs in order, as a GPU stream runs
 * kernels and copies.  Where a GPU's queue would pause for a while to
 * write late, this one holds its work until a consumer begins to
 * synchronise on an event recorded behind the hold (the event counts its
 * waits and queries as they begin): a consumer that reads before it
 * synchronises finds the bytes unwritten however slow the machine is, and
 * one that waits is never held by a timer. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adc/simulated_device.h"
#include "device/device_drivers.h"
#include "device/host_memory.h"
#include "device/simulated_runtime_model.h"
#include "support/clock.h"
#include "support/safe_read.h"

/* How often a hold looks again at what may open it besides the event it
 * watches (a later event, a finish): a poll, never a verdict's timer. */
#define HOLD_POLL_SECONDS 0.001

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

enum job_kind { JOB_HOLD, JOB_COPY, JOB_SIGNAL };

struct job {
  enum job_kind kind;
  size_t first_watched_event;        /* JOB_HOLD: the index of the first event recorded behind it */
  double patience_seconds;           /* JOB_HOLD: how long it stays shut once a synchronisation began */
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
  bool busy;     /* the worker is running a job */
  bool closing;  /* the worker ends once the list is empty */
  int finishing; /* finishes under way: every hold opens */
  pthread_t worker;
  struct adc_simulated_event** events; /* under mutex: recorded so far; destroyed by queue_free */
  size_t n_events;
};

/* Whether a synchronisation on `event` has begun. */
static bool synchronised_on(struct adc_simulated_event* event) {
  pthread_mutex_lock(&event->mutex);
  bool begun = event->sync_calls > 0;
  pthread_mutex_unlock(&event->mutex);
  return begun;
}

/* Whether a hold whose first watched event is `first` may open: a
 * synchronisation began on that event or a later one (a consumer may wait
 * on the batches out of order), or a finish flushes the queue.  Sets
 * `*watched` to the first watched event, NULL while none is recorded. */
static bool hold_opens(struct adc_device_queue* queue, size_t first, struct adc_simulated_event** watched) {
  /* The list grows under the queue's lock as events are recorded; an
   * event's lock is only ever taken inside it, never the other way. */
  pthread_mutex_lock(&queue->mutex);
  bool open = queue->finishing > 0 || queue->closing;
  *watched = first < queue->n_events ? queue->events[first] : NULL;
  for (size_t e = first; !open && e < queue->n_events; e++) open = synchronised_on(queue->events[e]);
  pthread_mutex_unlock(&queue->mutex);
  return open;
}

/* Runs a hold: returns when it opens.  The watched event's broadcast wakes
 * it at once when a consumer waits on it, the common case; anything else
 * is seen by the next poll. */
static void run_hold(struct adc_device_queue* queue, size_t first) {
  struct adc_simulated_event* watched;
  while (!hold_opens(queue, first, &watched)) {
    if (watched != NULL) {
      /* The event's condition variable measures time on the real-time clock. */
      struct timespec deadline = adc_realtime_deadline(HOLD_POLL_SECONDS);
      pthread_mutex_lock(&watched->mutex);
      if (watched->sync_calls == 0) pthread_cond_timedwait(&watched->changed, &watched->mutex, &deadline);
      pthread_mutex_unlock(&watched->mutex);
    } else {
      struct timespec deadline = adc_monotonic_deadline(HOLD_POLL_SECONDS);
      pthread_mutex_lock(&queue->mutex);
      if (queue->n_events <= first && queue->finishing == 0 && !queue->closing) {
        pthread_cond_timedwait(&queue->changed, &queue->mutex, &deadline);
      }
      pthread_mutex_unlock(&queue->mutex);
    }
  }
}

/* A hold longer than a consumer's patience: shut `seconds` more once a
 * synchronisation began, unless a finish or the queue's end flushes it. */
static void hold_past_synchronisation(struct adc_device_queue* queue, double seconds) {
  struct timespec deadline = adc_monotonic_deadline(seconds);
  pthread_mutex_lock(&queue->mutex);
  while (queue->finishing == 0 && !queue->closing &&
         pthread_cond_timedwait(&queue->changed, &queue->mutex, &deadline) == 0) {
  }
  pthread_mutex_unlock(&queue->mutex);
}

static void run_job(struct adc_device_queue* queue, struct job* job) {
  switch (job->kind) {
    case JOB_HOLD:
      run_hold(queue, job->first_watched_event);
      if (job->patience_seconds > 0) hold_past_synchronisation(queue, job->patience_seconds);
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
    run_job(queue, job);
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
  adc_monotonic_cond_init(&queue->changed);
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

/* The hold watches the events recorded behind it, from the next one on,
 * and stays shut `patience_seconds` more once one is synchronised on. */
static int push_hold(struct adc_device_queue* queue, double patience_seconds, struct adc_error* error) {
  struct job* job = new_job(JOB_HOLD);
  if (job != NULL) {
    pthread_mutex_lock(&queue->mutex);
    job->first_watched_event = queue->n_events;
    pthread_mutex_unlock(&queue->mutex);
    job->patience_seconds = patience_seconds;
  }
  return push(queue, job, error);
}

/* `seconds` is for devices that cannot tell when someone synchronises. */
static int simulated_queue_hold(struct adc_device_queue* queue, double seconds, struct adc_error* error) {
  (void)seconds;
  return push_hold(queue, 0, error);
}

static int simulated_queue_hold_past_synchronisation(struct adc_device_queue* queue, double patience_seconds,
                                                     struct adc_error* error) {
  return push_hold(queue, patience_seconds, error);
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
  struct adc_simulated_event* event = malloc(sizeof(*event));
  if (event == NULL || adc_simulated_event_init(event) != 0) {
    free(event);
    adc_fail(error, "cannot make a simulated event");
    return NULL;
  }
  /* The worker reads the list while a hold runs: it grows under the lock. */
  pthread_mutex_lock(&queue->mutex);
  struct adc_simulated_event** grown = realloc(queue->events, (queue->n_events + 1) * sizeof(*grown));
  if (grown != NULL) {
    queue->events = grown;
    queue->events[queue->n_events++] = event;
    pthread_cond_broadcast(&queue->changed);
  }
  pthread_mutex_unlock(&queue->mutex);
  if (grown == NULL) {
    adc_simulated_event_destroy(event);
    free(event);
    adc_fail(error, "cannot make a simulated event");
    return NULL;
  }
  struct job* job = new_job(JOB_SIGNAL);
  if (job != NULL) job->event = event;
  return push(queue, job, error) == 0 ? event : NULL;
}

/* Opens every hold: what was queued runs now. */
static void simulated_queue_finish(struct adc_device_queue* queue) {
  pthread_mutex_lock(&queue->mutex);
  queue->finishing++;
  pthread_cond_broadcast(&queue->changed);
  while (queue->head != NULL || queue->busy) pthread_cond_wait(&queue->changed, &queue->mutex);
  queue->finishing--;
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
  char model[96];
  adc_simulated_model_describe(model, sizeof(model));
  snprintf(out->model, sizeof(out->model), "simulated asynchronous device on %.50s%s%.50s%s", host,
           model[0] ? " (runtime model: " : "", model, model[0] ? ")" : "");
}

/* Host memory, behind the runtime model where the environment asks for
 * it (simulated_runtime_model.h). */
static int simulated_open(struct adc_device* device, struct adc_error* error) {
  if (device->device_id < 0 || device->device_id >= ADC_SIMULATED_DEVICE_COUNT) {
    return adc_fail(error, "the simulated runtime has %d devices (ids 0 to %d), not %lld",
                    ADC_SIMULATED_DEVICE_COUNT, ADC_SIMULATED_DEVICE_COUNT - 1, (long long)device->device_id);
  }
  int started = adc_simulated_model_start(error);
  if (started != 0) return started;
  return adc_host_open(device, error);
}

/* The model's start is costly, as a GPU's: the runner then treats the
 * device as it treats one. */
static bool simulated_start_is_costly(void) {
  return adc_simulated_model_on();
}

/* ADC_SIMULATED_NO_READ_ONLY set: the device makes no memory read-only,
 * as a GPU cannot, so that the rules that protect memory where they can
 * take their other way here (test_broken_implementations --through-copies
 * sets it). */
static bool simulated_read_only_declined(void) {
  return getenv("ADC_SIMULATED_NO_READ_ONLY") != NULL;
}

static const struct adc_device_ops simulated_ops = {
    .open = simulated_open,
    .describe = simulated_describe,
    .wait_event = simulated_wait_event,
    .copy_to_host = adc_host_copy,
    .copy_from_host = adc_host_copy,
    .allocate = adc_host_allocate,
    .free = adc_host_free,
    .protect_read_only = adc_host_protect_read_only,
    .check_event = simulated_check_event,
};

static const struct adc_device_queue_ops simulated_queue = {
    .hold_follows_synchronisation = true,
    .create = simulated_queue_new,
    .hold = simulated_queue_hold,
    .hold_past_synchronisation = simulated_queue_hold_past_synchronisation,
    .copy_from_host = simulated_queue_copy_from_host,
    .record_event = simulated_queue_record_event,
    .finish = simulated_queue_finish,
    .free = simulated_queue_free,
};

const struct adc_device_driver adc_device_simulated = {
    .name = "simulated",
    .kind = &adc_device_kind_simulated,
    .batches_as_device_arrays = true,
    /* Host memory, but read only through copies, as a GPU's is, so that
     * every rule takes the path it takes on a GPU. */
    .reads_through_copies = true,
    .ops = &simulated_ops,
    .queue = &simulated_queue,
    .start_is_costly = simulated_start_is_costly,
    .read_only_declined = simulated_read_only_declined,
    .physical_device = "simulated runtime",
};
