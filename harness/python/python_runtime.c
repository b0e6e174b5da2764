#include "python_runtime.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t start_lock = PTHREAD_MUTEX_INITIALIZER;
static int started;              /* 1 once the interpreter runs */
static char start_failure[1024]; /* why it could not start, kept: it never will */

/* sys.path as the parent's Python had it (ADC_PYTHON_PATH, one entry a
 * line): the embedded interpreter's own would be computed from the
 * harness's executable, and miss a virtual environment's site-packages. */
static int set_sys_path(char* error, size_t size) {
  const char* lines = getenv("ADC_PYTHON_PATH");
  if (lines == NULL) return 0;
  py_object* list = adc_py.PyList_New(0);
  if (list == NULL) goto failed;
  for (const char* entry = lines; *entry != '\0';) {
    size_t length = strcspn(entry, "\n");
    char* copy = strndup(entry, length);
    py_object* text = copy ? adc_py.PyUnicode_FromString(copy) : NULL;
    free(copy);
    if (text == NULL || adc_py.PyList_Append(list, text) != 0) {
      if (text != NULL) adc_py.Py_DecRef(text);
      adc_py.Py_DecRef(list);
      goto failed;
    }
    adc_py.Py_DecRef(text);
    entry += length + (entry[length] == '\n');
  }
  int result = adc_py.PySys_SetObject("path", list);
  adc_py.Py_DecRef(list);
  if (result == 0) return 0;
failed:
  adc_python_error_line("setting sys.path from ADC_PYTHON_PATH", error, size);
  return -1;
}

static int start(char* error, size_t size) {
  const char* library = getenv("ADC_PYTHON_LIBRARY");
  if (library == NULL) {
    snprintf(error, size,
             "ADC_PYTHON_LIBRARY is not set: the Python shim runs under adc-conform --producer "
             "python:MODULE:FACTORY, which sets it");
    return -1;
  }
  if (adc_python_api_load(library, error, size) != 0) return -1;
  /* Where the standard library is: the Python the parent ran, not one
   * found from this executable's path. */
  const char* home = getenv("ADC_PYTHON_HOME");
  if (home != NULL) setenv("PYTHONHOME", home, 1);
  /* initsigs 0: CPython installs no signal handler, so the harness's own
   * (the guard's SIGSEGV and SIGBUS, a case's default SIGINT) stay, and a
   * crash inside an extension is the case's crash.
   * (docs.python.org/3/c-api/init.html, Py_InitializeEx) */
  adc_py.Py_InitializeEx(0);
  if (!adc_py.Py_IsInitialized()) {
    snprintf(error, size, "Py_InitializeEx(0) did not start the interpreter of '%s'", library);
    return -1;
  }
  int result = set_sys_path(error, size);
  /* Initialisation leaves the GIL with this thread; every call takes it
   * with PyGILState_Ensure, from whichever thread the harness calls on. */
  adc_py.PyEval_SaveThread();
  return result;
}

int adc_python_running(void) {
  pthread_mutex_lock(&start_lock);
  int running = started;
  pthread_mutex_unlock(&start_lock);
  return running;
}

int adc_python_enter(int* gil, char* error, size_t size) {
  pthread_mutex_lock(&start_lock);
  if (!started && start_failure[0] == '\0') {
    if (start(start_failure, sizeof(start_failure)) == 0) {
      started = 1;
    } else if (start_failure[0] == '\0') {
      snprintf(start_failure, sizeof(start_failure), "the interpreter did not start");
    }
  }
  int ok = started;
  pthread_mutex_unlock(&start_lock);
  if (!ok) {
    snprintf(error, size, "%s", start_failure);
    return -1;
  }
  *gil = adc_py.PyGILState_Ensure();
  return 0;
}

/* sys.stdout and sys.stderr written out: what an import printed, held in
 * their buffers, would otherwise be printed again by every process forked
 * after it (fork_protocol.c), as that process's own output. */
static void flush_output(void) {
  static const char* const names[] = {"stdout", "stderr"};
  py_object* sys = adc_py.PyImport_ImportModule("sys");
  for (size_t i = 0; sys != NULL && i < sizeof(names) / sizeof(names[0]); i++) {
    py_object* stream = adc_py.PyObject_GetAttrString(sys, names[i]);
    py_object* flush = stream != NULL ? adc_py.PyObject_GetAttrString(stream, "flush") : NULL;
    py_object* result = flush != NULL ? adc_py.PyObject_CallObject(flush, NULL) : NULL;
    if (result != NULL) adc_py.Py_DecRef(result);
    if (flush != NULL) adc_py.Py_DecRef(flush);
    if (stream != NULL) adc_py.Py_DecRef(stream);
  }
  if (sys != NULL) adc_py.Py_DecRef(sys);
  adc_py.PyErr_Clear();
}

/* The interpreter started and the module of ADC_PYTHON_PRODUCER (and of
 * ADC_PYTHON_CONSUMER) imported as the shim is loaded: a prepared process loads it before it takes the
 * state each case is compared with (harness/runner/process_state.h), so
 * what starting Python and importing the library leave (pyarrow 26: a
 * thread, 3.6 MB and a SIGINT handler) is the process's, not its first
 * case's.  Left to the first case, it ended every prepared process after
 * one case, and each case paid Python's start and pyarrow's import (0.8 s
 * a case on a 2-core machine).  An import that fails here is failed again,
 * and said, by the case that calls the factory; one that crashes or hangs
 * is the library's load misbehaving, which the harness judges as such.
 * It runs inside dlopen, with the loader's lock held: an import that waits
 * for a thread of its own that needs the loader meanwhile would hang here
 * (pyarrow 26's does not); the harness bounds the load as it bounds any. */
__attribute__((constructor)) static void start_as_loaded(void) {
  /* The producer's module, and the consumer's (ADC_PYTHON_CONSUMER,
   * "MODULE:FUNCTION"), whichever sides are Python. */
  static const char* const sides[] = {"ADC_PYTHON_PRODUCER", "ADC_PYTHON_CONSUMER"};
  for (size_t i = 0; i < sizeof(sides) / sizeof(sides[0]); i++) {
    char module_name[512];
    const char* factory;
    if (!adc_python_split_target(getenv(sides[i]), module_name, sizeof(module_name), &factory)) continue;
    int gil;
    char error[512];
    if (adc_python_enter(&gil, error, sizeof(error)) != 0) return; /* each entry point says why */
    py_object* module = adc_py.PyImport_ImportModule(module_name);
    if (module != NULL) {
      adc_py.Py_DecRef(module);
    } else {
      adc_py.PyErr_Clear();
    }
    flush_output();
    adc_python_leave(gil);
  }
}

void adc_python_leave(int gil) {
  adc_py.PyGILState_Release(gil);
}

/* traceback.format_exception_only(type, value)[-1]: the line a traceback
 * ends with, which names the exception and its message. */
static py_object* last_traceback_line(py_object* type, py_object* value) {
  py_object* traceback = adc_py.PyImport_ImportModule("traceback");
  if (traceback == NULL) return NULL;
  py_object* format = adc_py.PyObject_GetAttrString(traceback, "format_exception_only");
  adc_py.Py_DecRef(traceback);
  if (format == NULL) return NULL;
  py_object* arguments = adc_py.PyTuple_New(2);
  if (arguments == NULL) {
    adc_py.Py_DecRef(format);
    return NULL;
  }
  py_object* second = value != NULL ? value : adc_py.none;
  adc_py.Py_IncRef(type);
  adc_py.Py_IncRef(second);
  adc_py.PyTuple_SetItem(arguments, 0, type);
  adc_py.PyTuple_SetItem(arguments, 1, second);
  py_object* lines = adc_py.PyObject_CallObject(format, arguments);
  adc_py.Py_DecRef(arguments);
  adc_py.Py_DecRef(format);
  if (lines == NULL) return NULL;
  /* A list: its last item through the sequence protocol's str() of a slice
   * would need more API; lines[-1] is lines.pop(). */
  py_object* pop = adc_py.PyObject_GetAttrString(lines, "pop");
  adc_py.Py_DecRef(lines);
  if (pop == NULL) return NULL;
  py_object* last = adc_py.PyObject_CallObject(pop, NULL);
  adc_py.Py_DecRef(pop);
  return last;
}

void adc_python_error_line(const char* doing, char* out, size_t size) {
  if (adc_py.PyErr_Occurred == NULL || adc_py.PyErr_Occurred() == NULL) {
    snprintf(out, size, "%s", doing);
    return;
  }
  py_object *type = NULL, *value = NULL, *traceback = NULL;
  adc_py.PyErr_Fetch(&type, &value, &traceback);
  adc_py.PyErr_NormalizeException(&type, &value, &traceback);
  py_object* line = type != NULL ? last_traceback_line(type, value) : NULL;
  if (line == NULL) {
    adc_py.PyErr_Clear();
    line = value != NULL ? adc_py.PyObject_Str(value) : NULL;
  }
  const char* text = line != NULL ? adc_py.PyUnicode_AsUTF8AndSize(line, NULL) : NULL;
  if (text == NULL) {
    adc_py.PyErr_Clear();
    text = "an exception that cannot be shown";
  }
  snprintf(out, size, "%s: %.*s", doing, (int)strcspn(text, "\n"), text);
  if (line != NULL) adc_py.Py_DecRef(line);
  if (type != NULL) adc_py.Py_DecRef(type);
  if (value != NULL) adc_py.Py_DecRef(value);
  if (traceback != NULL) adc_py.Py_DecRef(traceback);
}

bool adc_python_split_target(const char* named, char* module, size_t size, const char** factory) {
  const char* colon = named != NULL ? strrchr(named, ':') : NULL;
  if (colon == NULL || colon == named || colon[1] == '\0') return false;
  snprintf(module, size, "%.*s", (int)(colon - named), named);
  *factory = colon + 1;
  return true;
}

py_object* adc_python_call_factory(const char* variable, py_object* source, py_object** module_out,
                                   char* error, size_t size) {
  const char* named = getenv(variable);
  char module_name[512];
  const char* factory_name;
  if (!adc_python_split_target(named, module_name, sizeof(module_name), &factory_name)) {
    snprintf(error, size, "%s is '%s', not MODULE:FACTORY", variable, named ? named : "(not set)");
    return NULL;
  }
  char doing[700];
  py_object* module = adc_py.PyImport_ImportModule(module_name);
  if (module == NULL) {
    snprintf(doing, sizeof(doing), "importing %s", module_name);
    adc_python_error_line(doing, error, size);
    return NULL;
  }
  py_object* factory = adc_py.PyObject_GetAttrString(module, factory_name);
  if (factory == NULL) {
    adc_py.Py_DecRef(module);
    snprintf(doing, sizeof(doing), "%s has no %s", module_name, factory_name);
    adc_python_error_line(doing, error, size);
    return NULL;
  }
  py_object* arguments = adc_py.PyTuple_New(1);
  py_object* made = NULL;
  if (arguments != NULL) {
    adc_py.Py_IncRef(source);
    adc_py.PyTuple_SetItem(arguments, 0, source);
    made = adc_py.PyObject_CallObject(factory, arguments);
    adc_py.Py_DecRef(arguments);
  }
  adc_py.Py_DecRef(factory);
  if (made == NULL) {
    /* The argument as the side's documentation names it: a producer's
     * factory is given the fixture's source, a consumer's function the
     * harness's handover (harness_export.h). */
    snprintf(doing, sizeof(doing), "%s(%s)", named,
             strcmp(variable, "ADC_PYTHON_CONSUMER") == 0 ? "handover" : "source");
    adc_python_error_line(doing, error, size);
    adc_py.Py_DecRef(module);
    return NULL;
  }
  if (module_out != NULL) {
    *module_out = module;
  } else {
    adc_py.Py_DecRef(module);
  }
  return made;
}

/* The harness fills every output structure with 0xA5 before an export, so
 * that a member the producer never writes cannot pass by luck (CONFORMANCE.md,
 * "How cases run"; ADC_FILL_BYTE, rule_api/producer_calls.h).  Through the
 * PyCapsule Interface the producer allocates the structure itself
 * ("Create a PyCapsule": malloc, then the capsule): malloc's next chunks of
 * that size, on this thread, are made to hold the same bytes, so that what
 * the library leaves unwritten shows as it does in the harness's own
 * output (glibc hands the chunks freed last back first; the first 16
 * bytes of a chunk hold its free-list link, every other byte the fill).
 * A library allocating elsewhere (its own pool, another thread) gets
 * memory this does not touch, and such a member may pass by luck. */
#define FILL_BYTE 0xA5
/* glibc's per-thread cache keeps 7 chunks of a size and hands the last
 * freed back first; 64 fill the memory its other bins hand out after
 * those too, for a library whose call takes some chunks of that size
 * before the structure's: with 7, pyarrow 26's __arrow_c_device_array__
 * passed device_array.reserved.zeroed by luck in 2 of 26 runs of the
 * pyarrow peer narrowed to that rule (its finding P1), with 64 in none of
 * 46. */
#define FILLED_CHUNKS 64
static void* (*volatile fill_memory)(void*, int, size_t) = memset; /* never optimised out before free */

void adc_python_fill_next_allocations(size_t size) {
  void* chunks[FILLED_CHUNKS];
  for (int i = 0; i < FILLED_CHUNKS; i++) {
    chunks[i] = malloc(size);
    if (chunks[i] != NULL) fill_memory(chunks[i], FILL_BYTE, size);
  }
  for (int i = FILLED_CHUNKS; i-- > 0;) free(chunks[i]);
}

void adc_python_type_name(py_object* object, char* out, size_t size) {
  py_object* type = adc_py.PyObject_GetAttrString(object, "__class__");
  py_object* text = type != NULL ? adc_py.PyObject_Str(type) : NULL;
  const char* shown = text != NULL ? adc_py.PyUnicode_AsUTF8AndSize(text, NULL) : NULL;
  snprintf(out, size, "%s", shown ? shown : "?");
  if (text != NULL) adc_py.Py_DecRef(text);
  if (type != NULL) adc_py.Py_DecRef(type);
  adc_py.PyErr_Clear();
}

bool adc_python_has_method(py_object* object, const char* name) {
  int has = adc_py.PyObject_HasAttrString(object, name);
  adc_py.PyErr_Clear();
  return has == 1;
}

py_object* adc_python_call_method(py_object* object, const char* name, size_t structure_size,
                                  const char* owner, const char* missing_note, const char* call_prefix,
                                  char* message, size_t size) {
  if (!adc_python_has_method(object, name)) {
    char type[256];
    adc_python_type_name(object, type, sizeof(type));
    snprintf(message, size, "%s (%s) has no %s%s", owner, type, name, missing_note);
    return NULL;
  }
  py_object* result = NULL;
  py_object* bound = adc_py.PyObject_GetAttrString(object, name);
  if (bound != NULL) {
    adc_python_fill_next_allocations(structure_size);
    result = adc_py.PyObject_CallObject(bound, NULL);
    adc_py.Py_DecRef(bound);
  }
  if (result == NULL) {
    char doing[192];
    snprintf(doing, sizeof(doing), "%s%s()", call_prefix, name);
    adc_python_error_line(doing, message, size);
  }
  return result;
}
