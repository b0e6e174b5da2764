/* Producer rules for device streams (spec: "Device Stream Interface").
 *
 * The harness plays the consumer: it asks the producer for a stream over
 * the fixture on the case's device (ExportDeviceStreamFromJson), then
 * drives it the way the spec allows and checks what comes back.  Batches
 * are read as single device batches are: after waiting on their
 * sync_event, through the device layer. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device_id_label.h"
#include "rule_api/fixture_compare.h"
#include "rule_api/library_text.h"
#include "rule_api/output_slot.h"
#include "rule_api/producer_calls.h"
#include "rule_api/stream_calls.h"
#include "rule_api/stream_rows.h"
#include "support/errno_value.h"

static void callbacks_non_null(struct adc_case_context* ctx) {
  struct ArrowDeviceArrayStream* stream = adc_export_stream_raw(ctx);
  if (stream == NULL) return;
  const struct {
    const char* name;
    const void* member;
    bool is_null;
  } callbacks[] = {
      {"get_schema", &stream->get_schema, stream->get_schema == NULL},
      {"get_next", &stream->get_next, stream->get_next == NULL},
      {"get_last_error", &stream->get_last_error, stream->get_last_error == NULL},
      {"release", &stream->release, stream->release == NULL},
  };
  for (size_t i = 0; i < sizeof(callbacks) / sizeof(callbacks[0]) && !ctx->has_verdict; i++) {
    if (callbacks[i].is_null) {
      adc_violation(ctx, "%s is NULL right after a successful export", callbacks[i].name);
    } else if (adc_output_unwritten(callbacks[i].member, sizeof(stream->release))) {
      adc_violation(ctx, "%s was never written: it still holds the harness's 0x%02X fill bytes",
                    callbacks[i].name, ADC_FILL_BYTE);
    }
  }
  if (!ctx->has_verdict) stream->release(stream);
}

static void device_type_matches_request(struct adc_case_context* ctx) {
  struct ArrowDeviceArrayStream* stream = adc_export_stream(ctx);
  if (stream == NULL) return;
  if (stream->device_type != ctx->device->driver->kind->arrow_type) {
    adc_violation(ctx, "the stream's device_type is %d; %s was asked for (%d)", (int)stream->device_type,
                  ctx->device->driver->name, (int)ctx->device->driver->kind->arrow_type);
  }
  stream->release(stream);
}

/* How a stream's schema is compared with the fixture's: all of it
 * (adc_compare_schema: exactly, or by value for a library that keeps its
 * own model), or what its data need, its types and names
 * (adc_compare_schema_types: a flag or a metadata pair of its own is the
 * schema rule's, no reason not to read the data); judged by the case's
 * rule, or a precondition of its step. */
enum schema_check { SCHEMA_JUDGED, SCHEMA_TYPES_JUDGED, SCHEMA_BEFORE_STEP };

/* The stream's schema, compared as `check` says: NULL with a violation of
 * the case's rule where it is judged, else with unresolved pointing at the
 * schema rule. */
static struct ArrowSchema* schema_of(struct adc_case_context* ctx, struct ArrowDeviceArrayStream* stream,
                                     enum schema_check check, const char* which) {
  int code = 0;
  struct ArrowSchema* schema = adc_stream_get_schema(ctx, stream, &code);
  char difference[512] = "";
  if (schema == NULL && !ctx->has_verdict) {
    snprintf(difference, sizeof(difference), "get_schema returned %d", code);
  } else if (schema != NULL && schema->release == NULL) {
    snprintf(difference, sizeof(difference), "get_schema returned 0 and a released schema");
  } else if (schema != NULL &&
             (check == SCHEMA_JUDGED
                  ? adc_compare_schema(ctx, schema, difference, sizeof(difference))
                  : adc_compare_schema_types(ctx, schema, difference, sizeof(difference)))) {
    schema->release(schema);
  } else {
    return schema;
  }
  if (check != SCHEMA_BEFORE_STEP) {
    adc_violation(ctx, "%s: %s", which, difference);
  } else if (!ctx->has_verdict) {
    adc_unresolved(ctx, "%s: %s (see %s)", which, difference, ADC_RULE_STREAM_SCHEMA);
  }
  return NULL;
}

static void schema_matches_fixture(struct adc_case_context* ctx) {
  struct ArrowDeviceArrayStream* stream = adc_export_stream(ctx);
  if (stream == NULL) return;
  struct ArrowSchema* schema = schema_of(ctx, stream, SCHEMA_JUDGED, "the stream's schema");
  if (schema != NULL) schema->release(schema);
  stream->release(stream);
}

/* Takes the fixture's rows from the stream and releases them
 * (stream_rows.h). */
static void drain(struct adc_case_context* ctx, struct ArrowDeviceArrayStream* stream) {
  struct adc_stream_rows rows;
  adc_stream_read_rows(ctx, stream, &rows);
  adc_stream_rows_release(&rows);
}

static void schema_same_on_every_call(struct adc_case_context* ctx) {
  struct ArrowDeviceArrayStream* stream = adc_export_stream(ctx);
  if (stream == NULL) return;
  struct ArrowSchema* first = schema_of(ctx, stream, SCHEMA_BEFORE_STEP, "the first get_schema");
  if (first != NULL) {
    /* Later calls are judged on what the first has right: where its flags
     * or metadata are not the fixture's, that is the schema rule's
     * failure, not a change between calls. */
    char unused[256];
    enum schema_check later =
        adc_compare_schema(ctx, first, unused, sizeof(unused)) == 0 ? SCHEMA_JUDGED : SCHEMA_TYPES_JUDGED;
    first->release(first);
    struct ArrowSchema* again = schema_of(ctx, stream, later, "a second get_schema, right after the first");
    if (again != NULL) again->release(again);
    drain(ctx, stream);
    if (!ctx->has_verdict) {
      struct ArrowSchema* after = schema_of(ctx, stream, later, "get_schema after every batch was read");
      if (after != NULL) after->release(after);
    }
  }
  stream->release(stream);
}

static void next_device_type_matches_stream(struct adc_case_context* ctx) {
  struct ArrowDeviceArrayStream* stream = adc_export_stream(ctx);
  if (stream == NULL) return;
  if (stream->device_type != ctx->device->driver->kind->arrow_type) {
    adc_unresolved(ctx, "the stream's own device_type is not the one asked for (see %s)",
                   "device_stream.device_type.matches_request");
  }
  struct adc_stream_rows rows;
  adc_stream_read_rows(ctx, stream, &rows);
  for (int batch = 0; batch < rows.n && !ctx->has_verdict; batch++) {
    if (rows.arrays[batch]->device_type != stream->device_type) {
      adc_violation(ctx, "batch %d has device_type %d, the stream %d", batch,
                    (int)rows.arrays[batch]->device_type, (int)stream->device_type);
    }
  }
  adc_stream_rows_release(&rows);
  stream->release(stream);
}

/* The rule that judges a batch's device_type, which device_id depends on:
 * the batch's own against the stream's, else the stream's against the
 * device asked for. */
static const char* rule_on_type_of(const struct ArrowDeviceArrayStream* stream,
                                   const struct ArrowDeviceArray* array) {
  return array->device_type != stream->device_type ? "device_stream.next.device_type_matches_stream"
                                                   : "device_stream.device_type.matches_request";
}

/* spec (Semantics): chunks share a device type "but not necessarily the
 * same device id"; each still names the device its data are on, and this
 * stream was asked for on one (plugin ABI). */
static void next_device_id_matches_request(struct adc_case_context* ctx) {
  struct ArrowDeviceArrayStream* stream = adc_export_stream(ctx);
  if (stream == NULL) return;
  struct adc_stream_rows rows;
  adc_stream_read_rows(ctx, stream, &rows);
  for (int batch = 0; batch < rows.n && !ctx->has_verdict; batch++) {
    char which[32];
    snprintf(which, sizeof(which), "batch %d", batch);
    adc_judge_device_id(ctx, rows.arrays[batch], which, rule_on_type_of(stream, rows.arrays[batch]));
  }
  adc_stream_rows_release(&rows);
  stream->release(stream);
}

/* A library of C entry points exports the file as written: its stream
 * gives the fixture's batches, each equal to its batch, then its end.
 * Never read by the fixture's types where the stream's schema says other
 * types (the schema rule's failure, unresolved here). */
static void judge_batches_as_written(struct adc_case_context* ctx, struct ArrowDeviceArrayStream* stream,
                                     const struct ArrowSchema* schema) {
  char difference[512];
  if (arrow_json_compare_schema_aspects(ctx->fixture, schema, ARROW_JSON_SCHEMA_TYPES, difference,
                                        sizeof(difference)) != 0) {
    adc_unresolved(
        ctx,
        "the stream's schema has other types than the fixture's, which its batches are read by (see %s): %s",
        ADC_RULE_STREAM_SCHEMA, difference);
    return;
  }
  ADC_FOR_EACH_BATCH(ctx, batch) {
    int code = 0;
    struct ArrowDeviceArray* array = adc_stream_get_next(ctx, stream, batch, &code);
    if (array == NULL) {
      if (!ctx->has_verdict) adc_violation(ctx, "get_next for batch %d returned %d", batch, code);
    } else if (array->array.release == NULL) {
      adc_violation(ctx, "the stream ended after %d batches; the fixture has %d", batch,
                    (int)ctx->fixture->n_batches);
    } else if (adc_compare_batch(ctx, batch, &array->array, difference, sizeof(difference)) != 0) {
      adc_violation(ctx, "batch %d differs from the fixture: %s", batch, difference);
    }
    adc_stream_release_array(array);
  }
  int code = 0;
  struct ArrowDeviceArray* after = ctx->has_verdict ? NULL : adc_stream_get_next_raw(ctx, stream, &code);
  if (after != NULL && after->array.release != NULL) {
    adc_violation(
        ctx,
        "the stream gave a batch of %lld rows after the fixture's %d batches, which it exports as written",
        (long long)after->array.length, (int)ctx->fixture->n_batches);
    after->array.release(&after->array);
  }
}

/* A library that keeps its own model cuts its rows into batches of its
 * own: every batch up to the end, their rows together equal to the
 * fixture's, by value. */
static void judge_rows(struct adc_case_context* ctx, struct ArrowDeviceArrayStream* stream,
                       const struct ArrowSchema* schema) {
  static struct adc_stream_rows rows; /* large: off the stack */
  rows.n = 0;
  rows.rows = 0;
  for (;;) {
    int code = 0;
    struct ArrowDeviceArray* array = adc_stream_get_next(ctx, stream, rows.n, &code);
    if (array == NULL) {
      if (!ctx->has_verdict) adc_violation(ctx, "get_next after %d batches returned %d", rows.n, code);
      break;
    }
    if (array->array.release == NULL) break;
    if (rows.n == ADC_STREAM_MOST_BATCHES) {
      adc_violation(ctx, "the stream gave more than %d batches for the fixture's %lld rows",
                    ADC_STREAM_MOST_BATCHES, (long long)adc_fixture_rows(ctx->fixture));
      array->array.release(&array->array);
      break;
    }
    rows.arrays[rows.n++] = array;
    rows.rows += array->array.length;
  }
  char difference[512];
  if (!ctx->has_verdict && adc_compare_stream_rows(ctx, schema, &rows, difference, sizeof(difference)) != 0) {
    adc_violation(ctx, "the stream's rows (%d batches) differ from the fixture's: %s", rows.n, difference);
  }
  adc_stream_rows_release(&rows);
}

static void next_matches_fixture(struct adc_case_context* ctx) {
  struct ArrowDeviceArrayStream* stream = adc_export_stream(ctx);
  if (stream == NULL) return;
  struct ArrowSchema* schema = schema_of(ctx, stream, SCHEMA_BEFORE_STEP, "the stream's schema");
  if (schema != NULL) {
    if (ctx->library->keeps_own_model) {
      judge_rows(ctx, stream, schema);
    } else {
      judge_batches_as_written(ctx, stream, schema);
    }
    schema->release(schema);
  }
  stream->release(stream);
}

static void end_released_array(struct adc_case_context* ctx) {
  struct ArrowDeviceArrayStream* stream = adc_export_stream(ctx);
  if (stream == NULL) return;
  drain(ctx, stream);
  char text[128];
  if (!ctx->has_verdict && adc_stream_end_after_rows(ctx, stream, text, sizeof(text)) != NULL &&
      !ctx->has_verdict) {
    adc_violation(ctx, "after the fixture's %lld rows, %s; the end of a stream is 0 with a released array",
                  (long long)adc_fixture_rows(ctx->fixture), text);
  }
  stream->release(stream);
}

/* get_next after the end: NULL when the stream gave its end again (0 and
 * a released array), else what it gave instead. */
static const char* not_the_end(struct adc_case_context* ctx, struct ArrowDeviceArrayStream* stream,
                               char* text, size_t size) {
  int code = 0;
  struct ArrowDeviceArray* array = adc_stream_get_next_raw(ctx, stream, &code);
  if (array == NULL) {
    snprintf(text, size, "get_next returned %d", code);
  } else if (array->array.release != NULL) {
    snprintf(text, size, "get_next returned another batch");
    array->array.release(&array->array);
  } else {
    return NULL;
  }
  return text;
}

static void end_repeats(struct adc_case_context* ctx) {
  struct ArrowDeviceArrayStream* stream = adc_export_stream(ctx);
  if (stream == NULL) return;
  drain(ctx, stream);
  char text[128];
  if (!ctx->has_verdict && adc_stream_end_after_rows(ctx, stream, text, sizeof(text)) != NULL &&
      !ctx->has_verdict) {
    adc_unresolved(ctx, "the stream does not end after the fixture's rows: %s (see %s)", text,
                   ADC_RULE_STREAM_END);
  }
  for (int call = 2; call <= 3 && !ctx->has_verdict; call++) {
    if (not_the_end(ctx, stream, text, sizeof(text)) != NULL && !ctx->has_verdict) {
      adc_violation(ctx, "call %d of get_next after the end: %s; the end should be given again", call, text);
    }
  }
  stream->release(stream);
}

/* A library keeping its own model batches its stream its own way (it
 * reads ahead, merges batches: library.h), so the failure of the fixture's
 * batch `fail_at` may come at any of its get_next calls before that
 * batch's rows: read until get_next fails, while what came holds no more
 * than the `rows_before` rows of the fixture's batches before it.  Returns
 * NULL with the error code in `*code`, else what get_next gave where it
 * should have failed: its end, or a batch past those rows, `*rows` the
 * rows that came. */
static struct ArrowDeviceArray* own_batches_until_failure(struct adc_case_context* ctx,
                                                          struct ArrowDeviceArrayStream* stream,
                                                          int64_t rows_before, int* code, int64_t* rows) {
  *rows = 0;
  for (int call = 0; call < ADC_STREAM_MOST_BATCHES && !ctx->has_verdict; call++) {
    struct ArrowDeviceArray* array = adc_stream_get_next(ctx, stream, call, code);
    if (array == NULL || array->array.release == NULL) return array;
    *rows += array->array.length;
    if (*rows > rows_before) return array;
    adc_stream_release_array(array);
  }
  if (!ctx->has_verdict) {
    adc_unresolved(ctx, "the stream gave %d batches holding %lld rows, and no failure (see %s)",
                   ADC_STREAM_MOST_BATCHES, (long long)*rows, ADC_RULE_STREAM_BATCHES);
  }
  return NULL;
}

/* Exports a failing stream and reads up to its failure; the stream with
 * get_next's error code in `*code`, or NULL with a verdict. */
static struct ArrowDeviceArrayStream* stream_after_failure(struct adc_case_context* ctx, int* code) {
  int fail_at = adc_failing_batch(ctx->fixture);
  struct ArrowDeviceArrayStream* stream = adc_export_failing_stream(ctx, fail_at);
  if (stream == NULL) return NULL;
  struct ArrowDeviceArray* array = NULL;
  int64_t rows_before = adc_fixture_rows_before(ctx->fixture, fail_at);
  int64_t rows = 0;
  if (ctx->library->keeps_own_model) {
    array = own_batches_until_failure(ctx, stream, rows_before, code, &rows);
  } else {
    for (int batch = 0; batch < fail_at && !ctx->has_verdict; batch++) {
      adc_stream_release_array(adc_stream_next_or_unresolved(ctx, stream, batch));
    }
    if (!ctx->has_verdict) array = adc_stream_get_next(ctx, stream, fail_at, code);
  }
  if (array != NULL && ctx->library->keeps_own_model) {
    adc_unresolved(ctx,
                   "the stream %s %lld rows where ExportFailingDeviceStreamFromJson was asked to fail it "
                   "after the %lld rows before batch %d; the producer does not honour that entry point",
                   array->array.release == NULL ? "ended after" : "gave", (long long)rows,
                   (long long)rows_before, fail_at);
  } else if (array != NULL) {
    adc_unresolved(
        ctx,
        "get_next returned 0 where ExportFailingDeviceStreamFromJson was asked to fail it (batch %d); "
        "the producer does not honour that entry point",
        fail_at);
  }
  adc_stream_release_array(array);
  if (ctx->has_verdict) {
    stream->release(stream);
    return NULL;
  }
  return stream;
}

static void errors_errno_code(struct adc_case_context* ctx) {
  int code = 0;
  struct ArrowDeviceArrayStream* stream = stream_after_failure(ctx, &code);
  if (stream == NULL) return;
  if (!adc_is_errno_value(code)) {
    adc_violation(ctx,
                  "get_next failed with %d, which is not an errno value (EINVAL %d, ENOMEM %d, EIO %d, ...)",
                  code, EINVAL, ENOMEM, EIO);
  }
  stream->release(stream);
}

static void errors_last_error_text(struct adc_case_context* ctx) {
  int code = 0;
  struct ArrowDeviceArrayStream* stream = stream_after_failure(ctx, &code);
  if (stream == NULL) return;
  const char* description = stream->get_last_error(stream);
  char text[ADC_LIBRARY_TEXT_LIMIT + 128];
  bool well_formed = true;
  if (description == NULL) {
    adc_note(ctx, "get_last_error gave no description (NULL)");
  } else if (adc_library_text_checked(description, text, sizeof(text), &well_formed), !well_formed) {
    adc_violation(ctx, "get_last_error after get_next failed with %d: %s", code, text);
  } else {
    adc_note(ctx, "get_last_error: %s", text);
  }
  stream->release(stream);
}

static void results_outlive_stream(struct adc_case_context* ctx) {
  struct ArrowDeviceArrayStream* stream = adc_export_stream(ctx);
  if (stream == NULL) return;
  struct ArrowSchema* schema = schema_of(ctx, stream, SCHEMA_BEFORE_STEP, "get_schema");
  static struct adc_stream_rows rows; /* large: off the stack */
  rows.n = 0;
  if (schema != NULL && adc_stream_read_rows(ctx, stream, &rows))
    adc_stream_rows_before_step(ctx, schema, &rows);
  /* spec: "Their lifetimes are not tied to that of ArrowDeviceArrayStream." */
  stream->release(stream);
  char difference[512];
  if (!ctx->has_verdict && adc_compare_schema_types(ctx, schema, difference, sizeof(difference))) {
    adc_violation(ctx, "the schema changed when the stream was released: %s", difference);
  }
  if (!ctx->has_verdict && adc_compare_stream_rows(ctx, schema, &rows, difference, sizeof(difference)) != 0) {
    adc_violation(ctx, "the batches changed when the stream was released: %s", difference);
  }
  adc_stream_rows_release(&rows);
  if (schema != NULL) schema->release(schema);
}

static void release_sets_null(struct adc_case_context* ctx) {
  struct ArrowDeviceArrayStream* stream = adc_export_stream(ctx);
  if (stream == NULL) return;
  stream->release(stream);
  if (stream->release != NULL) adc_violation(ctx, "release is still set after the release callback returned");
}

static const char moved_from_message[] =
    "the producer touched the moved-from ArrowDeviceArrayStream after the consumer moved it; its "
    "callbacks must not assume the stream stays where it was produced";

static void move_relocatable(struct adc_case_context* ctx) {
  struct ArrowDeviceArrayStream* source = adc_export_stream(ctx);
  if (source == NULL) return;
  /* A move is a bitwise copy, the source marked released (spec: "Moving an
   * array"; spec: "Stream lifetime" is managed "with similar usage"). */
  struct ArrowDeviceArrayStream* moved = malloc(sizeof(*moved));
  memcpy(moved, source, sizeof(*moved));
  source->release = NULL;
  adc_output_slot_seal(source, adc_violation_status(ctx->rule), moved_from_message);
  struct ArrowSchema* schema = schema_of(ctx, moved, SCHEMA_BEFORE_STEP, "get_schema on the moved stream");
  static struct adc_stream_rows rows; /* large: off the stack */
  rows.n = 0;
  if (schema != NULL && adc_stream_read_rows(ctx, moved, &rows))
    adc_stream_rows_before_step(ctx, schema, &rows);
  adc_stream_rows_release(&rows);
  if (schema != NULL) schema->release(schema);
  moved->release(moved);
  free(moved);
}

/* BytesAllocated after taking the schema and, from a stream, its first
 * batch (`all` false) or the fixture's rows (`all` true), releasing the
 * stream, then what was taken; minus before. */
static bool bytes_kept(struct adc_case_context* ctx, bool all, int64_t* kept) {
  int64_t before = 0;
  int64_t after = 0;
  if (!adc_bytes_allocated(ctx, &before)) return false;
  struct ArrowDeviceArrayStream* stream = adc_export_stream(ctx);
  if (stream == NULL) return false;
  struct ArrowSchema* schema = schema_of(ctx, stream, SCHEMA_BEFORE_STEP, "get_schema");
  static struct adc_stream_rows rows; /* large: off the stack */
  rows.n = 0;
  if (all) {
    adc_stream_read_rows(ctx, stream, &rows);
  } else if (adc_fixture_rows(ctx->fixture) > 0 && !ctx->has_verdict) {
    rows.arrays[0] = adc_stream_next_or_unresolved(ctx, stream, 0);
    rows.n = rows.arrays[0] != NULL ? 1 : 0;
  }
  stream->release(stream);
  adc_stream_rows_release(&rows);
  if (schema != NULL) schema->release(schema);
  if (ctx->has_verdict || !adc_bytes_allocated(ctx, &after)) return false;
  *kept = after - before;
  return true;
}

static void release_no_leak(struct adc_case_context* ctx) {
  /* Released mid-stream (after the first batch), then at its end. */
  const char* when[] = {"after its first batch", "after its last batch"};
  for (int i = 0; i < 2; i++) {
    int64_t kept = 0;
    if (bytes_kept(ctx, i == 1, &kept) && kept != 0) {
      adc_violation(ctx,
                    "BytesAllocated is %lld bytes above its value before the export once the stream, "
                    "released %s, and everything taken from it were released",
                    (long long)kept, when[i]);
    }
  }
}

static const char stream_release_sentence[] =
    "*Mandatory.* A pointer to a producer-provided release callback.";

static const struct adc_rule rules[] = {
    {
        .id = ADC_RULE_STREAM_CALLBACKS,
        .clause = "The ArrowDeviceArrayStream structure",
        .sentence = "get_schema, get_next, get_last_error, release: *Mandatory.*",
        .method = "Exports a stream and checks that its four callbacks are set (neither NULL nor left as "
                  "the harness's fill bytes).",
        .role = ADC_ROLE_PRODUCER,
        .devices = &adc_devices_for_streams,
        .needs = ADC_NEED(ExportDeviceStreamFromJson),
        .run = callbacks_non_null,
    },
    {
        .id = "device_stream.device_type.matches_request",
        .clause = "The ArrowDeviceArrayStream structure",
        .sentence = "*Mandatory.* The device type that this stream produces data on.",
        .method = "Exports a stream on the case's device and checks its device_type is that device's.",
        .role = ADC_ROLE_PRODUCER,
        .devices = &adc_devices_for_streams,
        .needs = ADC_NEED(ExportDeviceStreamFromJson),
        .run = device_type_matches_request,
    },
    {
        .id = ADC_RULE_STREAM_SCHEMA,
        .clause = "ArrowDeviceArrayStream.get_schema",
        .sentence =
            "This callback allows the consumer to query the schema of the chunks of data in the stream. "
            "*Return value:* 0 on success",
        .method = "Calls get_schema and checks it returns 0 and the fixture's schema.",
        .role = ADC_ROLE_PRODUCER,
        .devices = &adc_devices_for_streams,
        .needs = ADC_NEED(ExportDeviceStreamFromJson),
        .run = schema_matches_fixture,
    },
    {
        .id = "device_stream.schema.same_on_every_call",
        .clause = "ArrowDeviceArrayStream.get_schema",
        .sentence = "The schema is the same for all data chunks.",
        .method = "Calls get_schema twice, reads every batch, calls it again, and checks each schema is the "
                  "fixture's.",
        .role = ADC_ROLE_PRODUCER,
        .devices = &adc_devices_for_streams,
        .needs = ADC_NEED(ExportDeviceStreamFromJson),
        .run = schema_same_on_every_call,
    },
    {
        .id = "device_stream.next.device_type_matches_stream",
        .clause = "ArrowDeviceArrayStream.get_next",
        .sentence = "The next chunk of data MUST be accessible from a device type matching the "
                    "ArrowDeviceArrayStream.device_type.",
        .method = "Reads every batch and checks each one's device_type is the stream's.",
        .role = ADC_ROLE_PRODUCER,
        .devices = &adc_devices_for_streams,
        .needs = ADC_NEED(ExportDeviceStreamFromJson),
        .run = next_device_type_matches_stream,
    },
    {
        .id = "device_stream.next.device_id_matches_request",
        .clause = ADC_DEVICE_ID_CLAUSE,
        .sentence = ADC_DEVICE_ID_SENTENCE,
        .method = "Reads every batch and checks each one's device_id is the id the stream was requested on "
                  "(MUST: see erratum E12).",
        .role = ADC_ROLE_PRODUCER,
        .devices = &adc_devices_with_ids,
        .needs = ADC_NEED(ExportDeviceStreamFromJson),
        .run = next_device_id_matches_request,
    },
    {
        .id = ADC_RULE_STREAM_BATCHES,
        .clause = "ArrowDeviceArrayStream.get_next",
        .sentence = "Otherwise, the ArrowDeviceArray contains a valid data chunk.",
        .method = "Reads as many batches as the fixture has, each after its sync_event, and checks get_next "
                  "returns 0 and each batch equals the fixture's, in order.",
        .role = ADC_ROLE_PRODUCER,
        .devices = &adc_devices_for_streams,
        .needs = ADC_NEED(ExportDeviceStreamFromJson),
        .run = next_matches_fixture,
    },
    {
        .id = ADC_RULE_STREAM_END,
        .clause = "ArrowDeviceArrayStream.get_next",
        .sentence = "If the embedded ArrowDeviceArray.array is released, then the end of the stream has been "
                    "reached.",
        .method = "Reads every batch, then checks the next get_next returns 0 and a released array.",
        .role = ADC_ROLE_PRODUCER,
        .devices = &adc_devices_for_streams,
        .needs = ADC_NEED(ExportDeviceStreamFromJson),
        .run = end_released_array,
    },
    {
        .id = "device_stream.end.repeats",
        .clause = "ArrowDeviceArrayStream.get_next",
        .sentence = "If the embedded ArrowDeviceArray.array is released, then the end of the stream has been "
                    "reached.",
        .method = "After the end of the stream, calls get_next twice more and checks each returns the end "
                  "again (SHOULD: erratum E7).",
        .severity = ADC_SHOULD,
        .role = ADC_ROLE_PRODUCER,
        .devices = &adc_devices_for_streams,
        .needs = ADC_NEED(ExportDeviceStreamFromJson),
        .run = end_repeats,
    },
    {
        .id = "device_stream.errors.errno_code",
        .clause = "Error codes",
        .sentence = "Such error codes should be interpreted like errno numbers (as defined by the local "
                    "platform).",
        .method = "Has the producer fail get_next mid-stream (ExportFailingDeviceStreamFromJson) and checks "
                  "the code is an errno value of this platform. A library keeping its own model may fail at "
                  "any get_next before the failing batch's rows.",
        .role = ADC_ROLE_PRODUCER,
        .devices = &adc_devices_for_streams,
        .needs = ADC_NEED(ExportFailingDeviceStreamFromJson),
        .run = errors_errno_code,
    },
    {
        .id = "device_stream.errors.last_error_text",
        .clause = "ArrowDeviceArrayStream.get_last_error",
        .sentence =
            "*Return value:* a pointer to a NULL-terminated character string (UTF8-encoded). NULL can "
            "also be returned if no detailed description is available.",
        .method =
            "Has the producer fail get_next mid-stream, calls get_last_error, and reads its text with a "
            "bound, checking it is NUL-terminated UTF-8 (or NULL). A library keeping its own model may fail "
            "at any get_next before the failing batch's rows.",
        .role = ADC_ROLE_PRODUCER,
        .devices = &adc_devices_for_streams,
        .needs = ADC_NEED(ExportFailingDeviceStreamFromJson),
        .run = errors_last_error_text,
    },
    {
        .id = "device_stream.lifetime.results_outlive_stream",
        .clause = "Result lifetimes",
        .sentence = "The data returned by the get_schema and get_next callbacks must be released "
                    "independently. Their lifetimes are not tied to that of ArrowDeviceArrayStream.",
        .method = "Takes the schema and every batch, releases the stream, then checks each is still the "
                  "fixture's and releases it.",
        .role = ADC_ROLE_PRODUCER,
        .devices = &adc_devices_for_streams,
        .needs = ADC_NEED(ExportDeviceStreamFromJson),
        .run = results_outlive_stream,
    },
    {
        .id = "device_stream.release.sets_null",
        .clause = "Stream lifetime",
        .sentence = "Lifetime of the C stream is managed using a release callback with similar usage as in C "
                    "data interface.",
        .method = "Exports a stream, calls its release callback and checks release is NULL afterwards (as "
                  "for arrays: erratum E8).",
        .role = ADC_ROLE_PRODUCER,
        .devices = &adc_devices_for_streams,
        .needs = ADC_NEED(ExportDeviceStreamFromJson),
        .run = release_sets_null,
    },
    {
        .id = "device_stream.move.relocatable",
        .clause = "Stream lifetime",
        .sentence = "Lifetime of the C stream is managed using a release callback with similar usage as in C "
                    "data interface.",
        .method = "Exports a stream into a struct on its own page, copies it bitwise, makes the page "
                  "inaccessible, then reads every batch through the copy and releases it (erratum E8).",
        .role = ADC_ROLE_PRODUCER,
        .devices = &adc_devices_for_streams,
        .needs = ADC_NEED(ExportDeviceStreamFromJson),
        .run = move_relocatable,
    },
    {
        .id = "device_stream.release.no_leak",
        .clause = "ArrowDeviceArrayStream.release",
        .sentence = stream_release_sentence,
        .method = "Releases a stream after its first batch and another after its last, then everything taken "
                  "from them, and checks BytesAllocated is back where it was (erratum E8).",
        .role = ADC_ROLE_PRODUCER,
        .devices = &adc_devices_for_streams,
        .needs = ADC_NEED(ExportDeviceStreamFromJson) | ADC_NEED(BytesAllocated),
        .run = release_no_leak,
    },
};

const struct adc_rule_family adc_device_stream_rules = ADC_RULE_FAMILY(rules);
