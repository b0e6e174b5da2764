/* adc_python_PyCapsuleProbe (adc/pycapsule_probe.h): one of the interface's
 * methods called on the factory's object in one of the probe's ways, and
 * what the shim saw, for the PyCapsule rules (spec-tests/rules_pycapsule.c)
 * to judge.  The shim sees nothing here that the interface's consumer would
 * not: names, what the destructors do with the structures, what the
 * methods answer to arguments. */
#include "adc/pycapsule_probe.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "adc/plugin_abi.h"
#include "adopted_source.h"
#include "forked_child_wait.h"
#include "interface_capsules.h"
#include "python_producer.h"
#include "python_runtime.h"
#include "schema_copy.h"

#define EXPORT __attribute__((visibility("default")))

/* Kept until the same thread's next call (plugin_abi.h's convention). */
static _Thread_local char message[1024];

/* The structure behind a capsule, by the method and its place in what the
 * method returns. */
enum structure { SCHEMA, ARRAY, DEVICE_ARRAY, STREAM, DEVICE_STREAM };

/* What the probe needs of a method beyond its names (the header's
 * adc_pycapsule_names_of): the structure behind each capsule. */
static const struct method_shape {
  enum adc_pycapsule_method method;
  enum structure structures[2];
} shapes[ADC_PYCAPSULE_METHOD_COUNT] = {
    [ADC_PYCAPSULE_SCHEMA] = {ADC_PYCAPSULE_SCHEMA, {SCHEMA}},
    [ADC_PYCAPSULE_ARRAY] = {ADC_PYCAPSULE_ARRAY, {SCHEMA, ARRAY}},
    [ADC_PYCAPSULE_DEVICE_ARRAY] = {ADC_PYCAPSULE_DEVICE_ARRAY, {SCHEMA, DEVICE_ARRAY}},
    [ADC_PYCAPSULE_STREAM] = {ADC_PYCAPSULE_STREAM, {STREAM}},
    [ADC_PYCAPSULE_DEVICE_STREAM] = {ADC_PYCAPSULE_DEVICE_STREAM, {DEVICE_STREAM}},
};

static const char* name_of(const struct method_shape* shape) {
  return adc_pycapsule_names_of(shape->method)->method;
}

/* 2 for a (schema, data) pair, else 1. */
static int capsule_count(const struct method_shape* shape) {
  return adc_pycapsule_names_of(shape->method)->capsules[1] != NULL ? 2 : 1;
}

/* ---- The release spy -------------------------------------------------------
 * A spy put in a structure's release member counts the calls that reach it,
 * puts the producer's release back and calls it, so the structure is
 * released as it would have been.  A capsule's destructor calls the release
 * with the structure's address, which the spy finds its original by. */
#define SPY_SLOTS 4
static _Thread_local struct spy {
  void* structure;
  int calls;
  union {
    void (*schema)(struct ArrowSchema*);
    void (*array)(struct ArrowArray*);
    void (*stream)(struct ArrowArrayStream*);
    void (*device_stream)(struct ArrowDeviceArrayStream*);
  } original;
} spies[SPY_SLOTS];
static _Thread_local int n_spies;

static struct spy* spy_of(void* structure) {
  for (int i = 0; i < n_spies; i++) {
    if (spies[i].structure == structure) return &spies[i];
  }
  return NULL;
}

static void spy_schema(struct ArrowSchema* schema) {
  struct spy* spy = spy_of(schema);
  if (spy == NULL) return;
  spy->calls++;
  schema->release = spy->original.schema;
  if (schema->release != NULL) schema->release(schema);
}

static void spy_array(struct ArrowArray* array) {
  struct spy* spy = spy_of(array);
  if (spy == NULL) return;
  spy->calls++;
  array->release = spy->original.array;
  if (array->release != NULL) array->release(array);
}

static void spy_stream(struct ArrowArrayStream* stream) {
  struct spy* spy = spy_of(stream);
  if (spy == NULL) return;
  spy->calls++;
  stream->release = spy->original.stream;
  if (stream->release != NULL) stream->release(stream);
}

static void spy_device_stream(struct ArrowDeviceArrayStream* stream) {
  struct spy* spy = spy_of(stream);
  if (spy == NULL) return;
  spy->calls++;
  stream->release = spy->original.device_stream;
  if (stream->release != NULL) stream->release(stream);
}

/* Puts a spy in `structure`'s release; false where its release is NULL
 * already (a released structure: nothing for a destructor to release). */
static struct spy* watch_release(void* structure, enum structure kind) {
  if (n_spies == SPY_SLOTS) return NULL;
  struct spy* spy = &spies[n_spies];
  memset(spy, 0, sizeof(*spy));
  spy->structure = structure;
  switch (kind) {
    case SCHEMA: {
      struct ArrowSchema* schema = structure;
      if (schema->release == NULL) return NULL;
      spy->original.schema = schema->release;
      schema->release = spy_schema;
      break;
    }
    case ARRAY:
    case DEVICE_ARRAY: { /* a device array's release is its embedded array's, at its start */
      struct ArrowArray* array = structure;
      if (array->release == NULL) return NULL;
      spy->original.array = array->release;
      array->release = spy_array;
      break;
    }
    case STREAM: {
      struct ArrowArrayStream* stream = structure;
      if (stream->release == NULL) return NULL;
      spy->original.stream = stream->release;
      stream->release = spy_stream;
      break;
    }
    case DEVICE_STREAM: {
      struct ArrowDeviceArrayStream* stream = structure;
      if (stream->release == NULL) return NULL;
      spy->original.device_stream = stream->release;
      stream->release = spy_device_stream;
      break;
    }
  }
  n_spies++;
  return spy;
}

/* ---- Moving out, as the interface's consumer does ------------------------- */
static const size_t structure_sizes[] = {
    [SCHEMA] = sizeof(struct ArrowSchema),
    [ARRAY] = sizeof(struct ArrowArray),
    [DEVICE_ARRAY] = sizeof(struct ArrowDeviceArray),
    [STREAM] = sizeof(struct ArrowArrayStream),
    [DEVICE_STREAM] = sizeof(struct ArrowDeviceArrayStream),
};

/* Copies the structure to `moved` and marks the capsule's released
 * ("Lifetime Semantics": the consumer moves the data and sets the release
 * callback to NULL). */
static void move_out(void* structure, enum structure kind, void* moved) {
  memcpy(moved, structure, structure_sizes[kind]);
  switch (kind) {
    case SCHEMA:
      ((struct ArrowSchema*)structure)->release = NULL;
      break;
    case ARRAY:
    case DEVICE_ARRAY:
      ((struct ArrowArray*)structure)->release = NULL;
      break;
    case STREAM:
      ((struct ArrowArrayStream*)structure)->release = NULL;
      break;
    case DEVICE_STREAM:
      ((struct ArrowDeviceArrayStream*)structure)->release = NULL;
      break;
  }
}

/* Releases what the consumer moved out, as the consumer must. */
static void release_moved(void* moved, enum structure kind) {
  switch (kind) {
    case SCHEMA: {
      struct ArrowSchema* schema = moved;
      if (schema->release != NULL) schema->release(schema);
      break;
    }
    case ARRAY:
    case DEVICE_ARRAY: {
      struct ArrowArray* array = moved;
      if (array->release != NULL) array->release(array);
      break;
    }
    case STREAM: {
      struct ArrowArrayStream* stream = moved;
      if (stream->release != NULL) stream->release(stream);
      break;
    }
    case DEVICE_STREAM: {
      struct ArrowDeviceArrayStream* stream = moved;
      if (stream->release != NULL) stream->release(stream);
      break;
    }
  }
}

/* ---- Python helpers ---------------------------------------------------- */

/* gc.collect(): a capsule held in a reference cycle is destroyed only by
 * the collector, and the probe watches destructors run. */
static void collect_garbage(void) {
  py_object* gc = adc_py.PyImport_ImportModule("gc");
  py_object* collect = gc != NULL ? adc_py.PyObject_GetAttrString(gc, "collect") : NULL;
  py_object* result = collect != NULL ? adc_py.PyObject_CallObject(collect, NULL) : NULL;
  py_object* owned[] = {gc, collect, result};
  for (size_t i = 0; i < 3; i++) {
    if (owned[i] != NULL) adc_py.Py_DecRef(owned[i]);
  }
  adc_py.PyErr_Clear();
}

/* The requested schema of ADC_PYCAPSULE_PROBE_INCOMPATIBLE_SCHEMA: a struct
 * of no fields, in a capsule made as "Create a PyCapsule" says. */
static void release_empty_struct(struct ArrowSchema* schema) {
  schema->release = NULL;
}

static py_object* empty_struct_capsule(void) {
  void* structure;
  py_object* capsule = adc_python_new_capsule(sizeof(struct ArrowSchema), "arrow_schema",
                                              adc_python_release_schema_capsule, &structure);
  if (capsule == NULL) return NULL;
  struct ArrowSchema* schema = structure;
  schema->format = "+s";
  schema->name = "";
  schema->release = release_empty_struct;
  return capsule;
}

/* The keyword arguments of the probe's call, or NULL for none (and NULL
 * with `failed` set where they could not be built). */
static py_object* probe_keywords(enum adc_pycapsule_probe probe, const struct ArrowSchema* fixture_schema,
                                 bool* failed) {
  *failed = false;
  if (probe != ADC_PYCAPSULE_PROBE_NONE_KEYWORD && probe != ADC_PYCAPSULE_PROBE_UNKNOWN_KEYWORD &&
      probe != ADC_PYCAPSULE_PROBE_INCOMPATIBLE_SCHEMA && probe != ADC_PYCAPSULE_PROBE_FIXTURE_SCHEMA)
    return NULL;
  py_object* keywords = adc_py.PyDict_New();
  bool ok = keywords != NULL;
  if (ok && probe == ADC_PYCAPSULE_PROBE_NONE_KEYWORD) {
    ok = adc_py.PyDict_SetItemString(keywords, "requested_schema", adc_py.none) == 0 &&
         adc_py.PyDict_SetItemString(keywords, "adc_conformance_probe", adc_py.none) == 0;
  } else if (ok && probe == ADC_PYCAPSULE_PROBE_UNKNOWN_KEYWORD) {
    py_object* one = adc_py.PyLong_FromLong(1);
    ok = one != NULL && adc_py.PyDict_SetItemString(keywords, "adc_conformance_probe", one) == 0;
    if (one != NULL) adc_py.Py_DecRef(one);
  } else if (ok) {
    py_object* requested = probe != ADC_PYCAPSULE_PROBE_FIXTURE_SCHEMA ? empty_struct_capsule()
                           : fixture_schema != NULL ? adc_schema_capsule_copy(fixture_schema)
                                                    : NULL;
    ok = requested != NULL && adc_py.PyDict_SetItemString(keywords, "requested_schema", requested) == 0;
    if (requested != NULL) adc_py.Py_DecRef(requested);
  }
  if (!ok) {
    if (keywords != NULL) adc_py.Py_DecRef(keywords);
    *failed = true;
    return NULL;
  }
  return keywords;
}

/* The capsules of `result` into `capsules` (borrowed) and their names into
 * `out`; false where `result` is not what the method's shape says (the
 * count of capsules is then 0 and `returned` names what it was). */
static bool read_capsules(py_object* result, const struct method_shape* shape, py_object* capsules[2],
                          struct adc_pycapsule_observation* out) {
  int n = 1;
  if (capsule_count(shape) == 2) {
    if (adc_py.PyTuple_Size(result) != 2) {
      adc_py.PyErr_Clear();
      adc_python_type_name(result, out->returned, sizeof(out->returned));
      return false;
    }
    n = 2;
    capsules[0] = adc_py.PyTuple_GetItem(result, 0);
    capsules[1] = adc_py.PyTuple_GetItem(result, 1);
  } else {
    capsules[0] = result;
  }
  for (int i = 0; i < n; i++) {
    const char* name = adc_py.PyCapsule_GetName(capsules[i]);
    if (name == NULL && adc_py.PyErr_Occurred() != NULL) { /* not a capsule */
      adc_py.PyErr_Clear();
      adc_python_type_name(capsules[i], out->returned, sizeof(out->returned));
      return false;
    }
    snprintf(out->names[i], sizeof(out->names[i]), "%s", name ? name : "");
  }
  out->n_capsules = n;
  return true;
}

static void* structure_of(py_object* capsule) {
  void* structure = adc_py.PyCapsule_GetPointer(capsule, adc_py.PyCapsule_GetName(capsule));
  adc_py.PyErr_Clear();
  return structure;
}

/* ---- The probes ---------------------------------------------------------- */

/* Drops `result` (the capsules' last reference, if the library kept none)
 * with a spy in each structure's release. */
static void watch_unconsumed(py_object* result, const struct method_shape* shape, py_object* capsules[2],
                             struct adc_pycapsule_observation* out) {
  n_spies = 0;
  struct spy* watched[2] = {NULL, NULL};
  for (int i = 0; i < out->n_capsules; i++) {
    void* structure = structure_of(capsules[i]);
    if (structure != NULL) watched[i] = watch_release(structure, shape->structures[i]);
  }
  adc_py.Py_DecRef(result);
  collect_garbage();
  for (int i = 0; i < out->n_capsules; i++) out->releases[i] = watched[i] != NULL ? watched[i]->calls : -1;
  n_spies = 0;
}

/* The steps of the consumed probe's child, written to the parent one byte
 * each as they are reached: the last one read is where it died. */
static const char* const consumed_steps[] = {
    "before moving the structures out",
    "while the capsules' destructors ran (the structures moved out, their release NULL)",
    "while the consumer released what it had moved out (after the capsules were destroyed)",
    "after every step",
};

static void child_step(int pipe_out, char step) {
  ssize_t ignored = write(pipe_out, &step, 1);
  (void)ignored;
}

/* In a child of the case's process: moves every structure out, drops the
 * capsules, releases what was moved out, and says each step on `pipe_out`.
 * Never returns. */
static void consumed_child(int pipe_out, const struct method_shape* shape, py_object* capsules[2],
                           int n_capsules) {
  /* The case's handlers report to the harness: a death here is this
   * child's, which the parent reads. */
  int fatal[] = {SIGSEGV, SIGBUS, SIGABRT, SIGILL, SIGFPE};
  for (size_t i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++) signal(fatal[i], SIG_DFL);
  adc_py.PyOS_AfterFork_Child();
  child_step(pipe_out, 0);
  void* moved[2] = {NULL, NULL};
  for (int i = 0; i < n_capsules; i++) {
    void* structure = structure_of(capsules[i]);
    moved[i] = malloc(structure_sizes[shape->structures[i]]);
    if (structure == NULL || moved[i] == NULL) _exit(3);
    move_out(structure, shape->structures[i], moved[i]);
  }
  child_step(pipe_out, 1);
  /* Each capsule's own destructor, called as Python calls it when the
   * capsule dies, and nothing else of the library's: in a child of a
   * process whose library keeps threads (a query engine's pool), freeing
   * the library's objects (the holders, a collection) can wait for ever on
   * a lock one of those threads held at the fork, which is the fork's
   * doing, not the library's (DuckDB 2.0.0's relations did, in 7 to 9 of
   * 25 cases). */
  for (int i = 0; i < n_capsules; i++) {
    py_capsule_destructor destructor = adc_py.PyCapsule_GetDestructor(capsules[i]);
    adc_py.PyErr_Clear();
    if (destructor != NULL) destructor(capsules[i]);
  }
  child_step(pipe_out, 2);
  for (int i = 0; i < n_capsules; i++) release_moved(moved[i], shape->structures[i]);
  child_step(pipe_out, 3);
  _exit(0);
}

/* Within the case's own limit (10 s by default), so that a hang is this
 * probe's unresolved rather than the case's timeout. */
#define CONSUMED_CHILD_SECONDS 5

/* Runs consumed_child and reads how it ended into `out`; where that could
 * not be told (no fork, a hang), out->unobserved says why. */
static void watch_consumed(const struct method_shape* shape, py_object* capsules[2],
                           struct adc_pycapsule_observation* out) {
  int steps[2];
  if (pipe(steps) != 0) {
    snprintf(out->unobserved, sizeof(out->unobserved), "pipe: %s", strerror(errno));
    return;
  }
  adc_py.PyOS_BeforeFork();
  pid_t child = fork();
  if (child == 0) {
    close(steps[0]);
    consumed_child(steps[1], shape, capsules, out->n_capsules);
  }
  adc_py.PyOS_AfterFork_Parent();
  close(steps[1]);
  if (child < 0) {
    close(steps[0]);
    snprintf(out->unobserved, sizeof(out->unobserved), "fork: %s", strerror(errno));
    return;
  }
  int last = -1;
  struct timespec start;
  clock_gettime(CLOCK_MONOTONIC, &start);
  for (;;) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    int left_ms = CONSUMED_CHILD_SECONDS * 1000 -
                  (int)((now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000);
    struct pollfd wait_for = {steps[0], POLLIN, 0};
    /* Short polls: a child blocked for good shows between them. */
    bool silent = left_ms <= 0 || poll(&wait_for, 1, left_ms < 10 ? left_ms : 10) == 0;
    if (silent && left_ms > 0 && !adc_forked_child_waits_for_ever(child)) continue;
    if (silent && last == 2) {
      /* The destructors ran: only the release of what was moved out is
       * left, which a library may make wait on its own threads. */
      kill(child, SIGKILL);
      waitpid(child, NULL, 0);
      close(steps[0]);
      snprintf(out->consumed_release_unwatched, sizeof(out->consumed_release_unwatched),
               "every destructor of %s()'s capsules ran; the release of what was moved out %s in the forked "
               "child (a release that waits on the library's own threads cannot end there), so it was not "
               "watched",
               name_of(shape), left_ms > 0 ? "waits for ever on a lock" : "did not return in time");
      return;
    }
    if (silent) {
      kill(child, SIGKILL);
      waitpid(child, NULL, 0);
      close(steps[0]);
      snprintf(out->unobserved, sizeof(out->unobserved),
               "the child that destroys the consumed capsules of %s() %s, %s", name_of(shape),
               left_ms > 0 ? "waits for ever on a lock" : "did not end in time",
               last >= 0 ? consumed_steps[last] : "before its first step");
      return;
    }
    char step;
    ssize_t n = read(steps[0], &step, 1);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    last = step;
  }
  close(steps[0]);
  int status;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFSIGNALED(status)) {
    out->consumed_child_signal = WTERMSIG(status);
    snprintf(out->exception, sizeof(out->exception), "%s",
             last >= 0 ? consumed_steps[last] : "before its first step");
  } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || last != 3) {
    snprintf(out->unobserved, sizeof(out->unobserved),
             "the child that destroys the consumed capsules of %s() exited %d, %s", name_of(shape),
             WIFEXITED(status) ? WEXITSTATUS(status) : -1,
             last >= 0 ? consumed_steps[last] : "before its first step");
    return;
  }
}

/* The format and number of children of the schema the method gave, and
 * where `keep` says so, a copy of it (the rules' side compares it with the
 * fixture). */
static void read_returned_schema(const struct method_shape* shape, py_object* capsules[2], bool keep,
                                 struct adc_pycapsule_observation* out) {
  struct ArrowSchema* schema = NULL;
  struct ArrowSchema fetched;
  memset(&fetched, 0, sizeof(fetched));
  void* structure = structure_of(capsules[0]);
  if (structure == NULL) return;
  if (shape->structures[0] == SCHEMA) {
    schema = structure;
  } else if (shape->structures[0] == STREAM) {
    struct ArrowArrayStream* stream = structure;
    if (stream->release != NULL && stream->get_schema(stream, &fetched) == 0) schema = &fetched;
  } else {
    struct ArrowDeviceArrayStream* stream = structure;
    if (stream->release != NULL && stream->get_schema(stream, &fetched) == 0) schema = &fetched;
  }
  if (schema != NULL && schema->release != NULL) {
    snprintf(out->returned_format, sizeof(out->returned_format), "%s", schema->format ? schema->format : "");
    out->returned_children = schema->n_children;
    if (keep && adc_schema_copy(schema, &out->returned_schema) != 0)
      snprintf(out->unobserved, sizeof(out->unobserved), "out of memory for a copy of the schema returned");
  }
  if (fetched.release != NULL) fetched.release(&fetched);
}

/* Reads the stream of a __arrow_c_stream__ capsule to its end, as the C
 * stream interface's consumer does (CStreamInterface.rst, "C consumer
 * example"), in place: the capsule's destructor then releases it, so that
 * this probe does not depend on what the destructor does with a consumed
 * capsule (pycapsule.capsule.consumed_left_alone judges that). */
static void read_stream_to_end(py_object* capsule, struct adc_pycapsule_observation* out) {
  struct ArrowArrayStream* stream = structure_of(capsule);
  if (stream == NULL || stream->release == NULL) {
    snprintf(out->unobserved, sizeof(out->unobserved), "the capsule holds no stream that is not released");
    return;
  }
  struct ArrowSchema schema;
  memset(&schema, 0, sizeof(schema));
  int code = stream->get_schema(stream, &schema);
  if (code == 0 && schema.release != NULL) schema.release(&schema);
  for (int calls = 0; code == 0 && calls <= ADC_PYCAPSULE_MOST_BATCHES; calls++) {
    struct ArrowArray array;
    memset(&array, 0, sizeof(array));
    code = stream->get_next(stream, &array);
    if (code != 0) break;
    if (array.release == NULL) {
      out->stream_ended = true;
      break;
    }
    array.release(&array);
    out->stream_batches++;
  }
  if (code != 0) {
    out->stream_error = code;
    const char* text = stream->get_last_error(stream);
    snprintf(out->exception, sizeof(out->exception), "%s", text ? text : "");
  }
}

EXPORT const char* adc_python_PyCapsuleProbe(void* held, enum adc_pycapsule_method method,
                                             enum adc_pycapsule_probe probe,
                                             const struct ArrowSchema* requested,
                                             struct adc_pycapsule_observation* out) {
  memset(out, 0, sizeof(*out));
  if ((int)method < 0 || method >= ADC_PYCAPSULE_METHOD_COUNT) {
    snprintf(message, sizeof(message), "no method %d", (int)method);
    return message;
  }
  const struct method_shape* shape = &shapes[method];
  int gil;
  if (adc_python_enter(&gil, message, sizeof(message)) != 0) return message;
  const char* failure = message;
  py_object* bound = NULL;
  py_object* keywords = NULL;
  py_object* no_arguments = NULL;
  py_object* made = adc_python_take_held_object(held);
  if (made == NULL) {
    snprintf(message, sizeof(message), "the held object was given to a probe before");
    goto done;
  }
  failure = NULL;
  out->has_method = adc_python_has_method(made, name_of(shape));
  if (!out->has_method) goto done;
  bound = adc_py.PyObject_GetAttrString(made, name_of(shape));
  bool failed;
  keywords = probe_keywords(probe, requested, &failed);
  no_arguments = adc_py.PyTuple_New(0);
  if (bound == NULL || failed || no_arguments == NULL) {
    adc_python_error_line("preparing the probe's call", message, sizeof(message));
    failure = message;
    goto done;
  }
  py_object* result = adc_py.PyObject_Call(bound, no_arguments, keywords);
  if (result == NULL) {
    out->raised = true;
    /* The exception's line alone ("TypeError: ..."): the rule names the call. */
    char line[sizeof(out->exception)];
    adc_python_error_line("", line, sizeof(line));
    snprintf(out->exception, sizeof(out->exception), "%s", strncmp(line, ": ", 2) == 0 ? line + 2 : line);
    goto done;
  }
  py_object* capsules[2] = {NULL, NULL};
  bool capsules_read = read_capsules(result, shape, capsules, out);
  if (capsules_read && probe == ADC_PYCAPSULE_PROBE_UNCONSUMED) {
    /* The object and its method first: a library object that keeps what
     * it returned lets go of it with them, and only then can the capsules
     * be destroyed. */
    adc_py.Py_DecRef(bound);
    adc_py.Py_DecRef(made);
    bound = made = NULL;
    watch_unconsumed(result, shape, capsules, out); /* drops result */
    goto done;
  }
  if (capsules_read && probe == ADC_PYCAPSULE_PROBE_CONSUMED) {
    watch_consumed(shape, capsules, out);
  }
  if (capsules_read && probe == ADC_PYCAPSULE_PROBE_INCOMPATIBLE_SCHEMA)
    read_returned_schema(shape, capsules, false, out);
  if (capsules_read && probe == ADC_PYCAPSULE_PROBE_FIXTURE_SCHEMA)
    read_returned_schema(shape, capsules, true, out);
  if (capsules_read && probe == ADC_PYCAPSULE_PROBE_STREAM_END) {
    if (method == ADC_PYCAPSULE_STREAM) {
      read_stream_to_end(capsules[0], out);
    } else {
      snprintf(out->unobserved, sizeof(out->unobserved),
               "the stream's end is read of __arrow_c_stream__ only");
    }
  }
  adc_py.Py_DecRef(result);
done:;
  py_object* owned[] = {made, bound, keywords, no_arguments};
  for (size_t i = 0; i < sizeof(owned) / sizeof(owned[0]); i++) {
    if (owned[i] != NULL) adc_py.Py_DecRef(owned[i]);
  }
  adc_py.PyErr_Clear();
  adc_python_leave(gil);
  return failure;
}

/* The consumer's side of the shim (python_consumer.c, its own prefix)
 * keeps its own model too (rule_api/library.h: keeps_own_model). */
EXPORT const char* adc_python_consumer_PyCapsuleProbe(void* held, enum adc_pycapsule_method method,
                                                      enum adc_pycapsule_probe probe,
                                                      const struct ArrowSchema* requested,
                                                      struct adc_pycapsule_observation* out)
    __attribute__((alias("adc_python_PyCapsuleProbe")));
