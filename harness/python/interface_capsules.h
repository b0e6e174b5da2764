/* The capsules of the Arrow PyCapsule Interface that the shim makes, on
 * both sides (a fixture's source for a producer under test, a handover for
 * a consumer under test, the probes of the pycapsule.* rules): each named
 * as the interface names its structure ("arrow_schema", "arrow_array",
 * "arrow_array_stream", "arrow_device_array", "arrow_device_array_stream"),
 * each owning its structure, which its destructor releases where no
 * consumer moved it out (its release still set), then frees (the
 * interface's "Lifetime Semantics"). */
#ifndef ADC_PYTHON_INTERFACE_CAPSULES_H
#define ADC_PYTHON_INTERFACE_CAPSULES_H

#include <stddef.h>

#include "python_api.h"

void adc_python_release_schema_capsule(py_object* capsule);
void adc_python_release_array_capsule(py_object* capsule);
void adc_python_release_stream_capsule(py_object* capsule);
void adc_python_release_device_array_capsule(py_object* capsule);
void adc_python_release_device_stream_capsule(py_object* capsule);

/* A capsule named `name` around a new zeroed structure of `size` bytes,
 * stored in `*structure`, whose release stays NULL until the caller fills
 * it: wrapped at once, as the interface's example recommends ("immediately
 * wrap the struct in a capsule"), so that the capsule's destructor frees it
 * on every path.  The capsule owns the structure.  NULL, with a Python
 * exception set and nothing allocated, where it cannot be made. */
py_object* adc_python_new_capsule(size_t size, const char* name, py_capsule_destructor destructor,
                                  void** structure);

#endif
