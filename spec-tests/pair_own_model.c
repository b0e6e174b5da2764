#include "pair_own_model.h"

#include <stdio.h>
#include <string.h>

#include "arrow_format/arrow_json.h"
#include "arrow_format/arrow_logical.h"
#include "device/device.h"
#include "rule_api/producer_calls.h"
#include "rule_api/stream_rows.h"

/* What a stream's batches are read into: at most as many as a stream
 * rule reads (stream_rows.h). */
struct read_stream {
  struct ArrowSchema schema;
  struct ArrowDeviceArray arrays[ADC_STREAM_MOST_BATCHES];
  const struct ArrowArray* views[ADC_STREAM_MOST_BATCHES];
  int n;
};

static void release_read(struct read_stream* read) {
  for (int i = 0; i < read->n; i++) {
    if (read->arrays[i].array.release != NULL) read->arrays[i].array.release(&read->arrays[i].array);
  }
  if (read->schema.release != NULL) read->schema.release(&read->schema);
  read->n = 0;
}

/* The producer's stream of the fixture, exported afresh and read to its
 * end.  False where any call fails or the stream gives more batches than a
 * rule reads: the harness cannot tell then. */
static bool read_fresh_stream(const struct adc_case_context* ctx, struct read_stream* read) {
  const struct adc_library* producer = ctx->pair_producer;
  struct ArrowDeviceArrayStream stream = {0};
  if (producer->functions.ExportDeviceStreamFromJson(ctx->fixture_path, ctx->device->driver->kind->arrow_type,
                                                     ctx->device->device_id, &stream) != NULL ||
      stream.release == NULL) {
    return false;
  }
  bool read_all = stream.get_schema(&stream, &read->schema) == 0 && read->schema.release != NULL;
  while (read_all) {
    struct ArrowDeviceArray next = {0};
    if (stream.get_next(&stream, &next) != 0) {
      read_all = false;
    } else if (next.array.release == NULL) {
      break;
    } else if (read->n == ADC_STREAM_MOST_BATCHES) {
      next.array.release(&next.array);
      read_all = false;
    } else {
      read->arrays[read->n] = next;
      read->views[read->n] = &read->arrays[read->n].array;
      read->n++;
    }
  }
  stream.release(&stream);
  return read_all;
}

/* Where the stream read differs from the file as written, into `kept`:
 * false where it is the file as written. */
static bool stream_differs_as_written(const struct adc_case_context* ctx, const struct read_stream* read,
                                      char* kept, size_t size) {
  if (arrow_json_compare_schema(ctx->fixture, &read->schema, kept, size) != 0) return true;
  if (read->n != ctx->fixture->n_batches) {
    snprintf(kept, size, "%d batches, the file has %lld", read->n, (long long)ctx->fixture->n_batches);
    return true;
  }
  for (int i = 0; i < read->n; i++) {
    char difference[512];
    if (arrow_json_compare_batch(ctx->fixture, i, read->views[i], difference, sizeof(difference)) != 0) {
      snprintf(kept, size, "batch %d: %s", i, difference);
      return true;
    }
  }
  return false;
}

static bool stream_values_kept(const struct adc_case_context* ctx, char* kept, size_t size) {
  static struct read_stream read; /* large: off the stack */
  memset(&read, 0, sizeof(read));
  bool values_kept = false;
  char difference[512];
  /* The flags as the producer's own runs judge them (fixture_compare.h,
   * adc_compare_schema): part of the pair's data, which a consumer keeps. */
  const int aspects =
      ARROW_LOGICAL_NAMES | ARROW_LOGICAL_METADATA | ARROW_LOGICAL_FLAGS | ARROW_LOGICAL_NULLABLE_MAY_WIDEN;
  if (read_fresh_stream(ctx, &read) && stream_differs_as_written(ctx, &read, kept, size)) {
    values_kept = arrow_logical_compare_schema_aspects(ctx->fixture, &read.schema, aspects, difference,
                                                       sizeof(difference)) == 0 &&
                  arrow_logical_compare_batches(ctx->fixture, -1, &read.schema, read.views, read.n,
                                                difference, sizeof(difference)) == 0;
  }
  release_read(&read);
  return values_kept;
}

/* A batch carries no schema: the consumer reads it by the fixture's types,
 * which are the producer's here (rules_pair.c leaves a producer keeping
 * other types unjudged), so its values alone are the pair's. */
static bool batch_values_kept(const struct adc_case_context* ctx, int batch, char* kept, size_t size) {
  const struct adc_library* producer = ctx->pair_producer;
  struct ArrowSchema schema = {0};
  if (producer->functions.ExportSchemaFromJson(ctx->fixture_path, &schema) != NULL || schema.release == NULL)
    return false;
  struct ArrowDeviceArray array = {0};
  bool values_kept = false;
  if (adc_call_batch_export(producer, ctx, batch, &array) == NULL && array.array.release != NULL) {
    const struct ArrowArray* views[1] = {&array.array};
    char difference[512];
    values_kept = arrow_json_compare_batch(ctx->fixture, batch, &array.array, kept, size) != 0 &&
                  arrow_logical_compare_batches(ctx->fixture, batch, &schema, views, 1, difference,
                                                sizeof(difference)) == 0;
    array.array.release(&array.array);
  }
  schema.release(&schema);
  return values_kept;
}

bool adc_pair_producer_keeps_other_types(const struct adc_case_context* ctx, char* kept, size_t size) {
  const struct adc_library* producer = ctx->pair_producer;
  if (!producer->keeps_own_model || !producer->present[ADC_EP_ExportSchemaFromJson]) return false;
  struct ArrowSchema schema = {0};
  const char* declined = producer->functions.ExportSchemaFromJson(ctx->fixture_path, &schema);
  if (declined != NULL || schema.release == NULL) return false;
  bool other_types =
      arrow_json_compare_schema_aspects(ctx->fixture, &schema, ARROW_JSON_SCHEMA_TYPES, kept, size) != 0;
  if (other_types && arrow_logical_describe_changes(ctx->fixture, &schema, kept, size) <= 0)
    snprintf(kept, size, "its types are not the fixture's");
  schema.release(&schema);
  return other_types;
}

bool adc_pair_values_kept_in_own_model(struct adc_case_context* ctx, int batch, char* kept, size_t size) {
  if (!ctx->pair_producer->keeps_own_model || ctx->library->keeps_own_model) return false;
  /* Read in place, as the producer's own runs read its data by value. */
  if (!adc_device_reads_in_place(ctx->device->driver)) return false;
  return batch >= 0 ? batch_values_kept(ctx, batch, kept, size) : stream_values_kept(ctx, kept, size);
}
