#include "fixture_source.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adc/plugin_abi.h"
#include "cpu_stream_view.h"
#include "held_stream.h"
#include "interface_capsules.h"
#include "shim_object.h"

/* The reference producer's entry points, linked in hidden
 * (adc_reference_entry_points). */
const char* adc_reference_CDataIntegration_ExportSchemaFromJson(const char* json_path,
                                                                struct ArrowSchema* out);
const char* adc_reference_CDataIntegration_ExportBatchFromJson(const char* json_path, int num_batch,
                                                               struct ArrowArray* out);
const char* adc_reference_CDeviceIntegration_ExportDeviceStreamFromJson(const char* json_path,
                                                                        ArrowDeviceType device_type,
                                                                        int64_t device_id,
                                                                        struct ArrowDeviceArrayStream* out);

#define REQUEST_CAPSULE "adc_python.fixture_request"

/* What a source's methods export: held by a capsule of the shim's own,
 * which the methods are bound to. */
struct request {
  int num_batch;
  char json_path[];
};

static void free_request(py_object* capsule) {
  free(adc_py.PyCapsule_GetPointer(capsule, REQUEST_CAPSULE));
}

/* NULL, with the reference's message as a RuntimeError, where it declined. */
static py_object* declined(py_object* capsule, const char* error) {
  adc_py.Py_DecRef(capsule);
  adc_py.PyErr_SetString(adc_py.runtime_error, error);
  return NULL;
}

py_object* adc_fixture_schema_capsule(const char* json_path) {
  void* schema;
  py_object* capsule = adc_python_new_capsule(sizeof(struct ArrowSchema), "arrow_schema",
                                              adc_python_release_schema_capsule, &schema);
  if (capsule == NULL) return NULL;
  const char* error = adc_reference_CDataIntegration_ExportSchemaFromJson(json_path, schema);
  return error != NULL ? declined(capsule, error) : capsule;
}

static py_object* schema_method(py_object* self, py_object* arguments, py_object* keywords) {
  (void)arguments, (void)keywords;
  const struct request* request = adc_py.PyCapsule_GetPointer(self, REQUEST_CAPSULE);
  return adc_fixture_schema_capsule(request->json_path);
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
 * raises for one with another number of fields, which no cast of the
 * fixture's data can meet ("the callee should raise an exception"), as the
 * rule pycapsule.requested_schema.incompatible_refused asks of the
 * libraries it is handed to.  False with a Python exception set then. */
static bool request_is_compatible(const struct request* request, py_object* arguments, py_object* keywords) {
  py_object* requested = requested_schema(arguments, keywords);
  if (requested == NULL) return true;
  struct ArrowSchema* wanted = adc_py.PyCapsule_GetPointer(requested, "arrow_schema");
  if (wanted == NULL) return false; /* PyCapsule_GetPointer's exception: not an "arrow_schema" capsule */
  struct ArrowSchema own;
  const char* error = adc_reference_CDataIntegration_ExportSchemaFromJson(request->json_path, &own);
  if (error != NULL) {
    adc_py.PyErr_SetString(adc_py.runtime_error, error);
    return false;
  }
  int64_t fields = own.n_children;
  own.release(&own);
  if (wanted->release != NULL && wanted->n_children == fields) return true;
  char text[160];
  snprintf(text, sizeof(text), "requested_schema has %lld fields and the data %lld: no cast between them",
           (long long)(wanted->release != NULL ? wanted->n_children : -1), (long long)fields);
  adc_py.PyErr_SetString(adc_py.value_error, text);
  return false;
}

/* __arrow_c_array__: (schema capsule, array capsule). */
static py_object* array_method(py_object* self, py_object* arguments, py_object* keywords) {
  const struct request* request = adc_py.PyCapsule_GetPointer(self, REQUEST_CAPSULE);
  if (!request_is_compatible(request, arguments, keywords)) return NULL;
  py_object* schema = adc_fixture_schema_capsule(request->json_path);
  if (schema == NULL) return NULL;
  void* array;
  py_object* capsule = adc_python_new_capsule(sizeof(struct ArrowArray), "arrow_array",
                                              adc_python_release_array_capsule, &array);
  if (capsule == NULL) return declined(schema, "out of memory");
  const char* error =
      adc_reference_CDataIntegration_ExportBatchFromJson(request->json_path, request->num_batch, array);
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

static py_object* stream_method(py_object* self, py_object* arguments, py_object* keywords) {
  const struct request* request = adc_py.PyCapsule_GetPointer(self, REQUEST_CAPSULE);
  if (!request_is_compatible(request, arguments, keywords)) return NULL;
  void* structure;
  py_object* capsule = adc_python_new_capsule(sizeof(struct ArrowArrayStream), "arrow_array_stream",
                                              adc_python_release_stream_capsule, &structure);
  if (capsule == NULL) return NULL;
  /* The reference's device stream on the CPU, as a plain stream. */
  struct adc_cpu_stream_view* inner = calloc(1, sizeof(*inner));
  if (inner == NULL) return declined(capsule, "out of memory");
  const char* error = adc_reference_CDeviceIntegration_ExportDeviceStreamFromJson(
      request->json_path, ARROW_DEVICE_CPU, -1, &inner->device);
  if (error != NULL) {
    free(inner);
    return declined(capsule, error);
  }
  inner->free_on_release = true;
  adc_cpu_stream_view_start(structure, inner);
  return capsule;
}

/* The fixture's schema exported again, for a stream of one batch
 * (held_stream.h); the context is the JSON file's path. */
static const char* schema_again(void* context, struct ArrowSchema* out) {
  return adc_reference_CDataIntegration_ExportSchemaFromJson(context, out);
}

static void free_path(void* context) {
  free(context);
}

/* __arrow_c_stream__ of a batch source: a stream of that one batch
 * (held_stream.h), for a library that imports data only as a stream. */
static py_object* batch_stream_method(py_object* self, py_object* arguments, py_object* keywords) {
  const struct request* request = adc_py.PyCapsule_GetPointer(self, REQUEST_CAPSULE);
  if (!request_is_compatible(request, arguments, keywords)) return NULL;
  void* stream;
  py_object* capsule = adc_python_new_capsule(sizeof(struct ArrowArrayStream), "arrow_array_stream",
                                              adc_python_release_stream_capsule, &stream);
  if (capsule == NULL) return NULL;
  struct ArrowSchema schema;
  struct ArrowArray array;
  const char* error = adc_reference_CDataIntegration_ExportSchemaFromJson(request->json_path, &schema);
  if (error != NULL) return declined(capsule, error);
  error = adc_reference_CDataIntegration_ExportBatchFromJson(request->json_path, request->num_batch, &array);
  if (error != NULL) {
    schema.release(&schema);
    return declined(capsule, error);
  }
  char* path = strdup(request->json_path);
  if (path == NULL || adc_held_stream(&schema, &array, schema_again, path, free_path, stream) != 0) {
    free(path);
    schema.release(&schema);
    array.release(&array);
    return declined(capsule, "out of memory");
  }
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

/* __arrow_c_device_stream__: the reference's device stream on the CPU, as
 * it is ("Device Support": a CPU-only producer may implement both
 * versions), so that a library that wraps the source can hand back a
 * conforming device stream while it breaks __arrow_c_stream__ alone
 * (fixtures/deliberately_broken/misbehaving/python/pycapsule_twins.py). */
static py_object* device_stream_method(py_object* self, py_object* arguments, py_object* keywords) {
  const struct request* request = adc_py.PyCapsule_GetPointer(self, REQUEST_CAPSULE);
  if (!only_known_keywords(keywords) || !request_is_compatible(request, arguments, keywords)) return NULL;
  void* stream;
  py_object* capsule =
      adc_python_new_capsule(sizeof(struct ArrowDeviceArrayStream), "arrow_device_array_stream",
                             adc_python_release_device_stream_capsule, &stream);
  if (capsule == NULL) return NULL;
  const char* error = adc_reference_CDeviceIntegration_ExportDeviceStreamFromJson(
      request->json_path, ARROW_DEVICE_CPU, -1, stream);
  return error != NULL ? declined(capsule, error) : capsule;
}

/* Methods taking (self, args, kwargs): self is the request capsule they
 * are bound to, args and kwargs the caller's (requested_schema: see
 * request_is_compatible; any other keyword is ignored). */
typedef py_object* (*keywords_function)(py_object*, py_object*, py_object*);
static py_c_function as_c_function(keywords_function function) {
  return (py_c_function)(void (*)(void))function;
}

static struct py_method_def methods[] = {
    {"__arrow_c_schema__", NULL, PY_METH_VARARGS | PY_METH_KEYWORDS, "The fixture's schema, as a PyCapsule."},
    {"__arrow_c_array__", NULL, PY_METH_VARARGS | PY_METH_KEYWORDS,
     "(schema, array) PyCapsules of the fixture's batch."},
    {"__arrow_c_stream__", NULL, PY_METH_VARARGS | PY_METH_KEYWORDS,
     "A PyCapsule of a stream over every batch of the fixture."},
    {"__arrow_c_device_stream__", NULL, PY_METH_VARARGS | PY_METH_KEYWORDS,
     "A PyCapsule of a device stream on the CPU over every batch of the fixture."},
    {"__arrow_c_stream__", NULL, PY_METH_VARARGS | PY_METH_KEYWORDS,
     "A PyCapsule of a stream of the fixture's batch alone."},
};

/* Adds methods[index], bound to `request`, to `members`; -1 with an
 * exception. */
static int add_method(py_object* members, size_t index, py_object* request) {
  py_object* function = adc_py.PyCFunction_NewEx(&methods[index], request, NULL);
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

py_object* adc_fixture_source_new(enum adc_source_kind kind, const char* json_path, int num_batch) {
  if (methods[0].ml_meth == NULL) {
    methods[0].ml_meth = as_c_function(schema_method);
    methods[1].ml_meth = as_c_function(array_method);
    methods[2].ml_meth = as_c_function(stream_method);
    methods[3].ml_meth = as_c_function(device_stream_method);
    methods[4].ml_meth = as_c_function(batch_stream_method);
  }
  size_t length = strlen(json_path);
  struct request* request = malloc(sizeof(*request) + length + 1);
  if (request == NULL) {
    adc_py.PyErr_SetString(adc_py.runtime_error, "out of memory");
    return NULL;
  }
  request->num_batch = num_batch;
  memcpy(request->json_path, json_path, length + 1);
  py_object* bound = adc_py.PyCapsule_New(request, REQUEST_CAPSULE, free_request);
  if (bound == NULL) {
    free(request);
    return NULL;
  }
  static const char* const kinds[] = {"schema", "batch", "stream"};
  static const char* const names[] = {"FixtureSchema", "FixtureBatch", "FixtureStream"};
  char description[4160]; /* a path of up to 4096 bytes, and the words around it */
  if (kind == ADC_SOURCE_BATCH) {
    snprintf(description, sizeof(description), "batch %d of %s", num_batch, json_path);
  } else {
    snprintf(description, sizeof(description), "%s of %s",
             kind == ADC_SOURCE_SCHEMA ? "the schema" : "every batch", json_path);
  }
  py_object* members = adc_py.PyDict_New();
  py_object* source = NULL;
  if (members != NULL && add_method(members, 0, bound) == 0 &&
      (kind != ADC_SOURCE_BATCH ||
       (add_method(members, 1, bound) == 0 && add_method(members, 4, bound) == 0)) &&
      /* A schema source holds the data too: a library whose objects are
       * made from data (a data frame, a relation) can make one from it. */
      (kind == ADC_SOURCE_BATCH ||
       (add_method(members, 2, bound) == 0 && add_method(members, 3, bound) == 0)) &&
      add_text(members, "kind", kinds[kind]) == 0 && add_text(members, "fixture", json_path) == 0) {
    source = adc_python_instantiate(names[kind], description, members);
  }
  if (members != NULL) adc_py.Py_DecRef(members);
  adc_py.Py_DecRef(bound);
  return source;
}
