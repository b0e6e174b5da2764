#include "rule_api/stream_rows.h"

#include <stdio.h>

#include "arrow_format/arrow_logical.h"
#include "rule_api/fixture_compare.h"
#include "rule_api/producer_calls.h"
#include "rule_api/stream_calls.h"

int64_t adc_fixture_rows_before(const struct arrow_json_file* fixture, int64_t batch) {
  int64_t rows = 0;
  for (int64_t b = 0; b < batch && b < fixture->n_batches; b++) rows += fixture->batches[b].length;
  return rows;
}

int64_t adc_fixture_rows(const struct arrow_json_file* fixture) {
  return adc_fixture_rows_before(fixture, fixture->n_batches);
}

bool adc_stream_read_rows(struct adc_case_context* ctx, struct ArrowDeviceArrayStream* stream,
                          struct adc_stream_rows* rows) {
  rows->n = 0;
  rows->rows = 0;
  const int64_t wanted = adc_fixture_rows(ctx->fixture);
  while (rows->rows < wanted && !ctx->has_verdict) {
    if (rows->n == ADC_STREAM_MOST_BATCHES) {
      adc_unresolved(ctx, "the stream gave %d batches holding %lld of the fixture's %lld rows (see %s)",
                     rows->n, (long long)rows->rows, (long long)wanted, ADC_RULE_STREAM_BATCHES);
      return false;
    }
    int code = 0;
    struct ArrowDeviceArray* array = adc_stream_get_next(ctx, stream, rows->n, &code);
    if (array == NULL) {
      if (!ctx->has_verdict) {
        adc_unresolved(ctx, "get_next for the batch after row %lld returned %d (see %s)",
                       (long long)rows->rows, code, ADC_RULE_STREAM_BATCHES);
      }
      return false;
    }
    if (array->array.release == NULL) {
      adc_unresolved(ctx, "the stream ended after %lld of the fixture's %lld rows (see %s)",
                     (long long)rows->rows, (long long)wanted, ADC_RULE_STREAM_BATCHES);
      return false;
    }
    rows->arrays[rows->n++] = array;
    rows->rows += array->array.length;
    if (rows->rows > wanted) {
      adc_unresolved(ctx, "the stream gave %lld rows by its batch %d, the fixture has %lld (see %s)",
                     (long long)rows->rows, rows->n - 1, (long long)wanted, ADC_RULE_STREAM_BATCHES);
      return false;
    }
  }
  return !ctx->has_verdict;
}

void adc_stream_rows_release(struct adc_stream_rows* rows) {
  for (int i = 0; i < rows->n; i++) adc_stream_release_array(rows->arrays[i]);
  rows->n = 0;
}

/* Whether the batches read are the fixture's as written: each of its
 * batch's length, the fixture's batches not read all empty (read by rows,
 * a stream is read no further than its last row). */
static bool fixture_batches(const struct arrow_json_file* fixture, const struct adc_stream_rows* rows) {
  if (rows->n > fixture->n_batches) return false;
  for (int64_t i = 0; i < fixture->n_batches; i++) {
    int64_t length = i < rows->n ? rows->arrays[i]->array.length : 0;
    if (length != fixture->batches[i].length) return false;
  }
  return true;
}

int adc_compare_stream_rows(struct adc_case_context* ctx, const struct ArrowSchema* schema,
                            const struct adc_stream_rows* rows, char* difference, size_t size) {
  char unused[64];
  bool fixture_types =
      schema == NULL || arrow_json_compare_schema_aspects(ctx->fixture, schema, ARROW_JSON_SCHEMA_TYPES,
                                                          unused, sizeof(unused)) == 0;
  if (!ctx->library->keeps_own_model && fixture_types && fixture_batches(ctx->fixture, rows)) {
    for (int i = 0; i < rows->n; i++) {
      char found[512];
      int result = adc_compare_batch(ctx, i, &rows->arrays[i]->array, found, sizeof(found));
      if (result != 0) {
        snprintf(difference, size, "batch %d: %s", i, found);
        return result;
      }
    }
    return 0;
  }
  if (schema == NULL || !adc_device_reads_in_place(ctx->device->driver)) {
    snprintf(difference, size,
             "the stream's batches are not the fixture's as written, and on %s they are read through a copy "
             "laid out by the fixture's batches",
             ctx->device->driver->name);
    return ARROW_JSON_DIFFERENT_DATA;
  }
  const struct ArrowArray* arrays[ADC_STREAM_MOST_BATCHES];
  for (int i = 0; i < rows->n; i++) arrays[i] = &rows->arrays[i]->array;
  return arrow_logical_compare_batches(ctx->fixture, -1, schema, arrays, rows->n, difference, size);
}

bool adc_stream_rows_before_step(struct adc_case_context* ctx, const struct ArrowSchema* schema,
                                 const struct adc_stream_rows* rows) {
  char difference[512];
  int result = adc_compare_stream_rows(ctx, schema, rows, difference, sizeof(difference));
  if (result == 0 || ctx->has_verdict) return result == 0;
  const char* rule = adc_layout_rule_of(result);
  if (result == ARROW_JSON_DIFFERENT_TYPES) rule = ADC_RULE_STREAM_SCHEMA;
  adc_unresolved(ctx, "the stream's rows differ from the fixture's before the rule's step (see %s): %s",
                 rule != NULL ? rule : ADC_RULE_STREAM_BATCHES, difference);
  return false;
}

const char* adc_stream_end_after_rows(struct adc_case_context* ctx, struct ArrowDeviceArrayStream* stream,
                                      char* text, size_t size) {
  for (int empty = 0; empty <= ADC_STREAM_MOST_EMPTY_BATCHES; empty++) {
    int code = 0;
    struct ArrowDeviceArray* array = adc_stream_get_next_raw(ctx, stream, &code);
    if (array == NULL) {
      if (ctx->has_verdict) return NULL;
      snprintf(text, size, "get_next returned %d", code);
      return text;
    }
    if (array->array.release == NULL) return NULL;
    int64_t length = array->array.length;
    array->array.release(&array->array);
    if (length != 0) {
      snprintf(text, size, "get_next returned another batch, of %lld rows", (long long)length);
      return text;
    }
  }
  snprintf(text, size, "get_next returned %d batches of no rows and no end",
           ADC_STREAM_MOST_EMPTY_BATCHES + 1);
  return text;
}
