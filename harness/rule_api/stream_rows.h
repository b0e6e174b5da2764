/* A stream read as its consumer reads it: by rows.
 *
 * A stream's batches are the producer's to cut (spec, "Device Stream
 * Interface": get_next gives "the next chunk of data"): a library may cut
 * the fixture's rows into batches of its own (DataFusion cuts at 8192
 * rows), merge them, or give an empty batch where the fixture has none.
 * So the rules on what a stream does (its end, its release, its move, its
 * results' lifetimes) read it until it has given the fixture's rows, and
 * judge the end as what comes after them; only
 * device_stream.next.matches_fixture asks a library of C entry points for
 * the fixture's batches as written (rule_api/library.h: keeps_own_model). */
#ifndef ADC_STREAM_ROWS_H
#define ADC_STREAM_ROWS_H

#include <stdbool.h>
#include <stdint.h>

#include "rule_api/case_context.h"

/* At most this many batches are read for the fixture's rows, and this many
 * batches of no rows taken for the end of the stream after them: a stream
 * that gives more misbehaves, and is judged so rather than read for ever. */
#define ADC_STREAM_MOST_BATCHES 1024
#define ADC_STREAM_MOST_EMPTY_BATCHES 16

struct adc_stream_rows {
  struct ArrowDeviceArray* arrays[ADC_STREAM_MOST_BATCHES]; /* in order, each ready to read */
  int n;
  int64_t rows;
};

/* The rows of every batch of the fixture together. */
int64_t adc_fixture_rows(const struct arrow_json_file* fixture);

/* The rows of the fixture's batches before batch `batch`. */
int64_t adc_fixture_rows_before(const struct arrow_json_file* fixture, int64_t batch);

/* Takes batches from `stream` (each waited on, as adc_stream_get_next
 * hands them) until they hold the fixture's rows.  False, with the case
 * unresolved naming device_stream.next.matches_fixture, where a call
 * fails, the stream ends first, a batch holds rows past the fixture's, or
 * more than ADC_STREAM_MOST_BATCHES batches are needed; what was read
 * stays in `rows` either way, for adc_stream_rows_release. */
bool adc_stream_read_rows(struct adc_case_context* ctx, struct ArrowDeviceArrayStream* stream,
                          struct adc_stream_rows* rows);
/* Releases every batch read (and not released since). */
void adc_stream_rows_release(struct adc_stream_rows* rows);

/* The rows read, read by `schema` (the stream's own), compared with the
 * fixture's: batch by batch and exactly where the library's batches are
 * the fixture's as written (a library of C entry points whose types and
 * batches are the fixture's: comparing so watches for late writes and
 * reads any device), else by value (arrow_logical.h) where the device's
 * memory is read in place.  0, or the kind of the first difference (enum
 * arrow_json_difference) with it in `difference`. */
int adc_compare_stream_rows(struct adc_case_context* ctx, const struct ArrowSchema* schema,
                            const struct adc_stream_rows* rows, char* difference, size_t size);

/* Whether the rows read are the fixture's before a rule's step: if not,
 * the case is unresolved naming the rule that judges the difference
 * (device_stream.next.matches_fixture, or a layout or types rule). */
bool adc_stream_rows_before_step(struct adc_case_context* ctx, const struct ArrowSchema* schema,
                                 const struct adc_stream_rows* rows);

/* After the fixture's rows: get_next until it gives the end (0 and a
 * released array), taking up to ADC_STREAM_MOST_EMPTY_BATCHES batches of
 * no rows before it (a stream may give an empty batch).  NULL at the end;
 * otherwise what came instead, written to `text` (a code, another batch
 * with rows, empty batches without end), or NULL with a verdict given. */
const char* adc_stream_end_after_rows(struct adc_case_context* ctx, struct ArrowDeviceArrayStream* stream,
                                      char* text, size_t size);

#endif /* ADC_STREAM_ROWS_H */
