/* The round-trip entry points (adc/plugin_abi.h, prefix adc_python) that
 * judge a Python library as a consumer, reached through the Arrow
 * PyCapsule Interface (docs/source/format/CDataInterface/PyCapsuleInterface.rst
 * in apache/arrow), under a prefix of their own, adc_python_consumer, so
 * that what the harness makes of them serves the consumer's role alone
 * (the producer's entry points are adc_python's; the steps both share,
 * aliased: fork_protocol.c, pycapsule_probe.c, python_producer.c's
 * BytesAllocated).  The Python library is a round-trip library like any
 * other: its function (ADC_PYTHON_CONSUMER, "MODULE:FUNCTION") is the
 * Adopt, the object it returns the held object, that object's interface
 * methods the Exports, and dropping it Free.  The harness makes the JSON
 * ABI's Import entry points of them and compares what comes back with the
 * fixture by value (harness/rule_api/round_trip.c, values_back.h): the
 * shim reads no fixture.
 *
 *   Adopt             the function is given a handover   Export asks the result for
 *   AdoptSchema       __arrow_c_schema__ (+ __arrow_c_   ExportSchema: __arrow_c_schema__, else
 *                     stream__)                          the schema of its __arrow_c_stream__
 *   AdoptBatch        __arrow_c_array__                  ExportDeviceStream: its batch
 *   AdoptDeviceBatch  __arrow_c_device_array__           (__arrow_c_device_array__ where it
 *                                                        adopted one, else __arrow_c_array__)
 *                                                        as a stream of one batch, else its
 *                                                        stream (a data frame, a relation)
 *   AdoptDeviceStream __arrow_c_device_stream__ (+       ExportDeviceStream:
 *                     __arrow_c_stream__ on the CPU)     __arrow_c_device_stream__, else
 *                                                        __arrow_c_stream__
 * The harness reads a batch back as a stream (its model may hold it as a
 * table: harness/rule_api/round_trip.c), so the shim has no ExportBatch
 * nor ExportDeviceBatch.
 *
 * What comes back is the library's own model of what it imported: a
 * Python library that drops, alters or retypes the values it imported
 * fails the comparison; one that keeps them in another representation
 * (string views, decoded dictionaries, other batches) does not.
 *
 * The consumer rules judge the structure the harness handed over, which
 * only the Python library touches: they see its import (pyarrow's
 * ImportRecordBatch ...) and its release, through whatever Python objects
 * hold it, once Free has dropped the shim's references to the handover and
 * the result.  The shim holds nothing after Free (but a stream view a
 * library keeps unreleased: harness_export.h).  A Python exception is the
 * entry point's message, the traceback's last line. */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adc/plugin_abi.h"
#include "harness_export.h"
#include "held_stream.h"
#include "python_runtime.h"
#include "stream_as_device_stream.h"
#include "stream_schema.h"

#define EXPORT __attribute__((visibility("default")))
#define FUNCTION_VARIABLE "ADC_PYTHON_CONSUMER"

/* Kept until the same thread's next call (plugin_abi.h's convention). */
static _Thread_local char message[2048];

/* What an Adopt made: the function's result over the handover. */
enum adopted { ADOPTED_SCHEMA, ADOPTED_BATCH, ADOPTED_DEVICE_BATCH, ADOPTED_STREAM };
struct held {
  enum adopted adopted;
  py_object* handover; /* what the function was given */
  struct adc_handover* state;
  py_object* result; /* what it returned */
};

/* One Export: the GIL held from begin to end. */
struct import {
  int gil;
  py_object* result; /* borrowed from the held object */
  py_object* method; /* what the result's interface method returned */
};

/* After the handover was made (NULL where it could not be, the structure
 * released), calls the function with it and holds what it returned in a
 * new held object; gives the GIL back. */
static const char* adopted(int gil, enum adopted kind, py_object* handover, struct adc_handover* state,
                           void** held_out) {
  if (handover == NULL) {
    adc_python_error_line("wrapping the harness's export for the consumer", message, sizeof(message));
    adc_python_leave(gil);
    return message;
  }
  py_object* result = adc_python_call_factory(FUNCTION_VARIABLE, handover, NULL, message, sizeof(message));
  struct held* held = result != NULL ? calloc(1, sizeof(*held)) : NULL;
  if (held == NULL) {
    if (result != NULL) {
      adc_py.Py_DecRef(result);
      snprintf(message, sizeof(message), "out of memory");
    }
    adc_handover_close(state); /* releases a structure the library never took */
    adc_py.Py_DecRef(handover);
    adc_python_leave(gil);
    return message;
  }
  *held = (struct held){kind, handover, state, result};
  *held_out = held;
  adc_python_leave(gil);
  return NULL;
}

/* Takes the GIL for an Adopt; false with `message` set, and `structure`
 * given back to its producer with `release`, where the interpreter cannot
 * start (an Adopt takes ownership whether it succeeds or not). */
static bool enter_to_adopt(int* gil, void* structure, void (*release)(void*)) {
  if (adc_python_enter(gil, message, sizeof(message)) == 0) return true;
  release(structure);
  return false;
}

static bool begin(struct import* import, void* held) {
  memset(import, 0, sizeof(*import));
  if (adc_python_enter(&import->gil, message, sizeof(message)) != 0) return false;
  import->result = ((struct held*)held)->result;
  return true;
}

static const char* end(struct import* import, bool ok) {
  if (import->result == NULL) return message;
  if (import->method != NULL) adc_py.Py_DecRef(import->method);
  adc_python_leave(import->gil);
  return ok ? NULL : message;
}
/* The size of the structure method `name` gives (its capsule's, the
 * second of a pair's). */
static size_t structure_size(const char* name) {
  if (strcmp(name, "__arrow_c_schema__") == 0) return sizeof(struct ArrowSchema);
  if (strcmp(name, "__arrow_c_array__") == 0) return sizeof(struct ArrowArray);
  if (strcmp(name, "__arrow_c_device_array__") == 0) return sizeof(struct ArrowDeviceArray);
  if (strcmp(name, "__arrow_c_stream__") == 0) return sizeof(struct ArrowArrayStream);
  return sizeof(struct ArrowDeviceArrayStream);
}

/* import->result.name(): false with `message` set where it has no such
 * method or the method raised.  The structure it allocates gets the fill
 * the producer's does (python_producer.c), so that what the library
 * leaves unwritten, or reads before writing, shows the same each run. */
static bool call_result_method(struct import* import, const char* name) {
  import->method = adc_python_call_method(import->result, name, structure_size(name), "the consumer's result",
                                          ", which the shim imports it with", "the consumer's result's ",
                                          message, sizeof(message));
  return import->method != NULL;
}

/* Item `index` of the (schema, array) pair the result's method returned
 * (borrowed), or NULL with `message` set. */
static py_object* item_of_pair(const struct import* import, const char* name, py_ssize_t index) {
  if (adc_py.PyTuple_Size(import->method) != 2) {
    adc_py.PyErr_Clear();
    snprintf(message, sizeof(message), "the consumer's result's %s() returned no (schema, array) pair", name);
    return NULL;
  }
  return adc_py.PyTuple_GetItem(import->method, index);
}

/* Moves the structure of `size` bytes out of `capsule` (named `name`) into
 * `out`, leaving the capsule's release NULL at `release_offset`, as the
 * interface's consumer does ("Lifetime Semantics"). */
static bool take(py_object* capsule, const char* name, void* out, size_t size, size_t release_offset) {
  if (capsule == NULL) return false;
  if (!adc_py.PyCapsule_IsValid(capsule, name)) {
    const char* actual = adc_py.PyCapsule_GetName(capsule);
    adc_py.PyErr_Clear();
    snprintf(message, sizeof(message),
             "the consumer's result gave %s%s%s, not a capsule named '%s' (PyCapsule Interface)",
             actual ? "a capsule named '" : "no valid capsule", actual ? actual : "", actual ? "'" : "",
             name);
    return false;
  }
  unsigned char* inner = adc_py.PyCapsule_GetPointer(capsule, name);
  void (*released)(void*) = NULL;
  void (*release)(void*);
  memcpy(&release, inner + release_offset, sizeof(release));
  if (release == NULL) {
    snprintf(message, sizeof(message), "the consumer's result gave a '%s' capsule already released or moved",
             name);
    return false;
  }
  memcpy(out, inner, size);
  memcpy(inner + release_offset, &released, sizeof(released));
  return true;
}

static void release_schema(void* schema) {
  ((struct ArrowSchema*)schema)->release(schema);
}
static void release_array(void* array) {
  ((struct ArrowArray*)array)->release(array);
}
static void release_device_array(void* array) {
  struct ArrowDeviceArray* device = array;
  device->array.release(&device->array);
}
static void release_device_stream(void* stream) {
  ((struct ArrowDeviceArrayStream*)stream)->release(stream);
}

/* adc/export_again.h: the harness offers its input again around each
 * Import; the handover hands it to a library that asks twice. */
EXPORT void adc_python_consumer_SetExportAgain(adc_export_again_function export_again, void* context) {
  adc_handover_offer_again(export_again, context);
}

/* The result's schema, back: its __arrow_c_schema__ where it has one, else
 * the schema of its __arrow_c_stream__ (a data frame, a relation), the
 * stream then released unread. */
static bool take_schema(struct import* import, struct ArrowSchema* back) {
  if (adc_python_has_method(import->result, "__arrow_c_schema__") ||
      !adc_python_has_method(import->result, "__arrow_c_stream__")) {
    return call_result_method(import, "__arrow_c_schema__") &&
           take(import->method, "arrow_schema", back, sizeof(*back), offsetof(struct ArrowSchema, release));
  }
  struct ArrowArrayStream stream;
  return call_result_method(import, "__arrow_c_stream__") &&
         take(import->method, "arrow_array_stream", &stream, sizeof(stream),
              offsetof(struct ArrowArrayStream, release)) &&
         adc_python_schema_of_stream(&stream, back, "the consumer's result", message, sizeof(message));
}

/* The result's data as a device stream on the CPU: __arrow_c_device_stream__
 * where it has one, else __arrow_c_stream__ read as one (CPU-only data, as
 * the interface says of an object without the device methods:
 * stream_as_device_stream.h). */
static bool take_device_stream(struct import* import, struct ArrowDeviceArrayStream* back) {
  if (adc_python_has_method(import->result, "__arrow_c_device_stream__")) {
    return call_result_method(import, "__arrow_c_device_stream__") &&
           take(import->method, "arrow_device_array_stream", back, sizeof(*back),
                offsetof(struct ArrowDeviceArrayStream, release));
  }
  struct ArrowArrayStream plain;
  if (!call_result_method(import, "__arrow_c_stream__") ||
      !take(import->method, "arrow_array_stream", &plain, sizeof(plain),
            offsetof(struct ArrowArrayStream, release))) {
    return false;
  }
  if (adc_python_stream_as_device_stream(&plain, back) != 0) {
    snprintf(message, sizeof(message),
             "out of memory for the device stream that reads __arrow_c_stream__'s stream");
    return false;
  }
  return true;
}

/* The (schema, array) pair of the result's method `name`
 * (__arrow_c_array__ or __arrow_c_device_array__): the schema into
 * `schema`, the array into `batch` (an ArrowArray's becoming a device array
 * on the CPU, only the CPU's members added). */
static bool take_pair(struct import* import, const char* name, struct ArrowSchema* schema,
                      struct ArrowDeviceArray* batch) {
  if (!call_result_method(import, name) || !take(item_of_pair(import, name, 0), "arrow_schema", schema,
                                                 sizeof(*schema), offsetof(struct ArrowSchema, release))) {
    return false;
  }
  memset(batch, 0, sizeof(*batch));
  batch->device_type = ARROW_DEVICE_CPU;
  batch->device_id = -1;
  bool taken = strcmp(name, "__arrow_c_device_array__") == 0
                   ? take(item_of_pair(import, name, 1), "arrow_device_array", batch, sizeof(*batch),
                          offsetof(struct ArrowDeviceArray, array) + offsetof(struct ArrowArray, release))
                   : take(item_of_pair(import, name, 1), "arrow_array", &batch->array, sizeof(batch->array),
                          offsetof(struct ArrowArray, release));
  if (!taken) schema->release(schema);
  return taken;
}

/* Whether the result gives its batch through its stream alone (a data
 * frame, a relation: "Tables / DataFrames and streams can implement"
 * __arrow_c_stream__ alone), not through the array method `name`. */
static bool batch_is_a_stream(const struct import* import, const char* name) {
  return !adc_python_has_method(import->result, name) &&
         (adc_python_has_method(import->result, "__arrow_c_stream__") ||
          adc_python_has_method(import->result, "__arrow_c_device_stream__"));
}

/* The array method a batch's result is asked for: __arrow_c_device_array__
 * where it adopted a device array and has one, else __arrow_c_array__. */
static const char* batch_method(const struct import* import, const struct held* held) {
  return held->adopted == ADOPTED_DEVICE_BATCH &&
                 adc_python_has_method(import->result, "__arrow_c_device_array__")
             ? "__arrow_c_device_array__"
             : "__arrow_c_array__";
}

/* The result's batch as a stream of one batch on the CPU (held_stream.h,
 * stream_as_device_stream.h). */
static bool batch_as_stream(struct import* import, const char* name, struct ArrowDeviceArrayStream* out) {
  struct ArrowSchema schema;
  struct ArrowDeviceArray batch;
  if (!take_pair(import, name, &schema, &batch)) return false;
  if (batch.device_type != ARROW_DEVICE_CPU) {
    snprintf(message, sizeof(message),
             "the consumer's result gave a device array on device type %d, not the CPU",
             (int)batch.device_type);
    batch.array.release(&batch.array);
    schema.release(&schema);
    return false;
  }
  struct ArrowArrayStream plain;
  if (adc_held_stream(&schema, &batch.array, NULL, NULL, NULL, &plain) != 0 ||
      adc_python_stream_as_device_stream(&plain, out) != 0) {
    if (batch.array.release != NULL) batch.array.release(&batch.array);
    if (schema.release != NULL) schema.release(&schema);
    snprintf(message, sizeof(message), "out of memory for the stream of the result's batch");
    return false;
  }
  return true;
}

/* ---- the round trip's entry points ---------------------------------------- */

EXPORT const char* adc_python_consumer_RoundTrip_AdoptSchema(struct ArrowSchema* schema, void** held) {
  int gil;
  if (!enter_to_adopt(&gil, schema, release_schema)) return message;
  struct adc_handover* state = NULL;
  py_object* handover = adc_handover_schema(schema, &state);
  return adopted(gil, ADOPTED_SCHEMA, handover, state, held);
}

EXPORT const char* adc_python_consumer_RoundTrip_AdoptBatch(struct ArrowSchema* schema,
                                                            struct ArrowArray* batch, void** held) {
  int gil;
  if (!enter_to_adopt(&gil, batch, release_array)) {
    schema->release(schema);
    return message;
  }
  struct adc_handover* state = NULL;
  py_object* handover = adc_handover_batch(schema, batch, &state);
  return adopted(gil, ADOPTED_BATCH, handover, state, held);
}

EXPORT const char* adc_python_consumer_RoundTrip_AdoptDeviceBatch(struct ArrowSchema* schema,
                                                                  struct ArrowDeviceArray* batch,
                                                                  void** held) {
  int gil;
  if (!enter_to_adopt(&gil, batch, release_device_array)) {
    schema->release(schema);
    return message;
  }
  struct adc_handover* state = NULL;
  py_object* handover = adc_handover_device_batch(schema, batch, &state);
  return adopted(gil, ADOPTED_DEVICE_BATCH, handover, state, held);
}

EXPORT const char* adc_python_consumer_RoundTrip_AdoptDeviceStream(struct ArrowDeviceArrayStream* stream,
                                                                   void** held) {
  int gil;
  if (!enter_to_adopt(&gil, stream, release_device_stream)) return message;
  struct adc_handover* state = NULL;
  py_object* handover = adc_handover_device_stream(stream, &state);
  return adopted(gil, ADOPTED_STREAM, handover, state, held);
}

EXPORT const char* adc_python_consumer_RoundTrip_ExportSchema(void* held, struct ArrowSchema* out) {
  struct import import;
  bool ok = begin(&import, held) && take_schema(&import, out);
  return end(&import, ok);
}

EXPORT const char* adc_python_consumer_RoundTrip_ExportDeviceStream(void* held,
                                                                    struct ArrowDeviceArrayStream* out) {
  struct import import;
  if (!begin(&import, held)) return end(&import, false);
  enum adopted adopted = ((struct held*)held)->adopted;
  const char* name = batch_method(&import, held);
  bool ok = (adopted == ADOPTED_BATCH || adopted == ADOPTED_DEVICE_BATCH) && !batch_is_a_stream(&import, name)
                ? batch_as_stream(&import, name, out)
                : take_device_stream(&import, out);
  return end(&import, ok);
}

EXPORT void adc_python_consumer_RoundTrip_Free(void* held) {
  struct held* h = held;
  int gil;
  char unused[256];
  /* The interpreter started with the Adopt that made `held`. */
  if (adc_python_enter(&gil, unused, sizeof(unused)) == 0) {
    adc_py.Py_DecRef(h->result);
    adc_handover_close(h->state);
    adc_py.Py_DecRef(h->handover);
    adc_python_leave(gil);
  }
  free(h);
}
