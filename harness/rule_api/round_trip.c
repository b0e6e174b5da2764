#include "rule_api/round_trip.h"

#include "adc/export_again.h"
#include "rule_api/values_back.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The reference library's JSON entry points, which play the file's part. */
static char reference_path[PATH_MAX];
static struct adc_plugin_functions reference;
static void* reference_handle;

void adc_round_trip_use_reference(const char* path) {
  snprintf(reference_path, sizeof(reference_path), "%s", path != NULL ? path : "");
}

/* The message a made entry point returns: the library's own is valid
 * only until its next call (adc/plugin_abi.h), and Free follows. */
static _Thread_local char message[2048];

static const char* say(const char* format, ...) {
  va_list arguments;
  va_start(arguments, format);
  vsnprintf(message, sizeof(message), format, arguments);
  va_end(arguments);
  return message;
}

/* What the last made Import showed of the library's answer
 * (rule_api/consumer_answer.h): set as the made entry points end. */
static _Thread_local enum adc_consumer_answer answer;

enum adc_consumer_answer adc_round_trip_take_answer(void) {
  enum adc_consumer_answer taken = answer;
  answer = ADC_CONSUMER_REPORTED;
  return taken;
}

/* The library said no: its Adopt, or its export of what it holds, failed. */
static const char* declined(const char* error) {
  answer = ADC_CONSUMER_DECLINED;
  return say("%s", error);
}

static const char* reference_failed(const char* what, const char* reason) {
  answer = ADC_CONSUMER_REPORTED;
  return say("the reference could not export the fixture's %s for the library to adopt: %.1500s", what,
             reason);
}

static const char* differs(const char* what, const char* reason) {
  answer = ADC_CONSUMER_HANDED_ON_OTHER;
  return say("what the library exported from the %s it adopted differs from the fixture: %.1500s", what,
             reason);
}

/* An Import of the JSON ABI takes ownership of what it is given even
 * where it fails before the library sees it. */
static void release_schema(struct ArrowSchema* schema) {
  if (schema->release != NULL) schema->release(schema);
}

static void release_array(struct ArrowArray* array) {
  if (array->release != NULL) array->release(array);
}

/* After an export from `held`, which returned `error`: frees `held`,
 * keeping the export's message (the library's is gone with its next call). */
static const char* freed_after(const struct adc_round_trip_functions* lib, void* held, const char* error) {
  if (error != NULL) declined(error);
  lib->Free(held);
  return error != NULL ? message : NULL;
}

/* ---- the made entry points, on the round-trip functions `lib` ------------- */

static bool keeps_own_model(const struct adc_round_trip_functions* lib);

/* The comparison by value of what the library handed back (`error`:
 * NULL where it is the fixture's, from values_back.h just before): a
 * failure of the library's own stream while it is read back is its
 * decline; other types its model's; a batch the format forbids its
 * export's; other data, with the fixture's types, a misreading. */
static const char* compared_by_value(const char* error, const char* what) {
  if (error == NULL) return NULL;
  switch (adc_values_back_last_finding()) {
    case ADC_BACK_LIBRARY_FAILED:
      return declined(error);
    case ADC_BACK_OTHER_TYPES:
      differs(what, error);
      answer = ADC_CONSUMER_OWN_TYPES;
      return message;
    case ADC_BACK_INVALID:
      differs(what, error);
      answer = ADC_CONSUMER_HANDED_ON_INVALID;
      return message;
    case ADC_BACK_OTHER_DATA:
      return differs(what, error);
    case ADC_BACK_NOT_COMPARED:
      break;
  }
  answer = ADC_CONSUMER_REPORTED;
  return say("%s", error);
}

/* The reference's comparison of what the library handed back. */
static const char* compared_by_reference(const char* error, const char* what) {
  return error != NULL ? differs(what, error) : NULL;
}

/* What a library that keeps its own model gives back of a batch it adopted
 * is read through its ExportDeviceStream (its model may hold a batch as a
 * table, cut in batches as it likes: round_trip_makes makes its batch
 * imports of that) and compared by value (rule_api/values_back.h); `held`
 * is freed. */
static const char* batch_back_by_value(const struct adc_round_trip_functions* lib, void* held,
                                       const char* json_path, int num_batch, const char* what) {
  struct ArrowDeviceArrayStream back;
  if (freed_after(lib, held, lib->ExportDeviceStream(held, &back)) != NULL) return message;
  return compared_by_value(adc_values_back_stream_differs(json_path, num_batch, &back), what);
}

/* The library's stream as the reference reads it back, noting whether the
 * library's own get_schema or get_next failed: its decline, which the
 * reference's message alone does not tell from other data. */
struct watched_back {
  struct ArrowDeviceArrayStream library;
  bool library_failed;
};

static int watched_get_schema(struct ArrowDeviceArrayStream* stream, struct ArrowSchema* out) {
  struct watched_back* watch = stream->private_data;
  int code = watch->library.get_schema(&watch->library, out);
  watch->library_failed |= code != 0;
  return code;
}

static int watched_get_next(struct ArrowDeviceArrayStream* stream, struct ArrowDeviceArray* out) {
  struct watched_back* watch = stream->private_data;
  int code = watch->library.get_next(&watch->library, out);
  watch->library_failed |= code != 0;
  return code;
}

static const char* watched_get_last_error(struct ArrowDeviceArrayStream* stream) {
  struct watched_back* watch = stream->private_data;
  return watch->library.get_last_error(&watch->library);
}

static void watched_release(struct ArrowDeviceArrayStream* stream) {
  struct watched_back* watch = stream->private_data;
  if (watch->library.release != NULL) watch->library.release(&watch->library);
  stream->release = NULL;
}

/* A stream the library exported back, compared with every batch of the
 * fixture: by value where it keeps its own model, else by the reference. */
static const char* stream_back_compared(const struct adc_round_trip_functions* lib, const char* json_path,
                                        struct ArrowDeviceArrayStream* back, const char* what) {
  if (keeps_own_model(lib))
    return compared_by_value(adc_values_back_stream_differs(json_path, -1, back), what);
  /* Moved into the watch, which lives until the reference returns: an
   * Import releases what it is given before it returns. */
  struct watched_back watch = {*back, false};
  back->release = NULL;
  struct ArrowDeviceArrayStream watched = {
      .device_type = watch.library.device_type,
      .get_schema = watched_get_schema,
      .get_next = watched_get_next,
      .get_last_error = watched_get_last_error,
      .release = watched_release,
      .private_data = &watch,
  };
  const char* error = reference.ImportDeviceStreamAndCompareToJson(json_path, &watched);
  if (watched.release != NULL) watched.release(&watched);
  if (error != NULL && watch.library_failed) return declined(error);
  return compared_by_reference(error, what);
}

/* ---- the library adopts the fixture, as the reference exports it: NULL
 * with `*held` set, or a message (the made Exports, and the PyCapsule
 * probe's adoptions, adc_round_trip_adopt) ---- */

static const char* adopt_fixture_schema(const struct adc_round_trip_functions* lib, const char* json_path,
                                        void** held) {
  struct ArrowSchema schema;
  const char* error = reference.ExportSchemaFromJson(json_path, &schema);
  if (error != NULL) return reference_failed("schema", error);
  return (error = lib->AdoptSchema(&schema, held)) != NULL ? declined(error) : NULL;
}

static const char* adopt_fixture_batch(const struct adc_round_trip_functions* lib, const char* json_path,
                                       int num_batch, void** held) {
  struct ArrowSchema schema;
  const char* error = reference.ExportSchemaFromJson(json_path, &schema);
  if (error != NULL) return reference_failed("schema", error);
  struct ArrowArray batch;
  if ((error = reference.ExportBatchFromJson(json_path, num_batch, &batch)) != NULL) {
    release_schema(&schema);
    return reference_failed("batch", error);
  }
  return (error = lib->AdoptBatch(&schema, &batch, held)) != NULL ? declined(error) : NULL;
}

static const char* reference_stream(const char* json_path, ArrowDeviceType device_type, int64_t device_id,
                                    int fail_at_batch, struct ArrowDeviceArrayStream* stream);

static const char* adopt_fixture_stream(const struct adc_round_trip_functions* lib, const char* json_path,
                                        ArrowDeviceType device_type, int64_t device_id, int fail_at_batch,
                                        void** held) {
  struct ArrowDeviceArrayStream stream;
  if (reference_stream(json_path, device_type, device_id, fail_at_batch, &stream) != NULL) return message;
  const char* error = lib->AdoptDeviceStream(&stream, held);
  return error != NULL ? declined(error) : NULL;
}

static const char* export_schema(const struct adc_round_trip_functions* lib, const char* json_path,
                                 struct ArrowSchema* out) {
  void* held = NULL;
  if (adopt_fixture_schema(lib, json_path, &held) != NULL) return message;
  return freed_after(lib, held, lib->ExportSchema(held, out));
}

static const char* import_schema(const struct adc_round_trip_functions* lib, const char* json_path,
                                 struct ArrowSchema* schema) {
  void* held = NULL;
  const char* error = lib->AdoptSchema(schema, &held);
  if (error != NULL) return declined(error);
  struct ArrowSchema back;
  if (freed_after(lib, held, lib->ExportSchema(held, &back)) != NULL) return message;
  if (keeps_own_model(lib))
    return compared_by_value(adc_values_back_schema_differs(json_path, &back), "schema");
  return compared_by_reference(reference.ImportSchemaAndCompareToJson(json_path, &back), "schema");
}

static const char* export_batch(const struct adc_round_trip_functions* lib, const char* json_path,
                                int num_batch, struct ArrowArray* out) {
  void* held = NULL;
  if (adopt_fixture_batch(lib, json_path, num_batch, &held) != NULL) return message;
  return freed_after(lib, held, lib->ExportBatch(held, out));
}

static const char* import_batch(const struct adc_round_trip_functions* lib, const char* json_path,
                                int num_batch, struct ArrowArray* batch) {
  struct ArrowSchema schema;
  const char* error = reference.ExportSchemaFromJson(json_path, &schema);
  if (error != NULL) {
    release_array(batch);
    return reference_failed("schema", error);
  }
  void* held = NULL;
  if ((error = lib->AdoptBatch(&schema, batch, &held)) != NULL) return declined(error);
  if (keeps_own_model(lib)) return batch_back_by_value(lib, held, json_path, num_batch, "batch");
  struct ArrowArray back;
  if (freed_after(lib, held, lib->ExportBatch(held, &back)) != NULL) return message;
  return compared_by_reference(reference.ImportBatchAndCompareToJson(json_path, num_batch, &back), "batch");
}

static const char* export_device_batch(const struct adc_round_trip_functions* lib, const char* json_path,
                                       int num_batch, ArrowDeviceType device_type, int64_t device_id,
                                       struct ArrowDeviceArray* out) {
  struct ArrowSchema schema;
  const char* error = reference.ExportSchemaFromJson(json_path, &schema);
  if (error != NULL) return reference_failed("schema", error);
  struct ArrowDeviceArray batch;
  error = reference.ExportDeviceBatchFromJson(json_path, num_batch, device_type, device_id, &batch);
  if (error != NULL) {
    release_schema(&schema);
    return reference_failed("batch on the device", error);
  }
  void* held = NULL;
  if ((error = lib->AdoptDeviceBatch(&schema, &batch, &held)) != NULL) return declined(error);
  return freed_after(lib, held, lib->ExportDeviceBatch(held, out));
}

static const char* import_device_batch(const struct adc_round_trip_functions* lib, const char* json_path,
                                       int num_batch, struct ArrowDeviceArray* batch) {
  struct ArrowSchema schema;
  const char* error = reference.ExportSchemaFromJson(json_path, &schema);
  if (error != NULL) {
    release_array(&batch->array);
    return reference_failed("schema", error);
  }
  void* held = NULL;
  if ((error = lib->AdoptDeviceBatch(&schema, batch, &held)) != NULL) return declined(error);
  if (keeps_own_model(lib)) return batch_back_by_value(lib, held, json_path, num_batch, "device batch");
  struct ArrowDeviceArray back;
  if (freed_after(lib, held, lib->ExportDeviceBatch(held, &back)) != NULL) return message;
  return compared_by_reference(reference.ImportDeviceBatchAndCompareToJson(json_path, num_batch, &back),
                               "device batch");
}

/* Adopts `stream` (the reference's) and exports the library's own. */
static const char* stream_through(const struct adc_round_trip_functions* lib,
                                  struct ArrowDeviceArrayStream* stream, struct ArrowDeviceArrayStream* out) {
  void* held = NULL;
  const char* error = lib->AdoptDeviceStream(stream, &held);
  if (error != NULL) return declined(error);
  return freed_after(lib, held, lib->ExportDeviceStream(held, out));
}

/* The reference's stream of the fixture, failing at `fail_at_batch` where
 * that is >= 0: the library's stream fails where the one it adopted did.
 * One that reads its stream as it exports hands the failure on; one that
 * reads it whole as it adopts fails to adopt, and the rules on the error
 * path end not_supported (CONFORMANCE.md, "The round-trip ABI"). */
static const char* reference_stream(const char* json_path, ArrowDeviceType device_type, int64_t device_id,
                                    int fail_at_batch, struct ArrowDeviceArrayStream* stream) {
  const char* error = fail_at_batch < 0
                          ? reference.ExportDeviceStreamFromJson(json_path, device_type, device_id, stream)
                          : reference.ExportFailingDeviceStreamFromJson(json_path, device_type, device_id,
                                                                        fail_at_batch, stream);
  return error != NULL ? reference_failed("stream", error) : NULL;
}

static const char* export_stream(const struct adc_round_trip_functions* lib, const char* json_path,
                                 ArrowDeviceType device_type, int64_t device_id, int fail_at_batch,
                                 struct ArrowDeviceArrayStream* out) {
  void* held = NULL;
  if (adopt_fixture_stream(lib, json_path, device_type, device_id, fail_at_batch, &held) != NULL)
    return message;
  return freed_after(lib, held, lib->ExportDeviceStream(held, out));
}

static const char* import_stream(const struct adc_round_trip_functions* lib, const char* json_path,
                                 struct ArrowDeviceArrayStream* stream) {
  struct ArrowDeviceArrayStream back;
  if (stream_through(lib, stream, &back) != NULL) return message;
  return stream_back_compared(lib, json_path, &back, "stream");
}

/* The library's async producer drives `handler` over the stream it
 * adopted from the reference (a failing one where `fail_at_batch` >= 0). */
static const char* export_async(const struct adc_round_trip_functions* lib, const char* json_path,
                                ArrowDeviceType device_type, int64_t device_id, int fail_at_batch,
                                struct ArrowAsyncDeviceStreamHandler* handler) {
  void* held = NULL;
  if (adopt_fixture_stream(lib, json_path, device_type, device_id, fail_at_batch, &held) != NULL)
    return message;
  return freed_after(lib, held, lib->ExportAsync(held, handler));
}

static const char* import_async(const struct adc_round_trip_functions* lib, const char* json_path,
                                ArrowDeviceType device_type, ADC_AsyncProducerStart start,
                                void* start_context) {
  void* held = NULL;
  const char* error = lib->AdoptAsync(device_type, start, start_context, &held);
  if (error != NULL) return declined(error);
  struct ArrowDeviceArrayStream back;
  if (freed_after(lib, held, lib->ExportDeviceStream(held, &back)) != NULL) return message;
  return stream_back_compared(lib, json_path, &back, "async stream");
}

/* ---- the input again (adc/export_again.h) ----------------------------------
 * A library that reads what it adopts more than once (a Python object's
 * method called again: a query engine binds, then scans) is given, around
 * each made Export, a function that exports the fixture again as its Adopt
 * was given it, where it exports <prefix>_SetExportAgain: the reference's
 * export afresh, the library's to release; around a made
 * ExportSchemaFromJson, the fixture's data as a device stream on the CPU,
 * for a library whose objects are made from data (a data frame). */
enum again_kind { AGAIN_BATCH, AGAIN_DEVICE_BATCH, AGAIN_STREAM };
struct again {
  enum again_kind kind;
  const char* json_path;
  int num_batch;
  ArrowDeviceType device_type;
  int64_t device_id;
  int fail_at_batch;
};

static const char* export_again(void* context, void* out) {
  const struct again* again = context;
  switch (again->kind) {
    case AGAIN_BATCH:
      return reference.ExportBatchFromJson(again->json_path, again->num_batch, out);
    case AGAIN_DEVICE_BATCH:
      return reference.ExportDeviceBatchFromJson(again->json_path, again->num_batch, again->device_type,
                                                 again->device_id, out);
    case AGAIN_STREAM:
      return reference_stream(again->json_path, again->device_type, again->device_id, again->fail_at_batch,
                              out);
  }
  return "no such input";
}

/* ---- slots: the made entry points are plain functions, with no context,
 * so each library judged through the round trip has a slot of its own ---- */

#define SLOTS 2
static struct adc_round_trip_functions slots[SLOTS];
static bool slot_keeps_own_model[SLOTS];                           /* rule_api/library.h: keeps_own_model */
static adc_set_export_again_function slot_set_export_again[SLOTS]; /* NULL where the library has none */
static ADC_BytesAllocated slot_own_bytes[SLOTS];                   /* NULL where the library has none */
static size_t n_slots;

/* Offers slot `k`'s library `again` for the made Export about to run. */
static void offer_again(size_t k, struct again* again) {
  if (slot_set_export_again[k] != NULL) slot_set_export_again[k](export_again, again);
}

/* Withdraws the offer as the made Export returns `result`. */
static const char* withdrawn(size_t k, const char* result) {
  if (slot_set_export_again[k] != NULL) slot_set_export_again[k](NULL, NULL);
  return result;
}

static bool keeps_own_model(const struct adc_round_trip_functions* lib) {
  return slot_keeps_own_model[lib - slots];
}

#define SLOT_FUNCTIONS(k)                                                                                    \
  static const char* export_schema_##k(const char* json_path, struct ArrowSchema* out) {                     \
    struct again again = {AGAIN_STREAM, json_path, 0, ARROW_DEVICE_CPU, -1, -1};                             \
    offer_again(k, &again);                                                                                  \
    return withdrawn(k, export_schema(&slots[k], json_path, out));                                           \
  }                                                                                                          \
  static const char* import_schema_##k(const char* json_path, struct ArrowSchema* schema) {                  \
    return import_schema(&slots[k], json_path, schema);                                                      \
  }                                                                                                          \
  static const char* export_batch_##k(const char* json_path, int num_batch, struct ArrowArray* out) {        \
    struct again again = {AGAIN_BATCH, json_path, num_batch, ARROW_DEVICE_CPU, -1, -1};                      \
    offer_again(k, &again);                                                                                  \
    return withdrawn(k, export_batch(&slots[k], json_path, num_batch, out));                                 \
  }                                                                                                          \
  static const char* import_batch_##k(const char* json_path, int num_batch, struct ArrowArray* batch) {      \
    return import_batch(&slots[k], json_path, num_batch, batch);                                             \
  }                                                                                                          \
  static const char* export_device_batch_##k(const char* json_path, int num_batch,                           \
                                             ArrowDeviceType device_type, int64_t device_id,                 \
                                             struct ArrowDeviceArray* out) {                                 \
    struct again again = {AGAIN_DEVICE_BATCH, json_path, num_batch, device_type, device_id, -1};             \
    offer_again(k, &again);                                                                                  \
    return withdrawn(k, export_device_batch(&slots[k], json_path, num_batch, device_type, device_id, out));  \
  }                                                                                                          \
  static const char* import_device_batch_##k(const char* json_path, int num_batch,                           \
                                             struct ArrowDeviceArray* batch) {                               \
    return import_device_batch(&slots[k], json_path, num_batch, batch);                                      \
  }                                                                                                          \
  static const char* export_stream_##k(const char* json_path, ArrowDeviceType device_type,                   \
                                       int64_t device_id, struct ArrowDeviceArrayStream* out) {              \
    struct again again = {AGAIN_STREAM, json_path, 0, device_type, device_id, -1};                           \
    offer_again(k, &again);                                                                                  \
    return withdrawn(k, export_stream(&slots[k], json_path, device_type, device_id, -1, out));               \
  }                                                                                                          \
  static const char* export_failing_stream_##k(const char* json_path, ArrowDeviceType device_type,           \
                                               int64_t device_id, int fail_at_batch,                         \
                                               struct ArrowDeviceArrayStream* out) {                         \
    struct again again = {AGAIN_STREAM, json_path, 0, device_type, device_id, fail_at_batch};                \
    offer_again(k, &again);                                                                                  \
    return withdrawn(k, export_stream(&slots[k], json_path, device_type, device_id, fail_at_batch, out));    \
  }                                                                                                          \
  static const char* import_stream_##k(const char* json_path, struct ArrowDeviceArrayStream* stream) {       \
    return import_stream(&slots[k], json_path, stream);                                                      \
  }                                                                                                          \
  static const char* export_async_##k(const char* json_path, ArrowDeviceType device_type, int64_t device_id, \
                                      struct ArrowAsyncDeviceStreamHandler* handler) {                       \
    struct again again = {AGAIN_STREAM, json_path, 0, device_type, device_id, -1};                           \
    offer_again(k, &again);                                                                                  \
    return withdrawn(k, export_async(&slots[k], json_path, device_type, device_id, -1, handler));            \
  }                                                                                                          \
  static const char* export_failing_async_##k(const char* json_path, ArrowDeviceType device_type,            \
                                              int64_t device_id, int fail_at_batch,                          \
                                              struct ArrowAsyncDeviceStreamHandler* handler) {               \
    struct again again = {AGAIN_STREAM, json_path, 0, device_type, device_id, fail_at_batch};                \
    offer_again(k, &again);                                                                                  \
    return withdrawn(k, export_async(&slots[k], json_path, device_type, device_id, fail_at_batch, handler)); \
  }                                                                                                          \
  static const char* import_async_##k(const char* json_path, ArrowDeviceType device_type,                    \
                                      ADC_AsyncProducerStart start, void* start_context) {                   \
    return import_async(&slots[k], json_path, device_type, start, start_context);                            \
  }                                                                                                          \
  /* What the library holds: its own count, and the reference's bytes behind                                 \
   * what it adopted (a library importing without copying holds them until                                   \
   * it releases what it made of them). */                                                                   \
  static int64_t bytes_allocated_##k(void) {                                                                 \
    return slot_own_bytes[k]() + reference.BytesAllocated();                                                 \
  }                                                                                                          \
  static const struct adc_plugin_functions made_##k = {                                                      \
      .BytesAllocated = bytes_allocated_##k,                                                                 \
      .ExportSchemaFromJson = export_schema_##k,                                                             \
      .ImportSchemaAndCompareToJson = import_schema_##k,                                                     \
      .ExportBatchFromJson = export_batch_##k,                                                               \
      .ImportBatchAndCompareToJson = import_batch_##k,                                                       \
      .ExportDeviceBatchFromJson = export_device_batch_##k,                                                  \
      .ImportDeviceBatchAndCompareToJson = import_device_batch_##k,                                          \
      .ExportDeviceStreamFromJson = export_stream_##k,                                                       \
      .ImportDeviceStreamAndCompareToJson = import_stream_##k,                                               \
      .ExportFailingDeviceStreamFromJson = export_failing_stream_##k,                                        \
      .ExportAsyncFromJson = export_async_##k,                                                               \
      .ExportFailingAsyncFromJson = export_failing_async_##k,                                                \
      .ImportAsyncAndCompareToJson = import_async_##k,                                                       \
  };

SLOT_FUNCTIONS(0)
SLOT_FUNCTIONS(1)
#undef SLOT_FUNCTIONS

static const struct adc_plugin_functions* const made_by_slot[SLOTS] = {&made_0, &made_1};

/* ---- which are made of what ------------------------------------------------ */

/* Which round-trip entry points make each JSON one (with Free, always):
 * the one list the made set and the messages on what is lacking read. */
#define ROUND_TRIP_MAKING(X)                                                   \
  X(ExportSchemaFromJson, AdoptSchema, ExportSchema)                           \
  X(ImportSchemaAndCompareToJson, AdoptSchema, ExportSchema)                   \
  X(ExportBatchFromJson, AdoptBatch, ExportBatch)                              \
  X(ImportBatchAndCompareToJson, AdoptBatch, ExportBatch)                      \
  X(ExportDeviceBatchFromJson, AdoptDeviceBatch, ExportDeviceBatch)            \
  X(ImportDeviceBatchAndCompareToJson, AdoptDeviceBatch, ExportDeviceBatch)    \
  X(ExportDeviceStreamFromJson, AdoptDeviceStream, ExportDeviceStream)         \
  X(ImportDeviceStreamAndCompareToJson, AdoptDeviceStream, ExportDeviceStream) \
  X(ExportFailingDeviceStreamFromJson, AdoptDeviceStream, ExportDeviceStream)  \
  X(ExportAsyncFromJson, AdoptDeviceStream, ExportAsync)                       \
  X(ExportFailingAsyncFromJson, AdoptDeviceStream, ExportAsync)                \
  X(ImportAsyncAndCompareToJson, AdoptAsync, ExportDeviceStream)

/* The JSON ABI entry points the round-trip ones of `lib` make (none without Free). */
static adc_entry_point_set round_trip_makes(const struct adc_round_trip_functions* lib, bool own_model) {
  if (lib->Free == NULL) return 0;
  adc_entry_point_set set = 0;
#define MADE_IF_PRESENT(made, adopt, export) \
  if (lib->adopt != NULL && lib->export != NULL) set |= ADC_NEED(made);
  ROUND_TRIP_MAKING(MADE_IF_PRESENT)
#undef MADE_IF_PRESENT
  if (own_model) {
    /* What a library keeping its own model holds of a batch it adopted is
     * read back through its ExportDeviceStream (batch_back_by_value). */
    const adc_entry_point_set imports =
        ADC_NEED(ImportBatchAndCompareToJson) | ADC_NEED(ImportDeviceBatchAndCompareToJson);
    set &= ~imports;
    if (lib->ExportDeviceStream != NULL && lib->AdoptBatch != NULL)
      set |= ADC_NEED(ImportBatchAndCompareToJson);
    if (lib->ExportDeviceStream != NULL && lib->AdoptDeviceBatch != NULL)
      set |= ADC_NEED(ImportDeviceBatchAndCompareToJson);
  }
  return set;
}

const char* adc_round_trip_making(enum adc_entry_point entry_point) {
  switch (entry_point) {
#define SAY_MAKING(made, adopt, export) \
  case ADC_EP_##made:                   \
    return #adopt ", " #export " and Free";
    ROUND_TRIP_MAKING(SAY_MAKING)
#undef SAY_MAKING
    default:
      return NULL;
  }
}

/* dlsym's object pointer, its bytes copied into a function pointer (ISO C). */
static void look_up(void* handle, const char* prefix, const char* infix, const char* suffix, void* function,
                    size_t size) {
  char symbol[256];
  snprintf(symbol, sizeof(symbol), "%s%s%s", prefix, infix, suffix);
  void* address = dlsym(handle, symbol);
  memcpy(function, &address, size);
}

static int open_reference(struct adc_error* error) {
  if (reference_handle != NULL) return 0;
  if (reference_path[0] == '\0')
    return adc_fail(error, "no reference library to judge a round-trip library with");
  reference_handle = dlopen(reference_path, RTLD_NOW | RTLD_LOCAL);
  if (reference_handle == NULL) {
    const char* reason = dlerror();
    return adc_fail(error, "cannot load the reference library '%s' for the round trip: %s", reference_path,
                    reason != NULL ? reason : "dlopen failed");
  }
#define LOOK_UP_REFERENCE(name, suffix, result, parameters, arguments) \
  look_up(reference_handle, "adc_reference_", "", #suffix, &reference.name, sizeof(reference.name));
  ADC_PLUGIN_ENTRY_POINTS(LOOK_UP_REFERENCE)
#undef LOOK_UP_REFERENCE
  return 0;
}

int adc_round_trip_complete(void* handle, const char* prefix, bool own_model,
                            struct adc_round_trip_functions* lib, struct adc_plugin_functions* functions,
                            bool present[ADC_EP_COUNT], adc_entry_point_set* made, struct adc_error* error) {
  *made = 0;
#define LOOK_UP_ROUND_TRIP(name, result, parameters, arguments) \
  look_up(handle, prefix, ADC_ROUND_TRIP_INFIX, #name, &lib->name, sizeof(lib->name));
  ADC_ROUND_TRIP_ENTRY_POINTS(LOOK_UP_ROUND_TRIP)
#undef LOOK_UP_ROUND_TRIP
  adc_entry_point_set makes = round_trip_makes(lib, own_model);
  /* What the library has of the JSON ABI is called as it is. */
  for (int i = 0; i < ADC_EP_COUNT; i++) {
    if (present[i]) makes &= ~ADC_ENTRY_POINT_BIT(i);
  }
  if (makes == 0) return 0;
  if (open_reference(error) != 0) return -1;
  *made = makes;
  size_t slot = 0;
  while (slot < n_slots &&
         (memcmp(&slots[slot], lib, sizeof(*lib)) != 0 || slot_keeps_own_model[slot] != own_model))
    slot++;
  if (slot == SLOTS) return adc_fail(error, "more than %d round-trip libraries in one process", SLOTS);
  if (slot == n_slots) {
    slot_keeps_own_model[n_slots] = own_model;
    look_up(handle, prefix, "_", ADC_SET_EXPORT_AGAIN_SUFFIX, &slot_set_export_again[n_slots],
            sizeof(slot_set_export_again[n_slots]));
    slots[n_slots++] = *lib;
  }
  /* Each made entry point, as the library's own. */
#define TAKE_MADE(name, suffix, result, parameters, arguments) \
  if (makes & ADC_ENTRY_POINT_BIT(ADC_EP_##name)) {            \
    functions->name = made_by_slot[slot]->name;                \
    present[ADC_EP_##name] = functions->name != NULL;          \
  }
  ADC_PLUGIN_ENTRY_POINTS(TAKE_MADE)
#undef TAKE_MADE
  /* A library's own count has the reference's bytes behind what it adopted
   * added; without one of its own, its leaks are not measured
   * (CONFORMANCE.md, "The round-trip ABI"). */
  if (functions->BytesAllocated != NULL && functions->BytesAllocated != made_by_slot[slot]->BytesAllocated) {
    slot_own_bytes[slot] = functions->BytesAllocated;
    functions->BytesAllocated = made_by_slot[slot]->BytesAllocated;
  }
  return 0;
}

/* ---- an adoption on its own, for the PyCapsule probe ---------------------- */

struct adc_round_trip_adoption {
  const struct adc_round_trip_functions* lib;
  adc_set_export_again_function set_export_again; /* NULL where the library has none */
  struct again again;
  void* held;
};

const char* adc_round_trip_adopt(void* handle, const char* prefix, const struct adc_round_trip_functions* lib,
                                 enum adc_round_trip_input input, const char* json_path,
                                 struct adc_round_trip_adoption** out) {
  struct adc_error failure;
  if (open_reference(&failure) != 0) return say("%s", failure.message);
  static const char* const needed[] = {"AdoptSchema", "AdoptBatch", "AdoptDeviceStream"};
  bool has = input == ADC_ADOPT_SCHEMA  ? lib->AdoptSchema != NULL
             : input == ADC_ADOPT_BATCH ? lib->AdoptBatch != NULL
                                        : lib->AdoptDeviceStream != NULL;
  if (!has || lib->Free == NULL) return say("the library has no RoundTrip_%s and Free", needed[input]);
  struct adc_round_trip_adoption* adoption = calloc(1, sizeof(*adoption));
  if (adoption == NULL) return say("out of memory");
  adoption->lib = lib;
  look_up(handle, prefix, "_", ADC_SET_EXPORT_AGAIN_SUFFIX, &adoption->set_export_again,
          sizeof(adoption->set_export_again));
  static const enum again_kind kinds[] = {AGAIN_STREAM, AGAIN_BATCH, AGAIN_STREAM};
  adoption->again = (struct again){kinds[input], json_path, 0, ARROW_DEVICE_CPU, -1, -1};
  if (adoption->set_export_again != NULL) adoption->set_export_again(export_again, &adoption->again);
  const char* error = input == ADC_ADOPT_SCHEMA ? adopt_fixture_schema(lib, json_path, &adoption->held)
                      : input == ADC_ADOPT_BATCH
                          ? adopt_fixture_batch(lib, json_path, 0, &adoption->held)
                          : adopt_fixture_stream(lib, json_path, ARROW_DEVICE_CPU, -1, -1, &adoption->held);
  if (error != NULL) {
    if (adoption->set_export_again != NULL) adoption->set_export_again(NULL, NULL);
    free(adoption);
    return error;
  }
  *out = adoption;
  return NULL;
}

void* adc_round_trip_held(const struct adc_round_trip_adoption* adoption) {
  return adoption->held;
}

void adc_round_trip_unadopt(struct adc_round_trip_adoption* adoption) {
  adoption->lib->Free(adoption->held);
  if (adoption->set_export_again != NULL) adoption->set_export_again(NULL, NULL);
  free(adoption);
}

const char* adc_round_trip_fixture_schema(const char* json_path, struct ArrowSchema* out) {
  struct adc_error failure;
  if (open_reference(&failure) != 0) return say("%s", failure.message);
  const char* error = reference.ExportSchemaFromJson(json_path, out);
  return error != NULL ? reference_failed("schema", error) : NULL;
}
