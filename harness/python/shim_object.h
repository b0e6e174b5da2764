/* The Python objects the shim hands a library (the sources of what a
 * producer adopts, adopted_source.h; the harness's handovers,
 * harness_export.h) are
 * ordinary objects: each is the one instance of a class of its own, made
 * with type() from C, whose members are built-in functions bound to the
 * shim's state.  A library may treat them as it treats any object: name
 * their type in a message (type(o).__module__, __qualname__, repr(o)),
 * look a method up on the instance or on its type, and call it as often
 * as it likes. */
#ifndef ADC_SHIM_OBJECT_H
#define ADC_SHIM_OBJECT_H

#include "python_api.h"

/* The module every class of the shim's objects names as its own. */
#define ADC_SHIM_MODULE "adc_python"

/* type(name, (object,), members)(), the class given __module__
 * (ADC_SHIM_MODULE), __qualname__ (`name`) and a __repr__ returning
 * "<adc_python.NAME: DESCRIPTION>".  Its methods are built-in functions,
 * which bind to no instance (they are no descriptors), so
 * source.__arrow_c_array__(requested_schema) reaches the function with the
 * state it is bound to as self, whether looked up on the instance or on the
 * type.  A new reference, or NULL with a Python exception pending; the GIL
 * must be held.  `members` is borrowed (a dict, which gains the three
 * members). */
py_object* adc_python_instantiate(const char* name, const char* description, py_object* members);

#endif /* ADC_SHIM_OBJECT_H */
