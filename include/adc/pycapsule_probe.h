/* What the PyCapsule rules (spec-tests/rules_pycapsule.c) ask of the Python
 * shim, beyond the plugin ABI: the rules run in C against entry points that
 * take and give C structures, and only the shim sees the capsules a Python
 * library's methods return, their names, their destructors and the
 * arguments the methods take.  So the shim exports one more function,
 * adc_python_PyCapsuleProbe, which calls one of the interface's methods on
 * the object the factory made (the held object of the shim's round-trip
 * Adopt, given the fixture by the harness) in one of the ways below and
 * says what it saw; the rules judge what it saw.  A library that is not a
 * Python one has no such function: the rules are planned only for a side
 * given as python:MODULE:FACTORY (adc_rule.judges_python_objects).
 *
 * Plain C: the shim and the rules share it, and neither side's Python
 * types cross it. */
#ifndef ADC_PYCAPSULE_PROBE_H
#define ADC_PYCAPSULE_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "adc/arrow_c_abi.h"

/* The interface's five methods ("Export Protocol"), each asked of the
 * object the factory made for the source that has it: a schema source's
 * object for __arrow_c_schema__ (AdoptSchema's), a batch source's for the
 * array methods (AdoptBatch's, of the fixture's first batch), a stream
 * source's for the stream methods (AdoptDeviceStream's, on the CPU). */
enum adc_pycapsule_method {
  ADC_PYCAPSULE_SCHEMA,        /* __arrow_c_schema__() -> "arrow_schema" */
  ADC_PYCAPSULE_ARRAY,         /* __arrow_c_array__() -> ("arrow_schema", "arrow_array") */
  ADC_PYCAPSULE_DEVICE_ARRAY,  /* __arrow_c_device_array__() -> ("arrow_schema", "arrow_device_array") */
  ADC_PYCAPSULE_STREAM,        /* __arrow_c_stream__() -> "arrow_array_stream" */
  ADC_PYCAPSULE_DEVICE_STREAM, /* __arrow_c_device_stream__() -> "arrow_device_array_stream" */
  ADC_PYCAPSULE_METHOD_COUNT
};

/* A method's name and the names the interface gives its capsules
 * ("PyCapsule Standard"), the pair's schema first; capsules[1] is NULL for
 * a method that returns one capsule.  The one table of them, for the shim
 * and the rules alike. */
struct adc_pycapsule_method_names {
  const char* method;
  const char* capsules[2];
};

static inline const struct adc_pycapsule_method_names* adc_pycapsule_names_of(
    enum adc_pycapsule_method method) {
  static const struct adc_pycapsule_method_names names[ADC_PYCAPSULE_METHOD_COUNT] = {
      [ADC_PYCAPSULE_SCHEMA] = {"__arrow_c_schema__", {"arrow_schema", NULL}},
      [ADC_PYCAPSULE_ARRAY] = {"__arrow_c_array__", {"arrow_schema", "arrow_array"}},
      [ADC_PYCAPSULE_DEVICE_ARRAY] = {"__arrow_c_device_array__", {"arrow_schema", "arrow_device_array"}},
      [ADC_PYCAPSULE_STREAM] = {"__arrow_c_stream__", {"arrow_array_stream", NULL}},
      [ADC_PYCAPSULE_DEVICE_STREAM] = {"__arrow_c_device_stream__", {"arrow_device_array_stream", NULL}},
  };
  return &names[method];
}

/* How the method is called, and what is watched. */
enum adc_pycapsule_probe {
  /* method(): the capsules' names. */
  ADC_PYCAPSULE_PROBE_NAMES,
  /* method(), then every capsule dropped as it came (no consumer took
   * anything): how many times each structure's release ran as the
   * capsules were destroyed (a spy put in its release member first). */
  ADC_PYCAPSULE_PROBE_UNCONSUMED,
  /* method(), every structure moved out as a consumer does (copied, and
   * the capsule's release set to NULL: "Lifetime Semantics"), then each
   * capsule's destructor run, as Python runs it when the capsule dies,
   * then what was moved out released by the probe.  Done in a child
   * process of the case's (fork), so that a destructor that calls the NULL
   * release, or releases what the consumer now owns, shows as that child's
   * death by a signal rather than the case's crash; the library's other
   * objects are left alone there (freeing them in the child of a process
   * whose library keeps threads can wait for ever on a lock a thread held
   * at the fork). */
  ADC_PYCAPSULE_PROBE_CONSUMED,
  /* method(requested_schema=None, adc_conformance_probe=None): a keyword
   * the interface does not define, with the value None ("Device Support"). */
  ADC_PYCAPSULE_PROBE_NONE_KEYWORD,
  /* method(adc_conformance_probe=1): a keyword the interface does not
   * define, with a value other than None ("Device Support": the
   * implementor raises NotImplementedError for it). */
  ADC_PYCAPSULE_PROBE_UNKNOWN_KEYWORD,
  /* method(requested_schema=S), S a struct schema with no fields: the
   * fixture's data have at least one, so no cast can give them S
   * ("Schema Requests"). */
  ADC_PYCAPSULE_PROBE_INCOMPATIBLE_SCHEMA,
  /* __arrow_c_stream__() only: the stream's schema read in its capsule,
   * then get_next called until it gives a released array or a non-zero
   * code (at most ADC_PYCAPSULE_MOST_BATCHES + 1 times), every array
   * released; the capsule's destructor releases the stream. */
  ADC_PYCAPSULE_PROBE_STREAM_END,
  /* method(requested_schema=S), S the fixture's own schema (exported by
   * the reference producer): data it can have, so the callee "should
   * attempt to provide the data in the requested schema" ("Schema
   * Requests"); the representation it returned is compared with S
   * (arrow_logical.h). */
  ADC_PYCAPSULE_PROBE_FIXTURE_SCHEMA,
};

#define ADC_PYCAPSULE_MOST_BATCHES 1024

#define ADC_PYCAPSULE_TEXT 384

struct adc_pycapsule_observation {
  bool has_method; /* the factory's object has the method; nothing else is set otherwise */
  /* Set by the rules' side (adc_pycapsule_probe), never by the shim: the
   * probe made no object, the factory declined the fixture; `exception`
   * says why. */
  bool declined;
  bool raised; /* the call raised: `exception` holds the traceback's last line */
  char exception[ADC_PYCAPSULE_TEXT];
  /* What the call returned: 1 capsule, or 2 for a (schema, data) pair; 0
   * when it was neither (`returned` names its type). */
  int n_capsules;
  char returned[128];
  /* Each capsule's name ("" for a capsule without one), the pair's schema
   * first. */
  char names[2][64];
  /* ADC_PYCAPSULE_PROBE_UNCONSUMED: how many times each structure's
   * release ran while its capsule was destroyed. */
  int releases[2];
  /* ADC_PYCAPSULE_PROBE_CONSUMED: how the child that dropped the consumed
   * capsules ended: 0 exited cleanly; else the signal that killed it
   * (`exception` then says at which step). */
  int consumed_child_signal;
  /* ADC_PYCAPSULE_PROBE_CONSUMED: set where every destructor ran in the
   * child but the consumer's release of what it moved out did not return
   * within the bound (a library whose release waits on its own threads,
   * which a forked child lacks: DuckDB's stream): the destructors were
   * watched, that release was not; says so. */
  char consumed_release_unwatched[ADC_PYCAPSULE_TEXT];
  /* ADC_PYCAPSULE_PROBE_INCOMPATIBLE_SCHEMA, where the call returned: the
   * format and number of children of the schema it exported (the pair's
   * schema, or the stream's get_schema). */
  char returned_format[32];
  int64_t returned_children;
  /* ADC_PYCAPSULE_PROBE_STREAM_END: the arrays get_next gave before the end
   * (release set), whether it then gave a released one with 0, and the
   * first non-zero code get_schema or get_next returned (`exception` then
   * holds get_last_error's text, or "" for NULL). */
  int stream_batches;
  bool stream_ended;
  int stream_error;
  /* ADC_PYCAPSULE_PROBE_FIXTURE_SCHEMA, where the call returned a schema
   * (the pair's, or the stream's get_schema): how many nodes it exports in
   * another representation than the fixture's, each one a line of
   * `changes` ("column 's': utf8 (u) exported as utf8view (vu)"); -1 where
   * its types are not logically the fixture's (`changes` then says how). */
  int representation_changes;
  char changes[2 * ADC_PYCAPSULE_TEXT];
  /* ADC_PYCAPSULE_PROBE_FIXTURE_SCHEMA, where the call returned a schema:
   * a copy of it, set by the shim, which the rules' side compares with the
   * fixture (filling the two above) and releases; release NULL otherwise. */
  struct ArrowSchema returned_schema;
  /* Set where the call returned but the probe could not watch what it
   * watches (the consumed probe's child could not be made, or hung): why. */
  char unobserved[ADC_PYCAPSULE_TEXT];
};

/* adc_python_PyCapsuleProbe: calls `method` of the object `held` holds (a
 * held object of the shim's round trip, which the caller frees after), in
 * the way `probe` says; `requested` is the fixture's schema for
 * ADC_PYCAPSULE_PROBE_FIXTURE_SCHEMA (a copy is passed as
 * requested_schema), NULL otherwise.  NULL with `out` filled, or why the
 * probe could not be made: then nothing was observed.  The object is the
 * probe's to drop (a library object that keeps what it returned lets go of
 * it with it): `held` then holds none. */
typedef const char* (*adc_pycapsule_probe_function)(void* held, enum adc_pycapsule_method method,
                                                    enum adc_pycapsule_probe probe,
                                                    const struct ArrowSchema* requested,
                                                    struct adc_pycapsule_observation* out);
#define ADC_PYCAPSULE_PROBE_SUFFIX "PyCapsuleProbe"

#endif /* ADC_PYCAPSULE_PROBE_H */
