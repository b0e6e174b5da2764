#include "interface_capsules.h"

#include <stdlib.h>

#include "adc/arrow_c_abi.h"

void adc_python_release_schema_capsule(py_object* capsule) {
  struct ArrowSchema* schema = adc_py.PyCapsule_GetPointer(capsule, "arrow_schema");
  if (schema != NULL && schema->release != NULL) schema->release(schema);
  free(schema);
}

void adc_python_release_array_capsule(py_object* capsule) {
  struct ArrowArray* array = adc_py.PyCapsule_GetPointer(capsule, "arrow_array");
  if (array != NULL && array->release != NULL) array->release(array);
  free(array);
}

void adc_python_release_stream_capsule(py_object* capsule) {
  struct ArrowArrayStream* stream = adc_py.PyCapsule_GetPointer(capsule, "arrow_array_stream");
  if (stream != NULL && stream->release != NULL) stream->release(stream);
  free(stream);
}

void adc_python_release_device_array_capsule(py_object* capsule) {
  struct ArrowDeviceArray* array = adc_py.PyCapsule_GetPointer(capsule, "arrow_device_array");
  if (array != NULL && array->array.release != NULL) array->array.release(&array->array);
  free(array);
}

void adc_python_release_device_stream_capsule(py_object* capsule) {
  struct ArrowDeviceArrayStream* stream = adc_py.PyCapsule_GetPointer(capsule, "arrow_device_array_stream");
  if (stream != NULL && stream->release != NULL) stream->release(stream);
  free(stream);
}

py_object* adc_python_new_capsule(size_t size, const char* name, py_capsule_destructor destructor,
                                  void** structure) {
  *structure = calloc(1, size);
  if (*structure == NULL) {
    adc_py.PyErr_SetString(adc_py.runtime_error, "out of memory");
    return NULL;
  }
  py_object* capsule = adc_py.PyCapsule_New(*structure, name, destructor);
  if (capsule == NULL) free(*structure);
  return capsule;
}
