/* How a rule of the spec is written.
 *
 * A rule is one row of a family table in spec-tests/ (rules_*.c), written
 * with designated initializers next to its body: a stable dotted ID, the spec
 * clause and sentence it enforces, how the harness tests it, the role it
 * tests, its severity, what it needs, and the body.
 *
 * The harness runs the body once per fixture, on the device of the run, each
 * time in a child process of its own with the library under test loaded
 * there and nowhere else.  What a rule declares it needs is checked before
 * the body runs: a case is not planned on a device or fixture the rule does
 * not apply to, and ends not_supported, naming the missing symbols, when the
 * library lacks an entry point the rule needs.
 *
 * A body works through the case context (case_context.h): producer_calls.h
 * and consumer_calls.h call the library, fixture_compare.h compares data
 * with the fixture wherever the data lives, guard.h attributes faults. */
#ifndef ADC_RULE_H
#define ADC_RULE_H

#include <stdbool.h>
#include <stddef.h>

#include "arrow_format/arrow_json.h"
#include "device/device.h"
#include "rule_api/library.h"

enum adc_role { ADC_ROLE_PRODUCER, ADC_ROLE_CONSUMER, ADC_ROLE_COUNT };
enum adc_severity { ADC_MUST, ADC_SHOULD };

struct adc_case_context;

/* Which fixtures a rule applies to; the description reads after "fixtures
 * with", e.g. "a dictionary-encoded top-level column". */
struct adc_fixture_filter {
  bool (*holds)(const struct arrow_json_file* fixture);
  const char* description;
};

/* Which devices a rule applies to; the description reads after "devices",
 * e.g. "without device ids". */
struct adc_device_filter {
  bool (*holds)(const struct adc_device_target* device);
  const char* description;
};

struct adc_rule {
  const char* id;       /* stable: reports and expectation files key on it */
  const char* clause;   /* the spec section, e.g. "Moving an array" */
  const char* sentence; /* the sentence it enforces, quoted */
  const char* method;   /* how the harness tests it, one sentence */
  enum adc_role role;
  enum adc_severity severity;
  /* The entry points the body calls, by their CPU names (ADC_NEED(...)).
   * On a device other than the CPU, the batch entry points stand for their
   * device forms (producer_calls.h says which). */
  adc_entry_point_set needs;
  /* The rule needs memory the device can make read-only. */
  bool needs_read_only_memory;
  /* A library lacking an entry point the rule needs is judged by the body
   * (the baseline rules: a library that cannot be judged at all fails)
   * instead of ending not_supported before it. */
  bool judges_missing_entry_points;
  const struct adc_device_filter* devices;   /* NULL: every registered device */
  const struct adc_fixture_filter* fixtures; /* NULL: every fixture */
  /* Limit for each case when --timeout is not given; 0: the default. */
  double timeout_seconds;
  /* A case watches for what a conforming library never does (a task not
   * asked for, overlapping callbacks, a second release), and what it
   * watches for comes at once from a library that does it.  The watch ends
   * once the library's process is quiet (support/quiescence.h); where it
   * does not go quiet, the case sleeps most of its time by design: the
   * runner may run it beside the cases that use the CPU (task_runner.h,
   * waiting slots).  Not for a watch that a misbehaving library must still
   * run to be caught in. */
  bool waits_by_design;
  /* The case hands a consumer batches that the device's queue writes late
   * (spec-tests/consumer_waiting.h).  Where the queue's holds last a set
   * time rather than open as the consumer synchronises (a GPU's stream,
   * OpenCL), a conforming consumer's case sleeps through them, and the
   * runner treats it as waiting by design: a consumer that does not wait
   * reads at once, far within a hold. */
  bool writes_late;
  /* The case must run in a process of its own even where the run shares
   * prepared processes (runner/task_runner.h): for a rule whose body
   * changes what a process holds for good (an environment variable, a
   * limit, the library's first use in a process), which no check after
   * the case sees, or whose verdict is how its process ends
   * (judges_process_end: the only rules that need it; each other was
   * reviewed, CONFORMANCE.md, "Prepared processes"). */
  bool needs_own_process;
  /* The rule judges the Python objects of a library given as
   * python:MODULE:FACTORY, through the shim's probe
   * (include/adc/pycapsule_probe.h): the capsules, destructors and
   * arguments of the PyCapsule Interface, which a library of C entry
   * points does not have.  Its cases are planned only for such a side; for
   * any other library it does not apply. */
  bool judges_python_objects;
  /* The rule judges how the library's process ends, after its body has
   * used the library as any rule does: exit handlers, destructors, the
   * unloading of the library (CONFORMANCE.md, "How a process ends").  Its
   * case runs in a process of its own (needs_own_process), and a death of
   * that process after the body's verdict is its verdict; a death after
   * any other case's verdict, where this rule's process died so too, is
   * the library's exit, reported here once, and that case keeps its
   * verdict (runner/runner.c). */
  bool judges_process_end;
  /* The rule judges a pair of libraries, not one: the producer's export of
   * a fixture handed to the consumer's import, with the harness in
   * between (spec-tests/rules_pair.c).  Its case holds both sides: the
   * consumer as the case's library (role consumer, whose needs are
   * `needs`) and the producer (case_context.h, pair_producer), whose
   * needs are `producer_needs`.  Only `adc-conform matrix` plans such
   * rules, and it plans no other (runner/case_plan.c). */
  bool judges_a_pair;
  adc_entry_point_set producer_needs;
  void (*run)(struct adc_case_context* ctx);
};

/* A family: the rules of one spec-tests/rules_*.c file, in report order. */
struct adc_rule_family {
  const struct adc_rule* rules;
  size_t count;
};
#define ADC_RULE_FAMILY(rows) \
  { rows, sizeof(rows) / sizeof((rows)[0]) }

/* Whether the rule judges single batches (it needs a batch entry point:
 * ExportBatchFromJson, ImportBatchAndCompareToJson or their device forms):
 * a fixture without batches gives it
 * nothing to judge, so it is not planned there (shared_filters.c). */
bool adc_rule_judges_batches(const struct adc_rule* rule);
/* Whether the rule's cases are planned on `fixture`: its filter holds and,
 * for a rule judging batches, the fixture has one. */
bool adc_rule_applies_to_fixture(const struct adc_rule* rule, const struct arrow_json_file* fixture);

/* Filters shared by several families (shared_filters.c). */
extern const struct adc_fixture_filter adc_fixtures_with_values; /* at least one non-null value */
/* More than one batch: for the rules on the order of async calls. */
extern const struct adc_fixture_filter adc_fixtures_with_several_batches;
/* At least one batch: for the rules on an async producer's error path. */
extern const struct adc_fixture_filter adc_fixtures_with_batches;
/* Every device but cpu_device_arrays: device streams carry device arrays on
 * the CPU too, so `cpu` judges them there. */
extern const struct adc_device_filter adc_devices_for_streams;

/* Where the rules on a stream's error path, of either role, have the
 * stream fail: mid-stream (n_batches / 2) where the fixture has more than
 * one batch, so that a batch is in the consumer's hands when the error
 * comes; at the first get_next otherwise. */
static inline int adc_failing_batch(const struct arrow_json_file* fixture) {
  return (int)(fixture->n_batches / 2);
}

/* The catalogue (spec-tests/rule_catalogue.c): every rule, in report order. */
size_t adc_rule_count(void);
const struct adc_rule* adc_rule_at(size_t index);
/* NULL when no rule has that ID. */
const struct adc_rule* adc_rule_find(const char* id);

/* The device form of a batch entry point on `driver`'s devices
 * (ExportBatchFromJson becomes ExportDeviceBatchFromJson on every device but
 * `cpu`: see adc_device_driver.batches_as_device_arrays); any other entry
 * point is itself. */
enum adc_entry_point adc_entry_point_on_device(enum adc_entry_point entry_point,
                                               const struct adc_device_driver* driver);
/* The form of a batch entry point on `cpu` (the C Data Interface's,
 * device_form false) or on every other device (device_form true). */
enum adc_entry_point adc_entry_point_in_form(enum adc_entry_point entry_point, bool device_form);

#endif /* ADC_RULE_H */
