/* The feed's async producer (spec: "Async Device Stream Interface"), built
 * to observe the consumer it is handed to.
 *
 * The producer and the records of its tasks live until adc_feed_free, which
 * joins the delivery thread first: a callback the consumer calls late (a
 * second extract_data, request from inside release) finds them intact and
 * is counted.  The schema and the arrays are the feed's own exports, with
 * their records (feed_records.h), so their releases are counted there;
 * each array is exported as feed_batch.c makes any batch, late writes
 * included.
 *
 * Threads: the handler's callbacks are made by one thread at a time (the
 * consumer's, inside start, then the delivery thread), never while holding
 * `mutex`; request, cancel and extract_data may come from any thread and
 * take `mutex`. */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "consumer_feed/feed_async.h"
#include "consumer_feed/feed_batch.h"
#include "consumer_feed/feed_records.h"
#include "support/activity_watch.h"
#include "support/clock.h"

/* The record of one task; the ArrowAsyncTask handed to on_next_task lives
 * in it, so a call through a task kept past on_next_task stays defined. */
struct feed_task {
  struct feed_task* next; /* in the producer's list, newest first */
  struct adc_feed_async* producer;
  struct ArrowAsyncTask task;
  int64_t batch;
  int extract_calls;
  struct feed_record* array; /* the exported batch's record; NULL when none was exported */
};

enum next_step {
  STEP_TASK,
  STEP_END,
  STEP_FAIL,
  STEP_NO_CREDIT,
  STEP_STALLED,
  STEP_BAD_REQUEST,
  STEP_CANCELLED,
  STEP_ERROR_AFTER_CANCEL
};

struct adc_feed_async {
  struct adc_feed_async* next; /* in the feed's list */
  struct adc_feed* feed;
  const struct arrow_json_file* file;
  struct adc_feed_async_options options;
  struct ArrowAsyncProducer producer;
  struct ArrowAsyncDeviceStreamHandler* handler;
  struct ArrowSchema schema; /* what on_schema is given: not on a stack, so a late release stays defined */
  struct feed_record* schema_record;
  struct feed_task* tasks;
  int64_t next_batch;
  char error_message[256]; /* what on_error is given */
  char error_metadata[64];
  struct adc_error feed_error;
  pthread_t thread;
  bool thread_started;
  bool thread_joined;

  pthread_mutex_t mutex; /* guards what follows, and every export */
  pthread_cond_t changed;
  int64_t credit;
  bool cancelled;
  /* The feed has begun to release the handler: from then on a producer may
   * be gone (spec: "ArrowAsyncProducer Lifetime"). */
  bool releasing;
  bool bad_request_pending;
  bool import_returned;
  struct adc_feed_async_counts counts;
};

/* The handler callback the feed is inside, on this thread: request or cancel
 * called meanwhile was called from inside it (spec: on_error "MUST NOT call
 * any methods of an ArrowAsyncProducer object"; release "must not call any
 * methods of an ArrowAsyncProducer object"). */
static _Thread_local const char* inside_handler_callback;

/* With the feed's mutex held: a call of the producer made from inside a
 * handler callback, or once the handler's release has begun. */
static void note_call_out_of_turn(struct adc_feed_async* producer, const char* call) {
  if (inside_handler_callback == NULL) {
    if (producer->releasing && producer->counts.producer_calls_after_release++ == 0)
      producer->counts.first_producer_call_after_release = call;
    return;
  }
  if (producer->counts.producer_calls_inside_handler++ == 0) {
    producer->counts.first_producer_call = call;
    producer->counts.first_producer_call_inside = inside_handler_callback;
  }
}

/* spec: request "MUST NOT synchronously call on_next_task or on_error": it
 * adds credit and wakes the delivery thread. */
static void request(struct ArrowAsyncProducer* self, int64_t n) {
  struct adc_feed_async* producer = self->private_data;
  pthread_mutex_lock(&producer->mutex);
  note_call_out_of_turn(producer, "request");
  producer->counts.requests++;
  if (n <= 0) {
    /* spec: "It is invalid to call this function with a value of n that is
     * <= 0.  Producers should error (e.g. call on_error)". */
    producer->counts.invalid_requests++;
    producer->bad_request_pending = true;
  } else if (!producer->cancelled) { /* spec: after cancel, request is "a NOP" */
    producer->credit += n;
    producer->counts.requested += n;
  }
  pthread_cond_signal(&producer->changed);
  pthread_mutex_unlock(&producer->mutex);
}

/* spec: "Calls to cancel must be idempotent and thread-safe". */
static void cancel(struct ArrowAsyncProducer* self) {
  struct adc_feed_async* producer = self->private_data;
  pthread_mutex_lock(&producer->mutex);
  note_call_out_of_turn(producer, "cancel");
  if (producer->counts.cancel_calls++ == 0) producer->counts.tasks_before_cancel = producer->counts.tasks;
  producer->cancelled = true;
  pthread_cond_signal(&producer->changed);
  pthread_mutex_unlock(&producer->mutex);
}

/* spec: extract_data populates `out`, or with NULL lets the task "perform
 * necessary cleanup"; "It is only valid to call this method exactly once".
 * The batch is exported only when asked for, so a NULL `out` leaves nothing
 * to clean up; a second call is counted and does nothing else. */
static int extract_data(struct ArrowAsyncTask* task, struct ArrowDeviceArray* out) {
  struct feed_task* record = task->private_data;
  struct adc_feed_async* producer = record->producer;
  pthread_mutex_lock(&producer->mutex);
  int code = 0;
  if (++record->extract_calls == 1 && out != NULL) {
    const struct adc_feed_layout layout =
        feed_streamed_layout(record->batch, producer->options.altered_batch,
                             producer->options.late_write_seconds, producer->options.patience_seconds);
    struct adc_error error;
    if (adc_feed_export_batch(producer->feed, producer->file, record->batch, &layout, out, &error) == 0) {
      record->array = out->array.private_data;
    } else {
      producer->feed_error = error;
      producer->counts.feed_error = producer->feed_error.message;
      code = EIO;
    }
  } else if (record->extract_calls > 1) {
    code = EINVAL;
  }
  pthread_mutex_unlock(&producer->mutex);
  return code;
}

/* Whether Import has returned: the handler may be gone, so the feed calls
 * nothing more on it and records the violation. */
static bool consumer_gone(struct adc_feed_async* producer) {
  pthread_mutex_lock(&producer->mutex);
  bool gone = producer->import_returned;
  if (gone && !producer->counts.released) producer->counts.import_returned_before_release = true;
  pthread_mutex_unlock(&producer->mutex);
  return gone;
}

/* Waits, with `mutex` held, for a signal on `changed` (a request, a
 * cancel, Import's return) for the watch's pause; when none came, looks at
 * the consumer's process, with `mutex` released (request and cancel take
 * it: a consumer thread waiting for it would look quiet), and says whether
 * the watch is over.  The caller rechecks what it waits for first. */
static enum adc_watch_state wait_for_consumer(struct adc_feed_async* producer,
                                              struct adc_activity_watch* watch) {
  const struct timespec until = adc_monotonic_deadline(adc_watch_pause(watch));
  if (pthread_cond_timedwait(&producer->changed, &producer->mutex, &until) != ETIMEDOUT)
    return ADC_WATCH_GOES_ON;
  pthread_mutex_unlock(&producer->mutex);
  enum adc_watch_state state = adc_watch_look(watch);
  pthread_mutex_lock(&producer->mutex);
  return state;
}

/* What to do next, taking one credit for a batch; with `may_wait`, waits
 * for a request.  A consumer whose process is quiet (every thread waiting
 * on the process itself: the feed's thread, the one asking, is the only one
 * that could act) will request nothing more, and has stalled at once; one
 * whose process keeps a thread running, or waiting on a timer, or whose
 * threads cannot be seen, is given ADC_FEED_ASYNC_STALL_SECONDS.  The end of
 * the stream needs no credit: it hands over no data. */
static enum next_step next_step(struct adc_feed_async* producer, bool may_wait) {
  struct adc_activity_watch watch;
  adc_watch_begin(&watch, ADC_FEED_ASYNC_STALL_SECONDS, ADC_FEED_ASYNC_STALL_SECONDS);
  enum adc_watch_state watched = ADC_WATCH_GOES_ON;
  pthread_mutex_lock(&producer->mutex);
  enum next_step step = STEP_NO_CREDIT;
  for (;;) {
    bool batches_left = producer->next_batch < producer->file->n_batches;
    if (producer->bad_request_pending) {
      step = STEP_BAD_REQUEST;
    } else if (producer->cancelled && producer->options.deliver_after_cancel) {
      /* What was requested still comes, then an error. */
      step = producer->credit > 0 && batches_left ? STEP_TASK : STEP_ERROR_AFTER_CANCEL;
      if (step == STEP_TASK) producer->credit--;
    } else if (producer->cancelled) {
      step = STEP_CANCELLED;
    } else if (!batches_left) {
      step = STEP_END;
    } else if (producer->credit > 0) {
      producer->credit--;
      step = producer->next_batch == producer->options.fail_at_batch ? STEP_FAIL : STEP_TASK;
    } else if (may_wait && watched != ADC_WATCH_GOES_ON) {
      step = STEP_STALLED;
      producer->counts.stalled_quiet = watched == ADC_WATCH_QUIET;
    } else if (may_wait) {
      watched = wait_for_consumer(producer, &watch);
      continue;
    }
    break;
  }
  pthread_mutex_unlock(&producer->mutex);
  return step;
}

/* The metadata handed to on_error, encoded as ArrowSchema.metadata is: an
 * int32 pair count, then each key and value as an int32 length and bytes. */
static const char error_key[] = "adc.feed";
static const char error_value[] = "injected";

static void put_int32(char** at, int32_t value) {
  memcpy(*at, &value, sizeof(value));
  *at += sizeof(value);
}

static void encode_error_metadata(char* out) {
  put_int32(&out, 1);
  put_int32(&out, (int32_t)strlen(error_key));
  memcpy(out, error_key, strlen(error_key));
  out += strlen(error_key);
  put_int32(&out, (int32_t)strlen(error_value));
  memcpy(out, error_value, strlen(error_value));
}

/* Fills `size` bytes with the marker, repeated. */
static void overwrite(char* text, size_t size) {
  static const char marker[] = ADC_FEED_ASYNC_OVERWRITTEN;
  for (size_t i = 0; i < size; i++) text[i] = marker[i % (sizeof(marker) - 1)];
}

/* spec: on_error, "followed by the release callback"; the message and the
 * metadata are "only valid within the scope of the on_error function
 * itself", so the feed may overwrite them once it returns (the metadata's
 * encoding stays intact: only its value's bytes change). */
static void report_error(struct adc_feed_async* producer, int code, const char* message) {
  snprintf(producer->error_message, sizeof(producer->error_message), "%s", message);
  encode_error_metadata(producer->error_metadata);
  producer->counts.on_error_calls++;
  struct ArrowAsyncDeviceStreamHandler* handler = producer->handler;
  inside_handler_callback = "on_error";
  handler->on_error(handler, code, producer->error_message, producer->error_metadata);
  inside_handler_callback = NULL;
  if (!producer->options.overwrite_error_text) return;
  overwrite(producer->error_message, strlen(producer->error_message));
  size_t value_at = 3 * sizeof(int32_t) + strlen(error_key);
  overwrite(producer->error_metadata + value_at, strlen(error_value));
}

/* Exports the schema and calls on_schema.  Returns whether the stream is
 * over (the export failed, or the consumer refused the schema: spec, "A
 * producer that receives a non-zero result here must not subsequently call
 * anything other than the release callback"). */
static bool hand_schema(struct adc_feed_async* producer) {
  struct adc_error error;
  pthread_mutex_lock(&producer->mutex);
  int status = adc_feed_export_schema(producer->feed, producer->file, &producer->schema, &error);
  if (status == 0) producer->schema_record = producer->schema.private_data;
  pthread_mutex_unlock(&producer->mutex);
  if (status != 0) {
    producer->feed_error = error;
    producer->counts.feed_error = producer->feed_error.message;
    report_error(producer, ENOMEM, error.message);
    return true;
  }
  producer->counts.schema_handed = true;
  struct ArrowAsyncDeviceStreamHandler* handler = producer->handler;
  int code = handler->on_schema(handler, &producer->schema);
  /* spec: the schema is "moved to a consumer owned ArrowSchema object"; a
   * consumer may as well release it at once. */
  producer->counts.schema_left_in_place = producer->schema.release != NULL;
  return code != 0;
}

/* Hands the next batch over as a task.  Returns whether the stream is over
 * (on_next_task returned non-zero). */
static bool hand_task(struct adc_feed_async* producer) {
  struct feed_task* record = calloc(1, sizeof(*record));
  if (record == NULL) abort(); /* instrumentation has no way to report it */
  *record = (struct feed_task){.next = producer->tasks,
                               .producer = producer,
                               .task = {.extract_data = extract_data, .private_data = record},
                               .batch = producer->next_batch};
  pthread_mutex_lock(&producer->mutex);
  producer->tasks = record;
  producer->next_batch++;
  producer->counts.tasks++;
  producer->counts.tasks_after_cancel += producer->cancelled;
  pthread_mutex_unlock(&producer->mutex);
  struct ArrowAsyncDeviceStreamHandler* handler = producer->handler;
  return handler->on_next_task(handler, &record->task, NULL) != 0;
}

/* Makes handler callbacks until the stream is over (returns true) or, when
 * it may not wait, until the consumer's credit runs out (returns false). */
static bool deliver(struct adc_feed_async* producer, bool may_wait) {
  for (;;) {
    if (consumer_gone(producer)) return true;
    switch (next_step(producer, may_wait)) {
      case STEP_NO_CREDIT:
        return false;
      case STEP_TASK:
        if (hand_task(producer)) return true;
        break;
      case STEP_END:
        /* spec: "The producer signals the end of the stream by passing NULL
         * for the ArrowAsyncTask pointer". */
        producer->counts.ended = true;
        producer->handler->on_next_task(producer->handler, NULL, NULL);
        return true;
      case STEP_FAIL: {
        producer->counts.injected_error_delivered = true;
        char message[128];
        snprintf(message, sizeof(message),
                 "the harness's async stream failed on purpose at batch %" PRId64 " (an injected error)",
                 producer->next_batch);
        report_error(producer, EIO, message);
        return true;
      }
      case STEP_STALLED:
        producer->counts.stalled = true;
        report_error(producer, ETIMEDOUT,
                     producer->counts.stalled_quiet
                         ? "the consumer requested no batch, and every thread of its process waited"
                         : "the consumer requested no batch within 1 s");
        return true;
      case STEP_BAD_REQUEST:
        report_error(producer, EINVAL, "request() was called with n <= 0");
        return true;
      case STEP_ERROR_AFTER_CANCEL:
        producer->counts.error_after_cancel = true;
        report_error(producer, EIO,
                     "the harness's async producer met an error while cancelling (an injected error)");
        return true;
      case STEP_CANCELLED:
        /* spec: "Successful cancelling MUST NOT result in a producer calling
         * on_error": release alone follows. */
        return true;
    }
  }
}

/* Before release, with release_watch_seconds: watches whether Import
 * returns.  A consumer that waits for release (plugin ABI: Import blocks
 * "until the producer has released the handler") soon has every thread of
 * its process waiting on the process itself: it can only be waiting for
 * the feed, and the watch ends.  One that does not wait is on its way back
 * from Import, running (or ready to run, on a loaded machine), never quiet:
 * the watch goes on until Import returns, up to ADC_FEED_ASYNC_STALL_SECONDS
 * for a consumer that keeps running without returning.  Where the process
 * cannot go quiet (a thread of its runtime wakes on a timer) or its threads
 * cannot be seen, the watch lasts release_watch_seconds while no thread
 * runs: the window the feed had before it could tell. */
static void watch_for_return(struct adc_feed_async* producer) {
  struct adc_activity_watch watch;
  adc_watch_begin(&watch, producer->options.release_watch_seconds, ADC_FEED_ASYNC_STALL_SECONDS);
  pthread_mutex_lock(&producer->mutex);
  while (!producer->import_returned && wait_for_consumer(producer, &watch) == ADC_WATCH_GOES_ON) {
  }
  pthread_mutex_unlock(&producer->mutex);
}

/* The last call on the handler (spec: "the release callback will be called
 * as the last call on this struct").  Off the consumer's own thread, the
 * feed first watches whether Import returns (watch_for_return): an Import
 * that returns meanwhile did not wait for release, and the handler may be
 * gone, so release is not called. */
static void finish(struct adc_feed_async* producer, bool inside_start) {
  if (!inside_start && producer->options.release_watch_seconds > 0) watch_for_return(producer);
  pthread_mutex_lock(&producer->mutex);
  bool gone = producer->import_returned;
  if (gone) producer->counts.import_returned_before_release = true;
  if (!gone) producer->releasing = true;
  pthread_mutex_unlock(&producer->mutex);
  if (gone) return;
  struct ArrowAsyncDeviceStreamHandler* handler = producer->handler;
  inside_handler_callback = "release";
  handler->release(handler);
  inside_handler_callback = NULL;
  pthread_mutex_lock(&producer->mutex);
  producer->counts.released = true;
  pthread_mutex_unlock(&producer->mutex);
}

static void* delivery_thread(void* argument) {
  struct adc_feed_async* producer = argument;
  bool over = !producer->counts.schema_handed && hand_schema(producer);
  if (!over) deliver(producer, true);
  finish(producer, false);
  return NULL;
}

const char* adc_feed_async_start(void* context, struct ArrowAsyncDeviceStreamHandler* handler) {
  struct adc_feed_async* producer = context;
  pthread_mutex_lock(&producer->mutex);
  bool again = producer->counts.started;
  producer->counts.started = true;
  pthread_mutex_unlock(&producer->mutex);
  if (again) return "the harness's async producer takes one handler, and was given one already";
  producer->handler = handler;
  /* spec: "This object MUST be populated by the producer before calling the
   * on_schema callback". */
  handler->producer = &producer->producer;
  if (producer->options.deliver_inside_start) {
    /* spec: the handler "should be able to handle callbacks as soon as it
     * is passed to the producer". */
    if (hand_schema(producer) || deliver(producer, false)) {
      finish(producer, true);
      return NULL;
    }
  }
  pthread_mutex_lock(&producer->mutex);
  producer->thread_started = pthread_create(&producer->thread, NULL, delivery_thread, producer) == 0;
  bool thread_started = producer->thread_started;
  pthread_mutex_unlock(&producer->mutex);
  if (thread_started) return NULL;
  if (!producer->counts.schema_handed) return "the harness's async producer could not start its thread";
  /* Callbacks were made already: the stream must end through the handler. */
  adc_fail(&producer->feed_error, "the harness's async producer could not start its thread");
  producer->counts.feed_error = producer->feed_error.message;
  report_error(producer, EAGAIN, producer->feed_error.message);
  finish(producer, true);
  return NULL;
}

struct adc_feed_async* adc_feed_async_new(struct adc_feed* feed, const struct arrow_json_file* file,
                                          const struct adc_feed_async_options* options) {
  static const struct adc_feed_async_options plain = {.fail_at_batch = -1, .altered_batch = -1};
  struct adc_feed_async* producer = calloc(1, sizeof(*producer));
  if (producer == NULL) abort();
  producer->next = feed->asyncs;
  producer->feed = feed;
  producer->file = file;
  producer->options = options ? *options : plain;
  /* spec: device_type is "The device type that this producer will provide
   * data on"; every batch is exported to the feed's device. */
  producer->producer = (struct ArrowAsyncProducer){.device_type = feed->device->driver->kind->arrow_type,
                                                   .request = request,
                                                   .cancel = cancel,
                                                   .additional_metadata = NULL,
                                                   .private_data = producer};
  pthread_mutex_init(&producer->mutex, NULL);
  adc_monotonic_cond_init(&producer->changed); /* deadlines from adc_monotonic_deadline() */
  feed->asyncs = producer;
  return producer;
}

void adc_feed_async_import_returned(struct adc_feed_async* producer) {
  pthread_mutex_lock(&producer->mutex);
  producer->import_returned = true;
  pthread_cond_signal(&producer->changed);
  bool join = producer->thread_started && !producer->thread_joined;
  producer->thread_joined = true;
  pthread_mutex_unlock(&producer->mutex);
  if (join) pthread_join(producer->thread, NULL);
}

struct adc_feed_async_counts adc_feed_async_counts(const struct adc_feed_async* producer) {
  struct adc_feed_async_counts counts = producer->counts;
  if (producer->schema_record != NULL) counts.schema_release_calls = producer->schema_record->release_calls;
  for (const struct feed_task* task = producer->tasks; task != NULL; task = task->next) {
    counts.tasks_never_extracted += task->extract_calls == 0;
    counts.tasks_extracted_more_than_once += task->extract_calls > 1;
    if (task->array == NULL) continue;
    counts.arrays++;
    counts.arrays_never_released += task->array->release_calls == 0;
    counts.arrays_released_more_than_once += task->array->release_calls > 1;
    counts.altered_batch_read |= task->batch == producer->options.altered_batch;
  }
  return counts;
}

void feed_asyncs_free(struct adc_feed* feed) {
  while (feed->asyncs != NULL) {
    struct adc_feed_async* producer = feed->asyncs;
    adc_feed_async_import_returned(producer); /* joins the delivery thread, if still running */
    while (producer->tasks != NULL) {
      struct feed_task* next = producer->tasks->next;
      free(producer->tasks);
      producer->tasks = next;
    }
    pthread_mutex_destroy(&producer->mutex);
    pthread_cond_destroy(&producer->changed);
    feed->asyncs = producer->next;
    free(producer);
  }
}
