#include "harness_export.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adc/arrow_c_abi.h"
#include "cpu_stream_view.h"
#include "held_stream.h"
#include "interface_capsules.h"
#include "schema_copy.h"
#include "shim_object.h"

#define STATE_CAPSULE "adc_python.handover"

enum handover_kind { HANDOVER_SCHEMA, HANDOVER_BATCH, HANDOVER_DEVICE_BATCH, HANDOVER_DEVICE_STREAM };

/* The capsule each kind's structure is given out in. */
struct data_capsule_kind {
  size_t size;
  const char* name;
  py_capsule_destructor destructor;
};
static const struct data_capsule_kind data_kinds[] = {
    [HANDOVER_SCHEMA] = {sizeof(struct ArrowSchema), "arrow_schema", adc_python_release_schema_capsule},
    [HANDOVER_BATCH] = {sizeof(struct ArrowArray), "arrow_array", adc_python_release_array_capsule},
    [HANDOVER_DEVICE_BATCH] = {sizeof(struct ArrowDeviceArray), "arrow_device_array",
                               adc_python_release_device_array_capsule},
    [HANDOVER_DEVICE_STREAM] = {sizeof(struct ArrowDeviceArrayStream), "arrow_device_array_stream",
                                adc_python_release_device_stream_capsule},
};

struct adc_handover {
  enum handover_kind kind;
  py_object* data; /* the capsule around the harness's structure, until given out */
  bool closed;     /* its Import returned */
  /* The schema of a batch's pair, copied for each call (release NULL
   * where none: a schema's or a stream's handover). */
  struct ArrowSchema schema;
};

/* What exports the current Import's input again (adc/export_again.h): the
 * harness's, set around each Import (adc_handover_offer_again); the GIL
 * guards it. */
static adc_export_again_function export_again;
static void* export_again_context;

void adc_handover_offer_again(adc_export_again_function function, void* context) {
  export_again = function;
  export_again_context = context;
}

/* A stream of the C Data Interface over the harness's device stream on the
 * CPU (__arrow_c_stream__), forwarding every call, so that a library that
 * imports only the CPU form (pyarrow 26's RecordBatchReader.from_stream)
 * is judged by the device stream rules: each get_next hands over the
 * device array's embedded array (moved; on the CPU there is no event to
 * wait for).  It outlives its own release until its Import returns, so
 * that a call after the release still reaches the harness's stream, where
 * the rules count it. */
struct stream_view {
  struct adc_cpu_stream_view cpu; /* first: the stream's private_data */
  struct stream_view* next;       /* every view not yet freed */
};
static struct stream_view* views; /* the GIL guards it */

/* The harness's structure moved into a fresh allocation, its own release
 * set NULL (a move, as the C Data Interface allows a consumer). */
static void* move_out(void* structure, size_t size, size_t release_offset) {
  void* moved = malloc(size);
  if (moved != NULL) {
    memcpy(moved, structure, size);
    void (*released)(void*) = NULL;
    memcpy((unsigned char*)structure + release_offset, &released, sizeof(released));
  }
  return moved;
}

static void free_state(py_object* capsule) {
  free(adc_py.PyCapsule_GetPointer(capsule, STATE_CAPSULE));
}

static py_object* raise(const char* text) {
  adc_py.PyErr_SetString(adc_py.runtime_error, text);
  return NULL;
}

/* A fresh export of the input, from the harness (adc/export_again.h), in
 * a capsule of the interface's name that owns it. */
static py_object* export_afresh(struct adc_handover* state) {
  if (export_again == NULL) {
    return raise(
        "the harness's export was already given out, and the harness cannot export this input again");
  }
  const struct data_capsule_kind* kind = &data_kinds[state->kind];
  void* structure;
  py_object* capsule = adc_python_new_capsule(kind->size, kind->name, kind->destructor, &structure);
  if (capsule == NULL) return NULL;
  const char* error = export_again(export_again_context, structure);
  if (error != NULL) {
    adc_py.Py_DecRef(capsule); /* its structure's release is still NULL: only freed */
    return raise(error);
  }
  return capsule;
}

/* The harness's structure the first time, a fresh export of the same data
 * each time after (the harness judges every one the library is given). */
static py_object* give_out(struct adc_handover* state) {
  if (state->closed) return raise("the Import this object was made for has returned");
  if (state->data == NULL) return export_afresh(state);
  py_object* data = state->data;
  state->data = NULL;
  return data;
}

/* A capsule around a copy of the batch's schema. */
static py_object* schema_capsule(const struct adc_handover* state) {
  void* schema;
  py_object* capsule = adc_python_new_capsule(sizeof(struct ArrowSchema), "arrow_schema",
                                              adc_python_release_schema_capsule, &schema);
  if (capsule != NULL && adc_schema_copy(&state->schema, schema) != 0) {
    adc_py.Py_DecRef(capsule);
    return raise("out of memory");
  }
  return capsule;
}

/* (the batch's schema, the harness's structure). */
static py_object* pair(struct adc_handover* state) {
  if (state->closed) return give_out(state);
  py_object* schema = schema_capsule(state);
  if (schema == NULL) return NULL;
  py_object* data = give_out(state);
  py_object* result = data != NULL ? adc_py.PyTuple_New(2) : NULL;
  if (result == NULL) {
    adc_py.Py_DecRef(schema);
    if (data != NULL) adc_py.Py_DecRef(data);
    return NULL;
  }
  adc_py.PyTuple_SetItem(result, 0, schema); /* steals */
  adc_py.PyTuple_SetItem(result, 1, data);
  return result;
}

static struct adc_handover* state_of(py_object* self) {
  return adc_py.PyCapsule_GetPointer(self, STATE_CAPSULE);
}

static py_object* schema_method(py_object* self, py_object* arguments, py_object* keywords) {
  (void)arguments, (void)keywords;
  return give_out(state_of(self));
}

static py_object* batch_schema_method(py_object* self, py_object* arguments, py_object* keywords) {
  (void)arguments, (void)keywords;
  struct adc_handover* state = state_of(self);
  if (state->closed) return give_out(state);
  return schema_capsule(state);
}

static py_object* pair_method(py_object* self, py_object* arguments, py_object* keywords) {
  (void)arguments, (void)keywords;
  return pair(state_of(self));
}

static py_object* device_stream_method(py_object* self, py_object* arguments, py_object* keywords) {
  (void)arguments, (void)keywords;
  return give_out(state_of(self));
}

/* __arrow_c_stream__: the harness's device stream, moved into a view. */
static py_object* stream_method(py_object* self, py_object* arguments, py_object* keywords) {
  (void)arguments, (void)keywords;
  py_object* data = give_out(state_of(self));
  if (data == NULL) return NULL;
  struct ArrowDeviceArrayStream* device = adc_py.PyCapsule_GetPointer(data, "arrow_device_array_stream");
  struct stream_view* view = calloc(1, sizeof(*view));
  struct ArrowArrayStream* stream = calloc(1, sizeof(*stream));
  py_object* capsule =
      stream != NULL ? adc_py.PyCapsule_New(stream, "arrow_array_stream", adc_python_release_stream_capsule)
                     : NULL;
  if (view == NULL || capsule == NULL) {
    free(view);
    if (capsule == NULL) free(stream);
    if (capsule != NULL) adc_py.Py_DecRef(capsule);
    adc_py.Py_DecRef(data); /* releases the harness's stream */
    return raise("out of memory");
  }
  memcpy(&view->cpu.device, device, sizeof(*device));
  device->release = NULL;
  adc_py.Py_DecRef(data);
  view->next = views;
  views = view;
  adc_cpu_stream_view_start(stream, &view->cpu);
  return capsule;
}

/* A fresh export of the handover's schema (held_stream.h), while its
 * Import runs. */
static const char* schema_again(void* context, struct ArrowSchema* out) {
  (void)context;
  if (export_again == NULL) return "the Import the schema was handed over for has returned";
  return export_again(export_again_context, out);
}

/* __arrow_c_stream__ of a schema's handover: the schema as a stream of no
 * batches (held_stream.h), for a library that imports a schema only with
 * data. */
static py_object* schema_stream_method(py_object* self, py_object* arguments, py_object* keywords) {
  (void)arguments, (void)keywords;
  py_object* data = give_out(state_of(self));
  if (data == NULL) return NULL;
  void* stream;
  py_object* capsule = adc_python_new_capsule(sizeof(struct ArrowArrayStream), "arrow_array_stream",
                                              adc_python_release_stream_capsule, &stream);
  if (capsule != NULL && adc_held_stream(adc_py.PyCapsule_GetPointer(data, "arrow_schema"), NULL,
                                         schema_again, NULL, NULL, stream) != 0) {
    adc_py.Py_DecRef(capsule);
    capsule = raise("out of memory");
  }
  adc_py.Py_DecRef(data); /* releases the schema where it was not moved into the stream */
  return capsule;
}

/* Methods taking (self, args, kwargs); self is the state capsule. */
typedef py_object* (*keywords_function)(py_object*, py_object*, py_object*);
static py_c_function as_c_function(keywords_function function) {
  return (py_c_function)(void (*)(void))function;
}

#define KEYWORDS (PY_METH_VARARGS | PY_METH_KEYWORDS)
static struct py_method_def schema_def = {"__arrow_c_schema__", NULL, KEYWORDS,
                                          "The harness's schema, as a PyCapsule."};
static struct py_method_def batch_schema_def = {"__arrow_c_schema__", NULL, KEYWORDS,
                                                "The batch's schema, as a PyCapsule."};
static struct py_method_def array_def = {"__arrow_c_array__", NULL, KEYWORDS,
                                         "(the batch's schema, the harness's array) as PyCapsules."};
static struct py_method_def device_array_def = {
    "__arrow_c_device_array__", NULL, KEYWORDS,
    "(the batch's schema, the harness's device array) as PyCapsules."};
static struct py_method_def device_stream_def = {"__arrow_c_device_stream__", NULL, KEYWORDS,
                                                 "The harness's device stream, as a PyCapsule."};
static struct py_method_def stream_def = {"__arrow_c_stream__", NULL, KEYWORDS,
                                          "The harness's stream on the CPU, as a PyCapsule."};
static struct py_method_def schema_stream_def = {"__arrow_c_stream__", NULL, KEYWORDS,
                                                 "The harness's schema as a stream of no batches."};

static void set_functions(void) {
  if (schema_def.ml_meth != NULL) return;
  schema_def.ml_meth = as_c_function(schema_method);
  batch_schema_def.ml_meth = as_c_function(batch_schema_method);
  array_def.ml_meth = as_c_function(pair_method);
  device_array_def.ml_meth = as_c_function(pair_method);
  device_stream_def.ml_meth = as_c_function(device_stream_method);
  stream_def.ml_meth = as_c_function(stream_method);
  schema_stream_def.ml_meth = as_c_function(schema_stream_method);
}

static int add_method(py_object* members, struct py_method_def* def, py_object* self) {
  py_object* function = adc_py.PyCFunction_NewEx(def, self, NULL);
  if (function == NULL) return -1;
  int result = adc_py.PyDict_SetItemString(members, def->ml_name, function);
  adc_py.Py_DecRef(function);
  return result;
}

static int add_value(py_object* members, const char* key, py_object* value) {
  if (value == NULL) return -1;
  int result = adc_py.PyDict_SetItemString(members, key, value);
  adc_py.Py_DecRef(value);
  return result;
}

static int add_methods(py_object* members, enum handover_kind kind, bool on_cpu, py_object* self) {
  switch (kind) {
    case HANDOVER_SCHEMA:
      return add_method(members, &schema_def, self) == 0 ? add_method(members, &schema_stream_def, self) : -1;
    case HANDOVER_BATCH:
      return add_method(members, &batch_schema_def, self) == 0 ? add_method(members, &array_def, self) : -1;
    case HANDOVER_DEVICE_BATCH:
      return add_method(members, &batch_schema_def, self) == 0 ? add_method(members, &device_array_def, self)
                                                               : -1;
    case HANDOVER_DEVICE_STREAM:
      if (add_method(members, &device_stream_def, self) != 0) return -1;
      return on_cpu ? add_method(members, &stream_def, self) : 0;
  }
  return -1;
}

/* Wraps `data` (a capsule around the harness's structure, or NULL where it
 * could not be made: the structure is then released by the caller), with
 * `schema` (moved in; NULL for none) as its batch's schema. */
static py_object* handover(enum handover_kind kind, py_object* data, bool on_cpu, struct ArrowSchema* schema,
                           struct adc_handover** state_out) {
  static const char* const kinds[] = {"schema", "batch", "device_batch", "device_stream"};
  static const char* const names[] = {"HarnessSchema", "HarnessBatch", "HarnessDeviceBatch",
                                      "HarnessDeviceStream"};
  static const char* const descriptions[] = {
      "the harness's export of a schema", "the harness's export of a batch",
      "the harness's export of a batch on a device", "the harness's export of a stream"};
  struct adc_handover* state = data != NULL ? calloc(1, sizeof(*state)) : NULL;
  py_object* self = state != NULL ? adc_py.PyCapsule_New(state, STATE_CAPSULE, free_state) : NULL;
  if (self == NULL) {
    free(state);
    if (schema != NULL) schema->release(schema);
    if (data == NULL) return NULL;
    adc_py.Py_DecRef(data);
    return raise("out of memory");
  }
  set_functions();
  state->kind = kind;
  state->data = data;
  if (schema != NULL) {
    memcpy(&state->schema, schema, sizeof(*schema));
    schema->release = NULL;
  }
  py_object* members = adc_py.PyDict_New();
  py_object* object = NULL;
  if (members != NULL && add_methods(members, kind, on_cpu, self) == 0 &&
      add_value(members, "kind", adc_py.PyUnicode_FromString(kinds[kind])) == 0) {
    object = adc_python_instantiate(names[kind], descriptions[kind], members);
  }
  if (members != NULL) adc_py.Py_DecRef(members);
  if (object == NULL) {
    adc_handover_close(state); /* releases the harness's structure */
  } else {
    *state_out = state;
  }
  adc_py.Py_DecRef(self);
  return object;
}

/* A capsule named `name` around the harness's structure, moved; NULL with
 * an exception, the structure released, where it cannot be made. */
static py_object* data_capsule(void* structure, size_t size, size_t release_offset, const char* name,
                               py_capsule_destructor destructor) {
  void* moved = move_out(structure, size, release_offset);
  if (moved == NULL) {
    void (*release)(void*);
    memcpy(&release, (unsigned char*)structure + release_offset, sizeof(release));
    release(structure);
    return raise("out of memory");
  }
  py_object* capsule = adc_py.PyCapsule_New(moved, name, destructor);
  if (capsule == NULL) {
    void (*release)(void*);
    memcpy(&release, (unsigned char*)moved + release_offset, sizeof(release));
    release(moved);
    free(moved);
  }
  return capsule;
}

py_object* adc_handover_schema(struct ArrowSchema* schema, struct adc_handover** state) {
  py_object* data = data_capsule(schema, sizeof(struct ArrowSchema), offsetof(struct ArrowSchema, release),
                                 "arrow_schema", adc_python_release_schema_capsule);
  return handover(HANDOVER_SCHEMA, data, true, NULL, state);
}

py_object* adc_handover_batch(struct ArrowSchema* schema, struct ArrowArray* batch,
                              struct adc_handover** state) {
  py_object* data = data_capsule(batch, sizeof(struct ArrowArray), offsetof(struct ArrowArray, release),
                                 "arrow_array", adc_python_release_array_capsule);
  return handover(HANDOVER_BATCH, data, true, schema, state);
}

py_object* adc_handover_device_batch(struct ArrowSchema* schema, struct ArrowDeviceArray* batch,
                                     struct adc_handover** state) {
  py_object* data =
      data_capsule(batch, sizeof(struct ArrowDeviceArray),
                   offsetof(struct ArrowDeviceArray, array) + offsetof(struct ArrowArray, release),
                   "arrow_device_array", adc_python_release_device_array_capsule);
  return handover(HANDOVER_DEVICE_BATCH, data, true, schema, state);
}

py_object* adc_handover_device_stream(struct ArrowDeviceArrayStream* stream, struct adc_handover** state) {
  /* The interface's stream of the C Data Interface is CPU data only
   * ("The absence of the device version methods implies CPU-only data"). */
  bool on_cpu = stream->device_type == ARROW_DEVICE_CPU;
  py_object* data = data_capsule(stream, sizeof(struct ArrowDeviceArrayStream),
                                 offsetof(struct ArrowDeviceArrayStream, release),
                                 "arrow_device_array_stream", adc_python_release_device_stream_capsule);
  return handover(HANDOVER_DEVICE_STREAM, data, on_cpu, NULL, state);
}

void adc_handover_close(struct adc_handover* state) {
  state->closed = true;
  if (state->schema.release != NULL) state->schema.release(&state->schema);
  py_object* data = state->data;
  state->data = NULL;
  if (data != NULL) adc_py.Py_DecRef(data);
  for (struct stream_view** link = &views; *link != NULL;) {
    struct stream_view* view = *link;
    if (view->cpu.released) {
      *link = view->next;
      free(view);
    } else {
      link = &view->next;
    }
  }
}
