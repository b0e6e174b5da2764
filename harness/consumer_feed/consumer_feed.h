/* The consumer feed: the harness's own instrumented producer, which exports
 * fixtures to hand to a consumer under test.
 *
 * Unlike the reference producer (reference/, a clean example to copy), it
 * is built to observe the consumer:
 *   - every structure it exports has a record that outlives the structure,
 *     so the feed can tell, without undefined behaviour, how often each
 *     release callback ran and whether a child or dictionary was released in
 *     place (spec: "they MUST not call any of its children's release
 *     callbacks");
 *   - its buffers are placed on the case's device through the device
 *     operations (device/device.h), optionally read-only;
 *   - a layout shapes the export for one rule: padding rows under an offset,
 *     unknown null counts, one altered value.
 * With a zeroed layout, an export is a plain, conforming one. */
#ifndef ADC_CONSUMER_FEED_H
#define ADC_CONSUMER_FEED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arrow_format/arrow_json.h"
#include "arrow_format/arrow_structure.h"
#include "device/device.h"

struct adc_feed_layout {
  /* Pad top-level columns with this many leading rows and export them with
   * `offset` set past the padding (spec: "ArrowArray.offset"): every
   * layout whose padding rows the model can make (arrow_json_column_pad;
   * children padded with their parent where its offset reaches them). */
  int64_t offset_padding;
  /* null_count -1 wherever a validity buffer is present (spec: "MAY be -1
   * if not yet computed"). */
  bool unknown_null_count;
  /* Every buffer read-only once filled, so that a consumer writing to
   * exported data faults (spec: "Mutability"). */
  bool read_only_buffers;
  /* For a device that cannot make memory read-only: every buffer is read
   * back through the device's copies once placed, and stays allocated
   * until the feed is freed (its array's release leaves it), so that
   * adc_feed_written_buffers can read it again once the consumer has
   * returned and tell whether it was written (spec: "Mutability").  Not
   * with late_write_seconds: the bytes read back must be the final ones. */
  bool watch_buffers;
  /* The batch is exported from a copy of the model whose batch breaks
   * `broken_family` of the columnar format's invariants where no valid row
   * reads (arrow_structure_break), every valid row still reading the
   * fixture's values: a structurally invalid batch, handed to a consumer
   * on purpose.  The export fails when the batch has no column the family
   * applies to (adc_feed_structure_breakable). */
  bool break_structure;
  enum arrow_structure_family broken_family;
  /* One value differs from the fixture (arrow_json_alter_one_value): the
   * first valid one in column order, dictionary values included, indices,
   * offsets and type ids never. */
  bool alter_one_value;
  /* When positive: every buffer holds ADC_FEED_NOT_YET_WRITTEN bytes when
   * the export returns, the device's queue (device.h) writes the real bytes
   * later, and the batch's sync_event completes once it has (spec:
   * "Synchronization").  On the simulated device the bytes are written as
   * the consumer begins to synchronise on the event (or releases the
   * batch): exactly, with no timer; on a device whose events cannot tell,
   * this many seconds after the export.  Needs a device with a queue. */
  double late_write_seconds;
  /* With late_write_seconds, when positive: a hold longer than a
   * consumer's patience.  On the simulated device the bytes are written
   * this many seconds after the consumer begins to synchronise on the
   * event; elsewhere this many seconds after the export (device.h,
   * hold_past_synchronisation). */
  double patience_seconds;
};

/* What a late-written buffer holds until its bytes are written. */
#define ADC_FEED_NOT_YET_WRITTEN 0xEE

/* A region of memory the feed made read-only. */
struct adc_region {
  const void* start;
  size_t size;
};

/* Everything exported through one feed shares its records.  Free the feed
 * after every export of it was released or abandoned: a release callback
 * called later finds its record gone. */
struct adc_feed;
struct adc_feed* adc_feed_new(const struct adc_device* device);
void adc_feed_free(struct adc_feed* feed);

/* Each returns 0 with `out` exported (owned by the caller, released through
 * its release callback), or -1 with the reason and `out` untouched. */
int adc_feed_export_schema(struct adc_feed* feed, const struct arrow_json_file* file, struct ArrowSchema* out,
                           struct adc_error* error);
/* The batch as a device array on the feed's device (device_id as the device
 * asks).  Without late_write_seconds there is no sync_event: every copy has
 * completed when this returns. */
int adc_feed_export_batch(struct adc_feed* feed, const struct arrow_json_file* file, int64_t batch,
                          const struct adc_feed_layout* layout, struct ArrowDeviceArray* out,
                          struct adc_error* error);

/* Calls of the release callback of the base structures exported so far. */
int adc_feed_base_release_calls(const struct adc_feed* feed);
/* Base structures (schemas and batches, streamed ones included) exported
 * so far; of those, how many were never released, and how many had their
 * release callback called more than once. */
int adc_feed_bases_exported(const struct adc_feed* feed);
int adc_feed_bases_never_released(const struct adc_feed* feed);
int adc_feed_bases_released_more_than_once(const struct adc_feed* feed);
/* Children or dictionaries released in place, by someone other than their parent. */
int adc_feed_children_released_in_place(const struct adc_feed* feed);
/* Buffers made read-only so far (read_only_buffers). */
size_t adc_feed_read_only_regions(const struct adc_feed* feed, const struct adc_region** regions);

/* Whether batch `batch` of `file` has a column `family` applies to, so
 * that break_structure can export it. */
bool adc_feed_structure_breakable(const struct arrow_json_file* file, int64_t batch,
                                  enum arrow_structure_family family);

/* A buffer exported with watch_buffers whose bytes changed: its place among
 * the buffers watched (in the order they were placed), their count, its
 * size and the first byte that differs. */
struct adc_feed_written {
  size_t buffer;
  size_t n_buffers;
  size_t size;
  size_t first_byte;
};
/* Reads every buffer watched so far back through the device's copies and
 * compares it with what it held when exported: the number that differ (the
 * first described in `first`), or -1 with the reason when one could not
 * be read.  Call it once the consumer has returned. */
int adc_feed_written_buffers(const struct adc_feed* feed, struct adc_feed_written* first,
                             struct adc_error* error);

/* ---- Device streams (feed_stream.c; spec: "Device Stream Interface").
 *
 * A stream of the feed hands out the feed's own exports: get_schema
 * exports the schema, each get_next the next batch on the feed's device,
 * then a released array (returned with 0) at the end, as often as asked.
 * Each schema and array has its record like any export of the feed.  The
 * stream has a record too, which outlives the stream structure: a callback
 * called on a released stream, or a second release, finds it, is counted
 * and does nothing else (spec: "This callback must NOT be called on a
 * released ArrowDeviceArrayStream"). */
struct adc_feed_stream_options {
  /* The get_next call that would return this batch fails with EIO instead,
   * and so does every later one; get_last_error describes the failure.
   * -1: the stream never fails. */
  int64_t fail_at_batch;
  /* This batch is exported with one value altered (alter_one_value of
   * adc_feed_layout); -1: none. */
  int64_t altered_batch;
  /* Every batch is exported with late writes (late_write_seconds of
   * adc_feed_layout) and its own sync_event; 0: none.  The batches share the
   * feed's queue, each held until its own event (or a later one) is
   * synchronised on: a batch fetched ahead stays unwritten, and releasing
   * one batch writes no other. */
  double late_write_seconds;
  /* With it: each batch's hold lasts this long past a synchronisation
   * (patience_seconds of adc_feed_layout); 0: none. */
  double patience_seconds;
};

/* Returns 0 with `out` exported (its device_type the feed's device's), or
 * -1 with the reason and `out` untouched.  NULL options: a stream that
 * neither fails nor alters anything. */
int adc_feed_export_stream(struct adc_feed* feed, const struct arrow_json_file* file,
                           const struct adc_feed_stream_options* options, struct ArrowDeviceArrayStream* out,
                           struct adc_error* error);

/* What the streams of a feed went through, summed over them (a rule hands
 * out one stream per feed, and more to a consumer that asks again). */
struct adc_feed_stream_counts {
  /* The feed's streams handed out (more than one where the consumer asked
   * for its input again: spec-tests/feed_again.h); of those, how many were
   * never released, and how many had their release called more than once. */
  int streams;
  int streams_never_released;
  int streams_released_more_than_once;
  int release_calls; /* over every stream */
  /* get_schema, get_next and get_last_error calls on a released stream;
   * the name of the first such callback, NULL when none was called. */
  int calls_after_release;
  const char* first_call_after_release;
  /* get_last_error calls when the previous get_schema or get_next call had
   * not returned an error (spec: "must ONLY be called if the last operation
   * on the ArrowDeviceArrayStream returned an error"). */
  int last_error_without_error;
  int get_next_calls; /* on the live stream: the most any one stream had */
  /* Why the feed itself failed to export a result of a stream, NULL when it
   * never did: the stream then returned an error the consumer did not
   * cause.  Valid until the feed is freed. */
  const char* feed_error;
};
struct adc_feed_stream_counts adc_feed_stream_counts(const struct adc_feed* feed);

/* ---- Async device streams (feed_async.c; spec: "Async Device Stream
 * Interface").
 *
 * An async producer of the feed is handed to the consumer under test
 * through the start callback of ImportAsyncAndCompareToJson: it populates
 * handler->producer, exports the schema to on_schema and each batch, when
 * the consumer extracts its task, on the feed's device.  It runs a delivery
 * thread of its own: `request` only adds credit (spec: request "MUST NOT
 * synchronously call on_next_task or on_error"), `cancel` is idempotent and
 * thread-safe, handler callbacks are made one at a time, and the handler's
 * release is the last call, made once.  A consumer that leaves the stream
 * without a request while batches are left gets on_error(ETIMEDOUT) and
 * release, so that Import returns and the case is judged rather than hung:
 * at once when its process is quiet (support/quiescence.h: every thread
 * waits, none can request), else after ADC_FEED_ASYNC_STALL_SECONDS without
 * a request.  Each task has a record that outlives it, so a second
 * extract_data call is counted, never undefined behaviour. */
struct adc_feed_async_options {
  /* Once the consumer has requested this batch, the feed calls
   * on_error(EIO, message, metadata) instead of handing it over, then
   * release.  -1: the stream never fails. */
  int64_t fail_at_batch;
  /* This batch is exported with one value altered (alter_one_value of
   * adc_feed_layout); -1: none. */
  int64_t altered_batch;
  /* Every array extract_data hands out is exported with late writes
   * (late_write_seconds of adc_feed_layout) and its own sync_event, as the
   * stream's options have it; 0: none. */
  double late_write_seconds;
  /* With it: patience_seconds of adc_feed_layout; 0: none. */
  double patience_seconds;
  /* on_schema is called from inside start, before start returns, and the
   * stream goes on on that thread while the consumer has credit (it
   * requested from inside on_schema); then the delivery thread takes over. */
  bool deliver_inside_start;
  /* Once on_error has returned, its message and the value of its metadata
   * are overwritten with ADC_FEED_ASYNC_OVERWRITTEN, repeated (spec: they are
   * "only valid within the scope of the on_error function itself"). */
  bool overwrite_error_text;
  /* Once the consumer cancels, the feed hands out every batch it still has
   * credit for, then calls on_error (as a producer whose cancel met an
   * error would), then release (spec: "a consumer MUST be prepared to
   * receive one or more calls to on_next_task or on_error even after
   * calling cancel").  Otherwise a cancel is followed by release alone. */
  bool deliver_after_cancel;
  /* Positive: after the stream's last callback the feed watches whether
   * Import returns before it releases the handler (plugin ABI: Import
   * blocks "until the producer has released the handler"); an Import that
   * returns meanwhile did not wait, and release is then not called.  The
   * watch ends once every thread of the consumer's process waits (it can
   * only be waiting for the release), goes on while a thread runs (up to
   * ADC_FEED_ASYNC_STALL_SECONDS), and lasts this many seconds where the
   * process cannot go quiet or its threads cannot be seen.  0: release at
   * once, for every rule but the one that judges the wait
   * (consumer.async.waits_for_release). */
  double release_watch_seconds;
};

/* How long the feed waits for a consumer whose process does not go quiet
 * (a thread keeps running, or one of its runtime wakes on a timer) or
 * whose threads cannot be seen: for a request, and for Import's return in
 * release_watch_seconds' watch while a thread runs. */
#define ADC_FEED_ASYNC_STALL_SECONDS 1.0
#define ADC_FEED_ASYNC_OVERWRITTEN "#OVERWRITTEN#"

/* One async producer of a feed, freed with the feed (adc_feed_free joins
 * its delivery thread first). */
struct adc_feed_async;
/* NULL options: a stream that neither fails nor alters anything. */
struct adc_feed_async* adc_feed_async_new(struct adc_feed* feed, const struct arrow_json_file* file,
                                          const struct adc_feed_async_options* options);
/* The start callback (an ADC_AsyncProducerStart) with the producer as its
 * context: takes the handler and returns NULL, or refuses it with a message
 * when it was given one already or no thread could be started. */
const char* adc_feed_async_start(void* producer, struct ArrowAsyncDeviceStreamHandler* handler);
/* Tells the producer that Import returned, then waits for its delivery
 * thread to finish.  Call it as soon as Import returns. */
void adc_feed_async_import_returned(struct adc_feed_async* producer);

/* What the consumer did with one async producer; read it after
 * adc_feed_async_import_returned. */
struct adc_feed_async_counts {
  bool started;       /* the consumer called start */
  bool schema_handed; /* on_schema was called */
  int schema_release_calls;
  /* on_schema returned with the ArrowSchema it was given neither moved out
   * nor released (spec: it "MUST NOT be stored and kept"). */
  bool schema_left_in_place;
  int tasks; /* on_next_task calls with a task */
  int tasks_never_extracted;
  int tasks_extracted_more_than_once;
  int arrays; /* handed out by extract_data */
  int arrays_never_released;
  int arrays_released_more_than_once;
  bool altered_batch_read; /* the task of options.altered_batch was extracted with data */
  int requests;            /* request calls, of which invalid_requests had n <= 0 */
  int64_t requested;       /* their sum, valid ones only */
  int invalid_requests;
  bool stalled;                  /* the feed ended the stream itself: no request came */
  bool stalled_quiet;            /* ... with the consumer's process quiet (else after 1 s) */
  bool injected_error_delivered; /* on_error(EIO) at options.fail_at_batch */
  int on_error_calls;            /* for any reason */
  bool ended;                    /* on_next_task(NULL) was called */
  int cancel_calls;
  int tasks_before_cancel; /* tasks handed out when cancel was first called */
  int tasks_after_cancel;  /* handed out once the consumer had cancelled */
  bool error_after_cancel; /* on_error was called once the consumer had cancelled */
  /* request or cancel calls made from inside on_error or the handler's
   * release; the first such call and the callback it was made from. */
  int producer_calls_inside_handler;
  const char* first_producer_call;        /* "request", "cancel" */
  const char* first_producer_call_inside; /* "on_error", "release" */
  /* request or cancel calls made once the feed had begun to release the
   * handler, from outside the release itself (spec: the producer "MUST
   * remain valid at least until just before calling release on the stream
   * handler object": after that it may be gone; the feed's stays, and
   * counts), and the first such call. */
  int producer_calls_after_release;
  const char* first_producer_call_after_release; /* "request", "cancel" */
  bool released;                                 /* the handler's release was called */
  /* Import returned while the feed had not yet called release: the feed
   * then called nothing more on the handler. */
  bool import_returned_before_release;
  /* Why the feed itself failed to export a result, NULL when it never did.
   * Valid until the feed is freed. */
  const char* feed_error;
};
struct adc_feed_async_counts adc_feed_async_counts(const struct adc_feed_async* producer);

#endif /* ADC_CONSUMER_FEED_H */
