/* The round-trip entry points (adc/plugin_abi.h, prefix adc_python) that
 * judge a Python library as a producer, reached through the Arrow
 * PyCapsule Interface (docs/source/format/CDataInterface/PyCapsuleInterface.rst
 * in apache/arrow).  The Python library is a round-trip library like any
 * other: the factory named by ADC_PYTHON_PRODUCER ("MODULE:FACTORY") is
 * the Adopt, given a source object over what the Adopt was given
 * (adopted_source.h); the object it returns is the held object, and the
 * Exports ask it for the structure through the interface's method:
 *   ExportSchema        __arrow_c_schema__()        "arrow_schema", or, where the
 *                       object has none, the schema of its __arrow_c_stream__()
 *   ExportBatch         __arrow_c_array__()         "arrow_array" (2nd of the pair), or,
 *                       where the object has none, the one array of its
 *                       __arrow_c_stream__() (a data frame's, a relation's)
 *   ExportDeviceBatch   __arrow_c_device_array__()  "arrow_device_array" (2nd), or,
 *                       where the object has none, the batch's ArrowArray as above
 *                       as a device array on the CPU (only the CPU's members added)
 *   ExportDeviceStream  __arrow_c_device_stream__() "arrow_device_array_stream",
 *                       or, where the object has none, __arrow_c_stream__()
 *                       "arrow_array_stream" read as a device stream on the CPU
 *                       (stream_as_device_stream.h)
 * The harness makes the JSON ABI's Export entry points of them, the
 * reference exporting the fixture for the Adopt (harness/rule_api/
 * round_trip.c): the shim reads no fixture.  A source's data asked for
 * again are exported again by the harness (SetExportAgain below).
 *
 * The structure is moved out of its capsule into the harness's output as
 * the interface's consumer does ("Lifetime Semantics": the consumer moves
 * the data and marks the release callback NULL), so the capsule's
 * destructor then releases nothing; every other capsule (the schema of a
 * pair) is released by its own destructor.  The structure the harness gets
 * is the Python library's; the harness owns it from then on.
 *
 * A Python exception is the entry point's message: what the shim was doing
 * and the last line of the traceback.  Nothing is written to the output
 * unless the export succeeded (plugin_abi.h: a producer that declines
 * leaves `out` untouched). */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adc/plugin_abi.h"
#include "adopted_source.h"
#include "python_producer.h"
#include "python_runtime.h"
#include "schema_copy.h"
#include "schema_types.h"
#include "stream_as_device_stream.h"
#include "stream_schema.h"

#define EXPORT __attribute__((visibility("default")))
#define FACTORY_VARIABLE "ADC_PYTHON_PRODUCER"

/* Defined below; the library's schema of a batch is made by them too. */
static const char* adopt_schema(struct ArrowSchema* schema, enum adc_source_data data, void** held);
EXPORT void adc_python_RoundTrip_Free(void* held);

/* Kept until the same thread's next call (plugin_abi.h's convention). */
static _Thread_local char message[2048];

/* What an Adopt made: the factory's object, and a copy of the schema it
 * was given (release NULL for a stream's), of which the library's own
 * schema is made when a batch is read by it (schema_of_fixture). */
struct held {
  py_object* made;
  py_object* source;        /* what the factory was given */
  struct adc_source* state; /* the source's, closed by Free */
  struct ArrowSchema schema;
  enum adc_source_data data; /* a batch's: what the harness's export again gives */
};

/* One Export: the GIL held from begin to end. */
struct call {
  bool entered; /* the GIL is held */
  int gil;
  py_object* made;   /* the held object's (borrowed) */
  py_object* result; /* what its method returned */
};

static bool begin(struct call* call, void* held) {
  memset(call, 0, sizeof(*call));
  if (adc_python_enter(&call->gil, message, sizeof(message)) != 0) return false;
  call->entered = true;
  call->made = ((struct held*)held)->made;
  return true;
}

/* Calls the factory with `source` (NULL where it could not be made, with
 * a Python exception pending; `state` its state), and holds what it
 * returned, the source and `schema` (moved in; NULL for none); gives the
 * GIL back. */
static const char* adopted(int gil, py_object* source, struct adc_source* state, struct ArrowSchema* schema,
                           void** held_out) {
  struct held* held = NULL;
  py_object* made = NULL;
  if (source == NULL) {
    adc_python_error_line("building the source object", message, sizeof(message));
  } else {
    made = adc_python_call_factory(FACTORY_VARIABLE, source, NULL, message, sizeof(message));
    if (made != NULL && (held = calloc(1, sizeof(*held))) == NULL) {
      adc_py.Py_DecRef(made);
      snprintf(message, sizeof(message), "out of memory");
    }
    if (held == NULL) {
      adc_source_close(state);
      adc_py.Py_DecRef(source);
    }
  }
  if (held == NULL) {
    if (schema != NULL && schema->release != NULL) schema->release(schema);
    adc_python_leave(gil);
    return message;
  }
  held->made = made;
  held->source = source;
  held->state = state;
  if (schema != NULL) {
    memcpy(&held->schema, schema, sizeof(*schema));
    schema->release = NULL;
  }
  *held_out = held;
  adc_python_leave(gil);
  return NULL;
}

/* call->made.method(): false with `message` set where the object has no
 * such method or it raised. */
static bool call_method(struct call* call, const char* method, size_t structure_size) {
  call->result = adc_python_call_method(call->made, method, structure_size, "the factory's object", "", "",
                                        message, sizeof(message));
  return call->result != NULL;
}

/* The second capsule of a (schema, data) pair: borrowed from the result. */
static py_object* second_of_pair(struct call* call, const char* method) {
  if (adc_py.PyTuple_Size(call->result) != 2) {
    adc_py.PyErr_Clear();
    snprintf(message, sizeof(message), "%s() returned no (schema, array) pair of capsules", method);
    return NULL;
  }
  return adc_py.PyTuple_GetItem(call->result, 1);
}

/* Moves the structure of `size` bytes out of `capsule` (named `name`) into
 * `out`, leaving the capsule's release NULL at `release_offset`. */
static bool take(py_object* capsule, const char* name, void* out, size_t size, size_t release_offset) {
  if (capsule == NULL) return false;
  if (!adc_py.PyCapsule_IsValid(capsule, name)) {
    const char* actual = adc_py.PyCapsule_GetName(capsule);
    adc_py.PyErr_Clear();
    snprintf(message, sizeof(message),
             "the capsule is %s%s%s, not a capsule named '%s' (PyCapsule Interface)",
             actual ? "named '" : "not a valid capsule", actual ? actual : "", actual ? "'" : "", name);
    return false;
  }
  unsigned char* inner = adc_py.PyCapsule_GetPointer(capsule, name);
  memcpy(out, inner, size);
  void (*released)(void*) = NULL;
  memcpy(inner + release_offset, &released, sizeof(released));
  return true;
}

static const char* end(struct call* call, bool ok) {
  if (!call->entered) return message;
  if (call->result != NULL) adc_py.Py_DecRef(call->result);
  adc_python_leave(call->gil);
  return ok ? NULL : message;
}

/* Only the CPU: the interface has no way to ask an object for its data on a
 * device; it exports them where they are ("Device Support"). */
static bool on_cpu(ArrowDeviceType device_type) {
  if (device_type == ARROW_DEVICE_CPU) return true;
  snprintf(message, sizeof(message),
           "a Python object exports its data where they are (PyCapsule Interface, \"Device Support\"): "
           "the shim asks for the CPU only, not device type %d",
           (int)device_type);
  return false;
}

/* The schema of the object's C stream (stream_schema.h). */
static bool take_schema_of_stream(struct call* call, struct ArrowSchema* out) {
  struct ArrowArrayStream stream;
  return call_method(call, "__arrow_c_stream__", sizeof(struct ArrowArrayStream)) &&
         take(call->result, "arrow_array_stream", &stream, sizeof(stream),
              offsetof(struct ArrowArrayStream, release)) &&
         adc_python_schema_of_stream(&stream, out, "the object", message, sizeof(message));
}

/* The held object's schema: __arrow_c_schema__, else its stream's. */
static bool take_schema(struct call* call, struct ArrowSchema* out) {
  if (!adc_python_has_method(call->made, "__arrow_c_schema__") &&
      adc_python_has_method(call->made, "__arrow_c_stream__")) {
    return take_schema_of_stream(call, out);
  }
  return call_method(call, "__arrow_c_schema__", sizeof(struct ArrowSchema)) &&
         take(call->result, "arrow_schema", out, sizeof(*out), offsetof(struct ArrowSchema, release));
}

/* The library's schema of the fixture, which the harness reads its
 * batches by (ExportSchemaFromJson: a source of the schema alone, the
 * factory's object, its schema), made of the held object's copy of the
 * schema it adopted, into `schema`: taken before the batch's own method is
 * called, as a library may serve one query at a time (DuckDB's connection
 * refuses a second while a result is open).  False with `message` set
 * where it was not exported. */
static bool schema_of_fixture(const struct held* batch, struct ArrowSchema* schema) {
  memset(schema, 0, sizeof(*schema));
  struct ArrowSchema copy;
  void* held = NULL;
  const char* error = NULL;
  if (adc_schema_copy(&batch->schema, &copy) != 0) {
    error = "out of memory";
  } else if ((error = adopt_schema(&copy, batch->data, &held)) == NULL) {
    struct call call;
    bool ok = begin(&call, held) && take_schema(&call, schema);
    error = end(&call, ok);
    adc_python_RoundTrip_Free(held);
  }
  if (error == NULL) return true;
  char why[1024];
  snprintf(why, sizeof(why), "%.1000s", error);
  snprintf(message, sizeof(message),
           "the object's schema of the fixture, which the harness reads its batches by, was not exported: %s",
           why);
  return false;
}

/* Whether a batch's own schema (its pair's, its stream's) has the types of
 * the library's schema of the fixture (schema_types.h); false with
 * `message` set otherwise. */
static bool typed_as_its_schema(const struct ArrowSchema* schema, const struct ArrowSchema* batch_schema) {
  char difference[512];
  if (adc_same_schema_types(batch_schema, schema, difference, sizeof(difference))) return true;
  snprintf(message, sizeof(message),
           "the batch's own schema has other types than the object's schema of the fixture "
           "(ExportSchemaFromJson), which the harness reads its batches by: %s",
           difference);
  return false;
}

/* The one array of the object's C stream, for an object with no array
 * method (a data frame, a relation: "Tables / DataFrames and streams can
 * implement" __arrow_c_stream__ alone), made from a source of one batch:
 * read into a structure holding the harness's fill (0xA5, as the harness
 * fills its outputs), then copied to `out` where the stream gave exactly
 * one array before its end; declined where it gave none (a stream need
 * not give an empty batch) or several (the library splits the batch's
 * rows), `out` left untouched. */
static bool take_only_array_of_stream(struct call* call, const struct ArrowSchema* library,
                                      struct ArrowArray* out) {
  struct ArrowArrayStream stream;
  if (!call_method(call, "__arrow_c_stream__", sizeof(struct ArrowArrayStream)) ||
      !take(call->result, "arrow_array_stream", &stream, sizeof(stream),
            offsetof(struct ArrowArrayStream, release))) {
    return false;
  }
  struct ArrowSchema schema;
  int code = stream.get_schema(&stream, &schema);
  bool typed = code == 0 && typed_as_its_schema(library, &schema);
  if (code == 0) schema.release(&schema);
  if (!typed) {
    if (code != 0)
      snprintf(message, sizeof(message), "get_schema of the object's __arrow_c_stream__ returned %d", code);
    stream.release(&stream);
    return false;
  }
  struct ArrowArray arrays[2];
  int taken = 0;
  while (taken < 2) {
    memset(&arrays[taken], 0xA5, sizeof(arrays[taken]));
    code = stream.get_next(&stream, &arrays[taken]);
    if (code != 0 || arrays[taken].release == NULL) break;
    taken++;
  }
  if (code != 0) {
    const char* error = stream.get_last_error(&stream);
    snprintf(message, sizeof(message), "get_next of the object's __arrow_c_stream__ returned %d: %s", code,
             error != NULL ? error : "(no message)");
  } else if (taken != 1) {
    snprintf(message, sizeof(message),
             "the object has no __arrow_c_array__, and its __arrow_c_stream__ gave %s for the batch's rows: "
             "a batch is one array",
             taken == 0 ? "no array" : "more than one array");
  } else {
    memcpy(out, &arrays[0], sizeof(*out));
  }
  for (int i = 0; i < taken && (code != 0 || taken != 1); i++) arrays[i].release(&arrays[i]);
  stream.release(&stream);
  return code == 0 && taken == 1;
}

/* Whether the schema of the (schema, array) pair `method` returned has
 * the types of the library's schema of the fixture (typed_as_its_schema);
 * false with `message` set otherwise. */
static bool pair_typed_as_its_schema(struct call* call, const char* method,
                                     const struct ArrowSchema* library) {
  if (second_of_pair(call, method) == NULL) return false;
  py_object* schema = adc_py.PyTuple_GetItem(call->result, 0);
  /* Read under whatever name the capsule has: its name is
   * pycapsule.capsule.names's to judge, its types are this check's. */
  const char* name = schema != NULL ? adc_py.PyCapsule_GetName(schema) : NULL;
  const struct ArrowSchema* structure = schema != NULL && adc_py.PyCapsule_IsValid(schema, name)
                                            ? adc_py.PyCapsule_GetPointer(schema, name)
                                            : NULL;
  adc_py.PyErr_Clear();
  if (structure == NULL) {
    snprintf(message, sizeof(message), "%s() returned a pair whose first is no capsule of a schema", method);
    return false;
  }
  return typed_as_its_schema(library, structure);
}

/* The batch as an ArrowArray: the second of the object's
 * __arrow_c_array__() pair, else the one array of its C stream; declined
 * where its schema is not the library's schema of the fixture. */
static bool take_array(struct call* call, const struct held* held, struct ArrowArray* out) {
  struct ArrowSchema library;
  if (!schema_of_fixture(held, &library)) return false;
  bool ok;
  if (!adc_python_has_method(call->made, "__arrow_c_array__") &&
      adc_python_has_method(call->made, "__arrow_c_stream__")) {
    ok = take_only_array_of_stream(call, &library, out);
  } else {
    ok = call_method(call, "__arrow_c_array__", sizeof(struct ArrowArray)) &&
         pair_typed_as_its_schema(call, "__arrow_c_array__", &library) &&
         take(second_of_pair(call, "__arrow_c_array__"), "arrow_array", out, sizeof(*out),
              offsetof(struct ArrowArray, release));
  }
  library.release(&library);
  return ok;
}

/* ---- the round trip's entry points ---------------------------------------- */

/* Takes the GIL for an Adopt; false with `message` set where the
 * interpreter cannot start. */
static bool enter_to_adopt(int* gil) {
  return adc_python_enter(gil, message, sizeof(message)) == 0;
}

/* A schema's source, whose data are what the harness's export again
 * gives as `data` says (adopted_source.h). */
static const char* adopt_schema(struct ArrowSchema* schema, enum adc_source_data data, void** held) {
  int gil;
  if (!enter_to_adopt(&gil)) {
    schema->release(schema);
    return message;
  }
  struct adc_source* state = NULL;
  py_object* source = adc_source_of_schema(schema, data, &state);
  return adopted(gil, source, state, NULL, held);
}

/* The round trip offers the fixture's stream around the ExportSchemaFromJson
 * it makes (adc/export_again.h). */
EXPORT const char* adc_python_RoundTrip_AdoptSchema(struct ArrowSchema* schema, void** held) {
  return adopt_schema(schema, ADC_DATA_AGAIN_STREAM, held);
}

/* Adopts a batch on the CPU: the source over `schema` and `batch`, and
 * the held object keeping a copy of the schema. */
static const char* adopt_batch(struct ArrowSchema* schema, struct ArrowArray* batch,
                               bool again_is_device_array, void** held) {
  int gil;
  struct ArrowSchema copy;
  bool entered = enter_to_adopt(&gil);
  if (entered && adc_schema_copy(schema, &copy) != 0) {
    adc_python_leave(gil);
    entered = false;
    snprintf(message, sizeof(message), "out of memory");
  }
  if (!entered) {
    schema->release(schema);
    batch->release(batch);
    return message;
  }
  struct adc_source* state = NULL;
  py_object* source = adc_source_of_batch(schema, batch, again_is_device_array, &state);
  const char* error = adopted(gil, source, state, &copy, held);
  if (error == NULL)
    ((struct held*)*held)->data = again_is_device_array ? ADC_DATA_AGAIN_DEVICE_BATCH : ADC_DATA_AGAIN_BATCH;
  return error;
}

EXPORT const char* adc_python_RoundTrip_AdoptBatch(struct ArrowSchema* schema, struct ArrowArray* batch,
                                                   void** held) {
  return adopt_batch(schema, batch, false, held);
}

EXPORT const char* adc_python_RoundTrip_AdoptDeviceBatch(struct ArrowSchema* schema,
                                                         struct ArrowDeviceArray* batch, void** held) {
  if (!on_cpu(batch->device_type)) {
    schema->release(schema);
    batch->array.release(&batch->array);
    return message;
  }
  return adopt_batch(schema, &batch->array, true, held);
}

EXPORT const char* adc_python_RoundTrip_AdoptDeviceStream(struct ArrowDeviceArrayStream* stream,
                                                          void** held) {
  int gil;
  if (!on_cpu(stream->device_type) || !enter_to_adopt(&gil)) {
    stream->release(stream);
    return message;
  }
  struct adc_source* state = NULL;
  py_object* source = adc_source_of_stream(stream, &state);
  return adopted(gil, source, state, NULL, held);
}

EXPORT const char* adc_python_RoundTrip_ExportSchema(void* held, struct ArrowSchema* out) {
  struct call call;
  bool ok = begin(&call, held) && take_schema(&call, out);
  return end(&call, ok);
}

EXPORT const char* adc_python_RoundTrip_ExportBatch(void* held, struct ArrowArray* out) {
  struct call call;
  bool ok = begin(&call, held) && take_array(&call, held, out);
  return end(&call, ok);
}

EXPORT const char* adc_python_RoundTrip_ExportDeviceBatch(void* held, struct ArrowDeviceArray* out) {
  struct call call;
  bool ok = begin(&call, held);
  if (ok && adc_python_has_method(call.made, "__arrow_c_device_array__")) {
    struct ArrowSchema library;
    ok = schema_of_fixture(held, &library) &&
         call_method(&call, "__arrow_c_device_array__", sizeof(struct ArrowDeviceArray)) &&
         pair_typed_as_its_schema(&call, "__arrow_c_device_array__", &library) &&
         take(second_of_pair(&call, "__arrow_c_device_array__"), "arrow_device_array", out, sizeof(*out),
              offsetof(struct ArrowDeviceArray, array) + offsetof(struct ArrowArray, release));
    if (library.release != NULL) library.release(&library);
  } else if (ok) {
    /* CPU-only data ("Device Support": "The absence of the device version
     * methods implies CPU-only data"): the C array, with only the members
     * the interface defines for the CPU added, as for streams
     * (stream_as_device_stream.h). */
    struct ArrowArray array;
    ok = take_array(&call, held, &array);
    if (ok) {
      memset(out, 0, sizeof(*out));
      memcpy(&out->array, &array, sizeof(array));
      out->device_type = ARROW_DEVICE_CPU;
      out->device_id = -1;
    }
  }
  return end(&call, ok);
}

EXPORT const char* adc_python_RoundTrip_ExportDeviceStream(void* held, struct ArrowDeviceArrayStream* out) {
  struct call call;
  if (!begin(&call, held)) return end(&call, false);
  bool ok;
  if (adc_python_has_method(call.made, "__arrow_c_device_stream__") ||
      !adc_python_has_method(call.made, "__arrow_c_stream__")) {
    ok = call_method(&call, "__arrow_c_device_stream__", sizeof(struct ArrowDeviceArrayStream)) &&
         take(call.result, "arrow_device_array_stream", out, sizeof(*out),
              offsetof(struct ArrowDeviceArrayStream, release));
  } else {
    /* CPU-only data ("Device Support"): the C stream, read as a device
     * stream on the CPU (stream_as_device_stream.h). */
    struct ArrowArrayStream stream;
    ok = call_method(&call, "__arrow_c_stream__", sizeof(struct ArrowArrayStream)) &&
         take(call.result, "arrow_array_stream", &stream, sizeof(stream),
              offsetof(struct ArrowArrayStream, release));
    if (ok && adc_python_stream_as_device_stream(&stream, out) != 0) {
      snprintf(message, sizeof(message),
               "out of memory for the device stream that reads __arrow_c_stream__'s stream");
      ok = false;
    }
  }
  return end(&call, ok);
}

py_object* adc_python_take_held_object(void* held) {
  struct held* h = held;
  py_object* made = h->made;
  h->made = NULL;
  return made;
}

EXPORT void adc_python_RoundTrip_Free(void* held) {
  struct held* h = held;
  int gil;
  char unused[256];
  /* The interpreter started with the Adopt that made `held`. */
  if (adc_python_enter(&gil, unused, sizeof(unused)) == 0) {
    if (h->made != NULL) adc_py.Py_DecRef(h->made);
    adc_source_close(h->state);
    adc_py.Py_DecRef(h->source);
    adc_python_leave(gil);
  }
  if (h->schema.release != NULL) h->schema.release(&h->schema);
  free(h);
}

/* adc/export_again.h: the harness offers the Adopt's input again around
 * each Export it makes; a source hands it to a library that asks twice. */
EXPORT void adc_python_SetExportAgain(adc_export_again_function export_again, void* context) {
  adc_source_offer_again(export_again, context);
}

/* What the module's bytes_allocated() says it holds, where it has one
 * (pyarrow: pyarrow.total_allocated_bytes()), else 0; the harness adds the
 * reference's bytes behind what the library adopted (a Python library that
 * imports without copying holds the reference's export until it releases
 * its own: harness/rule_api/round_trip.c). */
EXPORT int64_t adc_python_BytesAllocated(void) {
  int64_t bytes = 0;
  int gil;
  char error[256];
  /* Without an interpreter (libpython did not load) Python holds nothing. */
  if (adc_py.Py_IsInitialized == NULL || adc_python_enter(&gil, error, sizeof(error)) != 0) return bytes;
  char module_name[512];
  const char* factory;
  if (adc_python_split_target(getenv(FACTORY_VARIABLE), module_name, sizeof(module_name), &factory)) {
    py_object* module = adc_py.PyImport_ImportModule(module_name);
    py_object* counter = module != NULL && adc_py.PyObject_HasAttrString(module, "bytes_allocated")
                             ? adc_py.PyObject_GetAttrString(module, "bytes_allocated")
                             : NULL;
    py_object* count = counter != NULL ? adc_py.PyObject_CallObject(counter, NULL) : NULL;
    if (count != NULL) bytes += adc_py.PyLong_AsLongLong(count);
    adc_py.PyErr_Clear();
    py_object* owned[] = {module, counter, count};
    for (size_t i = 0; i < 3; i++) {
      if (owned[i] != NULL) adc_py.Py_DecRef(owned[i]);
    }
  }
  adc_python_leave(gil);
  return bytes;
}

/* The consumer's side of the shim (python_consumer.c, its own prefix). */
EXPORT int64_t adc_python_consumer_BytesAllocated(void) __attribute__((alias("adc_python_BytesAllocated")));
