/* The reference async device stream producer and consumer.
 *
 * spec: "Async Device Stream Interface".  The producer runs on a thread of
 * its own: `request` only adds credit and wakes it, since request "MUST NOT
 * synchronously call on_next_task or on_error".  Handler callbacks are made
 * from that one thread, one at a time (spec: "Thread safety"), and release is
 * always the last call on the handler. */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reference_core.h"
#include "reference_device.h"

/* ---- producer side ---- */

struct async_producer_state {
  struct arrow_json_file file;
  struct ArrowAsyncProducer producer;
  struct ArrowAsyncDeviceStreamHandler* handler;
  ArrowDeviceType device_type;
  int64_t device_id;
  pthread_mutex_t mutex;
  pthread_cond_t wake;
  int64_t credit;
  bool cancelled;
  bool invalid_request;
  /* additional_metadata: {"batches": "<count>"}, encoded as
   * ArrowSchema.metadata is; lives as long as the producer object. */
  char metadata[64];
};

/* A task carries its batch already exported, so it stays valid after the
 * producer itself is gone (spec: the task "will be cleaned up during the
 * invocation of calling extract_data on it"). */
struct async_task_state {
  struct ArrowDeviceArray batch;
};

static int task_extract_data(struct ArrowAsyncTask* task, struct ArrowDeviceArray* out) {
  struct async_task_state* state = task->private_data;
  if (out != NULL) {
    *out = state->batch; /* ownership moves to `out` */
  } else {
    state->batch.array.release(&state->batch.array);
  }
  free(state);
  task->private_data = NULL;
  return 0;
}

/* Appends an int32 length (native byte order, as ArrowSchema.metadata) and
 * the bytes of `text`; returns the new end. */
static char* append_length_prefixed(char* end, const char* text) {
  int32_t length = (int32_t)strlen(text);
  memcpy(end, &length, sizeof(length));
  memcpy(end + sizeof(length), text, (size_t)length);
  return end + sizeof(length) + length;
}

/* spec: additional_metadata can tell "the total number of rows and/or
 * batches in the stream if known"; it is "encoded in the same way as
 * ArrowSchema.metadata": a pair count, then each key and value with its
 * length. */
static void encode_batch_count(int64_t batches, char out[64]) {
  char count[24];
  snprintf(count, sizeof(count), "%" PRId64, batches);
  int32_t pairs = 1;
  memcpy(out, &pairs, sizeof(pairs));
  append_length_prefixed(append_length_prefixed(out + sizeof(pairs), "batches"), count);
}

static void producer_request(struct ArrowAsyncProducer* producer, int64_t n) {
  struct async_producer_state* state = producer->private_data;
  pthread_mutex_lock(&state->mutex);
  if (!state->cancelled) {
    /* spec: "It is invalid to call this function with a value of n that is <= 0." */
    if (n <= 0) {
      state->invalid_request = true;
    } else {
      state->credit += n;
    }
  }
  pthread_cond_signal(&state->wake);
  pthread_mutex_unlock(&state->mutex);
}

static void producer_cancel(struct ArrowAsyncProducer* producer) {
  struct async_producer_state* state = producer->private_data;
  pthread_mutex_lock(&state->mutex);
  state->cancelled = true;
  pthread_cond_signal(&state->wake);
  pthread_mutex_unlock(&state->mutex);
}

enum wait_outcome { GOT_CREDIT, WAS_CANCELLED, BAD_REQUEST };

static enum wait_outcome wait_for_credit(struct async_producer_state* state) {
  pthread_mutex_lock(&state->mutex);
  while (state->credit == 0 && !state->cancelled && !state->invalid_request) {
    pthread_cond_wait(&state->wake, &state->mutex);
  }
  enum wait_outcome outcome = state->invalid_request ? BAD_REQUEST
                              : state->cancelled     ? WAS_CANCELLED
                                                     : GOT_CREDIT;
  if (outcome == GOT_CREDIT) state->credit--;
  pthread_mutex_unlock(&state->mutex);
  return outcome;
}

static void* producer_thread(void* argument) {
  struct async_producer_state* state = argument;
  struct ArrowAsyncDeviceStreamHandler* handler = state->handler;
  struct ArrowSchema schema;
  const char* error = ref_export_schema(&state->file, &schema);
  if (error != NULL) {
    handler->on_error(handler, ENOMEM, error, NULL);
    goto finish;
  }
  /* spec: a producer that gets a non-zero result from on_schema or
   * on_next_task calls nothing but release afterwards. */
  if (handler->on_schema(handler, &schema) != 0) goto finish;
  for (int64_t batch = 0; batch < state->file.n_batches; batch++) {
    enum wait_outcome outcome = wait_for_credit(state);
    if (outcome == WAS_CANCELLED) goto finish; /* cancelling is not an error */
    if (outcome == BAD_REQUEST) {
      handler->on_error(handler, EINVAL, "request() was called with n <= 0", NULL);
      goto finish;
    }
    struct async_task_state* task_state = calloc(1, sizeof(*task_state));
    if (task_state == NULL || ref_export_device_batch(&state->file, batch, state->device_type,
                                                      state->device_id, &task_state->batch) != NULL) {
      free(task_state);
      handler->on_error(handler, ENOMEM, "could not export a batch", NULL);
      goto finish;
    }
    struct ArrowAsyncTask task = {.extract_data = task_extract_data, .private_data = task_state};
    if (handler->on_next_task(handler, &task, NULL) != 0) goto finish;
  }
  /* spec: "The producer signals the end of the stream by passing NULL for
   * the ArrowAsyncTask pointer". */
  handler->on_next_task(handler, NULL, NULL);
finish:
  /* The producer object stays valid until release has been called on the
   * handler, and is cleaned up only after it (spec: "ArrowAsyncProducer
   * Lifetime"). */
  handler->release(handler);
  arrow_json_file_free(&state->file);
  pthread_mutex_destroy(&state->mutex);
  pthread_cond_destroy(&state->wake);
  free(state);
  return NULL;
}

const char* ref_export_async(const char* json_path, ArrowDeviceType device_type, int64_t device_id,
                             struct ArrowAsyncDeviceStreamHandler* handler) {
  static _Thread_local char error[1024];
  /* Refused before any callback, as the plugin ABI asks of a refusal. */
  if (ref_device_for(device_type) == NULL) return "the reference producer does not serve this device type";
  struct async_producer_state* state = calloc(1, sizeof(*state));
  if (state == NULL) return "out of memory";
  if (ref_load_fixture(json_path, &state->file, error, sizeof(error)) != 0) {
    free(state);
    return error;
  }
  pthread_mutex_init(&state->mutex, NULL);
  pthread_cond_init(&state->wake, NULL);
  state->handler = handler;
  state->device_type = device_type;
  state->device_id = device_id;
  encode_batch_count(state->file.n_batches, state->metadata);
  state->producer = (struct ArrowAsyncProducer){
      .device_type = device_type,
      .request = producer_request,
      .cancel = producer_cancel,
      .additional_metadata = state->metadata,
      .private_data = state,
  };
  /* spec: "the producer MUST populate the ArrowAsyncProducer member before
   * calling this function [on_schema]". */
  handler->producer = &state->producer;
  pthread_t thread;
  if (pthread_create(&thread, NULL, producer_thread, state) != 0) {
    arrow_json_file_free(&state->file);
    free(state);
    return "could not start the producer thread";
  }
  pthread_detach(thread);
  return NULL;
}

/* ---- consumer side ---- */

struct async_consumer_state {
  struct arrow_json_file file;
  ArrowDeviceType device_type;
  int64_t next_batch;
  bool saw_end;
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
  if (self->producer == NULL)
    return note_problem(state, "on_schema was called before handler->producer was set");
  if (self->producer->device_type != state->device_type) {
    return note_problem(state, "the producer's device_type is not the one requested");
  }
  /* Back-pressure: one batch at a time. */
  self->producer->request(self->producer, 1);
  return 0;
}

static int consumer_on_next_task(struct ArrowAsyncDeviceStreamHandler* self, struct ArrowAsyncTask* task,
                                 const char* metadata) {
  (void)metadata;
  struct async_consumer_state* state = self->private_data;
  if (task == NULL) {
    state->saw_end = true;
    return 0;
  }
  struct ArrowDeviceArray batch;
  int code = task->extract_data(task, &batch);
  if (code != 0) return note_problem(state, "extract_data failed");
  /* The steps of a single device batch: wait on its sync_event, read it
   * (through a host copy where the CPU cannot), release it. */
  const char* difference = ref_compare_device_batch(&state->file, state->next_batch, &batch);
  if (difference != NULL) return note_problem(state, difference);
  state->next_batch++;
  self->producer->request(self->producer, 1);
  return 0;
}

static void consumer_on_error(struct ArrowAsyncDeviceStreamHandler* self, int code, const char* message,
                              const char* metadata) {
  (void)metadata;
  struct async_consumer_state* state = self->private_data;
  char text[1024];
  snprintf(text, sizeof(text), "the producer reported error %d: %s", code,
           message ? message : "(no message)");
  note_problem(state, text); /* copied: message lives only during this call */
}

static void consumer_release(struct ArrowAsyncDeviceStreamHandler* self) {
  struct async_consumer_state* state = self->private_data;
  pthread_mutex_lock(&state->mutex);
  state->released = true;
  pthread_cond_signal(&state->released_signal);
  pthread_mutex_unlock(&state->mutex);
}

const char* ref_import_async(const char* json_path, ArrowDeviceType device_type, ref_async_start_fn start,
                             void* start_context) {
  static _Thread_local char message[1100];
  struct async_consumer_state* state = calloc(1, sizeof(*state));
  if (state == NULL) return "out of memory";
  if (ref_load_fixture(json_path, &state->file, message, sizeof(message)) != 0) {
    free(state);
    return message;
  }
  state->device_type = device_type;
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
    if (state->problem[0] != '\0') {
      snprintf(message, sizeof(message), "%s", state->problem);
    } else if (!state->saw_end) {
      snprintf(message, sizeof(message),
               "the handler was released without on_next_task(NULL) ending the stream");
    } else if (state->next_batch != state->file.n_batches) {
      snprintf(message, sizeof(message), "received %" PRId64 " batches, the fixture has %" PRId64,
               state->next_batch, state->file.n_batches);
    } else {
      message[0] = '\0';
    }
  }
  arrow_json_file_free(&state->file);
  pthread_mutex_destroy(&state->mutex);
  pthread_cond_destroy(&state->released_signal);
  free(state);
  return message[0] ? message : NULL;
}
