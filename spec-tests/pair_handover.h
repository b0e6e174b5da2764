/* A producer's export on its way to a consumer, watched by the harness in
 * between (the rules judging a pair: spec-tests/rules_pair.c).
 *
 * Each structure the producer exports is handed over with its release
 * callback wrapped: the wrapper counts the call, puts the producer's own
 * callback and private data back, and calls it, so the producer releases
 * its export exactly as it would without the harness.  A stream is handed
 * over inside a stream of the harness's that forwards every callback and
 * wraps each array its get_next hands out the same way.  What the
 * consumer did with them is read once its Import has returned (plugin
 * ABI: it must have released everything by then). */
#ifndef ADC_PAIR_HANDOVER_H
#define ADC_PAIR_HANDOVER_H

#include <stdbool.h>
#include <stddef.h>

#include "adc/plugin_abi.h"
#include "rule_api/consumer_calls.h"

/* Everything handed over in one Import.  Its records live on the heap
 * until adc_pair_watch_end, and those of structures never released (or
 * tasks never extracted) are kept after it, cut loose from the watch: a
 * consumer may still call them late, from any thread, once the watch is
 * gone. */
struct adc_pair_watch {
  struct pair_record** records;
  size_t n_records;
  size_t capacity;
  bool out_of_memory;
};

/* What the consumer did with the structures handed over. */
struct adc_pair_counts {
  int arrays;                 /* batches handed over, and those a stream handed out */
  int arrays_never_released;  /* of those */
  int streams;                /* streams handed over */
  int streams_never_released; /* of those */
  int streams_released_more_than_once;
  /* get_schema, get_next and get_last_error calls on a released stream. */
  int calls_after_release;
  /* No memory was left to watch some structure, handed over unwatched. */
  bool some_unwatched;
  int tasks; /* an async hand-over's: tasks handed over, and of those */
  int tasks_never_extracted;
  int tasks_extracted_more_than_once;
};

/* Wraps the release of `array`, just exported by the producer, so that the
 * watch counts it.  False when no memory was left for the record (the
 * array is then handed over unwatched, and adc_pair_counts says so). */
bool adc_pair_watch_array(struct adc_pair_watch* watch, struct ArrowArray* array);

/* Moves the producer's `stream` into a stream of the harness's, written to
 * `stream` in its place, that forwards every callback, counts its release
 * and watches every array its get_next hands out.  False as above. */
bool adc_pair_watch_stream(struct adc_pair_watch* watch, struct ArrowDeviceArrayStream* stream);

/* Reads what the consumer did, once its Import has returned, and frees
 * the records of what it released. */
struct adc_pair_counts adc_pair_watch_end(struct adc_pair_watch* watch);

/* Whether the counts show the consumer released everything it was handed,
 * exactly once, and called nothing on a released stream; otherwise the
 * first fault, in words, into `text`. */
bool adc_pair_counts_clean(const struct adc_pair_counts* counts, char* text, size_t size);

/* ---- Async streams (spec: "Async Device Stream Interface").  The producer
 * is handed a handler of the harness's, which forwards every callback to
 * the consumer's handler (its producer member set from the harness's
 * handler's before on_schema is forwarded) and hands the consumer each task
 * wrapped: its extract_data is counted and the array it hands out watched.
 * The handler's release is forwarded as the producer calls it. */
struct adc_pair_async {
  /* Starts the producer on `handler` (ExportAsyncFromJson): NULL, or its
   * refusal. */
  const char* (*export_async)(void* context, struct ArrowAsyncDeviceStreamHandler* handler);
  void* export_context;
  struct adc_pair_watch* watch;
  /* Filled as the consumer starts the producer. */
  struct ArrowAsyncDeviceStreamHandler between; /* the producer drives this */
  struct ArrowAsyncDeviceStreamHandler* consumer;
  /* The producer refused the handler: its message, NULL otherwise (valid
   * while the producer's library is loaded, as its messages are). */
  const char* refused;
};

/* The start callback (an ADC_AsyncProducerStart) whose context is an
 * adc_pair_async: hands its export_async the handler in between. */
const char* adc_pair_async_start(void* pair_async, struct ArrowAsyncDeviceStreamHandler* handler);

#endif /* ADC_PAIR_HANDOVER_H */
