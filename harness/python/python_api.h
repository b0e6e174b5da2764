/* The few functions of CPython's C API the Python shim calls, resolved at
 * run time from the libpython named by the harness (ADC_PYTHON_LIBRARY), so
 * that the shim builds without Python.h and the harness never links or
 * loads libpython: only a case's process does, when the shim's first entry
 * point runs.
 *
 * Every function is one of CPython's stable ABI (PEP 384; "Stable
 * Application Binary Interface", docs.python.org/3/c-api/stable.html) or,
 * for PyUnicode_AsUTF8AndSize, exported by every CPython 3 and in the
 * stable ABI since 3.10.  Each declaration below is the C API's, with
 * PyObject opaque (the shim never looks inside an object: reference counts
 * go through Py_IncRef and Py_DecRef, the stable functions behind the
 * Py_INCREF and Py_DECREF macros). */
#ifndef ADC_PYTHON_API_H
#define ADC_PYTHON_API_H

#include <stddef.h>
#include <sys/types.h>

typedef struct adc_py_object py_object; /* CPython's PyObject, opaque */
typedef ssize_t py_ssize_t;             /* Py_ssize_t */
typedef void (*py_capsule_destructor)(py_object*);
typedef py_object* (*py_c_function)(py_object* self, py_object* args);

/* PyMethodDef, whose layout is part of the stable ABI. */
struct py_method_def {
  const char* ml_name;
  py_c_function ml_meth;
  int ml_flags;
  const char* ml_doc;
};
#define PY_METH_VARARGS 0x0001
#define PY_METH_KEYWORDS 0x0002

/* X(RETURN, NAME, PARAMETERS): each function, once. */
#define ADC_PYTHON_FUNCTIONS(X)                                                                        \
  X(void, Py_InitializeEx, (int initsigs))                                                             \
  X(int, Py_IsInitialized, (void))                                                                     \
  X(void*, PyEval_SaveThread, (void))                                                                  \
  X(int, PyGILState_Ensure, (void))                                                                    \
  X(void, PyGILState_Release, (int state))                                                             \
  X(void, Py_IncRef, (py_object * o))                                                                  \
  X(void, Py_DecRef, (py_object * o))                                                                  \
  X(py_object*, PyImport_ImportModule, (const char* name))                                             \
  X(py_object*, PyObject_GetAttrString, (py_object * o, const char* name))                             \
  X(int, PyObject_HasAttrString, (py_object * o, const char* name))                                    \
  X(py_object*, PyObject_CallObject, (py_object * callable, py_object * args))                         \
  X(py_object*, PyObject_Call, (py_object * callable, py_object * args, py_object * kwargs))           \
  X(py_object*, PyObject_Str, (py_object * o))                                                         \
  X(py_object*, PyTuple_New, (py_ssize_t size))                                                        \
  X(int, PyTuple_SetItem, (py_object * tuple, py_ssize_t index, py_object * item))                     \
  X(py_object*, PyTuple_GetItem, (py_object * tuple, py_ssize_t index))                                \
  X(py_ssize_t, PyTuple_Size, (py_object * tuple))                                                     \
  X(py_object*, PyList_New, (py_ssize_t size))                                                         \
  X(int, PyList_Append, (py_object * list, py_object * item))                                          \
  X(py_object*, PyDict_New, (void))                                                                    \
  X(int, PyDict_SetItemString, (py_object * dict, const char* key, py_object* item))                   \
  X(py_object*, PyDict_GetItemString, (py_object * dict, const char* key))                             \
  X(int, PyDict_Next, (py_object * dict, py_ssize_t * position, py_object * *key, py_object * *value)) \
  X(int, PySys_SetObject, (const char* name, py_object* value))                                        \
  X(py_object*, PyUnicode_FromString, (const char* text))                                              \
  X(const char*, PyUnicode_AsUTF8AndSize, (py_object * text, py_ssize_t * size))                       \
  X(long long, PyLong_AsLongLong, (py_object * number))                                                \
  X(py_object*, PyLong_FromLong, (long value))                                                         \
  X(py_object*, PyCFunction_NewEx, (struct py_method_def * def, py_object * self, py_object * module)) \
  X(py_object*, PyCapsule_New, (void* pointer, const char* name, py_capsule_destructor destructor))    \
  X(void*, PyCapsule_GetPointer, (py_object * capsule, const char* name))                              \
  X(const char*, PyCapsule_GetName, (py_object * capsule))                                             \
  X(int, PyCapsule_IsValid, (py_object * capsule, const char* name))                                   \
  X(py_capsule_destructor, PyCapsule_GetDestructor, (py_object * capsule))                             \
  X(py_object*, PyErr_Occurred, (void))                                                                \
  X(void, PyErr_Fetch, (py_object * *type, py_object * *value, py_object * *traceback))                \
  X(void, PyErr_NormalizeException, (py_object * *type, py_object * *value, py_object * *traceback))   \
  X(void, PyErr_SetString, (py_object * type, const char* message))                                    \
  X(void, PyErr_Clear, (void))                                                                         \
  X(void, PyOS_BeforeFork, (void))                                                                     \
  X(void, PyOS_AfterFork_Parent, (void))                                                               \
  X(void, PyOS_AfterFork_Child, (void))

#define ADC_PYTHON_DECLARE_POINTER(result, name, parameters) result(*name) parameters;
struct adc_python_api {
  ADC_PYTHON_FUNCTIONS(ADC_PYTHON_DECLARE_POINTER)
  py_object* none;                  /* Py_None: &_Py_NoneStruct */
  py_object* runtime_error;         /* PyExc_RuntimeError */
  py_object* value_error;           /* PyExc_ValueError */
  py_object* not_implemented_error; /* PyExc_NotImplementedError */
};
#undef ADC_PYTHON_DECLARE_POINTER

/* The API, once adc_python_api_load has succeeded. */
extern struct adc_python_api adc_py;

/* Loads the libpython at `path` (RTLD_GLOBAL: extension modules such as
 * pyarrow's resolve their Py* symbols from it) and resolves every function
 * above.  Returns 0, or -1 with the reason in `error`. */
int adc_python_api_load(const char* path, char* error, size_t size);

#endif /* ADC_PYTHON_API_H */
