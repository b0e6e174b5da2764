/* adc-conform matrix: every library's exports handed to every library's
 * imports (itself and the reference included), on the devices named, each
 * pair run as a run of its own whose cases hold both libraries (the rules
 * judging a pair: spec-tests/rules_pair.c), and one record of them all
 * (outcome/matrix_record.h) that the console, the JSON report and the
 * HTML page read.  It takes the main command's options for what its pairs
 * share (devices, fixtures, filters, expectations, limits, jobs), and
 * --library for its libraries. */
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/install_layout.h"
#include "cli/library_sides.h"
#include "cli/options.h"
#include "cli/python_side.h"
#include "commands/session_settle.h"
#include "commands/subcommands.h"
#include "outcome/matrix_record.h"
#include "outcome/record_of_run.h"
#include "report/console_style.h"
#include "report/matrix_report.h"
#include "report/progress.h"
#include "runner/case_plan.h"
#include "runner/device_probe.h"
#include "runner/fixture_set.h"
#include "runner/runner.h"
#include "runner/task_runner.h"
#include "support/clock.h"
#include "support/parent_only_memory.h"

static void print_matrix_usage(void) {
  printf(
      "Usage: adc-conform matrix --library NAME=SPEC [--library NAME=SPEC ...] [--device LIST]\n"
      "                          [--html FILE] [--report-json FILE] [--expect FILE] [--filter GLOB]\n"
      "                          [OPTIONS of the main command]\n"
      "\n"
      "Hands every library's exports of every fixture to every library's imports (itself\n"
      "included), on each device named, for each interface both have (a device batch, a\n"
      "device stream), with the harness in between watching what the consumer releases.\n"
      "The bundled reference is always one of the libraries (as 'reference', unless a\n"
      "--library names it): a pair's failure is blamed on the side that fails with the\n"
      "reference too (CONFORMANCE.md, \"The interop matrix\").\n"
      "\n"
      "  --library NAME=SPEC  a library of the matrix, NAME a short name of letters, digits,\n"
      "                       '-', '_' and '.'; SPEC one of\n"
      "                         reference                 the bundled reference pair\n"
      "                         PATH[:PREFIX]             a library of the plugin ABI\n"
      "                         python:MODULE:FACTORY[:FUNCTION]\n"
      "                                                   a Python library: FACTORY makes its\n"
      "                                                   producer's objects, FUNCTION (if it\n"
      "                                                   can import) consumes (leave FACTORY\n"
      "                                                   empty for a consumer alone)\n"
      "  --producer-devices NAME=DEVICE[,DEVICE...]\n"
      "  --consumer-devices NAME=DEVICE[,DEVICE...]\n"
      "                       the devices of --device that library NAME is judged on in\n"
      "                       that role (default: every one); its pairs' cases on the\n"
      "                       others are not_supported, not run\n"
      "  --html FILE          the matrix as one self-contained page (no network, no script)\n"
      "  --report-json FILE   every pair's cases, both sides named (harness/report/matrix.schema.json)\n"
      "  --expect FILE        expectations, their globs over the cases' IDs:\n"
      "                       PRODUCER>CONSUMER/DEVICE/RULE/FIXTURE\n"
      "  --filter GLOB        only the cases whose ID matches (repeatable)\n"
      "  --shard INDEX/COUNT  one shard of every pair's cases; `adc-conform merge` makes the\n"
      "                       matrix of the shards' reports\n"
      "\n"
      "--device, --fixtures, --jobs, --timeout, --memory-limit, --isolation and --verbose\n"
      "are the main command's (adc-conform --help).\n"
      "\n"
      "Exit status: 0 when every case passed or ended as --expect says, 1 otherwise,\n"
      "2 on bad input (one line says why), 128 + the signal when interrupted.\n");
}

/* What --library gave, before the libraries are settled. */
struct library_given {
  char name[64];
  char spec[PATH_MAX + 256];
  char producer[PATH_MAX + 256]; /* --producer's form; "" where it is no producer */
  char consumer[PATH_MAX + 256]; /* --consumer's form; "" where it is no consumer */
  char prefix[128];              /* PATH:PREFIX's; "" to read it from the library */
  bool is_reference;
  /* --producer-devices and --consumer-devices: the devices each role is
   * judged on (adc_side.judged_devices); "" for every device of the run. */
  char producer_devices[256];
  char consumer_devices[256];
};

/* A --producer-devices or --consumer-devices, kept until every --library
 * is read. */
struct devices_given {
  const char* option;
  const char* value; /* NAME=LIST */
};

struct matrix_options {
  struct library_given libraries[ADC_MATRIX_MAX_LIBRARIES];
  size_t n_libraries;
  struct devices_given devices[2 * ADC_MATRIX_MAX_LIBRARIES];
  size_t n_devices;
  const char* html; /* NULL when not given */
  struct adc_options run;
};

static bool is_library_name(const char* name, size_t length) {
  if (length == 0 || length >= 64) return false;
  for (size_t i = 0; i < length; i++) {
    char c = name[i];
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
          c == '_' || c == '.'))
      return false;
  }
  return true;
}

/* NAME=SPEC into `out`. */
static int parse_library(const char* text, struct library_given* out, struct adc_error* error) {
  memset(out, 0, sizeof(*out));
  const char* equals = strchr(text, '=');
  if (equals == NULL || !is_library_name(text, (size_t)(equals - text)) || equals[1] == '\0') {
    return adc_fail(error,
                    "--library '%s' is not NAME=SPEC (NAME of letters, digits, '-', '_' and '.'; see "
                    "adc-conform matrix --help)",
                    text);
  }
  snprintf(out->name, sizeof(out->name), "%.*s", (int)(equals - text), text);
  const char* spec = equals + 1;
  snprintf(out->spec, sizeof(out->spec), "%s", spec);
  if (strcmp(spec, "reference") == 0) {
    out->is_reference = true;
    snprintf(out->producer, sizeof(out->producer), "reference");
    snprintf(out->consumer, sizeof(out->consumer), "reference");
  } else if (adc_is_python_side(spec)) {
    /* python:MODULE:FACTORY[:FUNCTION] */
    const char* module = spec + strlen(ADC_PYTHON_SIDE_SCHEME);
    const char* first = strchr(module, ':');
    if (first == NULL)
      return adc_fail(error, "--library %s: '%s' is not python:MODULE:FACTORY[:FUNCTION]", out->name, spec);
    const char* second = strchr(first + 1, ':');
    int module_length = (int)(first - module);
    int factory_length = (int)(second != NULL ? second - (first + 1) : (long)strlen(first + 1));
    if (factory_length > 0)
      snprintf(out->producer, sizeof(out->producer), "python:%.*s:%.*s", module_length, module,
               factory_length, first + 1);
    if (second != NULL && second[1] != '\0')
      snprintf(out->consumer, sizeof(out->consumer), "python:%.*s:%s", module_length, module, second + 1);
    if (out->producer[0] == '\0' && out->consumer[0] == '\0')
      return adc_fail(error, "--library %s: '%s' names neither a FACTORY nor a FUNCTION", out->name, spec);
  } else {
    const char* colon = strrchr(spec, ':');
    int path_length = colon != NULL ? (int)(colon - spec) : (int)strlen(spec);
    if (colon != NULL) snprintf(out->prefix, sizeof(out->prefix), "%s", colon + 1);
    snprintf(out->producer, sizeof(out->producer), "%.*s", path_length, spec);
    snprintf(out->consumer, sizeof(out->consumer), "%.*s", path_length, spec);
  }
  return 0;
}

/* Whether `argument` is option `name`, alone or as NAME=VALUE. */
static bool is_option(const char* argument, const char* name) {
  size_t length = strlen(name);
  return strncmp(argument, name, length) == 0 && (argument[length] == '\0' || argument[length] == '=');
}

/* A --producer-devices or --consumer-devices (NAME=LIST) into the library
 * it names. */
static int apply_devices(struct matrix_options* out, const struct devices_given* given,
                         struct adc_error* error) {
  const char* equals = strchr(given->value, '=');
  size_t name_length = equals != NULL ? (size_t)(equals - given->value) : 0;
  if (equals == NULL || equals[1] == '\0')
    return adc_fail(error, "%s '%s' is not NAME=DEVICE[,DEVICE...]", given->option, given->value);
  for (size_t l = 0; l < out->n_libraries; l++) {
    struct library_given* library = &out->libraries[l];
    if (strlen(library->name) != name_length || strncmp(library->name, given->value, name_length) != 0)
      continue;
    bool producer = strcmp(given->option, "--producer-devices") == 0;
    char* devices = producer ? library->producer_devices : library->consumer_devices;
    if ((size_t)snprintf(devices, sizeof(library->producer_devices), "%s", equals + 1) >=
        sizeof(library->producer_devices))
      return adc_fail(error, "%s %s: the list is too long", given->option, given->value);
    return 0;
  }
  return adc_fail(error, "%s '%s' names no library of --library", given->option, given->value);
}

/* Takes --library, --producer-devices, --consumer-devices and --html out
 * of argv, and leaves the rest to the main command's parser.  `rest` has
 * room for argc + 1 pointers. */
static int parse_matrix_options(int argc, char** argv, struct matrix_options* out, char** rest,
                                struct adc_error* error) {
  memset(out, 0, sizeof(*out));
  int n_rest = 0;
  rest[n_rest++] = argv[0];
  for (int i = 1; i < argc; i++) {
    const char* argument = argv[i];
    const char* value = NULL;
    static const char* const own_options[] = {"--library", "--html", "--producer-devices",
                                              "--consumer-devices"};
    const char* option = NULL;
    for (size_t o = 0; o < sizeof(own_options) / sizeof(own_options[0]) && option == NULL; o++) {
      if (is_option(argument, own_options[o])) option = own_options[o];
    }
    if (option == NULL) {
      if (strcmp(argument, "--producer") == 0 || strncmp(argument, "--producer=", 11) == 0 ||
          strcmp(argument, "--consumer") == 0 || strncmp(argument, "--consumer=", 11) == 0) {
        return adc_fail(error, "matrix takes its libraries with --library NAME=SPEC, not %s", argument);
      }
      rest[n_rest++] = argv[i];
      continue;
    }
    size_t name_length = strlen(option);
    if (argument[name_length] == '=') {
      value = argument + name_length + 1;
    } else if (i + 1 < argc) {
      value = argv[++i];
    } else {
      return adc_fail(error, "%s needs a value", argument);
    }
    if (strcmp(option, "--html") == 0) {
      out->html = value;
      continue;
    }
    if (strcmp(option, "--library") != 0) {
      out->devices[out->n_devices++] = (struct devices_given){option, value};
      if (out->n_devices == sizeof(out->devices) / sizeof(out->devices[0]))
        return adc_fail(error, "too many --producer-devices and --consumer-devices");
      continue;
    }
    if (out->n_libraries == ADC_MATRIX_MAX_LIBRARIES)
      return adc_fail(error, "--library names more than %d libraries", ADC_MATRIX_MAX_LIBRARIES);
    if (parse_library(value, &out->libraries[out->n_libraries], error) != 0) return -1;
    for (size_t l = 0; l < out->n_libraries; l++) {
      if (strcmp(out->libraries[l].name, out->libraries[out->n_libraries].name) == 0)
        return adc_fail(error, "--library names '%s' twice", out->libraries[l].name);
    }
    out->n_libraries++;
  }
  rest[n_rest] = NULL;
  if (adc_parse_options(n_rest, rest, &out->run, error) != 0) return -1;
  if (out->run.help) return 0;
  if (out->run.valgrind || out->run.preload != NULL || out->run.debug_case != NULL || out->run.list_rules ||
      out->run.list_cases || adc_report_outputs_any(&out->run.outputs)) {
    return adc_fail(
        error,
        "matrix takes none of --valgrind, --preload, --debug-case, --list-rules, --list-cases and "
        "the report formats but --report-json (its --html instead)");
  }
  /* Every matrix holds the reference: the pairs with it are what blame
   * rests on. */
  bool has_reference = false;
  for (size_t l = 0; l < out->n_libraries; l++) has_reference |= out->libraries[l].is_reference;
  if (!has_reference) {
    if (out->n_libraries == ADC_MATRIX_MAX_LIBRARIES)
      return adc_fail(error, "--library names more than %d libraries with the reference",
                      ADC_MATRIX_MAX_LIBRARIES - 1);
    if (parse_library("reference=reference", &out->libraries[out->n_libraries], error) != 0) return -1;
    for (size_t l = 0; l < out->n_libraries; l++) {
      if (strcmp(out->libraries[l].name, "reference") == 0)
        return adc_fail(error, "--library names '%s' 'reference', which is the bundled reference's name",
                        out->libraries[l].spec);
    }
    out->n_libraries++;
  }
  for (size_t d = 0; d < out->n_devices; d++) {
    if (apply_devices(out, &out->devices[d], error) != 0) return -1;
  }
  return 0;
}

/* A library as settled for the runs: its sides in each role it has. */
struct settled_library {
  struct adc_side producer;
  struct adc_side consumer;
};

/* A role's --ROLE-devices list onto its settled side, each device one of
 * the run's. */
static int judged_devices(const struct adc_session* base, const struct library_given* given, const char* role,
                          const char* devices, struct adc_side* side, struct adc_error* error) {
  for (const char* at = devices; *at != '\0';) {
    size_t item = strcspn(at, ",");
    bool of_the_run = false;
    for (size_t d = 0; d < base->n_devices && !of_the_run; d++) {
      of_the_run = strlen(base->devices[d].name) == item && strncmp(base->devices[d].name, at, item) == 0;
    }
    if (!of_the_run)
      return adc_fail(error, "--%s-devices %s=%s: '%.*s' is not a device of --device %s", role, given->name,
                      devices, (int)item, at, base->device_option);
    at += item + (at[item] == ',');
  }
  snprintf(side->judged_devices, sizeof(side->judged_devices), "%s", devices);
  return 0;
}

static int settle_libraries(const struct matrix_options* options, const struct adc_session* base,
                            struct settled_library* settled, struct adc_matrix_record* matrix,
                            struct adc_error* error) {
  char reference[PATH_MAX];
  adc_find_reference_library(reference, sizeof(reference));
  struct adc_load_limits limits = {adc_session_timeout(base, 0), base->memory_limit_mib};
  for (size_t l = 0; l < options->n_libraries; l++) {
    const struct library_given* given = &options->libraries[l];
    const char* prefix = given->prefix[0] != '\0' ? given->prefix : NULL;
    struct adc_error why;
    if (given->producer[0] != '\0' && adc_settle_side("producer", given->producer, prefix, NULL, reference,
                                                      &limits, NULL, &settled[l].producer, &why) != 0) {
      return adc_fail(error, "--library %s: %s", given->name, why.message);
    }
    if (given->consumer[0] != '\0' &&
        adc_settle_side("consumer", given->consumer, prefix, NULL, reference, &limits, &settled[l].producer,
                        &settled[l].consumer, &why) != 0) {
      return adc_fail(error, "--library %s: %s", given->name, why.message);
    }
    if (judged_devices(base, given, "producer", given->producer_devices, &settled[l].producer, error) != 0 ||
        judged_devices(base, given, "consumer", given->consumer_devices, &settled[l].consumer, error) != 0)
      return -1;
    matrix->libraries[l] = (struct adc_matrix_library){
        .name = given->name,
        .spec = given->spec,
        .is_reference = given->is_reference,
        .is_producer = given->producer[0] != '\0',
        .is_consumer = given->consumer[0] != '\0',
    };
    if (given->is_reference) matrix->reference = l;
  }
  matrix->n_libraries = options->n_libraries;
  return 0;
}

/* What one pair's run keeps until the reports are written: its record
 * points into its session, cases and results. */
struct pair_run {
  struct adc_session session;
  struct adc_case* cases;
  size_t n_cases;
  struct adc_task_result* results;
};

/* The pair's cases into run->cases and run->n_cases: the rules judging a
 * pair, their IDs qualified by the pair, kept by --filter.  0, or -1 with
 * the reason. */
static int plan_pair(struct pair_run* run, const struct matrix_options* options, const char* producer,
                     const char* consumer, struct adc_error* error) {
  size_t planned = adc_plan_cases(&run->session, NULL, 0, &run->cases);
  size_t kept = 0;
  for (size_t i = 0; i < planned; i++) {
    struct adc_case c = run->cases[i];
    char id[sizeof(c.id) + 2 * 64];
    snprintf(id, sizeof(id), "%s>%s/%s", producer, consumer, c.id);
    if (strlen(id) >= sizeof(c.id))
      return adc_fail(error, "case ID '%s' is longer than %zu bytes", id, sizeof(c.id) - 1);
    memcpy(c.id, id, strlen(id) + 1);
    bool selected = options->run.n_filters == 0;
    for (int f = 0; f < options->run.n_filters && !selected; f++)
      selected = fnmatch(options->run.filters[f], c.id, 0) == 0;
    if (selected) run->cases[kept++] = c;
  }
  /* --shard deals each pair's cases, rule after rule, as a run's. */
  run->n_cases = adc_shard_cases(run->cases, kept, options->run.shard_index, options->run.shard_count);
  return 0;
}

/* Runs pair (p, c) and records it as the matrix's next pair. */
static int run_pair(struct adc_matrix_record* matrix, struct pair_run* run,
                    const struct matrix_options* options, const struct adc_session* base,
                    const struct settled_library* settled, size_t p, size_t c, struct adc_error* error) {
  run->session = *base;
  run->session.producer = settled[p].producer;
  run->session.consumer = settled[c].consumer;
  run->session.pairs = true;
  /* Two Python libraries share the shim, and so one interpreter, which
   * imports both as it loads: its process is forked after that load only
   * where neither library's import started a thread (each role's was
   * settled alone; the preloading server of polars's export into arro3
   * found polars's thread, and every case of the pair started from the
   * harness after a warning). */
  if (run->session.producer.is_python && run->session.consumer.is_python) {
    bool both = run->session.producer.forked_after_load && run->session.consumer.forked_after_load;
    run->session.producer.forked_after_load = both;
    run->session.consumer.forked_after_load = both;
  }
  /* The shim reads which Python library plays each role from the
   * environment the cases' processes inherit, and imports each as it is
   * loaded: a role that is no Python library's here names none (left
   * naming another pair's, every process of the pair imported it too: a
   * pair of the reference and arro3 took 0.9 s, not 0.09 s, importing
   * polars, the library settled last). */
  adc_select_python_side("producer", run->session.producer.is_python ? options->libraries[p].producer : NULL);
  adc_select_python_side("consumer", run->session.consumer.is_python ? options->libraries[c].consumer : NULL);
  if (plan_pair(run, options, matrix->libraries[p].name, matrix->libraries[c].name, error) != 0) return -1;
  if (base->expectations != NULL)
    adc_expectations_match((struct adc_expectations*)base->expectations, run->cases, run->n_cases);
  struct adc_matrix_pair* pair = &matrix->pairs[matrix->n_pairs];
  pair->producer = p;
  pair->consumer = c;
  run->results = adc_parent_only_calloc(run->n_cases + 1, sizeof(*run->results));
  if (run->results == NULL) return adc_fail(error, "out of memory");
  if (run->n_cases > 0) {
    if (adc_probe_devices(&run->session, run->cases, run->n_cases, error) != 0) return -1;
    if (adc_run_cases(&run->session, run->cases, run->n_cases, run->results, NULL, NULL, error) != 0)
      return -1;
  }
  struct adc_run_outcome outcome = {0, adc_run_interrupted_by()};
  if (adc_run_record_of_run(&pair->record, &run->session, run->cases, run->results, run->n_cases, &outcome,
                            error) != 0) {
    return -1;
  }
  matrix->n_pairs++;
  return 0;
}

/* Every pair, producers in the order named, then consumers; stops at an
 * interruption. */
static int run_pairs(struct adc_matrix_record* matrix, struct pair_run* runs,
                     const struct matrix_options* options, const struct adc_session* base,
                     const struct settled_library* settled, struct adc_error* error) {
  for (size_t p = 0; p < matrix->n_libraries; p++) {
    if (!matrix->libraries[p].is_producer) continue;
    for (size_t c = 0; c < matrix->n_libraries; c++) {
      if (!matrix->libraries[c].is_consumer || adc_run_interrupted_by() != 0) continue;
      if (options->run.verbose)
        fprintf(stderr, "adc-conform matrix: %s > %s\n", matrix->libraries[p].name,
                matrix->libraries[c].name);
      if (run_pair(matrix, &runs[matrix->n_pairs], options, base, settled, p, c, error) != 0) return -1;
    }
  }
  return 0;
}

static void free_runs(struct pair_run* runs, size_t n) {
  for (size_t r = 0; r < n; r++) {
    adc_task_results_free(runs[r].results, runs[r].n_cases);
    free(runs[r].cases);
  }
  free(runs);
}

/* Runs the matrix and writes its reports; the exit status. */
static int run_matrix(const struct matrix_options* options, struct adc_session* base,
                      struct settled_library* settled) {
  struct adc_error error;
  static struct adc_matrix_record matrix;
  memset(&matrix, 0, sizeof(matrix));
  if (settle_libraries(options, base, settled, &matrix, &error) != 0) return adc_cli_bad_input(&error);
  for (size_t d = 0; d < base->n_devices; d++) matrix.devices[matrix.n_devices++] = base->devices[d].name;
  size_t most_pairs = matrix.n_libraries * matrix.n_libraries;
  matrix.pairs = calloc(most_pairs + 1, sizeof(*matrix.pairs));
  struct pair_run* runs = calloc(most_pairs + 1, sizeof(*runs));
  if (matrix.pairs == NULL || runs == NULL) {
    free(runs);
    free(matrix.pairs);
    adc_fail(&error, "out of memory");
    return adc_cli_bad_input(&error);
  }
  double started = adc_now_seconds();
  int exit_code;
  if (run_pairs(&matrix, runs, options, base, settled, &error) != 0) {
    exit_code = adc_cli_bad_input(&error);
  } else {
    matrix.wall_seconds = adc_now_seconds() - started;
    matrix.interrupted_by = adc_run_interrupted_by();
    adc_matrix_record_finish(&matrix);
    if (base->expectations != NULL) adc_warn_unmatched_expectations(base->expectations, "matrix");
    adc_print_matrix_console(stdout, &matrix, options->run.verbose, adc_console_wants_colour(stdout));
    printf("Wall time: %.3f s\n", matrix.wall_seconds);
    exit_code = matrix.exit_status;
    if ((options->run.report_json != NULL &&
         adc_write_matrix_json(options->run.report_json, &matrix, &error) != 0) ||
        (options->html != NULL && adc_write_matrix_html(options->html, &matrix, &error) != 0)) {
      exit_code = adc_cli_bad_input(&error);
    }
  }
  free_runs(runs, matrix.n_pairs);
  adc_matrix_record_free(&matrix);
  return exit_code;
}

int adc_matrix_command(int argc, char** argv) {
  struct adc_error error;
  static struct matrix_options options;
  char** rest = calloc((size_t)argc + 1, sizeof(*rest));
  if (rest == NULL) {
    adc_fail(&error, "out of memory");
    return adc_cli_bad_input(&error);
  }
  if (parse_matrix_options(argc, argv, &options, rest, &error) != 0) {
    free(rest);
    return adc_cli_bad_input(&error);
  }
  if (options.run.help) {
    free(rest);
    print_matrix_usage();
    return EXIT_SUCCESS;
  }
  struct adc_expectations expectations;
  if (options.run.expect != NULL && adc_expectations_read(options.run.expect, &expectations, &error) != 0) {
    free(rest);
    return adc_cli_bad_input(&error);
  }
  static struct adc_session base;
  static struct settled_library settled[ADC_MATRIX_MAX_LIBRARIES];
  int exit_code;
  if (adc_settle_session(&options.run, &base, &error) != 0) {
    exit_code = adc_cli_bad_input(&error);
  } else {
    if (options.run.expect != NULL) base.expectations = &expectations;
    base.argc = argc;
    base.argv = argv;
    exit_code = run_matrix(&options, &base, settled);
    adc_free_fixtures(&base);
  }
  if (options.run.expect != NULL) adc_expectations_free(&expectations);
  free(rest);
  return exit_code;
}
