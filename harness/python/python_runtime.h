/* The embedded interpreter of a case's process: started, and the module
 * under test imported, as the shim is loaded (so that a prepared process
 * has them before its first case: python_runtime.c), kept until the
 * process ends (CPython cannot be finalised and started again safely).
 *
 * What the harness's parent found by running the Python it was given
 * reaches the case's process in the environment (harness/cli/python_side.h
 * sets it): ADC_PYTHON_LIBRARY (the libpython to load), ADC_PYTHON_HOME
 * (that Python's sys.base_prefix, as PYTHONHOME: its standard library),
 * ADC_PYTHON_PATH (its sys.path, one entry a line: a virtual environment's
 * site-packages included) and, per side, ADC_PYTHON_PRODUCER
 * ("MODULE:FACTORY") and ADC_PYTHON_CONSUMER ("MODULE:FUNCTION"). */
#ifndef ADC_PYTHON_RUNTIME_H
#define ADC_PYTHON_RUNTIME_H

#include <stdbool.h>
#include <stddef.h>

#include "python_api.h"

/* Starts the interpreter if this process has not yet, and takes the GIL
 * for the calling thread into `*gil`.  Returns 0, or -1 with the reason. */
int adc_python_enter(int* gil, char* error, size_t size);

/* Whether the interpreter has started in this process (or in the process
 * it was forked from). */
int adc_python_running(void);

/* Gives back the GIL adc_python_enter took. */
void adc_python_leave(int gil);

/* The pending Python exception as one line, the last line of its
 * traceback ("ValueError: ..."), after `doing` and ": "; the exception is
 * cleared.  Without a pending exception, `doing` alone. */
void adc_python_error_line(const char* doing, char* out, size_t size);

/* Splits `named` ("MODULE:FACTORY", as ADC_PYTHON_PRODUCER holds it) at
 * its last colon: MODULE into `module` (cut to `size`), and `*factory` at
 * FACTORY within `named`.  False when either part is empty or `named` is
 * NULL. */
bool adc_python_split_target(const char* named, char* module, size_t size, const char** factory);

/* The object the callable named by the environment variable `variable`
 * ("MODULE:FACTORY", or "MODULE:FUNCTION" for ADC_PYTHON_CONSUMER) returns
 * for `source` (a new reference), or NULL with
 * the reason (an import error, a missing factory, the factory's
 * exception).  `module` receives the module (a new reference) where it is
 * not NULL and the import succeeded. */
py_object* adc_python_call_factory(const char* variable, py_object* source, py_object** module, char* error,
                                   size_t size);

/* Makes malloc's next chunks of `size` bytes on this thread hold 0xA5, the
 * harness's fill of an output before an export, just before a Python
 * method allocates a structure of that size (python_runtime.c says how,
 * and what it cannot reach). */
void adc_python_fill_next_allocations(size_t size);

/* The text of `object`'s class ("<class 'NoneType'>"), or "?", into `out`;
 * no exception is left pending. */
void adc_python_type_name(py_object* object, char* out, size_t size);

/* Whether `object` has an attribute `name` (an error while looking counts
 * as no, and is cleared). */
bool adc_python_has_method(py_object* object, const char* name);

/* object.name(), without arguments, after adc_python_fill_next_allocations
 * of `structure_size` (the size of the structure the method allocates).
 * Returns the method's result (a new reference), or NULL with one line in
 * `message` and no exception pending: "OWNER (TYPE) has no NAME" and then
 * `missing_note` where the object has no such method, else the
 * exception's last line after "CALL_PREFIXNAME()" (adc_python_error_line).
 * The wording is the caller's: whose object it is, said as the user knows
 * it ("the factory's object", "the consumer's result"). */
py_object* adc_python_call_method(py_object* object, const char* name, size_t structure_size,
                                  const char* owner, const char* missing_note, const char* call_prefix,
                                  char* message, size_t size);

#endif /* ADC_PYTHON_RUNTIME_H */
