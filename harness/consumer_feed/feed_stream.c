/* The feed's device stream (spec: "Device Stream Interface"), built to
 * observe the consumer draining it.
 *
 * The stream's private data is its record, which only adc_feed_free frees:
 * every callback, even one called on a released stream, finds it intact,
 * counts the call and, on a released stream, returns at once without
 * touching anything else.  Schemas and arrays are the feed's own exports,
 * each with a record of its own, so the feed counts their releases too;
 * their lifetimes are not tied to the stream's (spec: "Result lifetimes"),
 * and nothing here frees them.  Each batch is exported as feed_batch.c
 * makes any batch, late writes included: a stream with late_write_seconds
 * hands out batches each behind its own hold and sync_event. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "consumer_feed/feed_batch.h"
#include "consumer_feed/feed_records.h"
#include "consumer_feed/feed_stream.h"

struct feed_stream {
  struct feed_stream* next; /* in the feed's list */
  struct adc_feed* feed;
  const struct arrow_json_file* file;
  struct adc_feed_stream_options options;
  int64_t next_batch;
  bool released;
  /* The last get_schema or get_next call returned an error: only then may
   * get_last_error be called. */
  bool last_call_failed;
  struct adc_feed_stream_counts counts;
  struct adc_error last_error; /* what get_last_error returns */
  struct adc_error feed_error;
};

/* The record of a live stream; NULL, with the call counted, when the stream
 * was released. */
static struct feed_stream* live(struct ArrowDeviceArrayStream* stream, const char* callback) {
  struct feed_stream* record = stream->private_data;
  if (!record->released) return record;
  if (record->counts.calls_after_release++ == 0) record->counts.first_call_after_release = callback;
  return NULL;
}

static int succeeded(struct feed_stream* record) {
  record->last_call_failed = false;
  return 0;
}

/* The last call failed with `code`, described by record->last_error, which
 * get_last_error returns (spec: valid "until the next call of one of the
 * stream's callbacks"). */
static int failed(struct feed_stream* record, int code) {
  record->last_call_failed = true;
  return code;
}

/* The feed could not export a result: a failure of the harness, kept for
 * the rule to see, and an error for the consumer. */
static int feed_failed(struct feed_stream* record, const struct adc_error* error) {
  record->feed_error = *error;
  record->counts.feed_error = record->feed_error.message;
  record->last_error = *error;
  return failed(record, EIO);
}

static int get_schema(struct ArrowDeviceArrayStream* stream, struct ArrowSchema* out) {
  struct feed_stream* record = live(stream, "get_schema");
  if (record == NULL) return EINVAL;
  struct adc_error error;
  if (adc_feed_export_schema(record->feed, record->file, out, &error) != 0)
    return feed_failed(record, &error);
  return succeeded(record);
}

static int get_next(struct ArrowDeviceArrayStream* stream, struct ArrowDeviceArray* out) {
  struct feed_stream* record = live(stream, "get_next");
  if (record == NULL) return EINVAL;
  record->counts.get_next_calls++;
  if (record->next_batch == record->options.fail_at_batch) {
    /* next_batch stays put: every later call fails the same way. */
    adc_fail(&record->last_error,
             "the harness's stream failed on purpose reading batch %" PRId64 " (an injected error)",
             record->next_batch);
    return failed(record, EIO);
  }
  const struct adc_device* device = record->feed->device;
  if (record->next_batch >= record->file->n_batches) {
    /* spec: "If the embedded ArrowDeviceArray.array is released, then the
     * end of the stream has been reached." */
    *out = (struct ArrowDeviceArray){.device_id = device->device_id,
                                     .device_type = device->driver->kind->arrow_type};
    return succeeded(record);
  }
  const struct adc_feed_layout layout =
      feed_streamed_layout(record->next_batch, record->options.altered_batch,
                           record->options.late_write_seconds, record->options.patience_seconds);
  struct adc_error error;
  if (adc_feed_export_batch(record->feed, record->file, record->next_batch, &layout, out, &error) != 0)
    return feed_failed(record, &error);
  record->next_batch++;
  return succeeded(record);
}

static const char* get_last_error(struct ArrowDeviceArrayStream* stream) {
  struct feed_stream* record = live(stream, "get_last_error");
  if (record == NULL) return NULL;
  /* spec: get_last_error "must ONLY be called if the last operation on the
   * ArrowDeviceArrayStream returned an error". */
  if (!record->last_call_failed) {
    record->counts.last_error_without_error++;
    return NULL; /* spec: "NULL can also be returned" */
  }
  return record->last_error.message;
}

/* spec: "Stream lifetime": the release marks the stream released.  The
 * record stays, so that a second call is counted, never undefined. */
static void release(struct ArrowDeviceArrayStream* stream) {
  struct feed_stream* record = stream->private_data;
  record->counts.release_calls++;
  record->released = true;
  stream->release = NULL;
}

int adc_feed_export_stream(struct adc_feed* feed, const struct arrow_json_file* file,
                           const struct adc_feed_stream_options* options, struct ArrowDeviceArrayStream* out,
                           struct adc_error* error) {
  static const struct adc_feed_stream_options plain = {.fail_at_batch = -1, .altered_batch = -1};
  struct feed_stream* record = calloc(1, sizeof(*record));
  if (record == NULL) return adc_fail(error, "out of host memory exporting a stream");
  *record = (struct feed_stream){
      .next = feed->streams, .feed = feed, .file = file, .options = options ? *options : plain};
  feed->streams = record;
  /* spec: device_type is "The device type that this stream produces data
   * on"; every batch is exported to the feed's device. */
  *out = (struct ArrowDeviceArrayStream){
      .device_type = feed->device->driver->kind->arrow_type,
      .get_schema = get_schema,
      .get_next = get_next,
      .get_last_error = get_last_error,
      .release = release,
      .private_data = record,
  };
  return 0;
}

struct adc_feed_stream_counts adc_feed_stream_counts(const struct adc_feed* feed) {
  struct adc_feed_stream_counts sum = {0};
  /* The list runs newest first: the last assignment below is the oldest
   * stream's, which saw the first call after a release, or feed error. */
  for (const struct feed_stream* s = feed->streams; s != NULL; s = s->next) {
    const struct adc_feed_stream_counts* c = &s->counts;
    sum.streams++;
    sum.streams_never_released += c->release_calls == 0;
    sum.streams_released_more_than_once += c->release_calls > 1;
    sum.release_calls += c->release_calls;
    sum.calls_after_release += c->calls_after_release;
    if (c->first_call_after_release != NULL) sum.first_call_after_release = c->first_call_after_release;
    sum.last_error_without_error += c->last_error_without_error;
    if (c->get_next_calls > sum.get_next_calls) sum.get_next_calls = c->get_next_calls;
    if (c->feed_error != NULL) sum.feed_error = c->feed_error;
  }
  return sum;
}

void feed_streams_free(struct adc_feed* feed) {
  while (feed->streams != NULL) {
    struct feed_stream* next = feed->streams->next;
    free(feed->streams);
    feed->streams = next;
  }
}
