/* The reference async device stream consumer.
 *
 * spec: "Async Device Stream Interface".  The handler is complete before it
 * is handed over; it keeps two batches requested at a time (small steps,
 * so that the producer's back-pressure is exercised, and one request still
 * pending when it cancels), extracts every task once, compares each batch
 * with the fixture, and Import returns only once the producer has released
 * the handler. */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "reference_core.h"
#include "reference_device.h"

/* The consumer's own state, from ref_alloc like every allocation of the
 * reference (reference_allocator.c), and freed before Import returns. */
struct async_consumer_state {
  struct arrow_json_file file; /* the expected data, the fixture model's memory */
  ArrowDeviceType device_type;
  int64_t next_batch;
  bool saw_end;
  /* The batch after which the consumer cancels; -1: it never does. */
  int64_t cancel_after_batch;
  bool cancelled;
  char problem[1024]; /* first problem seen; empty while all is well */
  pthread_mutex_t mutex;
  pthread_cond_t released_signal;
  bool released;
};

static int note_problem(struct async_consumer_state* state, const char* text) {
  if (state->problem[0] == '\0') snprintf(state->problem, sizeof(state->problem), "%s", text);
  return EINVAL;
}

static int consumer_on_schema(struct ArrowAsyncDeviceStreamHandler* self, struct ArrowSchema* stream_schema) {
  struct async_consumer_state* state = self->private_data;
  /* spec: the schema "needing to be moved to a consumer owned ArrowSchema". */
  struct ArrowSchema schema = *stream_schema;
  stream_schema->release = NULL;
  char difference[512];
  int mismatch = arrow_json_compare_schema(&state->file, &schema, difference, sizeof(difference));
  schema.release(&schema);
  if (mismatch) return note_problem(state, difference);
  /* spec: the producer object "MUST be populated by the producer before
   * calling the ArrowAsyncDeviceStreamHandler.on_schema callback." */
  if (self->producer == NULL)
    return note_problem(state, "on_schema was called before handler->producer was set");
  if (self->producer->device_type != state->device_type) {
    return note_problem(state, "the producer's device_type is not the one requested");
  }
  /* Back-pressure: two batches requested, then one more per batch (spec:
   * request "must be called by a consumer to start receiving calls to
   * ArrowAsyncDeviceStreamHandler.on_next_task", and "It MUST be valid to
   * call this synchronously from within ... on_schema"). */
  self->producer->request(self->producer, 2);
  return 0;
}

static int consumer_on_next_task(struct ArrowAsyncDeviceStreamHandler* self, struct ArrowAsyncTask* task,
                                 const char* metadata) {
  (void)metadata;
  struct async_consumer_state* state = self->private_data;
  if (task == NULL) {
    /* spec: "The producer signals the end of the stream by passing NULL for
     * the ArrowAsyncTask pointer instead of a valid address." */
    state->saw_end = true;
    return 0;
  }
  /* spec: "It is only valid to call this method exactly once", and the
   * task "is only valid during the lifetime of this function call": the
   * batch is extracted here, at once. */
  struct ArrowDeviceArray batch;
  int code = task->extract_data(task, &batch);
  if (code != 0) return note_problem(state, "extract_data failed");
  /* The steps of a single device batch: wait on its sync_event, read it
   * (through a host copy where the CPU cannot), release it. */
  const char* difference = ref_compare_device_batch(&state->file, state->next_batch, &batch);
  if (difference != NULL) return note_problem(state, difference);
  if (state->next_batch++ == state->cancel_after_batch) {
    /* spec: cancel "signals to the producer that it must *eventually* stop
     * calling on_next_task": tasks already requested may still come, and
     * are extracted and compared like any other ("a consumer MUST be
     * prepared to receive one or more calls to on_next_task or on_error
     * even after calling cancel"). */
    state->cancelled = true;
    self->producer->cancel(self->producer);
  } else if (!state->cancelled) {
    self->producer->request(self->producer, 1);
  }
  return 0;
}

static void consumer_on_error(struct ArrowAsyncDeviceStreamHandler* self, int code, const char* message,
                              const char* metadata) {
  (void)metadata;
  struct async_consumer_state* state = self->private_data;
  char text[1024];
  snprintf(text, sizeof(text), "the producer reported error %d: %s", code,
           message ? message : "(no message)");
  /* spec: "If the message and metadata are not NULL, their lifetime is
   * only valid during the scope of this call": the text is copied. */
  note_problem(state, text);
}

/* spec: "After calling this [on_error], the release callback will be
 * called as the last call on this struct": release wakes Import, which then
 * frees the handler's state. */
static void consumer_release(struct ArrowAsyncDeviceStreamHandler* self) {
  struct async_consumer_state* state = self->private_data;
  pthread_mutex_lock(&state->mutex);
  state->released = true;
  pthread_cond_signal(&state->released_signal);
  pthread_mutex_unlock(&state->mutex);
}

/* What the stream should have been once the handler was released: a
 * problem seen, or a stream that did not end as asked. */
static void judge_stream(const struct async_consumer_state* state, char* message, size_t size) {
  if (state->problem[0] != '\0') {
    snprintf(message, size, "%s", state->problem);
  } else if (state->cancel_after_batch >= 0) {
    /* A cancelled stream need not reach its end. */
    if (!state->cancelled) {
      snprintf(message, size,
               "the stream was released before batch %" PRId64 ", after which it was to be cancelled",
               state->cancel_after_batch);
    } else {
      message[0] = '\0';
    }
  } else if (!state->saw_end) {
    snprintf(message, size, "the handler was released without on_next_task(NULL) ending the stream");
  } else if (state->next_batch != state->file.n_batches) {
    snprintf(message, size, "received %" PRId64 " batches, the fixture has %" PRId64, state->next_batch,
             state->file.n_batches);
  } else {
    message[0] = '\0';
  }
}

const char* ref_import_async_cancelling(const char* json_path, ArrowDeviceType device_type,
                                        int64_t cancel_after_batch, ref_async_start_fn start,
                                        void* start_context) {
  static _Thread_local char message[1100];
  struct async_consumer_state* state = ref_calloc(1, sizeof(*state));
  if (state == NULL) return "out of memory";
  if (ref_load_fixture(json_path, &state->file, message, sizeof(message)) != 0) {
    ref_free(state);
    return message;
  }
  state->device_type = device_type;
  state->cancel_after_batch = cancel_after_batch;
  pthread_mutex_init(&state->mutex, NULL);
  pthread_cond_init(&state->released_signal, NULL);
  /* spec: the handler "should be able to handle callbacks as soon as it is
   * passed to the producer": everything is set before start(). */
  struct ArrowAsyncDeviceStreamHandler handler = {
      .on_schema = consumer_on_schema,
      .on_next_task = consumer_on_next_task,
      .on_error = consumer_on_error,
      .release = consumer_release,
      .producer = NULL,
      .private_data = state,
  };
  const char* refused = start(start_context, &handler);
  if (refused != NULL) {
    snprintf(message, sizeof(message), "the producer refused the handler: %s", refused);
  } else {
    pthread_mutex_lock(&state->mutex);
    while (!state->released) pthread_cond_wait(&state->released_signal, &state->mutex);
    pthread_mutex_unlock(&state->mutex);
    judge_stream(state, message, sizeof(message));
  }
  arrow_json_file_free(&state->file);
  pthread_mutex_destroy(&state->mutex);
  pthread_cond_destroy(&state->released_signal);
  ref_free(state);
  return message[0] ? message : NULL;
}

const char* ref_import_async(const char* json_path, ArrowDeviceType device_type, ref_async_start_fn start,
                             void* start_context) {
  return ref_import_async_cancelling(json_path, device_type, -1, start, start_context);
}
