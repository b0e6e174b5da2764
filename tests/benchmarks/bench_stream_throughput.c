/* Benchmark, not a test: batches per second through the reference device
 * stream and tasks per second through the reference async pair, on the CPU,
 * beside the cost of as many bare calls through a function pointer, so that
 * the overhead per batch shows.  The fixture (BATCHES batches of ROWS int32
 * rows) is written here to a temporary file.  Prints figures, never fails on
 * a slow machine. */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "reference_core.h"
#include "support/clock.h"

#define BATCHES 2000
#define ROWS 8
#define ROUNDS 5

static int write_fixture(char* path) {
  int fd = mkstemp(path);
  FILE* out = fd < 0 ? NULL : fdopen(fd, "w");
  if (out == NULL) return -1;
  fputs(
      "{\"schema\": {\"fields\": [{\"name\": \"v\", \"nullable\": true, \"type\": {\"name\": \"int\", "
      "\"isSigned\": true, \"bitWidth\": 32}, \"children\": []}]}, \"batches\": [",
      out);
  for (int b = 0; b < BATCHES; b++) {
    fprintf(out, "%s{\"count\": %d, \"columns\": [{\"name\": \"v\", \"count\": %d, \"VALIDITY\": [",
            b ? ", " : "", ROWS, ROWS);
    for (int r = 0; r < ROWS; r++) fprintf(out, "%s1", r ? ", " : "");
    fputs("], \"DATA\": [", out);
    for (int r = 0; r < ROWS; r++) fprintf(out, "%s%d", r ? ", " : "", b * ROWS + r);
    fputs("]}]}", out);
  }
  fputs("]}\n", out);
  return fclose(out);
}

static double best(const double* times) {
  double b = times[0];
  for (int i = 1; i < ROUNDS; i++) b = times[i] < b ? times[i] : b;
  return b;
}

/* get_next and the array's release, BATCHES times, on a stream made
 * beforehand (loading the fixture is not per batch). */
static double drain_seconds(const char* path) {
  struct ArrowDeviceArrayStream stream;
  if (ref_export_device_stream(path, ARROW_DEVICE_CPU, -1, &stream) != NULL) exit(EXIT_FAILURE);
  double start = adc_now_seconds();
  for (;;) {
    struct ArrowDeviceArray array;
    if (stream.get_next(&stream, &array) != 0) exit(EXIT_FAILURE);
    if (array.array.release == NULL) break;
    array.array.release(&array.array);
  }
  double seconds = adc_now_seconds() - start;
  stream.release(&stream);
  return seconds;
}

/* The reference consumer, whole: loads the fixture, compares every batch. */
static double consume_seconds(const char* path) {
  struct ArrowDeviceArrayStream stream;
  if (ref_export_device_stream(path, ARROW_DEVICE_CPU, -1, &stream) != NULL) exit(EXIT_FAILURE);
  double start = adc_now_seconds();
  if (ref_import_device_stream(path, &stream) != NULL) exit(EXIT_FAILURE);
  return adc_now_seconds() - start;
}

static const char* start_producer(void* path, struct ArrowAsyncDeviceStreamHandler* handler) {
  return ref_export_async(path, ARROW_DEVICE_CPU, -1, handler);
}

/* The async pair, whole: both load the fixture, the consumer compares. */
static double async_seconds(const char* path) {
  double start = adc_now_seconds();
  if (ref_import_async(path, ARROW_DEVICE_CPU, start_producer, (void*)path) != NULL) exit(EXIT_FAILURE);
  return adc_now_seconds() - start;
}

/* A lean handler for the reference producer alone: one batch requested
 * from inside on_schema and one more from inside each on_next_task (the
 * back-pressure a careful consumer applies), every task extracted and its
 * array released, nothing compared.  The clock runs from on_schema to the
 * handler's release, so the producer's fixture load is not counted. */
struct lean_handler {
  pthread_mutex_t mutex;
  pthread_cond_t released;
  bool done;
  double started, finished;
  long tasks;
};

static int lean_on_schema(struct ArrowAsyncDeviceStreamHandler* self, struct ArrowSchema* schema) {
  struct lean_handler* lean = self->private_data;
  lean->started = adc_now_seconds();
  schema->release(schema);
  self->producer->request(self->producer, 1);
  return 0;
}

static int lean_on_next_task(struct ArrowAsyncDeviceStreamHandler* self, struct ArrowAsyncTask* task,
                             const char* metadata) {
  (void)metadata;
  if (task == NULL) return 0;
  struct lean_handler* lean = self->private_data;
  struct ArrowDeviceArray array;
  if (task->extract_data(task, &array) != 0) exit(EXIT_FAILURE);
  array.array.release(&array.array);
  lean->tasks++;
  self->producer->request(self->producer, 1);
  return 0;
}

static void lean_on_error(struct ArrowAsyncDeviceStreamHandler* self, int code, const char* message,
                          const char* metadata) {
  (void)self, (void)code, (void)message, (void)metadata;
  exit(EXIT_FAILURE);
}

static void lean_release(struct ArrowAsyncDeviceStreamHandler* self) {
  struct lean_handler* lean = self->private_data;
  pthread_mutex_lock(&lean->mutex);
  lean->finished = adc_now_seconds();
  lean->done = true;
  pthread_cond_signal(&lean->released);
  pthread_mutex_unlock(&lean->mutex);
}

static double async_producer_seconds(const char* path) {
  struct lean_handler lean = {.mutex = PTHREAD_MUTEX_INITIALIZER, .released = PTHREAD_COND_INITIALIZER};
  struct ArrowAsyncDeviceStreamHandler handler = {.on_schema = lean_on_schema,
                                                  .on_next_task = lean_on_next_task,
                                                  .on_error = lean_on_error,
                                                  .release = lean_release,
                                                  .private_data = &lean};
  if (ref_export_async(path, ARROW_DEVICE_CPU, -1, &handler) != NULL) exit(EXIT_FAILURE);
  pthread_mutex_lock(&lean.mutex);
  while (!lean.done) pthread_cond_wait(&lean.released, &lean.mutex);
  pthread_mutex_unlock(&lean.mutex);
  if (lean.tasks != BATCHES) exit(EXIT_FAILURE);
  return lean.finished - lean.started;
}

static int bare_callee(int value) {
  return value + 1;
}
static int (*volatile bare_call)(int) = bare_callee;

/* `calls` calls through a function pointer the compiler cannot see through. */
static double bare_seconds(long calls) {
  double start = adc_now_seconds();
  int value = 0;
  for (long i = 0; i < calls; i++) value = bare_call(value);
  double seconds = adc_now_seconds() - start;
  if (value != (int)calls) exit(EXIT_FAILURE);
  return seconds;
}

int main(void) {
  char path[] = "/tmp/adc_bench_stream_XXXXXX";
  if (write_fixture(path) != 0) return EXIT_FAILURE;
  double drain[ROUNDS], consume[ROUNDS], async[ROUNDS], async_producer[ROUNDS], bare[ROUNDS];
  for (int i = 0; i < ROUNDS; i++) {
    drain[i] = drain_seconds(path);
    consume[i] = consume_seconds(path);
    async[i] = async_seconds(path);
    async_producer[i] = async_producer_seconds(path);
    /* A batch through a stream is two calls (get_next, release). */
    bare[i] = bare_seconds(2L * BATCHES);
  }
  unlink(path);
  printf("benchmark: reference device stream, %d batches of %d int32 rows, best of %d:\n", BATCHES, ROWS,
         ROUNDS);
  printf("  get_next + release:          %9.0f batches/s (%6.0f ns per batch)\n", BATCHES / best(drain),
         1e9 * best(drain) / BATCHES);
  printf(
      "  reference consumer (whole):  %9.0f batches/s (%6.0f ns per batch, fixture load and compare "
      "included)\n",
      BATCHES / best(consume), 1e9 * best(consume) / BATCHES);
  printf("  2 bare calls per batch:      %9.0f batches/s (%6.1f ns per batch)\n", BATCHES / best(bare),
         1e9 * best(bare) / BATCHES);
  printf(
      "benchmark: reference async pair, the same fixture: %.0f tasks/s (%.0f ns per task, both sides "
      "loading the fixture and the consumer comparing included; target >= 100000)\n",
      BATCHES / best(async), 1e9 * best(async) / BATCHES);
  printf(
      "benchmark: reference async producer alone, one batch requested per task from inside the callbacks, "
      "from on_schema to release: %.0f tasks/s (%.0f ns per task)\n",
      BATCHES / best(async_producer), 1e9 * best(async_producer) / BATCHES);
  return EXIT_SUCCESS;
}
