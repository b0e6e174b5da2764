/* The reference async device stream producer.
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
#include <string.h>

#include "reference_core.h"
#include "reference_device.h"

/* The producer object and what it needs, from ref_alloc
 * (reference_allocator.c): handed out with the stream, so BytesAllocated
 * counts it until the thread frees it, just after the handler's release. */
struct async_producer_state {
  struct arrow_json_file file; /* the data source, the fixture model's memory */
  struct ArrowAsyncProducer producer;
  struct ArrowAsyncDeviceStreamHandler* handler;
  ArrowDeviceType device_type;
  int64_t device_id;
  pthread_mutex_t mutex;
  pthread_cond_t wake;
  int64_t credit;
  bool cancelled;
  bool invalid_request;
  /* The batch that fails with on_error instead of being handed over (an
   * injected error, for the error path); -1: none. */
  int64_t fail_at_batch;
  /* additional_metadata: {"batches": "<count>"}, encoded as
   * ArrowSchema.metadata is; lives as long as the producer object. */
  char metadata[64];
};

/* A task carries its batch already exported, so it stays valid after the
 * producer itself is gone (spec: the task "will be cleaned up during the
 * invocation of calling extract_data on it").  From ref_alloc: the task is
 * handed out, and BytesAllocated counts it until extract_data. */
struct async_task_state {
  struct ArrowDeviceArray batch;
};

static int task_extract_data(struct ArrowAsyncTask* task, struct ArrowDeviceArray* out) {
  struct async_task_state* state = task->private_data;
  if (out != NULL) {
    /* spec: "Ownership of the Array is given to the pointer passed in as a
     * parameter, and this array must be released separately." */
    *out = state->batch;
  } else {
    /* spec: "NULL should be passed as the device array pointer to indicate
     * that the consumer doesn't want the actual data, letting the task
     * perform necessary cleanup." */
    state->batch.array.release(&state->batch.array);
  }
  ref_free(state);
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

/* Metadata of one pair `key`: `number`, encoded as ArrowSchema.metadata
 * is: a pair count, then the key and the value, each with its length.
 * `out` has room for 64 bytes: keys here are short. */
static void encode_number_pair(const char* key, int64_t number, char out[64]) {
  char value[24];
  snprintf(value, sizeof(value), "%" PRId64, number);
  int32_t pairs = 1;
  memcpy(out, &pairs, sizeof(pairs));
  append_length_prefixed(append_length_prefixed(out + sizeof(pairs), key), value);
}

/* spec: "If the producer encounters an error during processing, it should
 * call the on_error callback, and then call release after it returns".
 * The code is an errno value (spec: "an errno-compatible error code"); the
 * message and the metadata (spec: "encoded identically to the way that
 * metadata is encoded in ArrowSchema.metadata") live on this stack, which
 * is enough: they are "only valid during the scope of this call". */
static void report_injected_error(struct ArrowAsyncDeviceStreamHandler* handler, int64_t batch) {
  char message[128];
  snprintf(message, sizeof(message),
           "the reference producer failed batch %" PRId64 " on purpose (an injected error)", batch);
  char metadata[64];
  encode_number_pair("failed_batch", batch, metadata);
  handler->on_error(handler, EIO, message, metadata);
}

/* Adds credit and wakes the producer's thread, which makes the calls (spec:
 * request "MUST NOT synchronously call on_next_task or on_error"). */
static void producer_request(struct ArrowAsyncProducer* producer, int64_t n) {
  struct async_producer_state* state = producer->private_data;
  pthread_mutex_lock(&state->mutex);
  /* spec: "After cancel is called, additional calls to this function must
   * be a NOP, but allowed." */
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

/* spec: "It is not required that calling cancel affect the producer
 * immediately, only that it must eventually stop calling on_next_task and
 * then subsequently call release on the async handler object": cancel
 * only notes it, and the producer's thread stops at its next wait. */
static void producer_cancel(struct ArrowAsyncProducer* producer) {
  struct async_producer_state* state = producer->private_data;
  pthread_mutex_lock(&state->mutex);
  state->cancelled = true;
  pthread_cond_signal(&state->wake);
  pthread_mutex_unlock(&state->mutex);
}

enum wait_outcome { GOT_CREDIT, WAS_CANCELLED, BAD_REQUEST };

/* Waits until the consumer has asked for one more batch, and takes that
 * request (spec: "A producer should only call the appropriate on_next_task
 * callback up to a maximum of the total sum of calls to this method before
 * propagating back-pressure / waiting"), or until it cancelled or made an
 * invalid request. */
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

/* Frees the producer object and what it holds. */
static void free_producer(struct async_producer_state* state) {
  arrow_json_file_free(&state->file);
  pthread_mutex_destroy(&state->mutex);
  pthread_cond_destroy(&state->wake);
  ref_free(state);
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
  /* spec: "A producer that receives a non-zero result here must not
   * subsequently call anything other than the release callback on this
   * object" (on_schema; on_next_task likewise). */
  if (handler->on_schema(handler, &schema) != 0) goto finish;
  for (int64_t batch = 0; batch < state->file.n_batches; batch++) {
    enum wait_outcome outcome = wait_for_credit(state);
    /* spec: "Successful cancelling MUST NOT result in a producer calling
     * ArrowAsyncDeviceStreamHandler.on_error, instead it should finish out
     * any remaining tasks (calling on_next_task accordingly) and eventually
     * just call release".  This producer has no task under way (each is
     * exported as it is handed over), so there is nothing to finish. */
    if (outcome == WAS_CANCELLED) goto finish;
    if (outcome == BAD_REQUEST) {
      /* spec: "Producers should error (e.g. call on_error) if receiving
       * such a value for n." */
      handler->on_error(handler, EINVAL, "request() was called with n <= 0", NULL);
      goto finish;
    }
    if (batch == state->fail_at_batch) {
      report_injected_error(handler, batch);
      goto finish;
    }
    struct async_task_state* task_state = ref_calloc(1, sizeof(*task_state));
    error = task_state == NULL ? "out of memory"
                               : ref_export_device_batch(&state->file, batch, state->device_type,
                                                         state->device_id, &task_state->batch);
    if (error != NULL) {
      int code = task_state == NULL ? ENOMEM : EIO; /* spec: "an errno-compatible error code" */
      ref_free(task_state);
      handler->on_error(handler, code, error, NULL);
      goto finish;
    }
    struct ArrowAsyncTask task = {.extract_data = task_extract_data, .private_data = task_state};
    if (handler->on_next_task(handler, &task, NULL) != 0) goto finish;
  }
  /* spec: "The producer signals the end of the stream by passing NULL for
   * the ArrowAsyncTask pointer". */
  handler->on_next_task(handler, NULL, NULL);
finish:
  /* spec: "The producer maintains ownership of the ArrowAsyncProducer and
   * must clean it up *after* calling the release callback on the
   * ArrowAsyncDeviceStreamHandler." */
  handler->release(handler);
  free_producer(state);
  return NULL;
}

const char* ref_export_failing_async(const char* json_path, ArrowDeviceType device_type, int64_t device_id,
                                     int64_t fail_at_batch, struct ArrowAsyncDeviceStreamHandler* handler) {
  static _Thread_local char error[1024];
  /* Refused before any callback, as the plugin ABI asks of a refusal. */
  if (ref_device_for(device_type) == NULL) return "the reference producer does not serve this device type";
  struct async_producer_state* state = ref_calloc(1, sizeof(*state));
  if (state == NULL) return "out of memory";
  if (ref_load_fixture(json_path, &state->file, error, sizeof(error)) != 0) {
    ref_free(state);
    return error;
  }
  pthread_mutex_init(&state->mutex, NULL);
  pthread_cond_init(&state->wake, NULL);
  state->handler = handler;
  state->device_type = device_type;
  state->device_id = device_id;
  state->fail_at_batch = fail_at_batch;
  encode_number_pair("batches", state->file.n_batches, state->metadata);
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
    /* A refusal: no callback runs, and the handler keeps no producer. */
    handler->producer = NULL;
    free_producer(state);
    return "could not start the producer thread";
  }
  pthread_detach(thread);
  return NULL;
}

const char* ref_export_async(const char* json_path, ArrowDeviceType device_type, int64_t device_id,
                             struct ArrowAsyncDeviceStreamHandler* handler) {
  return ref_export_failing_async(json_path, device_type, device_id, -1, handler);
}
