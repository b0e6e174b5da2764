#include "python_api.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

struct adc_python_api adc_py;

/* dlsym returns an object pointer; ISO C only lets its bytes be copied into
 * a function pointer. */
_Static_assert(sizeof(void*) == sizeof(adc_py.Py_InitializeEx), "function and object pointers have one size");

int adc_python_api_load(const char* path, char* error, size_t size) {
  void* library = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
  if (library == NULL) {
    const char* reason = dlerror();
    snprintf(error, size, "cannot load libpython '%s': %s", path, reason ? reason : "dlopen failed");
    return -1;
  }
  struct adc_python_api api;
#define RESOLVE(result, name, parameters)                                                                 \
  {                                                                                                       \
    void* address = dlsym(library, #name);                                                                \
    if (address == NULL) {                                                                                \
      snprintf(error, size, "libpython '%s' has no %s (a CPython 3.10 or later is needed)", path, #name); \
      return -1;                                                                                          \
    }                                                                                                     \
    memcpy(&api.name, &address, sizeof(address));                                                         \
  }
  ADC_PYTHON_FUNCTIONS(RESOLVE)
#undef RESOLVE
  /* Py_None is the address of _Py_NoneStruct; PyExc_RuntimeError,
   * PyExc_ValueError and PyExc_NotImplementedError variables holding the
   * exception types. */
  api.none = dlsym(library, "_Py_NoneStruct");
  py_object** runtime_error = dlsym(library, "PyExc_RuntimeError");
  py_object** value_error = dlsym(library, "PyExc_ValueError");
  py_object** not_implemented_error = dlsym(library, "PyExc_NotImplementedError");
  if (api.none == NULL || runtime_error == NULL || value_error == NULL || not_implemented_error == NULL) {
    snprintf(error, size,
             "libpython '%s' has no _Py_NoneStruct, PyExc_RuntimeError, PyExc_ValueError or "
             "PyExc_NotImplementedError",
             path);
    return -1;
  }
  api.runtime_error = *runtime_error;
  api.value_error = *value_error;
  api.not_implemented_error = *not_implemented_error;
  adc_py = api;
  return 0;
}
