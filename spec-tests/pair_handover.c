#include "pair_handover.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An async producer and its consumer call from threads of their own, and a
 * consumer may call a wrapper after the case's watch is gone: one lock for
 * every record of the process. */
static pthread_mutex_t records_lock = PTHREAD_MUTEX_INITIALIZER;

/* The records kept past their watch (a structure never released, a task
 * never extracted, every stream), for the process's life: a consumer may
 * still call their wrappers.  Listed here, so that they stay reachable and
 * a leak checker counts them as kept, not lost. */
static struct pair_record* kept_records;

/* One structure handed over: what the producer set, and what the consumer
 * did with it. */
struct pair_record {
  bool is_stream;
  bool is_task;
  int extract_calls;          /* a task's */
  struct ArrowAsyncTask task; /* a task's: the producer's, copied here */
  int release_calls;
  int calls_after_release; /* a stream's */
  void (*array_release)(struct ArrowArray*);
  void* private_data;
  struct ArrowDeviceArrayStream inner; /* a stream's: the producer's, moved here */
  /* Where a stream's arrays and a task's array are watched; NULL once the
   * watch has ended (adc_pair_watch_end cuts kept records loose). */
  struct adc_pair_watch* watch;
  struct pair_record* next_kept; /* in kept_records */
};

/* With records_lock held: `record` outlives its watch. */
static void keep_locked(struct pair_record* record) {
  record->watch = NULL;
  record->next_kept = kept_records;
  kept_records = record;
}

/* Called with records_lock held. */
static struct pair_record* new_record_locked(struct adc_pair_watch* watch) {
  if (watch->n_records == watch->capacity) {
    size_t capacity = watch->capacity == 0 ? 8 : 2 * watch->capacity;
    struct pair_record** grown = realloc(watch->records, capacity * sizeof(*grown));
    if (grown == NULL) return NULL;
    watch->records = grown;
    watch->capacity = capacity;
  }
  struct pair_record* record = calloc(1, sizeof(*record));
  if (record != NULL) watch->records[watch->n_records++] = record;
  return record;
}

static struct pair_record* new_record(struct adc_pair_watch* watch) {
  pthread_mutex_lock(&records_lock);
  struct pair_record* record = new_record_locked(watch);
  if (record == NULL) watch->out_of_memory = true;
  pthread_mutex_unlock(&records_lock);
  return record;
}

/* The watch the arrays of `record` go to; NULL once it has ended. */
static struct adc_pair_watch* watch_of(const struct pair_record* record) {
  pthread_mutex_lock(&records_lock);
  struct adc_pair_watch* watch = record->watch;
  pthread_mutex_unlock(&records_lock);
  return watch;
}

/* spec: "Released structure": the producer's callback marks it released;
 * the wrapper hands the structure back to it as the producer made it. */
static void watched_array_release(struct ArrowArray* array) {
  struct pair_record* record = array->private_data;
  pthread_mutex_lock(&records_lock);
  record->release_calls++;
  pthread_mutex_unlock(&records_lock);
  array->release = record->array_release;
  array->private_data = record->private_data;
  array->release(array);
}

bool adc_pair_watch_array(struct adc_pair_watch* watch, struct ArrowArray* array) {
  if (array->release == NULL) return true; /* nothing to release: the consumer's to notice */
  struct pair_record* record = new_record(watch);
  if (record == NULL) return false;
  record->watch = watch;
  record->array_release = array->release;
  record->private_data = array->private_data;
  array->release = watched_array_release;
  array->private_data = record;
  return true;
}

static struct pair_record* stream_record(struct ArrowDeviceArrayStream* stream) {
  return stream->private_data;
}

/* A callback called on a released stream is counted and fails (spec: "This
 * callback must NOT be called on a released ArrowDeviceArrayStream"). */
static bool called_after_release(struct pair_record* record) {
  if (record->inner.release != NULL) return false;
  record->calls_after_release++;
  return true;
}

static int watched_get_schema(struct ArrowDeviceArrayStream* stream, struct ArrowSchema* out) {
  struct pair_record* record = stream_record(stream);
  if (called_after_release(record)) return EINVAL;
  return record->inner.get_schema(&record->inner, out);
}

static int watched_get_next(struct ArrowDeviceArrayStream* stream, struct ArrowDeviceArray* out) {
  struct pair_record* record = stream_record(stream);
  if (called_after_release(record)) return EINVAL;
  int code = record->inner.get_next(&record->inner, out);
  struct adc_pair_watch* watch = watch_of(record);
  if (code == 0 && watch != NULL) adc_pair_watch_array(watch, &out->array);
  return code;
}

static const char* watched_get_last_error(struct ArrowDeviceArrayStream* stream) {
  struct pair_record* record = stream_record(stream);
  if (called_after_release(record)) return "called on a released stream";
  return record->inner.get_last_error(&record->inner);
}

static void watched_stream_release(struct ArrowDeviceArrayStream* stream) {
  struct pair_record* record = stream_record(stream);
  record->release_calls++;
  if (record->inner.release != NULL) record->inner.release(&record->inner);
  record->inner.release = NULL;
  stream->release = NULL;
}

bool adc_pair_watch_stream(struct adc_pair_watch* watch, struct ArrowDeviceArrayStream* stream) {
  if (stream->release == NULL) return true;
  struct pair_record* record = new_record(watch);
  if (record == NULL) return false;
  record->is_stream = true;
  record->inner = *stream;
  record->watch = watch;
  /* The producer's stream now lives in the record (spec: "Moving an
   * array": a structure may be moved by copying it). */
  *stream = (struct ArrowDeviceArrayStream){
      .device_type = record->inner.device_type,
      .get_schema = watched_get_schema,
      .get_next = watched_get_next,
      .get_last_error = watched_get_last_error,
      .release = watched_stream_release,
      .private_data = record,
  };
  return true;
}

struct adc_pair_counts adc_pair_watch_end(struct adc_pair_watch* watch) {
  pthread_mutex_lock(&records_lock);
  struct adc_pair_counts counts = {.some_unwatched = watch->out_of_memory};
  for (size_t r = 0; r < watch->n_records; r++) {
    struct pair_record* record = watch->records[r];
    if (record->is_task) {
      counts.tasks++;
      counts.tasks_never_extracted += record->extract_calls == 0;
      counts.tasks_extracted_more_than_once += record->extract_calls > 1;
      /* Kept while never extracted: the consumer may still call it. */
      if (record->extract_calls == 0) {
        keep_locked(record);
      } else {
        free(record);
      }
      continue;
    }
    if (record->is_stream) {
      counts.streams++;
      counts.streams_never_released += record->release_calls == 0;
      counts.streams_released_more_than_once += record->release_calls > 1;
      counts.calls_after_release += record->calls_after_release;
    } else {
      counts.arrays++;
      counts.arrays_never_released += record->release_calls == 0;
    }
    /* A record whose structure was never released stays, and so does a
     * stream's (a callback called on the released stream finds it): its
     * wrapper may still be called. */
    if (record->release_calls == 0 || record->is_stream) {
      keep_locked(record);
    } else {
      free(record);
    }
  }
  free(watch->records);
  watch->records = NULL;
  watch->n_records = 0;
  watch->capacity = 0;
  pthread_mutex_unlock(&records_lock);
  return counts;
}

bool adc_pair_counts_clean(const struct adc_pair_counts* counts, char* text, size_t size) {
  if (counts->streams_never_released > 0) {
    snprintf(text, size, "the consumer returned without releasing %d of the %d stream(s) it was handed",
             counts->streams_never_released, counts->streams);
  } else if (counts->streams_released_more_than_once > 0) {
    snprintf(text, size, "the consumer released %d stream(s) more than once",
             counts->streams_released_more_than_once);
  } else if (counts->calls_after_release > 0) {
    snprintf(text, size, "the consumer made %d call(s) on a stream it had released",
             counts->calls_after_release);
  } else if (counts->tasks_never_extracted > 0) {
    snprintf(text, size, "the consumer never called extract_data on %d of the %d task(s) it was handed",
             counts->tasks_never_extracted, counts->tasks);
  } else if (counts->tasks_extracted_more_than_once > 0) {
    snprintf(text, size, "the consumer called extract_data more than once on %d task(s)",
             counts->tasks_extracted_more_than_once);
  } else if (counts->some_unwatched) {
    snprintf(text, size, "no memory was left to watch what the consumer was handed");
  } else if (counts->arrays_never_released > 0) {
    snprintf(text, size, "the consumer returned without releasing %d of the %d array(s) it was handed",
             counts->arrays_never_released, counts->arrays);
  } else {
    return true;
  }
  return false;
}

/* ---- async ------------------------------------------------------------- */

static struct adc_pair_async* pair_async_of(struct ArrowAsyncDeviceStreamHandler* between) {
  return between->private_data;
}

/* The consumer's producer member is the producer's own: its request and
 * cancel go straight to the producer. */
static int between_on_schema(struct ArrowAsyncDeviceStreamHandler* self, struct ArrowSchema* schema) {
  struct adc_pair_async* pair = pair_async_of(self);
  pair->consumer->producer = self->producer;
  return pair->consumer->on_schema(pair->consumer, schema);
}

static int watched_extract_data(struct ArrowAsyncTask* task, struct ArrowDeviceArray* out) {
  struct pair_record* record = task->private_data;
  pthread_mutex_lock(&records_lock);
  int calls = ++record->extract_calls;
  pthread_mutex_unlock(&records_lock);
  /* spec: extract_data is called once per task; a second call is counted,
   * never passed on to a producer that may have freed the task's state. */
  if (calls > 1) return EINVAL;
  int code = record->task.extract_data(&record->task, out);
  struct adc_pair_watch* watch = watch_of(record);
  if (code == 0 && out != NULL && watch != NULL) adc_pair_watch_array(watch, &out->array);
  return code;
}

static int between_on_next_task(struct ArrowAsyncDeviceStreamHandler* self, struct ArrowAsyncTask* task,
                                const char* metadata) {
  struct adc_pair_async* pair = pair_async_of(self);
  if (task == NULL) return pair->consumer->on_next_task(pair->consumer, NULL, metadata);
  struct pair_record* record = new_record(pair->watch);
  if (record == NULL) return pair->consumer->on_next_task(pair->consumer, task, metadata);
  /* spec: the task is valid only during on_next_task; the consumer copies
   * it, and so does the harness. */
  record->is_task = true;
  record->task = *task;
  record->watch = pair->watch;
  struct ArrowAsyncTask wrapped = {.extract_data = watched_extract_data, .private_data = record};
  return pair->consumer->on_next_task(pair->consumer, &wrapped, metadata);
}

static void between_on_error(struct ArrowAsyncDeviceStreamHandler* self, int code, const char* message,
                             const char* metadata) {
  struct adc_pair_async* pair = pair_async_of(self);
  pair->consumer->producer = self->producer;
  pair->consumer->on_error(pair->consumer, code, message, metadata);
}

static void between_release(struct ArrowAsyncDeviceStreamHandler* self) {
  struct adc_pair_async* pair = pair_async_of(self);
  pair->consumer->release(pair->consumer);
}

const char* adc_pair_async_start(void* pair_async, struct ArrowAsyncDeviceStreamHandler* handler) {
  struct adc_pair_async* pair = pair_async;
  pair->consumer = handler;
  pair->between = (struct ArrowAsyncDeviceStreamHandler){
      .on_schema = between_on_schema,
      .on_next_task = between_on_next_task,
      .on_error = between_on_error,
      .release = between_release,
      .private_data = pair,
  };
  pair->refused = pair->export_async(pair->export_context, &pair->between);
  return pair->refused;
}
