/* Everything one run of adc-conform works from, settled by the parent
 * before the first case starts. */
#ifndef ADC_SESSION_H
#define ADC_SESSION_H

#include <stdbool.h>
#include <stddef.h>

#include "rule_api/rule.h"
#include "rule_api/status.h"
#include "runner/expectations.h"
#include "runner/task.h"

/* Devices one run may cover (--device all). */
#define ADC_MAX_DEVICES 16

/* A case's limit when neither --timeout nor its rule sets one. */
#define ADC_DEFAULT_TIMEOUT_SECONDS 10.0

/* How long a process may take to open a device whose start is costly
 * (adc_device_start_is_costly), before its case's limit starts: CUDA's
 * start took 0.2 to 0.4 s alone and 2.4 s each with 16 at once on an
 * H200; a start past it ends the case unresolved. */
#define ADC_DEVICE_START_SECONDS 30.0

/* Processes that may hold one physical device whose start is costly at
 * once (fewer where --jobs is): the driver serialises context creation,
 * so more would only lengthen each start's queue (16 at once took 2.4 s
 * each on an H200, 0.2 to 0.4 s alone). */
#define ADC_DEVICE_PROCESSES 8

/* Where cases run (--isolation). */
enum adc_isolation {
  /* SHARED, but CASE where a memory checker watches the cases' processes
   * (--valgrind, --preload) or a sanitizer the harness's own (its asan
   * and tsan builds): their reports come as a process ends, or at random,
   * and must name one case. */
  ADC_ISOLATION_AUTO,
  ADC_ISOLATION_CASE,   /* every case in a process of its own */
  ADC_ISOLATION_SHARED, /* the cases share prepared processes (runner/task_runner.h) */
};

struct adc_fixture {
  char* name; /* file name without ".json" */
  char* path;
  struct arrow_json_file model;
};

/* One side of the pair: the library tested as producer or as consumer. */
struct adc_side {
  bool tested; /* the side was named on the command line */
  char path[4096];
  char prefix[128];
  bool is_reference;
  bool is_python; /* given as python:MODULE:FACTORY: the library is the Python shim */
  /* Loading the library crashed or hung: every case of the side gets this
   * verdict without running. */
  bool load_misbehaved;
  struct adc_task_result load_verdict;
  /* The library may be loaded once, in the preloading server, and each
   * case's process forked after (preflight.h, adc/fork_protocol.h). */
  bool forked_after_load;
  /* The devices of the run the side is judged on, comma-separated (a
   * matrix's --producer-devices and --consumer-devices); "" for every one.
   * A case on another device is not_supported without running. */
  char judged_devices[256];
};

/* What probing a device in a child process found, for the report's
 * environment (runner/device_probe.h). */
struct adc_device_facts {
  bool probed;
  bool available;
  /* The device is there but refused the probe, asked again and again
   * (busy, out of memory): its cases end unresolved, never not_supported. */
  bool refused;
  char reason[512]; /* why it is unavailable or refused, in the runtime's words */
  struct adc_device_description description;
};

struct adc_session {
  struct adc_side producer;
  struct adc_side consumer;
  /* The devices of the run, in registry order: the one --device names, or
   * every registered device for --device all.  Targets only (a driver and
   * an id): the parent never opens a device, each case's child does. */
  struct adc_device_target devices[ADC_MAX_DEVICES];
  size_t n_devices;
  const char* device_option; /* as given: "cpu", "all", ... */
  /* Filled by adc_probe_devices before the cases run, in the order of
   * `devices`; probed false for a device no planned case runs on. */
  struct adc_device_facts device_facts[ADC_MAX_DEVICES];
  /* The command line exactly as given, program name first. */
  int argc;
  char* const* argv;
  char fixtures_dir[4096];
  struct adc_fixture* fixtures;
  size_t n_fixtures;
  double timeout_seconds; /* --timeout; 0 when not given */
  /* What the default limits are multiplied by: 1, or more under a wrapper
   * that slows every process down (--valgrind). */
  double timeout_scale;
  /* What the harness, and so every case's process, runs under (--valgrind,
   * --preload), in words for the report; NULL when nothing. */
  const char* harness_wrapper;
  /* Every process of the run starts slowly: under a wrapper (above), under
   * Valgrind however started, or in a sanitizer build of the harness.  Each rule is then not judged as a
   * process's first call, only each entry point (adc_task.family_judged_first). */
  bool processes_start_slowly;
  /* Where a wrapper of the harness logs each process apart, as
   * adc_process_log_path names it (--valgrind); NULL when none. */
  const char* process_log_dir;
  int jobs;
  enum adc_isolation isolation;
  /* --covering-fixtures: each rule runs on its covering set of the
   * fixtures alone (runner/fixture_cover.h). */
  bool covering_fixtures;
  size_t memory_limit_mib;                     /* --memory-limit; 0 when not given */
  const struct adc_expectations* expectations; /* --expect; NULL when not given */
  /* A pair's run of `adc-conform matrix`: the producer's exports handed to
   * the consumer's imports.  Only the rules judging a pair are planned
   * (rule.h, judges_a_pair), whose cases hold both sides; otherwise they
   * are never planned. */
  bool pairs;
};

/* The side a rule tests: the producer for producer rules, else the consumer. */
const struct adc_side* adc_side_tested_by(const struct adc_session* session, const struct adc_rule* rule);

struct adc_case {
  const struct adc_rule* rule;
  const struct adc_device_target* device;
  const struct adc_fixture* fixture;
  char id[256]; /* "<device>/<rule id>/<fixture>" */
  /* The first entry of --expect whose glob matches the ID; NULL if none. */
  const struct adc_expectation* expectation;
};

#endif /* ADC_SESSION_H */
