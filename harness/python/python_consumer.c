/* The plugin ABI's consumer entry points (prefix adc_python) for a Python
 * library under test, reached through the Arrow PyCapsule Interface
 * (docs/source/format/CDataInterface/PyCapsuleInterface.rst in
 * apache/arrow).  Each entry point wraps the structure the harness hands
 * over in a "handover" object (harness_export.h) whose interface method
 * gives it out in a capsule of the interface's name, calls the function
 * named by ADC_PYTHON_CONSUMER ("MODULE:FUNCTION") with that object, and
 * imports what the function returns back through the same interface:
 *
 *   Import entry point                 the handover has          the result is asked for
 *   ImportSchemaAndCompareToJson       __arrow_c_schema__ (+     __arrow_c_schema__, else the schema of
 *                                      __arrow_c_stream__)       its __arrow_c_stream__
 *   ImportBatchAndCompareToJson        __arrow_c_array__         __arrow_c_array__, else its stream
 *   ImportDeviceBatchAndCompareToJson  __arrow_c_device_array__  __arrow_c_device_array__, else
 *                                                                __arrow_c_array__, else its stream
 *   ImportDeviceStreamAndCompareToJson __arrow_c_device_stream__ __arrow_c_device_stream__, else
 *                                      (+ __arrow_c_stream__     __arrow_c_stream__
 *                                      on the CPU)
 * ("its stream": __arrow_c_device_stream__ or __arrow_c_stream__, for a
 * result that holds a batch as a table does: a data frame, a relation).
 *
 * What comes back is the library's own model of what it imported, and is
 * compared with the fixture by value (result_values.h, arrow_logical.h):
 * a Python library that drops, alters or retypes the values it imported
 * fails the comparison, and the comparison's message is the entry
 * point's; one that keeps them in another representation (string views,
 * decoded dictionaries, other batches) does not.

 * The consumer rules judge the structure the harness handed over, which
 * only the Python library touches: they see its import (pyarrow's
 * ImportRecordBatch ...) and its release, through whatever Python objects
 * hold it, once the shim has dropped its references to the handover and the
 * result.  The shim holds nothing after it returns (but a stream view a
 * library keeps unreleased: harness_export.h).  A Python exception is
 * the entry point's message, the traceback's last line. */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adc/plugin_abi.h"
#include "harness_export.h"
#include "python_runtime.h"
#include "result_values.h"
#include "stream_as_device_stream.h"
#include "stream_schema.h"

#define EXPORT __attribute__((visibility("default")))
#define FUNCTION_VARIABLE "ADC_PYTHON_CONSUMER"

/* Kept until the same thread's next call (plugin_abi.h's convention). */
static _Thread_local char message[2048];

/* One import: the GIL held from begin to end. */
struct import {
  bool entered;
  int gil;
  py_object* handover; /* what the function is given */
  struct adc_handover* state;
  py_object* result; /* what it returned */
  py_object* method; /* what the result's interface method returned */
};

/* Starts the interpreter if needed, wraps the harness's structure (whose
 * ownership `wrap` takes, even when it fails) and calls the function;
 * false with `message` set otherwise.  Where the interpreter cannot start,
 * `release` gives the structure back to its producer, as an Import must
 * (plugin_abi.h: released when it returns, whether it succeeded or not). */
static bool begin(struct import* import, py_object* (*wrap)(void*, const char*, int, struct adc_handover**),
                  void* structure, void (*release)(void*), const char* json_path, int num_batch) {
  memset(import, 0, sizeof(*import));
  if (adc_python_enter(&import->gil, message, sizeof(message)) != 0) {
    release(structure);
    return false;
  }
  import->entered = true;
  import->handover = wrap(structure, json_path, num_batch, &import->state);
  if (import->handover == NULL) {
    adc_python_error_line("wrapping the harness's export for the consumer", message, sizeof(message));
    return false;
  }
  import->result =
      adc_python_call_factory(FUNCTION_VARIABLE, import->handover, NULL, message, sizeof(message));
  return import->result != NULL;
}

/* Drops every reference the shim holds, the handover last: a structure the
 * function never took is released by its capsule's destructor then (the
 * interface's "Lifetime Semantics"), and one the library imported by the
 * library's own objects as they die. */
static const char* end(struct import* import, bool ok) {
  if (!import->entered) return message;
  if (import->method != NULL) adc_py.Py_DecRef(import->method);
  if (import->result != NULL) adc_py.Py_DecRef(import->result);
  if (import->handover != NULL) {
    adc_handover_close(import->state);
    adc_py.Py_DecRef(import->handover);
  }
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

/* The verdict on what came back (result_values.h), into `message`. */
static bool compared(const char* error) {
  if (error == NULL) return true;
  snprintf(message, sizeof(message), "what the consumer imported differs from the fixture: %s", error);
  return false;
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
EXPORT void adc_python_SetExportAgain(adc_export_again_function export_again, void* context) {
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

EXPORT const char* adc_python_CDataIntegration_ImportSchemaAndCompareToJson(const char* json_path,
                                                                            struct ArrowSchema* schema) {
  struct import import;
  struct ArrowSchema back;
  bool ok = begin(&import, adc_handover_schema, schema, release_schema, json_path, 0) &&
            take_schema(&import, &back) && compared(adc_result_schema_differs(json_path, &back));
  return end(&import, ok);
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

/* The result of a batch's import compared with the batch: through the
 * first of its methods, __arrow_c_device_array__ (where the handover was a
 * device array), __arrow_c_array__, else its stream (a data frame, a
 * relation: "Tables / DataFrames and streams can implement"
 * __arrow_c_stream__ alone), whose rows together must be the batch's. */
static bool batch_compared(struct import* import, const char* json_path, int num_batch, bool device) {
  const char* name = device && adc_python_has_method(import->result, "__arrow_c_device_array__")
                         ? "__arrow_c_device_array__"
                         : "__arrow_c_array__";
  if (!adc_python_has_method(import->result, name) &&
      (adc_python_has_method(import->result, "__arrow_c_stream__") ||
       adc_python_has_method(import->result, "__arrow_c_device_stream__"))) {
    struct ArrowDeviceArrayStream stream;
    return take_device_stream(import, &stream) &&
           compared(adc_result_stream_differs(json_path, num_batch, &stream));
  }
  struct ArrowSchema schema;
  if (!call_result_method(import, name) || !take(item_of_pair(import, name, 0), "arrow_schema", &schema,
                                                 sizeof(schema), offsetof(struct ArrowSchema, release))) {
    return false;
  }
  struct ArrowDeviceArray back;
  memset(&back, 0, sizeof(back));
  back.device_type = ARROW_DEVICE_CPU;
  bool taken = strcmp(name, "__arrow_c_device_array__") == 0
                   ? take(item_of_pair(import, name, 1), "arrow_device_array", &back, sizeof(back),
                          offsetof(struct ArrowDeviceArray, array) + offsetof(struct ArrowArray, release))
                   : take(item_of_pair(import, name, 1), "arrow_array", &back.array, sizeof(back.array),
                          offsetof(struct ArrowArray, release));
  if (!taken) {
    schema.release(&schema);
    return false;
  }
  if (back.device_type != ARROW_DEVICE_CPU) {
    snprintf(message, sizeof(message),
             "the consumer's result gave a device array on device type %d, not the CPU",
             (int)back.device_type);
    back.array.release(&back.array);
    schema.release(&schema);
    return false;
  }
  return compared(adc_result_batch_differs(json_path, num_batch, &schema, &back.array));
}

EXPORT const char* adc_python_CDataIntegration_ImportBatchAndCompareToJson(const char* json_path,
                                                                           int num_batch,
                                                                           struct ArrowArray* batch) {
  struct import import;
  bool ok = begin(&import, adc_handover_batch, batch, release_array, json_path, num_batch) &&
            batch_compared(&import, json_path, num_batch, false);
  return end(&import, ok);
}

EXPORT const char* adc_python_CDeviceIntegration_ImportDeviceBatchAndCompareToJson(
    const char* json_path, int num_batch, struct ArrowDeviceArray* batch) {
  struct import import;
  bool ok = begin(&import, adc_handover_device_batch, batch, release_device_array, json_path, num_batch) &&
            batch_compared(&import, json_path, num_batch, true);
  return end(&import, ok);
}

EXPORT const char* adc_python_CDeviceIntegration_ImportDeviceStreamAndCompareToJson(
    const char* json_path, struct ArrowDeviceArrayStream* stream) {
  struct import import;
  struct ArrowDeviceArrayStream back;
  bool ok = begin(&import, adc_handover_device_stream, stream, release_device_stream, json_path, 0) &&
            take_device_stream(&import, &back) && compared(adc_result_stream_differs(json_path, -1, &back));
  return end(&import, ok);
}
