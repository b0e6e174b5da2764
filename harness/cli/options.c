#include "cli/options.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "device/device.h"
#include "runner/case_plan.h"

enum {
  OPT_PRODUCER = 256,
  OPT_CONSUMER,
  OPT_PREFIX,
  OPT_PRODUCER_PREFIX,
  OPT_CONSUMER_PREFIX,
  OPT_DEVICE,
  OPT_FIXTURES,
  OPT_REPORT_JSON,
  OPT_FILTER,
  OPT_EXPECT,
  OPT_SHARD,
  OPT_TIMEOUT,
  OPT_JOBS,
  OPT_MEMORY_LIMIT,
  OPT_VALGRIND,
  OPT_PRELOAD,
  OPT_ISOLATION,
  OPT_COVERING_FIXTURES,
  OPT_LIST,
  OPT_LIST_RULES,
  OPT_DEBUG_CASE,
  OPT_VERBOSE,
  OPT_HELP,
  /* One per report format (report/report_outputs.h), in the table's order. */
  OPT_REPORT_FORMAT,
};

void adc_print_usage(void) {
  printf(
      "Usage: adc-conform [--producer PATH|reference] [--consumer PATH|reference] [options]\n"
      "\n"
      "Runs the rules of the Arrow C Device Data Interface against a producer and/or\n"
      "consumer shared library, each case in a process of its own.\n"
      "\n"
      "  --producer PATH|reference   library tested as producer (\"reference\": the bundled one)\n"
      "  --producer python:MODULE:FACTORY\n"
      "                              a Python library, through the Arrow PyCapsule Interface:\n"
      "                              FACTORY(source) returns the object judged ($ADC_PYTHON,\n"
      "                              else python3 on PATH)\n"
      "  --consumer PATH|reference   library tested as consumer\n"
      "  --consumer python:MODULE:FUNCTION\n"
      "                              a Python library, through the Arrow PyCapsule Interface:\n"
      "                              FUNCTION(handover) imports the harness's export and returns\n"
      "                              an object whose __arrow_c_*__ method gives it back\n"
      "                              Rules run for the sides named; a side not named is the\n"
      "                              bundled reference wherever a rule needs a partner.\n"
      "  --prefix NAME               entry-point prefix of the libraries named (e.g. nanoarrow),\n"
      "                              not of the bundled reference; guessed from the exported\n"
      "                              symbols when omitted\n"
      "  --producer-prefix NAME      prefix of the producer library alone\n"
      "  --consumer-prefix NAME      prefix of the consumer library alone\n"
      "  --device NAME[:ID],...|all  where the data lives: %s (default: cpu);\n"
      "                              NAME:ID a device id other than the first (opencl:1),\n"
      "                              on kinds with ids; a comma-separated list, or all:\n"
      "                              every kind's first device, in one report\n"
      "  --fixtures DIR              integration JSON fixtures (default: the bundled ones)\n"
      "  --filter GLOB               run only case IDs matching GLOB (repeatable)\n"
      "  --covering-fixtures         run each rule on the fewest fixtures that hold every\n"
      "                              type it meets in them all (for slow runs: sanitizers,\n"
      "                              --valgrind)\n"
      "  --expect FILE               judge cases by the known shortfalls in FILE, one\n"
      "                              'case-glob status reason' a line: an expected status\n"
      "                              keeps the run green, any other status fails it\n"
      "  --shard INDEX/COUNT         run shard INDEX (1 to COUNT) of the cases: every\n"
      "                              COUNT-th case of the list, starting at the INDEX-th\n"
      "  --list                      print the case IDs that would run, one per line\n"
      "  --list-rules[=ids|markdown|json]\n"
      "                              print the rule IDs of the catalogue, one per line, the\n"
      "                              catalogue table of CONFORMANCE.md, or every field of\n"
      "                              every rule as a JSON array\n"
      "  --report-json FILE          write the machine-readable report (the canonical record;\n"
      "                              schema: harness/report/report.schema.json)\n",
      adc_device_names());
  adc_print_report_format_help(stdout);
  /* In parts: the whole text as one string literal would pass the 4095
   * bytes a C11 compiler must support. */
  fputs(
      "  --timeout SECONDS           per-case limit for every rule (default: the rule's own,\n"
      "                              else 10)\n"
      "  --jobs N                    cases run at once (default: online CPUs + 1), and as\n"
      "                              many more of the rules that watch by design (asleep)\n"
      "  --memory-limit MIB          address space each case may take (RLIMIT_AS; default:\n"
      "                              none; not with sanitizer builds, which reserve far more)\n"
      "  --valgrind                  run the harness, and so every case's process, under\n"
      "                              Valgrind memcheck: an error or a definite leak in a case\n"
      "                              is that case's crash, with memcheck's headline; limits\n"
      "                              grow tenfold unless --timeout is given\n"
      "  --preload LIB               load LIB before anything else into the harness and every\n"
      "                              case's process (LD_PRELOAD): e.g. the ASan runtime, for a\n"
      "                              library built with -fsanitize=address\n"
      "  --isolation auto|case|shared\n"
      "                              where cases run: each in a process of its own (case), or\n"
      "                              in prepared processes that load the library and open the\n"
      "                              device once and run many, a case that does not pass there\n"
      "                              run again alone (shared); auto (the default) is shared,\n"
      "                              but case under --valgrind, --preload or a sanitizer build\n"
      "  --debug-case ID             run the one case ID in this very process, with no fork\n"
      "                              once the libraries are checked, no time limit and no\n"
      "                              report, for a debugger: gdb --args adc-conform ...\n"
      "                              --debug-case ID.  The library under test and the device's\n"
      "                              runtime (CUDA, OpenCL) are then loaded into this process,\n"
      "                              which a run never does: nothing forks after them\n"
      "  --verbose                   one console line per case, with every message (default:\n"
      "                              one line per rule that did not pass every case)\n"
      "  --help                      this text\n"
      "\n",
      stdout);
  fputs(
      "Case IDs read <device>/<rule id>/<fixture>. Exit status: 0 when no MUST rule ended\n"
      "in fail, crash or timeout (but as --expect expects) and each side named is shown\n"
      "to conform or not; 1 when one did, or a case matched by --expect ended otherwise;\n"
      "3 when nothing failed but a side named is not shown to conform (no MUST case of\n"
      "it passed, or one ended unresolved); 2 on bad input; 128 + the signal when\n"
      "SIGINT or SIGTERM interrupted the run.  With GITHUB_ACTIONS=true, rules that did\n"
      "not pass become ::error/::warning annotations, and a summary is appended to\n"
      "$GITHUB_STEP_SUMMARY.  Colour only on a terminal, and never with NO_COLOR set.\n",
      stdout);
}

static int parse_number(const char* option, const char* text, double minimum, double* out,
                        struct adc_error* error) {
  char* end = NULL;
  double value = strtod(text, &end);
  if (end == text || *end != '\0' || value < minimum) {
    return adc_fail(error, "%s takes a number of at least %g, not '%s'", option, minimum, text);
  }
  *out = value;
  return 0;
}

static int parse_catalogue_format(const char* text, enum adc_catalogue_format* out, struct adc_error* error) {
  if (text == NULL || strcmp(text, "ids") == 0) {
    *out = ADC_CATALOGUE_IDS;
  } else if (strcmp(text, "markdown") == 0) {
    *out = ADC_CATALOGUE_MARKDOWN;
  } else if (strcmp(text, "json") == 0) {
    *out = ADC_CATALOGUE_JSON;
  } else {
    return adc_fail(error, "--list-rules takes 'ids', 'markdown' or 'json', not '%s'", text);
  }
  return 0;
}

/* --isolation's value. */
static int parse_isolation(const char* text, enum adc_isolation* out, struct adc_error* error) {
  if (strcmp(text, "auto") == 0) {
    *out = ADC_ISOLATION_AUTO;
  } else if (strcmp(text, "case") == 0) {
    *out = ADC_ISOLATION_CASE;
  } else if (strcmp(text, "shared") == 0) {
    *out = ADC_ISOLATION_SHARED;
  } else {
    return adc_fail(error, "--isolation takes 'auto', 'case' or 'shared', not '%s'", text);
  }
  return 0;
}

/* The main command's own options; getopt_long reads them and one per
 * report format (all_options). */
static const struct option own_options[] = {
    {"producer", required_argument, NULL, OPT_PRODUCER},
    {"consumer", required_argument, NULL, OPT_CONSUMER},
    {"prefix", required_argument, NULL, OPT_PREFIX},
    {"producer-prefix", required_argument, NULL, OPT_PRODUCER_PREFIX},
    {"consumer-prefix", required_argument, NULL, OPT_CONSUMER_PREFIX},
    {"device", required_argument, NULL, OPT_DEVICE},
    {"fixtures", required_argument, NULL, OPT_FIXTURES},
    {"report-json", required_argument, NULL, OPT_REPORT_JSON},
    {"filter", required_argument, NULL, OPT_FILTER},
    {"expect", required_argument, NULL, OPT_EXPECT},
    {"shard", required_argument, NULL, OPT_SHARD},
    {"timeout", required_argument, NULL, OPT_TIMEOUT},
    {"jobs", required_argument, NULL, OPT_JOBS},
    {"memory-limit", required_argument, NULL, OPT_MEMORY_LIMIT},
    {"valgrind", no_argument, NULL, OPT_VALGRIND},
    {"preload", required_argument, NULL, OPT_PRELOAD},
    {"isolation", required_argument, NULL, OPT_ISOLATION},
    {"covering-fixtures", no_argument, NULL, OPT_COVERING_FIXTURES},
    {"list", no_argument, NULL, OPT_LIST},
    {"list-rules", optional_argument, NULL, OPT_LIST_RULES},
    {"debug-case", required_argument, NULL, OPT_DEBUG_CASE},
    {"verbose", no_argument, NULL, OPT_VERBOSE},
    {"help", no_argument, NULL, OPT_HELP},
    {NULL, 0, NULL, 0},
};
#define OWN_OPTIONS (sizeof(own_options) / sizeof(own_options[0]) - 1)

/* own_options, then the report formats' (OPT_REPORT_FORMAT + the format's
 * index), then the end. */
static const struct option* all_options(void) {
  static struct option options[OWN_OPTIONS + ADC_REPORT_FORMAT_COUNT + 1];
  if (options[0].name == NULL) {
    memcpy(options, own_options, sizeof(own_options));
    for (size_t i = 0; i < ADC_REPORT_FORMAT_COUNT; i++) {
      options[OWN_OPTIONS + i] = adc_report_format_option(i, OPT_REPORT_FORMAT + (int)i);
    }
    options[OWN_OPTIONS + ADC_REPORT_FORMAT_COUNT] = (struct option){NULL, 0, NULL, 0};
  }
  return options;
}

/* The options that change only where the results go, how they are shown,
 * or how the cases are shared out: the shards of one run may give them
 * differently (adc-conform merge, commands/shard_command_line.c).  Every
 * other option decides which cases run or how they are judged. */
static const int output_only_options[] = {OPT_REPORT_JSON, OPT_SHARD, OPT_JOBS, OPT_VERBOSE};

static bool is_output_only(int option) {
  if (option >= OPT_REPORT_FORMAT) return true; /* every report format's */
  for (size_t i = 0; i < sizeof(output_only_options) / sizeof(output_only_options[0]); i++) {
    if (output_only_options[i] == option) return true;
  }
  return false;
}

bool adc_option_facts(const char* argument, struct adc_option_facts* facts) {
  if (strncmp(argument, "--", 2) != 0 || argument[2] == '\0') return false;
  const char* name = argument + 2;
  size_t length = strcspn(name, "=");
  /* As getopt_long: an exact name wins; else a prefix of exactly one. */
  const struct option* found = NULL;
  for (const struct option* o = all_options(); o->name != NULL; o++) {
    if (strncmp(o->name, name, length) != 0) continue;
    if (strlen(o->name) == length) {
      found = o;
      break;
    }
    if (found != NULL) return false; /* ambiguous */
    found = o;
  }
  if (found == NULL) return false;
  facts->name = found->name;
  facts->inline_value = name[length] == '=' ? name + length + 1 : NULL;
  facts->takes_value = found->has_arg == required_argument || facts->inline_value != NULL;
  facts->output_only = is_output_only(found->val);
  return true;
}

int adc_parse_options(int argc, char** argv, struct adc_options* out, struct adc_error* error) {
  memset(out, 0, sizeof(*out));
  out->device = "cpu";
  out->shard_index = 1;
  out->shard_count = 1;
  /* One case more than there are CPUs: a case often waits (on its
   * library's threads; the watches of the async rules have slots of their
   * own, runner.c), and the spare one
   * keeps the CPUs busy meanwhile (measured: the main job on 2 cores, 1.2
   * CPUs busy with 2 jobs; 0.53 s with 2, 0.42 s with 3, 0.42 s with 4). */
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  long jobs = cpus <= 0 ? 1 : cpus + 1;
  out->jobs = jobs > ADC_MAX_JOBS ? ADC_MAX_JOBS : (int)jobs;
  opterr = 0;
  int option;
  double number = 0;
  while ((option = getopt_long(argc, argv, "", all_options(), NULL)) != -1) {
    switch (option) {
      case OPT_PRODUCER:
        out->producer = optarg;
        break;
      case OPT_CONSUMER:
        out->consumer = optarg;
        break;
      case OPT_PREFIX:
        out->prefix = optarg;
        break;
      case OPT_PRODUCER_PREFIX:
        out->producer_prefix = optarg;
        break;
      case OPT_CONSUMER_PREFIX:
        out->consumer_prefix = optarg;
        break;
      case OPT_DEVICE:
        out->device = optarg;
        break;
      case OPT_FIXTURES:
        out->fixtures_dir = optarg;
        break;
      case OPT_REPORT_JSON:
        out->report_json = optarg;
        break;
      case OPT_FILTER:
        if (out->n_filters == ADC_MAX_FILTERS)
          return adc_fail(error, "at most %d --filter options", ADC_MAX_FILTERS);
        out->filters[out->n_filters++] = optarg;
        break;
      case OPT_EXPECT:
        out->expect = optarg;
        break;
      case OPT_SHARD:
        if (adc_parse_shard(optarg, &out->shard_index, &out->shard_count, error) != 0) return -1;
        break;
      case OPT_TIMEOUT:
        if (parse_number("--timeout", optarg, 0.1, &out->timeout_seconds, error) != 0) return -1;
        break;
      case OPT_JOBS:
        if (parse_number("--jobs", optarg, 1, &number, error) != 0) return -1;
        out->jobs = number > ADC_MAX_JOBS ? ADC_MAX_JOBS : (int)number;
        break;
      case OPT_MEMORY_LIMIT:
        if (parse_number("--memory-limit", optarg, 16, &out->memory_limit_mib, error) != 0) return -1;
        break;
      case OPT_VALGRIND:
        out->valgrind = true;
        break;
      case OPT_PRELOAD:
        out->preload = optarg;
        break;
      case OPT_COVERING_FIXTURES:
        out->covering_fixtures = true;
        break;
      case OPT_ISOLATION:
        if (parse_isolation(optarg, &out->isolation, error) != 0) return -1;
        break;
      case OPT_LIST:
        out->list_cases = true;
        break;
      case OPT_LIST_RULES:
        out->list_rules = true;
        if (parse_catalogue_format(optarg, &out->rules_format, error) != 0) return -1;
        break;
      case OPT_DEBUG_CASE:
        out->debug_case = optarg;
        break;
      case OPT_VERBOSE:
        out->verbose = true;
        break;
      case OPT_HELP:
        out->help = true;
        break;
      default:
        if (option >= OPT_REPORT_FORMAT && option < OPT_REPORT_FORMAT + ADC_REPORT_FORMAT_COUNT) {
          adc_report_format_chosen(&out->outputs, (size_t)(option - OPT_REPORT_FORMAT), optarg);
          break;
        }
        return adc_fail(error, "unknown or incomplete option '%s' (see --help)", argv[optind - 1]);
    }
  }
  if (optind < argc) return adc_fail(error, "unexpected argument '%s' (see --help)", argv[optind]);
  /* Memcheck runs ASan-built code no better than the other way round, and
   * reserves far more address space than a case's limit would allow. */
  if (out->valgrind && out->preload != NULL)
    return adc_fail(error, "--valgrind and --preload exclude each other");
  /* A leak checker reports when a process ends: at a prepared process's
   * end, its report would name no case. */
  if (out->isolation == ADC_ISOLATION_SHARED && (out->valgrind || out->preload != NULL))
    return adc_fail(error,
                    "--isolation shared and %s exclude each other (a memory checker's report at a shared "
                    "process's end names no case)",
                    out->valgrind ? "--valgrind" : "--preload");
  if (out->valgrind && out->memory_limit_mib > 0)
    return adc_fail(error, "--valgrind and --memory-limit exclude each other (memcheck reserves far more)");
  return 0;
}
