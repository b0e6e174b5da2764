/* A library under test, loaded in a case's child process, and its entry
 * points, derived from the one list in include/adc/plugin_abi.h. */
#ifndef ADC_LIBRARY_H
#define ADC_LIBRARY_H

#include <stdbool.h>
#include <stddef.h>

#include "adc/fork_protocol.h"
#include "adc/plugin_abi.h"
#include "rule_api/entry_points.h"
#include "support/error.h"

struct adc_library {
  const char* path;
  const char* prefix;
  void* handle;
  bool present[ADC_EP_COUNT];
  struct adc_plugin_functions functions; /* NULL members where the library lacks one */
  /* The library exports its own model of the data, not the fixture as
   * written: a Python library reached through the shim (it exports the
   * PyCapsule rules' probe, adc/pycapsule_probe.h), whose objects hold
   * what the library made of the data it imported.  Its data are judged
   * by their values, read by the schema it exported, and its
   * representation by rules of their own (CONFORMANCE.md, "Values, not
   * representations"); a C library's contract is to export the file as
   * written, which the rules judge exactly. */
  bool keeps_own_model;
  /* What it does around a fork, where it may be loaded once and forked
   * after (adc/fork_protocol.h); NULL members where it lacks a step. */
  struct adc_fork_protocol fork_protocol;
  /* Its round-trip entry points (NULL members where absent), of which the
   * JSON ABI's it lacks are made (rule_api/round_trip.h). */
  struct adc_round_trip_functions round_trip;
  /* The entry points made so: an Import among them tells a decline from
   * other data handed on (rule_api/consumer_answer.h); the library's own
   * Import of the JSON ABI compares itself, and does not. */
  adc_entry_point_set made_by_round_trip;
};

/* dlopen `path` and look every entry point up, those of the JSON ABI it
 * lacks made of its round-trip ones where it has them
 * (rule_api/round_trip.h).  Returns 0, or -1 with the loader's message.
 * Only ever called in a child process. */
int adc_library_open(struct adc_library* library, const char* path, const char* prefix,
                     struct adc_error* error);

/* Whether the library exports every step of the fork protocol. */
bool adc_library_can_be_forked(const struct adc_library* library);

/* How many entry points the library exports. */
int adc_library_count_entry_points(const struct adc_library* library);

/* Writes "<path> does not export <prefix>_<suffix>[, <prefix>_<suffix>...]"
 * naming every entry point of `needed` the library lacks; returns how many
 * it lacks. */
int adc_library_describe_missing(const struct adc_library* library, adc_entry_point_set needed, char* text,
                                 size_t size);

#endif /* ADC_LIBRARY_H */
