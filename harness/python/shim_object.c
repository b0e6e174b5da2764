#include "shim_object.h"

#include <stdio.h>
#include <stdlib.h>

/* __repr__: bound to the text it returns. */
static py_object* repr_method(py_object* self, py_object* arguments, py_object* keywords) {
  (void)arguments, (void)keywords;
  adc_py.Py_IncRef(self);
  return self;
}

typedef py_object* (*keywords_function)(py_object*, py_object*, py_object*);
static struct py_method_def repr_def = {"__repr__", NULL, PY_METH_VARARGS | PY_METH_KEYWORDS,
                                        "What this object is and which fixture it holds."};

/* members[key] = value, value's reference given up; -1 with an exception. */
static int set_member(py_object* members, const char* key, py_object* value) {
  if (value == NULL) return -1;
  int result = adc_py.PyDict_SetItemString(members, key, value);
  adc_py.Py_DecRef(value);
  return result;
}

/* A __repr__ function returning "<adc_python.NAME: DESCRIPTION>". */
static py_object* new_repr(const char* name, const char* description) {
  repr_def.ml_meth = (py_c_function)(void (*)(void))(keywords_function)repr_method;
  int length = snprintf(NULL, 0, "<%s.%s: %s>", ADC_SHIM_MODULE, name, description);
  char* text = malloc((size_t)length + 1);
  if (text == NULL) {
    adc_py.PyErr_SetString(adc_py.runtime_error, "out of memory");
    return NULL;
  }
  snprintf(text, (size_t)length + 1, "<%s.%s: %s>", ADC_SHIM_MODULE, name, description);
  py_object* bound = adc_py.PyUnicode_FromString(text);
  free(text);
  if (bound == NULL) return NULL;
  py_object* function = adc_py.PyCFunction_NewEx(&repr_def, bound, NULL);
  adc_py.Py_DecRef(bound);
  return function;
}

py_object* adc_python_instantiate(const char* name, const char* description, py_object* members) {
  /* type() called from C, outside any Python frame, sets no __module__: a
   * library naming the object's type (DuckDB's import, nanoarrow's
   * messages) would raise AttributeError instead. */
  if (set_member(members, "__module__", adc_py.PyUnicode_FromString(ADC_SHIM_MODULE)) != 0 ||
      set_member(members, "__qualname__", adc_py.PyUnicode_FromString(name)) != 0 ||
      set_member(members, "__repr__", new_repr(name, description)) != 0) {
    return NULL;
  }
  py_object* builtins = adc_py.PyImport_ImportModule("builtins");
  if (builtins == NULL) return NULL;
  py_object* type = adc_py.PyObject_GetAttrString(builtins, "type");
  py_object* object = adc_py.PyObject_GetAttrString(builtins, "object");
  adc_py.Py_DecRef(builtins);
  py_object* bases = adc_py.PyTuple_New(1);
  py_object* arguments = adc_py.PyTuple_New(3);
  py_object* title = adc_py.PyUnicode_FromString(name);
  py_object* instance = NULL;
  if (type != NULL && object != NULL && bases != NULL && arguments != NULL && title != NULL) {
    adc_py.PyTuple_SetItem(bases, 0, object); /* steals */
    object = NULL;
    adc_py.PyTuple_SetItem(arguments, 0, title);
    title = NULL;
    adc_py.PyTuple_SetItem(arguments, 1, bases);
    bases = NULL;
    adc_py.Py_IncRef(members);
    adc_py.PyTuple_SetItem(arguments, 2, members);
    py_object* cls = adc_py.PyObject_CallObject(type, arguments);
    if (cls != NULL) {
      instance = adc_py.PyObject_CallObject(cls, NULL);
      adc_py.Py_DecRef(cls);
    }
  }
  py_object* owned[] = {type, object, bases, arguments, title};
  for (size_t i = 0; i < sizeof(owned) / sizeof(owned[0]); i++) {
    if (owned[i] != NULL) adc_py.Py_DecRef(owned[i]);
  }
  return instance;
}
