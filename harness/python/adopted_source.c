#include "adopted_source.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_stream_view.h"
#include "held_stream.h"
#include "interface_capsules.h"
#include "schema_copy.h"
#include "shim_object.h"
#include "stream_as_device_stream.h"

#define STATE_CAPSULE "adc_python.source"

/* What a source's methods hand out: held by a capsule of the shim's own,
 * which the methods are bound to, freed with the source. */
struct adc_source {
  enum adc_source_kind kind;
  struct ArrowSchema schema;            /* owned: copies are handed out */
  struct ArrowArray batch;              /* a batch's, until given out */
  bool again_is_device_array;           /* a batch's export again is an ArrowDeviceArray */
  enum adc_source_data data;            /* a schema's: what the export again gives */
  struct ArrowDeviceArrayStream stream; /* a stream's, until given out */
  bool closed;                          /* its held object was freed */
};

/* The harness's export again of the current Adopt's input; the GIL guards it. */
static adc_export_again_function export_again;
static void* export_again_context;

void adc_source_offer_again(adc_export_again_function function, void* context) {
  export_again = function;
  export_again_context = context;
}

/* Releases what the source holds. */
static void release_held(struct adc_source* source) {
  if (source->schema.release != NULL) source->schema.release(&source->schema);
  if (source->batch.release != NULL) source->batch.release(&source->batch);
  if (source->stream.release != NULL) source->stream.release(&source->stream);
}

static void free_state(struct adc_source* source) {
  release_held(source);
  free(source);
}

void adc_source_close(struct adc_source* source) {
  source->closed = true;
  release_held(source);
}

static void free_source(py_object* capsule) {
  free_state(adc_py.PyCapsule_GetPointer(capsule, STATE_CAPSULE));
}

static py_object* raise(const char* text) {
  adc_py.PyErr_SetString(adc_py.runtime_error, text);
  return NULL;
}

/* NULL, with `error` as a RuntimeError, the capsule dropped. */
static py_object* declined(py_object* capsule, const char* error) {
  adc_py.Py_DecRef(capsule);
  return raise(error);
}

static const char* no_export_again(void) {
  return "the data were already given out, and the harness cannot export them again now (the round trip's "
         "Export this object was made for has returned)";
}

/* The batch into `out`: the one adopted the first time, a fresh export of
 * it after; NULL, or why not. */
static const char* take_batch(struct adc_source* source, struct ArrowArray* out) {
  if (source->batch.release != NULL) {
    memcpy(out, &source->batch, sizeof(*out));
    source->batch.release = NULL;
    return NULL;
  }
  if (export_again == NULL) return no_export_again();
  bool device_array = source->kind == ADC_SOURCE_SCHEMA ? source->data == ADC_DATA_AGAIN_DEVICE_BATCH
                                                        : source->again_is_device_array;
  if (!device_array) return export_again(export_again_context, out);
  struct ArrowDeviceArray device;
  const char* error = export_again(export_again_context, &device);
  if (error == NULL) memcpy(out, &device.array, sizeof(*out)); /* on the CPU: no event to wait for */
  return error;
}

static bool hold_in_stream(const struct adc_source* source, struct ArrowArray* batch,
                           struct ArrowArrayStream* stream);

/* The data of a schema's source as a device stream on the CPU, exported
 * again as `source->data` says: the fixture's stream, or its batch held in
 * a stream of one batch. */
static const char* data_of_schema(struct adc_source* source, struct ArrowDeviceArrayStream* out) {
  if (export_again == NULL) return no_export_again();
  if (source->data == ADC_DATA_AGAIN_STREAM) return export_again(export_again_context, out);
  struct ArrowArray batch;
  const char* error = take_batch(source, &batch);
  if (error != NULL) return error;
  struct ArrowArrayStream plain;
  if (!hold_in_stream(source, &batch, &plain) || adc_python_stream_as_device_stream(&plain, out) != 0)
    return "out of memory";
  return NULL;
}

/* The stream into `out`: a stream's, as take_batch; a schema's, its data. */
static const char* take_stream(struct adc_source* source, struct ArrowDeviceArrayStream* out) {
  if (source->kind == ADC_SOURCE_SCHEMA) return data_of_schema(source, out);
  if (source->stream.release != NULL) {
    memcpy(out, &source->stream, sizeof(*out));
    source->stream.release = NULL;
    return NULL;
  }
  if (export_again == NULL) return no_export_again();
  return export_again(export_again_context, out);
}

py_object* adc_schema_capsule_copy(const struct ArrowSchema* schema) {
  void* copy;
  py_object* capsule = adc_python_new_capsule(sizeof(struct ArrowSchema), "arrow_schema",
                                              adc_python_release_schema_capsule, &copy);
  if (capsule != NULL && adc_schema_copy(schema, copy) != 0) return declined(capsule, "out of memory");
  return capsule;
}

/* The state of the source a method is bound to, or NULL with an exception
 * where its held object was freed. */
static struct adc_source* source_of(py_object* self) {
  struct adc_source* source = adc_py.PyCapsule_GetPointer(self, STATE_CAPSULE);
  if (source->closed) {
    raise("the round trip's held object this source was made for was freed");
    return NULL;
  }
  return source;
}

static py_object* schema_method(py_object* self, py_object* arguments, py_object* keywords) {
  (void)arguments, (void)keywords;
  struct adc_source* source = source_of(self);
  return source != NULL ? adc_schema_capsule_copy(&source->schema) : NULL;
}

/* The requested_schema a method was called with (borrowed), positional or
 * keyword; NULL for none or None. */
static py_object* requested_schema(py_object* arguments, py_object* keywords) {
  py_object* requested = NULL;
  if (arguments != NULL && adc_py.PyTuple_Size(arguments) > 0) {
    requested = adc_py.PyTuple_GetItem(arguments, 0);
  } else if (keywords != NULL) {
    requested = adc_py.PyDict_GetItemString(keywords, "requested_schema");
  }
  adc_py.PyErr_Clear();
  return requested == adc_py.none ? NULL : requested;
}

/* "Schema Requests": the source gives its own schema for any request
 * ("they may return with the same schema as if None were passed"), but
 * raises for one with another number of fields, which no cast of its data
 * can meet ("the callee should raise an exception"), as the rule
 * pycapsule.requested_schema.incompatible_refused asks of the libraries it
 * is handed to.  False with a Python exception set then. */
static bool request_is_compatible(const struct adc_source* source, py_object* arguments,
                                  py_object* keywords) {
  py_object* requested = requested_schema(arguments, keywords);
  if (requested == NULL) return true;
  struct ArrowSchema* wanted = adc_py.PyCapsule_GetPointer(requested, "arrow_schema");
  if (wanted == NULL) return false; /* PyCapsule_GetPointer's exception: not an "arrow_schema" capsule */
  int64_t fields = source->schema.n_children;
  if (wanted->release != NULL && wanted->n_children == fields) return true;
  char text[160];
  snprintf(text, sizeof(text), "requested_schema has %lld fields and the data %lld: no cast between them",
           (long long)(wanted->release != NULL ? wanted->n_children : -1), (long long)fields);
  adc_py.PyErr_SetString(adc_py.value_error, text);
  return false;
}

/* __arrow_c_array__: (schema capsule, array capsule). */
static py_object* array_method(py_object* self, py_object* arguments, py_object* keywords) {
  struct adc_source* source = source_of(self);
  if (source == NULL || !request_is_compatible(source, arguments, keywords)) return NULL;
  py_object* schema = adc_schema_capsule_copy(&source->schema);
  if (schema == NULL) return NULL;
  void* array;
  py_object* capsule = adc_python_new_capsule(sizeof(struct ArrowArray), "arrow_array",
                                              adc_python_release_array_capsule, &array);
  if (capsule == NULL) return declined(schema, "out of memory");
  const char* error = take_batch(source, array);
  if (error != NULL) {
    adc_py.Py_DecRef(schema);
    return declined(capsule, error);
  }
  py_object* pair = adc_py.PyTuple_New(2);
  if (pair == NULL) {
    adc_py.Py_DecRef(schema);
    adc_py.Py_DecRef(capsule);
    return NULL;
  }
  adc_py.PyTuple_SetItem(pair, 0, schema); /* steals */
  adc_py.PyTuple_SetItem(pair, 1, capsule);
  return pair;
}

/* A held stream's schema again (held_stream.h): a copy of the copy it
 * holds as its context, which outlives the source where the stream does. */
static const char* schema_again(void* context, struct ArrowSchema* out) {
  return adc_schema_copy(context, out) == 0 ? NULL : "out of memory";
}

static void free_schema_context(void* context) {
  struct ArrowSchema* schema = context;
  schema->release(schema);
  free(schema);
}

/* A C stream (held_stream.h) of the source's schema and `batch` (NULL: no
 * batch), moved in, into `stream`; false (the batch released) where memory
 * ran out. */
static bool hold_in_stream(const struct adc_source* source, struct ArrowArray* batch,
                           struct ArrowArrayStream* stream) {
  struct ArrowSchema first;
  struct ArrowSchema* context = malloc(sizeof(*context));
  bool made = context != NULL && adc_schema_copy(&source->schema, context) == 0;
  if (made && adc_schema_copy(&source->schema, &first) != 0) {
    context->release(context);
    made = false;
  }
  if (made && adc_held_stream(&first, batch, schema_again, context, free_schema_context, stream) != 0) {
    first.release(&first);
    context->release(context);
    made = false;
  }
  if (!made) {
    free(context);
    if (batch != NULL && batch->release != NULL) batch->release(batch);
  }
  return made;
}

/* __arrow_c_stream__ of a batch's source: a stream of that one batch, for
 * a library that imports data only as a stream. */
static py_object* held_stream_method(py_object* self, py_object* arguments, py_object* keywords) {
  struct adc_source* source = source_of(self);
  if (source == NULL || !request_is_compatible(source, arguments, keywords)) return NULL;
  void* stream;
  py_object* capsule = adc_python_new_capsule(sizeof(struct ArrowArrayStream), "arrow_array_stream",
                                              adc_python_release_stream_capsule, &stream);
  if (capsule == NULL) return NULL;
  struct ArrowArray batch;
  const char* error = take_batch(source, &batch);
  if (error != NULL) return declined(capsule, error);
  if (!hold_in_stream(source, &batch, stream)) return declined(capsule, "out of memory");
  return capsule;
}

/* __arrow_c_stream__ of a stream's source: its device stream on the CPU,
 * as a plain stream; of a schema's, its data so. */
static py_object* stream_method(py_object* self, py_object* arguments, py_object* keywords) {
  struct adc_source* source = source_of(self);
  if (source == NULL || !request_is_compatible(source, arguments, keywords)) return NULL;
  void* structure;
  py_object* capsule = adc_python_new_capsule(sizeof(struct ArrowArrayStream), "arrow_array_stream",
                                              adc_python_release_stream_capsule, &structure);
  if (capsule == NULL) return NULL;
  struct adc_cpu_stream_view* inner = calloc(1, sizeof(*inner));
  if (inner == NULL) return declined(capsule, "out of memory");
  const char* error = take_stream(source, &inner->device);
  if (error != NULL) {
    free(inner);
    return declined(capsule, error);
  }
  inner->free_on_release = true;
  adc_cpu_stream_view_start(structure, inner);
  return capsule;
}

/* A device method's keywords ("Device Support"): any keyword but
 * requested_schema is accepted as None and refused otherwise, with
 * NotImplementedError, as the interface's example does.  False with that
 * exception set. */
static bool only_known_keywords(py_object* keywords) {
  py_ssize_t position = 0;
  py_object* key;
  py_object* value;
  while (keywords != NULL && adc_py.PyDict_Next(keywords, &position, &key, &value)) {
    const char* name = adc_py.PyUnicode_AsUTF8AndSize(key, NULL);
    if (value == adc_py.none || (name != NULL && strcmp(name, "requested_schema") == 0)) continue;
    char text[200];
    snprintf(text, sizeof(text), "Received unsupported keyword argument(s): %s", name != NULL ? name : "?");
    adc_py.PyErr_SetString(adc_py.not_implemented_error, text);
    return false;
  }
  adc_py.PyErr_Clear();
  return true;
}

/* __arrow_c_device_stream__: the device stream on the CPU, as it is
 * ("Device Support": a CPU-only producer may implement both versions), so
 * that a library that wraps the source can hand back a conforming device
 * stream while it breaks __arrow_c_stream__ alone
 * (fixtures/deliberately_broken/misbehaving/python/pycapsule_twins.py); of
 * a schema's source, a stream of no batches. */
static py_object* device_stream_method(py_object* self, py_object* arguments, py_object* keywords) {
  struct adc_source* source = source_of(self);
  if (source == NULL || !only_known_keywords(keywords) || !request_is_compatible(source, arguments, keywords))
    return NULL;
  void* stream;
  py_object* capsule =
      adc_python_new_capsule(sizeof(struct ArrowDeviceArrayStream), "arrow_device_array_stream",
                             adc_python_release_device_stream_capsule, &stream);
  if (capsule == NULL) return NULL;
  const char* error = take_stream(source, stream);
  return error != NULL ? declined(capsule, error) : capsule;
}

/* Methods taking (self, args, kwargs): self is the state capsule they are
 * bound to, args and kwargs the caller's (requested_schema: see
 * request_is_compatible; any other keyword is ignored). */
typedef py_object* (*keywords_function)(py_object*, py_object*, py_object*);
static py_c_function as_c_function(keywords_function function) {
  return (py_c_function)(void (*)(void))function;
}

enum { SCHEMA_METHOD, ARRAY_METHOD, STREAM_METHOD, DEVICE_STREAM_METHOD, HELD_STREAM_METHOD, N_METHODS };
static struct py_method_def methods[N_METHODS] = {
    [SCHEMA_METHOD] = {"__arrow_c_schema__", NULL, PY_METH_VARARGS | PY_METH_KEYWORDS,
                       "The data's schema, as a PyCapsule."},
    [ARRAY_METHOD] = {"__arrow_c_array__", NULL, PY_METH_VARARGS | PY_METH_KEYWORDS,
                      "(schema, array) PyCapsules of the batch."},
    [STREAM_METHOD] = {"__arrow_c_stream__", NULL, PY_METH_VARARGS | PY_METH_KEYWORDS,
                       "A PyCapsule of a stream over every batch."},
    [DEVICE_STREAM_METHOD] = {"__arrow_c_device_stream__", NULL, PY_METH_VARARGS | PY_METH_KEYWORDS,
                              "A PyCapsule of a device stream on the CPU over every batch."},
    [HELD_STREAM_METHOD] = {"__arrow_c_stream__", NULL, PY_METH_VARARGS | PY_METH_KEYWORDS,
                            "A PyCapsule of a stream of the batch alone."},
};

/* Adds methods[index], bound to `state`, to `members`; -1 with an
 * exception. */
static int add_method(py_object* members, int index, py_object* state) {
  py_object* function = adc_py.PyCFunction_NewEx(&methods[index], state, NULL);
  if (function == NULL) return -1;
  int result = adc_py.PyDict_SetItemString(members, methods[index].ml_name, function);
  adc_py.Py_DecRef(function);
  return result;
}

static int add_text(py_object* members, const char* key, const char* value) {
  py_object* text = adc_py.PyUnicode_FromString(value);
  if (text == NULL) return -1;
  int result = adc_py.PyDict_SetItemString(members, key, text);
  adc_py.Py_DecRef(text);
  return result;
}

/* The methods of each kind of source. */
static const int kind_methods[][4] = {
    [ADC_SOURCE_SCHEMA] = {SCHEMA_METHOD, STREAM_METHOD, DEVICE_STREAM_METHOD, -1},
    [ADC_SOURCE_BATCH] = {SCHEMA_METHOD, ARRAY_METHOD, HELD_STREAM_METHOD, -1},
    [ADC_SOURCE_STREAM] = {SCHEMA_METHOD, STREAM_METHOD, DEVICE_STREAM_METHOD, -1},
};

/* The source object over `source` (whose ownership it takes, freeing it
 * on failure), or NULL with an exception. */
static py_object* new_source(struct adc_source* source, struct adc_source** state_out) {
  if (methods[SCHEMA_METHOD].ml_meth == NULL) {
    methods[SCHEMA_METHOD].ml_meth = as_c_function(schema_method);
    methods[ARRAY_METHOD].ml_meth = as_c_function(array_method);
    methods[STREAM_METHOD].ml_meth = as_c_function(stream_method);
    methods[DEVICE_STREAM_METHOD].ml_meth = as_c_function(device_stream_method);
    methods[HELD_STREAM_METHOD].ml_meth = as_c_function(held_stream_method);
  }
  py_object* state = adc_py.PyCapsule_New(source, STATE_CAPSULE, free_source);
  if (state == NULL) {
    free_state(source);
    return NULL;
  }
  static const char* const kinds[] = {"schema", "batch", "stream"};
  static const char* const names[] = {"SourceSchema", "SourceBatch", "SourceStream"};
  static const char* const descriptions[] = {"the schema the harness handed over",
                                             "the batch the harness handed over",
                                             "the stream the harness handed over"};
  py_object* members = adc_py.PyDict_New();
  bool ok = members != NULL;
  for (int i = 0; ok && kind_methods[source->kind][i] >= 0; i++)
    ok = add_method(members, kind_methods[source->kind][i], state) == 0;
  py_object* object = NULL;
  if (ok && add_text(members, "kind", kinds[source->kind]) == 0)
    object = adc_python_instantiate(names[source->kind], descriptions[source->kind], members);
  if (members != NULL) adc_py.Py_DecRef(members);
  adc_py.Py_DecRef(state);
  if (object != NULL) *state_out = source;
  return object;
}

/* A new state of `kind` holding `schema` (moved in), or NULL (the schema
 * released) with an exception. */
static struct adc_source* new_state(enum adc_source_kind kind, struct ArrowSchema* schema) {
  struct adc_source* source = calloc(1, sizeof(*source));
  if (source == NULL) {
    if (schema->release != NULL) schema->release(schema);
    raise("out of memory");
    return NULL;
  }
  source->kind = kind;
  memcpy(&source->schema, schema, sizeof(*schema));
  schema->release = NULL;
  return source;
}

py_object* adc_source_of_schema(struct ArrowSchema* schema, enum adc_source_data data,
                                struct adc_source** state) {
  struct adc_source* source = new_state(ADC_SOURCE_SCHEMA, schema);
  if (source == NULL) return NULL;
  source->data = data;
  return new_source(source, state);
}

py_object* adc_source_of_batch(struct ArrowSchema* schema, struct ArrowArray* batch,
                               bool again_is_device_array, struct adc_source** state) {
  struct adc_source* source = new_state(ADC_SOURCE_BATCH, schema);
  if (source == NULL) {
    batch->release(batch);
    return NULL;
  }
  memcpy(&source->batch, batch, sizeof(*batch));
  batch->release = NULL;
  source->again_is_device_array = again_is_device_array;
  return new_source(source, state);
}

py_object* adc_source_of_stream(struct ArrowDeviceArrayStream* stream, struct adc_source** state) {
  struct ArrowSchema schema;
  memset(&schema, 0, sizeof(schema));
  if (stream->get_schema(stream, &schema) != 0) {
    const char* error = stream->get_last_error(stream);
    char text[512];
    snprintf(text, sizeof(text), "get_schema of the stream handed over failed: %s",
             error != NULL ? error : "(no message)");
    stream->release(stream);
    return raise(text);
  }
  struct adc_source* source = new_state(ADC_SOURCE_STREAM, &schema);
  if (source == NULL) {
    stream->release(stream);
    return NULL;
  }
  memcpy(&source->stream, stream, sizeof(*stream));
  stream->release = NULL;
  return new_source(source, state);
}
