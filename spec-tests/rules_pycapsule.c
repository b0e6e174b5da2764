/* Rules of the Arrow PyCapsule Interface itself
 * (docs/source/format/CDataInterface/PyCapsuleInterface.rst in apache/arrow),
 * on a Python library given as python:MODULE:FACTORY: what its methods
 * name their capsules, what the capsules' destructors do with a structure
 * no consumer took and with one a consumer moved out, and what the methods
 * answer to the arguments the interface defines.  The structures inside
 * the capsules are judged by every other rule, unchanged, through the
 * shim's entry points; these rules see what only the shim sees, through its
 * probe (include/adc/pycapsule_probe.h), and apply to no other library
 * (judges_python_objects).
 *
 * Each case asks every method of the interface of the objects the factory
 * makes for the fixture (a schema's, its first batch's, its stream's) that
 * the object has; an object without a method is the interface's choice
 * (the device methods are optional: "The absence of the device version
 * methods implies CPU-only data"), and a rule none of whose methods is
 * there is not_supported.  The CPU only: a Python object exports its data
 * where they are, and the shim asks for nothing else.
 *
 * Not written, and why:
 * - The GIL: the interface says nothing of it (nor does the C stream
 *   interface), so there is no sentence to enforce.
 * - "The device methods report the device the data is on": the device
 *   rules (device_array.device_type.matches_request and the rest, on
 *   cpu_device_arrays; device_stream.* on cpu) judge the ArrowDeviceArray
 *   that __arrow_c_device_array__ and __arrow_c_device_stream__ give,
 *   through the shim's device entry points; on the CPU the non-device
 *   methods' data are CPU data by construction, and no library judged here
 *   produces device data (the shim cannot ask for any).
 * - The rest of the C stream interface on __arrow_c_stream__'s stream (its
 *   data, schema, release, lifetimes): the device_stream.* rules judge
 *   __arrow_c_device_stream__'s stream, or __arrow_c_stream__'s where the
 *   object has no device stream (the shim reads it as a device stream on
 *   the CPU: harness/python/stream_as_device_stream.h).  The rule below
 *   reads __arrow_c_stream__'s stream in its capsule to its end, which a
 *   consumer's loop depends on, whatever other method the object has. */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "rule_api/pycapsule_calls.h"

static bool on_cpu(const struct adc_device_target* device) {
  return strcmp(device->name, "cpu") == 0;
}

static const struct adc_device_filter cpu_only = {on_cpu,
                                                  "cpu (a Python object exports its data where they are)"};

/* The methods each rule asks, in order. */
static const enum adc_pycapsule_method every_method[] = {ADC_PYCAPSULE_SCHEMA, ADC_PYCAPSULE_ARRAY,
                                                         ADC_PYCAPSULE_DEVICE_ARRAY, ADC_PYCAPSULE_STREAM,
                                                         ADC_PYCAPSULE_DEVICE_STREAM};
static const enum adc_pycapsule_method device_methods[] = {ADC_PYCAPSULE_DEVICE_ARRAY,
                                                           ADC_PYCAPSULE_DEVICE_STREAM};
static const enum adc_pycapsule_method requesting_methods[] = {
    ADC_PYCAPSULE_ARRAY, ADC_PYCAPSULE_DEVICE_ARRAY, ADC_PYCAPSULE_STREAM, ADC_PYCAPSULE_DEVICE_STREAM};

#define RULE_NAMES "pycapsule.capsule.names"

/* Whether the observed capsules have the shape and names the interface
 * gives the method. */
static bool named_as_specified(enum adc_pycapsule_method method,
                               const struct adc_pycapsule_observation* seen) {
  const char* expected[2];
  adc_pycapsule_expected_names(method, expected);
  int n = expected[1] != NULL ? 2 : 1;
  if (seen->n_capsules != n) return false;
  for (int i = 0; i < n; i++) {
    if (strcmp(seen->names[i], expected[i]) != 0) return false;
  }
  return true;
}

/* Runs `judge` on each of the `n` methods of `methods` the objects have, after the
 * probe; not_supported when none has one, or every one raised (the
 * library declined the fixture), naming the first exception. */
typedef void (*judge_fn)(struct adc_case_context* ctx, enum adc_pycapsule_method method,
                         const struct adc_pycapsule_observation* seen);

static void for_each_of(struct adc_case_context* ctx, const enum adc_pycapsule_method* methods, size_t n,
                        enum adc_pycapsule_probe probe, bool raising_is_judged, judge_fn judge) {
  int present = 0, judged = 0;
  char first_exception[ADC_PYCAPSULE_TEXT + 64] = "";
  for (size_t i = 0; i < n && !ctx->has_verdict; i++) {
    struct adc_pycapsule_observation seen;
    if (!adc_pycapsule_probe(ctx, methods[i], probe, &seen)) return;
    if (!seen.has_method && !seen.declined) continue;
    present++;
    if (seen.declined || (seen.raised && !raising_is_judged)) {
      if (first_exception[0] == '\0')
        snprintf(first_exception, sizeof(first_exception), "%s() %s %s",
                 adc_pycapsule_method_name(methods[i]),
                 seen.declined ? "had no object: the factory declined:" : "raised", seen.exception);
      continue;
    }
    judged++;
    judge(ctx, methods[i], &seen);
  }
  if (ctx->has_verdict) return;
  if (present == 0) {
    char names[256] = "";
    for (size_t i = 0; i < n; i++) {
      size_t used = strlen(names);
      snprintf(names + used, sizeof(names) - used, "%s%s", i ? ", " : "",
               adc_pycapsule_method_name(methods[i]));
    }
    adc_not_supported(ctx, "the factory's objects have none of %s", names);
  } else if (judged == 0) {
    adc_not_supported(ctx, "the library declined the fixture: %s", first_exception);
  }
}

/* for_each_of over a whole array of methods. */
#define FOR_EACH_METHOD(ctx, methods, probe, raising_is_judged, judge) \
  for_each_of(ctx, methods, sizeof(methods) / sizeof((methods)[0]), probe, raising_is_judged, judge)

/* ---- pycapsule.capsule.names ------------------------------------------------ */
static void judge_names(struct adc_case_context* ctx, enum adc_pycapsule_method method,
                        const struct adc_pycapsule_observation* seen) {
  const char* expected[2];
  adc_pycapsule_expected_names(method, expected);
  const char* name = adc_pycapsule_method_name(method);
  if (seen->n_capsules == 0) {
    adc_violation(ctx, "%s() returned %s, not %s", name, seen->returned,
                  expected[1] != NULL ? "a (schema, data) pair of capsules" : "a capsule");
    return;
  }
  for (int i = 0; i < seen->n_capsules; i++) {
    if (strcmp(seen->names[i], expected[i]) != 0) {
      adc_violation(ctx, "%s() returned a capsule named '%s' where the interface names it '%s'", name,
                    seen->names[i], expected[i]);
      return;
    }
  }
}

static void capsule_names(struct adc_case_context* ctx) {
  FOR_EACH_METHOD(ctx, every_method, ADC_PYCAPSULE_PROBE_NAMES, false, judge_names);
}

/* ---- pycapsule.capsule.unconsumed_released ------------------------------- */
static void judge_unconsumed(struct adc_case_context* ctx, enum adc_pycapsule_method method,
                             const struct adc_pycapsule_observation* seen) {
  if (!named_as_specified(method, seen)) {
    adc_unresolved(ctx, "%s() did not return the capsules the interface names (%s)",
                   adc_pycapsule_method_name(method), RULE_NAMES);
    return;
  }
  for (int i = 0; i < seen->n_capsules; i++) {
    if (seen->releases[i] == 0) {
      adc_violation(ctx,
                    "the '%s' capsule of %s() was destroyed with no consumer having taken its structure, "
                    "and the structure's release was not called",
                    seen->names[i], adc_pycapsule_method_name(method));
      return;
    }
    if (seen->releases[i] < 0) {
      adc_violation(ctx,
                    "the '%s' capsule of %s() held a structure already released (release NULL) before any "
                    "consumer took it",
                    seen->names[i], adc_pycapsule_method_name(method));
      return;
    }
  }
}

static void unconsumed_released(struct adc_case_context* ctx) {
  FOR_EACH_METHOD(ctx, every_method, ADC_PYCAPSULE_PROBE_UNCONSUMED, false, judge_unconsumed);
}

/* ---- pycapsule.capsule.consumed_left_alone -------------------------------- */
static void judge_consumed(struct adc_case_context* ctx, enum adc_pycapsule_method method,
                           const struct adc_pycapsule_observation* seen) {
  if (!named_as_specified(method, seen)) {
    adc_unresolved(ctx, "%s() did not return the capsules the interface names (%s)",
                   adc_pycapsule_method_name(method), RULE_NAMES);
    return;
  }
  if (seen->consumed_child_signal != 0) {
    adc_violation(
        ctx,
        "a process that moved the structures out of %s()'s capsules, as a consumer does (release set "
        "to NULL), was killed by signal %d (%s) %s",
        adc_pycapsule_method_name(method), seen->consumed_child_signal,
        strsignal(seen->consumed_child_signal), seen->exception);
  } else if (seen->consumed_release_unwatched[0] != '\0') {
    adc_note(ctx, "%s", seen->consumed_release_unwatched);
  }
}

static void consumed_left_alone(struct adc_case_context* ctx) {
  FOR_EACH_METHOD(ctx, every_method, ADC_PYCAPSULE_PROBE_CONSUMED, false, judge_consumed);
}

/* ---- pycapsule.keywords.none_accepted ------------------------------------- */
static void judge_none_keyword(struct adc_case_context* ctx, enum adc_pycapsule_method method,
                               const struct adc_pycapsule_observation* seen) {
  if (seen->raised) {
    adc_violation(ctx, "%s(requested_schema=None, adc_conformance_probe=None) raised %s",
                  adc_pycapsule_method_name(method), seen->exception);
  }
}

static void none_keyword_accepted(struct adc_case_context* ctx) {
  FOR_EACH_METHOD(ctx, device_methods, ADC_PYCAPSULE_PROBE_NONE_KEYWORD, true, judge_none_keyword);
}

/* ---- pycapsule.keywords.unknown_refused ----------------------------------- */
#define RULE_NONE_ACCEPTED "pycapsule.keywords.none_accepted"

static void judge_unknown_keyword(struct adc_case_context* ctx, enum adc_pycapsule_method method,
                                  const struct adc_pycapsule_observation* seen) {
  const char* name = adc_pycapsule_method_name(method);
  if (seen->raised && strncmp(seen->exception, "NotImplementedError", 19) == 0) return;
  /* A method that refuses even a None keyword takes no further keywords
   * at all: its refusal of this one says nothing of its own. */
  struct adc_pycapsule_observation with_none;
  if (!adc_pycapsule_probe(ctx, method, ADC_PYCAPSULE_PROBE_NONE_KEYWORD, &with_none)) return;
  if (with_none.declined) {
    adc_unresolved(ctx, "the factory declined the fixture when asked again: %s", with_none.exception);
  } else if (with_none.raised) {
    adc_unresolved(ctx, "%s() refuses a keyword whose value is None too (%s): %s", name, RULE_NONE_ACCEPTED,
                   with_none.exception);
  } else if (seen->raised) {
    adc_violation(ctx, "%s(adc_conformance_probe=1) raised %s, not NotImplementedError", name,
                  seen->exception);
  } else {
    adc_violation(
        ctx, "%s(adc_conformance_probe=1) returned its data: an unknown keyword was ignored silently", name);
  }
}

static void unknown_keyword_refused(struct adc_case_context* ctx) {
  FOR_EACH_METHOD(ctx, device_methods, ADC_PYCAPSULE_PROBE_UNKNOWN_KEYWORD, true, judge_unknown_keyword);
}

/* ---- pycapsule.requested_schema.representation_given --------------------- */
/* A library exports its own representation of the data ("Values, not
 * representations"); asked for the fixture's own schema, data it can
 * have, it should give it: each node it gives otherwise is named, with
 * what it gave. */
static void judge_representation(struct adc_case_context* ctx, enum adc_pycapsule_method method,
                                 const struct adc_pycapsule_observation* seen) {
  const char* name = adc_pycapsule_method_name(method);
  if (seen->raised) {
    adc_violation(ctx,
                  "%s(requested_schema=<the fixture's own schema>) raised %s: the callee should attempt the "
                  "schema asked, or give the data as it would for None",
                  name, seen->exception);
    return;
  }
  if (seen->returned_format[0] == '\0') {
    adc_unresolved(ctx, "%s() returned no schema that could be read (%s)", name, RULE_NAMES);
  } else if (seen->representation_changes < 0) {
    adc_unresolved(ctx, "%s(requested_schema=<the fixture's own schema>) returned other types (see %s): %s",
                   name, "schema.format.matches_fixture", seen->changes);
  } else if (seen->representation_changes > 0) {
    /* One line a change: said on one line, separated. */
    char changes[sizeof(seen->changes)];
    snprintf(changes, sizeof(changes), "%s", seen->changes);
    for (char* at = changes; *at != '\0'; at++) {
      if (*at == '\n') *at = at[1] != '\0' ? ';' : '\0';
    }
    adc_violation(ctx,
                  "%s(requested_schema=<the fixture's own schema>) gave %d node(s) in another "
                  "representation: %s",
                  name, seen->representation_changes, changes);
  }
}

static void representation_given(struct adc_case_context* ctx) {
  FOR_EACH_METHOD(ctx, requesting_methods, ADC_PYCAPSULE_PROBE_FIXTURE_SCHEMA, true, judge_representation);
}

/* ---- pycapsule.requested_schema.incompatible_refused ---------------------- */
static void judge_incompatible(struct adc_case_context* ctx, enum adc_pycapsule_method method,
                               const struct adc_pycapsule_observation* seen) {
  if (seen->raised) return; /* refused: what the interface asks */
  if (seen->returned_format[0] == '\0') {
    adc_unresolved(ctx, "%s() returned no schema that could be read (%s)", adc_pycapsule_method_name(method),
                   RULE_NAMES);
    return;
  }
  if (strcmp(seen->returned_format, "+s") == 0 && seen->returned_children == 0) return; /* as requested */
  adc_violation(ctx,
                "%s(requested_schema=<a struct of no fields>) returned data of schema '%s' with %lld "
                "field(s) instead of raising: the fixture's %lld field(s) cannot be cast to none",
                adc_pycapsule_method_name(method), seen->returned_format, (long long)seen->returned_children,
                (long long)ctx->fixture->n_fields);
}

static void incompatible_schema_refused(struct adc_case_context* ctx) {
  if (ctx->fixture->n_fields == 0) {
    adc_not_supported(ctx, "the fixture has no field, so a struct of no fields is no incompatible request");
    return;
  }
  FOR_EACH_METHOD(ctx, requesting_methods, ADC_PYCAPSULE_PROBE_INCOMPATIBLE_SCHEMA, true, judge_incompatible);
}

/* ---- pycapsule.stream.ends_with_released_array --------------------------- */
static void stream_ends_with_released_array(struct adc_case_context* ctx) {
  struct adc_pycapsule_observation seen;
  if (!adc_pycapsule_probe(ctx, ADC_PYCAPSULE_STREAM, ADC_PYCAPSULE_PROBE_STREAM_END, &seen)) return;
  long long batches = (long long)ctx->fixture->n_batches;
  if (seen.declined) {
    adc_not_supported(ctx, "the factory declined the fixture's stream: %s", seen.exception);
  } else if (!seen.has_method) {
    adc_not_supported(ctx, "the factory's object for the stream has no __arrow_c_stream__");
  } else if (seen.raised) {
    adc_not_supported(ctx, "the library declined the fixture: __arrow_c_stream__() raised %s",
                      seen.exception);
  } else if (!named_as_specified(ADC_PYCAPSULE_STREAM, &seen)) {
    adc_unresolved(ctx, "__arrow_c_stream__() did not return the capsule the interface names (%s)",
                   RULE_NAMES);
  } else if (seen.stream_error != 0 && seen.stream_batches < batches) {
    /* An error before the data are all out: the library declines the
     * fixture mid-way, which says nothing of how it ends a stream. */
    adc_not_supported(ctx, "the stream failed after %d of the fixture's %lld batches: code %d (%s)",
                      seen.stream_batches, batches, seen.stream_error, seen.exception);
  } else if (seen.stream_error != 0) {
    adc_violation(ctx,
                  "after the fixture's %d batch(es), get_next returned %d (%s) instead of 0 and a released "
                  "array: a consumer reads the end of the stream as an error",
                  seen.stream_batches, seen.stream_error, seen.exception);
  } else if (!seen.stream_ended) {
    adc_violation(ctx,
                  "get_next gave %d arrays, none released, where the fixture has %lld batch(es): the stream "
                  "never ends",
                  seen.stream_batches, batches);
  }
}

/* What the shim's probe repeats of each method's entry point: the factory
 * for a schema, a batch and a stream source (the probe itself is no entry
 * point of the plugin ABI: adc_pycapsule_probe looks it up). */
#define PROBED_ENTRY_POINTS \
  (ADC_NEED(ExportSchemaFromJson) | ADC_NEED(ExportBatchFromJson) | ADC_NEED(ExportDeviceStreamFromJson))

static const struct adc_rule rules[] = {
    {
        .id = RULE_NAMES,
        .clause = "PyCapsule Standard",
        .sentence = "The capsules of ArrowSchema, ArrowArray, ArrowArrayStream, ArrowDeviceArray and "
                    "ArrowDeviceArrayStream must be named arrow_schema, arrow_array, arrow_array_stream, "
                    "arrow_device_array and arrow_device_array_stream (our paraphrase of the names table).",
        .method =
            "Calls each of the five methods the factory's objects have for the fixture: each must return "
            "a capsule, or for the array methods a (schema, data) pair of capsules, with the names of the "
            "table.",
        .role = ADC_ROLE_PRODUCER,
        .severity = ADC_MUST,
        .needs = PROBED_ENTRY_POINTS,
        .devices = &cpu_only,
        .judges_python_objects = true,
        .run = capsule_names,
    },
    {
        .id = "pycapsule.capsule.unconsumed_released",
        .clause = "Lifetime Semantics; Create a PyCapsule",
        .sentence =
            "The capsule's destructor must call the structure's release callback when it is not null, "
            "then free the structure, so that a capsule no consumer took leaks nothing (our "
            "paraphrase).",
        .method = "Calls each method, puts a spy in the release of every structure returned, and drops the "
                  "capsules untouched (then gc.collect()): every structure's release must have run.",
        .role = ADC_ROLE_PRODUCER,
        .severity = ADC_MUST,
        .needs = PROBED_ENTRY_POINTS,
        .devices = &cpu_only,
        .judges_python_objects = true,
        .run = unconsumed_released,
    },
    {
        .id = "pycapsule.capsule.consumed_left_alone",
        .clause = "Lifetime Semantics; Create a PyCapsule",
        .sentence = "A consumer moves the data out and sets the release callback to null; the destructor "
                    "calls release only when it is not null, so data the consumer is using is never released "
                    "under it (our paraphrase).",
        .method =
            "In a child of the case's process, moves every structure out of each method's capsules as a "
            "consumer does, drops the capsules, then releases what it moved: the child must not die (a "
            "destructor calling the null release, or releasing what the consumer holds).",
        .role = ADC_ROLE_PRODUCER,
        .severity = ADC_MUST,
        .needs = PROBED_ENTRY_POINTS,
        .devices = &cpu_only,
        .judges_python_objects = true,
        .run = consumed_left_alone,
    },
    {
        .id = RULE_NONE_ACCEPTED,
        .clause = "Device Support",
        .sentence =
            "The device-aware methods should accept additional keyword arguments whose value is None, "
            "so that new optional keywords can be added later with None as their default (our "
            "paraphrase).",
        .method =
            "Calls __arrow_c_device_array__ and __arrow_c_device_stream__, where the objects have them, "
            "with requested_schema=None and adc_conformance_probe=None: neither may raise.",
        .role = ADC_ROLE_PRODUCER,
        .severity = ADC_SHOULD,
        .needs = PROBED_ENTRY_POINTS,
        .devices = &cpu_only,
        .judges_python_objects = true,
        .run = none_keyword_accepted,
    },
    {
        .id = "pycapsule.keywords.unknown_refused",
        .clause = "Device Support",
        .sentence = "The implementor of a device-aware method raises NotImplementedError for an additional "
                    "keyword it does not recognise that is passed with a value other than None (our "
                    "paraphrase).",
        .method =
            "Calls __arrow_c_device_array__ and __arrow_c_device_stream__, where the objects have them, "
            "with adc_conformance_probe=1: each must raise NotImplementedError (a method refusing None "
            "keywords too is left to pycapsule.keywords.none_accepted).",
        .role = ADC_ROLE_PRODUCER,
        .severity = ADC_SHOULD,
        .needs = PROBED_ENTRY_POINTS,
        .devices = &cpu_only,
        .judges_python_objects = true,
        .run = unknown_keyword_refused,
    },
    {
        .id = "pycapsule.requested_schema.representation_given",
        .clause = "Schema Requests",
        .sentence = "The callee should attempt to provide the data in the requested schema.",
        .method = "Calls the array and stream methods the objects have with requested_schema the fixture's "
                  "own schema: the data it gives back should be in that representation; each node given in "
                  "another (a string as a string view, a dictionary decoded, a list as a large list: "
                  "arrow_format/arrow_logical.h) is named with what it was given as. A library keeps its "
                  "own representation otherwise, and the rules judging data judge its values.",
        .role = ADC_ROLE_PRODUCER,
        .severity = ADC_SHOULD,
        .needs = PROBED_ENTRY_POINTS,
        .devices = &cpu_only,
        .judges_python_objects = true,
        .run = representation_given,
    },
    {
        .id = "pycapsule.requested_schema.incompatible_refused",
        .clause = "Schema Requests",
        .sentence =
            "A requested schema that the data cannot have, such as one with another number of fields, "
            "should make the callee raise an exception (our paraphrase).",
        .method = "Calls the array and stream methods the objects have with requested_schema a struct of no "
                  "fields (the fixture has at least one): each must raise, or return that schema.",
        .role = ADC_ROLE_PRODUCER,
        .severity = ADC_SHOULD,
        .needs = PROBED_ENTRY_POINTS,
        .devices = &cpu_only,
        .judges_python_objects = true,
        .run = incompatible_schema_refused,
    },
    {
        .id = "pycapsule.stream.ends_with_released_array",
        .clause = "C Stream Interface, ArrowArrayStream.get_next",
        .sentence =
            "get_next returns 0 on success, and on success a released ArrowArray marks the end of the "
            "stream; any other array holds a chunk of data (our paraphrase).",
        .method =
            "Moves __arrow_c_stream__()'s stream out of its capsule, reads its schema, and calls get_next "
            "until it gives a released array: after the fixture's data it must return 0 with a released "
            "array, not an error code, and end within 1024 arrays.",
        .role = ADC_ROLE_PRODUCER,
        .severity = ADC_MUST,
        .needs = PROBED_ENTRY_POINTS,
        .devices = &cpu_only,
        .judges_python_objects = true,
        .run = stream_ends_with_released_array,
    },
};

const struct adc_rule_family adc_pycapsule_rules = ADC_RULE_FAMILY(rules);
