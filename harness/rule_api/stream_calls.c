#include "rule_api/stream_calls.h"

#include <stdio.h>

#include "rule_api/needs.h"
#include "rule_api/output_slot.h"
#include "rule_api/producer_calls.h"

static bool every_callback_set(const struct ArrowDeviceArrayStream* stream) {
  return stream->get_schema != NULL && stream->get_next != NULL && stream->get_last_error != NULL &&
         stream->release != NULL;
}

/* The stream as adc_export_stream hands it out: unresolved unless every
 * callback is set (a pattern byte in a callback, one never written, counts
 * as set here; calling it faults, which is that rule's verdict too). */
static struct ArrowDeviceArrayStream* usable(struct adc_case_context* ctx,
                                             struct ArrowDeviceArrayStream* out) {
  if (out == NULL || every_callback_set(out)) return out;
  adc_unresolved(ctx, "the exported stream lacks a callback (see %s)", ADC_RULE_STREAM_CALLBACKS);
  if (out->release != NULL) out->release(out);
  return NULL;
}

struct ArrowDeviceArrayStream* adc_export_stream_raw(struct adc_case_context* ctx) {
  if (!adc_can_call(ctx, ADC_EP_ExportDeviceStreamFromJson)) return NULL;
  struct ArrowDeviceArrayStream* out =
      adc_output_slot_new_filled(ctx, sizeof(*out), "ArrowDeviceArrayStream", "ExportDeviceStreamFromJson");
  if (out == NULL) return NULL;
  const char* error = ctx->library->functions.ExportDeviceStreamFromJson(
      ctx->fixture_path, ctx->device->driver->kind->arrow_type, ctx->device->device_id, out);
  char what[128];
  snprintf(what, sizeof(what), "a stream on %s", ctx->device->driver->name);
  return adc_exported(ctx, out, error, what);
}

struct ArrowDeviceArrayStream* adc_export_stream(struct adc_case_context* ctx) {
  return usable(ctx, adc_export_stream_raw(ctx));
}

struct ArrowDeviceArrayStream* adc_export_failing_stream(struct adc_case_context* ctx, int fail_at_batch) {
  if (!adc_can_call(ctx, ADC_EP_ExportFailingDeviceStreamFromJson)) return NULL;
  struct ArrowDeviceArrayStream* out = adc_output_slot_new_filled(ctx, sizeof(*out), "ArrowDeviceArrayStream",
                                                                  "ExportFailingDeviceStreamFromJson");
  if (out == NULL) return NULL;
  const char* error = ctx->library->functions.ExportFailingDeviceStreamFromJson(
      ctx->fixture_path, ctx->device->driver->kind->arrow_type, ctx->device->device_id, fail_at_batch, out);
  char what[128];
  snprintf(what, sizeof(what), "a stream on %s failing at batch %d", ctx->device->driver->name,
           fail_at_batch);
  return usable(ctx, adc_exported(ctx, out, error, what));
}

struct ArrowSchema* adc_stream_get_schema(struct adc_case_context* ctx, struct ArrowDeviceArrayStream* stream,
                                          int* code) {
  struct ArrowSchema* out = adc_output_slot_new_filled(ctx, sizeof(*out), "ArrowSchema", "get_schema");
  if (out == NULL) return NULL;
  *code = stream->get_schema(stream, out);
  if (!adc_output_slot_intact(ctx, out) || *code != 0) return NULL;
  return out;
}

struct ArrowDeviceArray* adc_stream_get_next_raw(struct adc_case_context* ctx,
                                                 struct ArrowDeviceArrayStream* stream, int* code) {
  struct ArrowDeviceArray* out =
      adc_output_slot_new_filled(ctx, sizeof(*out), "ArrowDeviceArray", "get_next");
  if (out == NULL) return NULL;
  *code = stream->get_next(stream, out);
  if (!adc_output_slot_intact(ctx, out) || *code != 0) return NULL;
  return out;
}

struct ArrowDeviceArray* adc_stream_next_unwaited_or_unresolved(struct adc_case_context* ctx,
                                                                struct ArrowDeviceArrayStream* stream,
                                                                int batch) {
  int code = 0;
  struct ArrowDeviceArray* out = adc_stream_get_next_raw(ctx, stream, &code);
  if (out != NULL && out->array.release != NULL) return out;
  if (!ctx->has_verdict) {
    adc_unresolved(ctx, "get_next for batch %d returned %d%s (see %s)", batch, code,
                   out != NULL ? " and the end of the stream" : "", ADC_RULE_STREAM_BATCHES);
  }
  return NULL;
}

struct ArrowDeviceArray* adc_stream_get_next(struct adc_case_context* ctx,
                                             struct ArrowDeviceArrayStream* stream, int batch, int* code) {
  struct ArrowDeviceArray* out = adc_stream_get_next_raw(ctx, stream, code);
  /* spec: "If the embedded ArrowDeviceArray.array is released, then the end
   * of the stream has been reached."  Nothing to wait for then. */
  if (out != NULL && out->array.release != NULL &&
      !adc_wait_until_ready_from(ctx, out, batch, ADC_FROM_STREAM)) {
    return NULL;
  }
  return out;
}

struct ArrowDeviceArray* adc_stream_next_or_unresolved(struct adc_case_context* ctx,
                                                       struct ArrowDeviceArrayStream* stream, int batch) {
  int code = 0;
  struct ArrowDeviceArray* array = adc_stream_get_next(ctx, stream, batch, &code);
  if (array == NULL) {
    if (!ctx->has_verdict) {
      adc_unresolved(ctx, "get_next for batch %d returned %d (see %s)", batch, code,
                     batch < ctx->fixture->n_batches ? ADC_RULE_STREAM_BATCHES : ADC_RULE_STREAM_END);
    }
    return NULL;
  }
  bool ended = array->array.release == NULL;
  if (batch < ctx->fixture->n_batches && ended) {
    adc_unresolved(ctx, "the stream ended at batch %d, the fixture has %d (see %s)", batch,
                   (int)ctx->fixture->n_batches, ADC_RULE_STREAM_BATCHES);
    return NULL;
  }
  if (batch >= ctx->fixture->n_batches && !ended) {
    adc_unresolved(ctx, "the stream went on past the fixture's %d batches (see %s)",
                   (int)ctx->fixture->n_batches, ADC_RULE_STREAM_END);
    array->array.release(&array->array);
    return NULL;
  }
  return array;
}

void adc_stream_release_array(struct ArrowDeviceArray* array) {
  if (array != NULL && array->array.release != NULL) array->array.release(&array->array);
}
