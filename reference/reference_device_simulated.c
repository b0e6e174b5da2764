/* The simulated device (include/adc/simulated_device.h): host memory filled
 * by a worker thread after the export has returned, as a GPU fills device
 * memory from a stream.  The worker signals the exported event once every
 * buffer it fills holds its bytes (spec: "the producer MUST ensure that the
 * exported data is available on the device before the event is
 * triggered").
 *
 * A device does its work when it will; this one does it at the last moment
 * it may: when a consumer begins to synchronise on the event (the event
 * counts waits and queries as they begin), or when the batch is released.
 * So a consumer that reads without waiting always finds the bytes not yet
 * written, however fast or loaded the machine, and one that waits is
 * served at once: no timer stands in for a busy device.
 *
 * Not every upload waits for the worker: a few bytes are copied at once,
 * before the export returns.  A batch with nothing left for the worker (an
 * empty one) is complete as it is handed over, and its honest sync_event is
 * NULL: there is nothing to wait for (spec: "If the sync_event member is
 * NULL, then it MUST be safe to access the data without any synchronization
 * necessary on the part of the consumer").  So the reference exports both
 * kinds, and a consumer of this device must be ready for both. */
#include <pthread.h>
#include <string.h>

#include "adc/simulated_device.h"
#include "reference_core.h"
#include "reference_device.h"

/* The largest upload copied at once, in the exporting thread, rather than
 * queued for the worker: a few bytes cost less to copy than to queue.  A
 * batch whose every upload is this small (an empty batch: at most the one
 * offset of a string column) is complete when the export returns. */
#define COPY_AT_ONCE_MAX_BYTES 8

/* Bytes a buffer holds before the worker has written it. */
#define NOT_YET_WRITTEN 0xEE

struct upload {
  void* device; /* where the bytes go */
  void* host;   /* the bytes to copy, freed with the stream */
  size_t size;
  struct upload* next;
};

struct ref_stream {
  struct upload* uploads; /* queued, in reverse order (order does not matter) */
  struct adc_simulated_event event;
  int event_ready; /* the event was initialised */
  int releasing;   /* under event.mutex: the batch is being released, nobody will wait */
  pthread_t worker;
  int worker_started;
  pthread_mutex_t join_lock; /* several buffers' releases may race to join */
  int worker_joined;
};

static const char* simulated_open_stream(int64_t device_id, struct ref_stream** out) {
  if (device_id < 0 || device_id >= ADC_SIMULATED_DEVICE_COUNT)
    return "the simulated runtime has no device of that device_id";
  struct ref_stream* stream = ref_calloc(1, sizeof(*stream));
  if (stream == NULL) return "out of memory";
  pthread_mutex_init(&stream->join_lock, NULL);
  *out = stream;
  return NULL;
}

/* Copies `host` into `device` now, in the exporting thread: the bytes are
 * in place before the export returns. */
static void copy_at_once(void* device, void* host, size_t size) {
  memcpy(device, host, size);
  ref_free(host);
}

/* Leaves `device` for the worker to fill after the export returns; 0, or -1
 * when out of memory. */
static int queue_for_worker(struct ref_stream* stream, void* device, void* host, size_t size) {
  struct upload* upload = ref_alloc(sizeof(*upload));
  if (upload == NULL) return -1;
  memset(device, NOT_YET_WRITTEN, size);
  *upload = (struct upload){device, host, size, stream->uploads};
  stream->uploads = upload;
  return 0;
}

static const char* simulated_upload(struct ref_stream* stream, void* host, size_t size, void** out) {
  void* device = ref_alloc(size);
  if (device == NULL) {
    ref_free(host);
    return "out of memory";
  }
  if (size <= COPY_AT_ONCE_MAX_BYTES) {
    copy_at_once(device, host, size);
  } else if (queue_for_worker(stream, device, host, size) != 0) {
    ref_free(device);
    ref_free(host);
    return "out of memory";
  }
  *out = device;
  return NULL;
}

/* Once a consumer begins to synchronise (or the batch is released), copies
 * every queued upload, then signals the event. */
static void* run_uploads(void* argument) {
  struct ref_stream* stream = argument;
  pthread_mutex_lock(&stream->event.mutex);
  while (stream->event.sync_calls == 0 && !stream->releasing) {
    pthread_cond_wait(&stream->event.changed, &stream->event.mutex);
  }
  pthread_mutex_unlock(&stream->event.mutex);
  for (struct upload* upload = stream->uploads; upload != NULL; upload = upload->next) {
    memcpy(upload->device, upload->host, upload->size);
  }
  adc_simulated_event_signal(&stream->event);
  return NULL;
}

static const char* simulated_record_event(struct ref_stream* stream, void** sync_event) {
  if (stream->uploads == NULL) {
    /* Every buffer was copied at once (or there is none): the data are
     * complete now and a consumer may read them without waiting, which is
     * what a NULL event promises (spec: "If the sync_event member is NULL,
     * then it MUST be safe to access the data without any synchronization
     * necessary on the part of the consumer"). */
    *sync_event = NULL;
    return NULL;
  }
  /* Some buffers wait for the worker: the event tells when (spec: "the
   * producer MUST ensure that the exported data is available on the device
   * before the event is triggered"); those copied at once are there
   * already. */
  if (adc_simulated_event_init(&stream->event) != 0) return "cannot make a simulated event";
  stream->event_ready = 1;
  if (pthread_create(&stream->worker, NULL, run_uploads, stream) != 0) {
    stream->releasing = 1; /* no thread to spare: the work is done now, waiting for nobody */
    run_uploads(stream);
  } else {
    stream->worker_started = 1;
  }
  *sync_event = &stream->event;
  return NULL;
}

/* Returns once no queued work will touch the buffers again: a worker still
 * waiting for a consumer to synchronise does its work now. */
static void join_worker(struct ref_stream* stream) {
  pthread_mutex_lock(&stream->join_lock);
  if (stream->worker_started && !stream->worker_joined) {
    pthread_mutex_lock(&stream->event.mutex);
    stream->releasing = 1;
    pthread_cond_broadcast(&stream->event.changed);
    pthread_mutex_unlock(&stream->event.mutex);
    pthread_join(stream->worker, NULL);
    stream->worker_joined = 1;
  }
  pthread_mutex_unlock(&stream->join_lock);
}

static void simulated_free_buffer(struct ref_stream* stream, void* buffer) {
  join_worker(stream);
  ref_free(buffer);
}

static void simulated_close_stream(struct ref_stream* stream) {
  join_worker(stream);
  while (stream->uploads != NULL) {
    struct upload* upload = stream->uploads;
    stream->uploads = upload->next;
    ref_free(upload->host);
    ref_free(upload);
  }
  if (stream->event_ready) adc_simulated_event_destroy(&stream->event);
  pthread_mutex_destroy(&stream->join_lock);
  ref_free(stream);
}

/* The consumer's side: the device's own sync method (spec: "If this is
 * non-null then it MUST be used to call the appropriate sync method for the
 * device ... before attempting to access the memory in the buffers"). */
static const char* simulated_wait_event(void* sync_event) {
  if (sync_event != NULL) adc_simulated_event_wait(sync_event);
  return NULL;
}

static const char* simulated_query_event(void* sync_event, bool* complete) {
  *complete = sync_event == NULL || adc_simulated_event_query(sync_event);
  return NULL;
}

/* The device's copies: its memory is host memory, so a copy is a memcpy,
 * made once the data are complete (the caller has waited on the event).
 * The consumer reads in place (its kind is host readable) and never needs them; the
 * deliberately broken libraries spoil exports through them where the
 * self-test asks them to take a GPU's copy path here
 * (ADC_TWINS_THROUGH_COPIES, fixtures/deliberately_broken/rule_twins/broken_common.c). */
static const char* simulated_copy(void* destination, const void* source, size_t size) {
  memcpy(destination, source, size);
  return NULL;
}

const struct ref_device ref_device_simulated = {
    .type = ADC_SIMULATED_DEVICE_TYPE,
    .open_stream = simulated_open_stream,
    .upload = simulated_upload,
    .record_event = simulated_record_event,
    .free_buffer = simulated_free_buffer,
    .close_stream = simulated_close_stream,
    .wait_event = simulated_wait_event,
    .query_event = simulated_query_event,
    .copy_to_host = simulated_copy,
    .copy_from_host = simulated_copy,
};
