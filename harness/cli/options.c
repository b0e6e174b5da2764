#include "cli/options.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "device/device.h"

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
  OPT_LIST,
  OPT_LIST_RULES,
  OPT_VERBOSE,
  OPT_HELP,
};

void adc_print_usage(void) {
  printf(
      "Usage: adc-conform [--producer PATH|reference] [--consumer PATH|reference] [options]\n"
      "\n"
      "Runs the rules of the Arrow C Device Data Interface against a producer and/or\n"
      "consumer shared library, each case in a process of its own.\n"
      "\n"
      "  --producer PATH|reference   library tested as producer (\"reference\": the bundled one)\n"
      "  --consumer PATH|reference   library tested as consumer\n"
      "                              Rules run for the sides named; a side not named is the\n"
      "                              bundled reference wherever a rule needs a partner.\n"
      "  --prefix NAME               entry-point prefix of both libraries (e.g. nanoarrow);\n"
      "                              guessed from the exported symbols when omitted\n"
      "  --producer-prefix NAME      prefix of the producer library alone\n"
      "  --consumer-prefix NAME      prefix of the consumer library alone\n"
      "  --device NAME|all           where the data lives: %s (default: cpu);\n"
      "                              all: every device, in one report\n"
      "  --fixtures DIR              integration JSON fixtures (default: the bundled ones)\n"
      "  --filter GLOB               run only case IDs matching GLOB (repeatable)\n"
      "  --expect FILE               judge cases by the known shortfalls in FILE, one\n"
      "                              'case-glob status reason' a line: an expected status\n"
      "                              keeps the run green, any other status fails it\n"
      "  --shard INDEX/COUNT         run shard INDEX (1 to COUNT) of the cases: every\n"
      "                              COUNT-th case of the list, starting at the INDEX-th\n"
      "  --list                      print the case IDs that would run, one per line\n"
      "  --list-rules[=markdown]     print the rule IDs of the catalogue, one per line, or\n"
      "                              the catalogue table of CONFORMANCE.md\n"
      "  --report-json FILE          write a machine-readable report\n"
      "  --timeout SECONDS           per-case limit for every rule (default: the rule's own,\n"
      "                              else 10)\n"
      "  --jobs N                    cases run at once (default: online CPUs)\n"
      "  --memory-limit MIB          address space each case may take (RLIMIT_AS; default:\n"
      "                              none; not with sanitizer builds, which reserve far more)\n"
      "  --verbose                   print the message of passing cases too\n"
      "  --help                      this text\n"
      "\n"
      "Case IDs read <device>/<rule id>/<fixture>. Exit status: 0 when no MUST rule ended\n"
      "in fail, crash or timeout (but as --expect expects); 1 when one did, or a case\n"
      "matched by --expect ended otherwise; 2 on bad input.\n",
      adc_device_names());
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

/* "INDEX/COUNT", 1 <= INDEX <= COUNT <= ADC_MAX_SHARDS. */
static int parse_shard(const char* text, int* index, int* count, struct adc_error* error) {
  char* slash = NULL;
  long i = strtol(text, &slash, 10);
  char* end = NULL;
  long n = slash != text && *slash == '/' ? strtol(slash + 1, &end, 10) : 0;
  if (end == NULL || end == slash + 1 || *end != '\0' || n < 1 || n > ADC_MAX_SHARDS || i < 1 || i > n) {
    return adc_fail(error, "--shard takes INDEX/COUNT with 1 <= INDEX <= COUNT <= %d (e.g. 2/4), not '%s'",
                    ADC_MAX_SHARDS, text);
  }
  *index = (int)i;
  *count = (int)n;
  return 0;
}

static int parse_catalogue_format(const char* text, enum adc_catalogue_format* out, struct adc_error* error) {
  if (text == NULL || strcmp(text, "ids") == 0) {
    *out = ADC_CATALOGUE_IDS;
  } else if (strcmp(text, "markdown") == 0) {
    *out = ADC_CATALOGUE_MARKDOWN;
  } else {
    return adc_fail(error, "--list-rules takes 'ids' or 'markdown', not '%s'", text);
  }
  return 0;
}

int adc_parse_options(int argc, char** argv, struct adc_options* out, struct adc_error* error) {
  static const struct option long_options[] = {
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
      {"list", no_argument, NULL, OPT_LIST},
      {"list-rules", optional_argument, NULL, OPT_LIST_RULES},
      {"verbose", no_argument, NULL, OPT_VERBOSE},
      {"help", no_argument, NULL, OPT_HELP},
      {NULL, 0, NULL, 0},
  };
  memset(out, 0, sizeof(*out));
  out->device = "cpu";
  out->shard_index = 1;
  out->shard_count = 1;
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  out->jobs = cpus <= 0 ? 1 : cpus > ADC_MAX_JOBS ? ADC_MAX_JOBS : (int)cpus;
  opterr = 0;
  int option;
  double number = 0;
  while ((option = getopt_long(argc, argv, "", long_options, NULL)) != -1) {
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
        if (parse_shard(optarg, &out->shard_index, &out->shard_count, error) != 0) return -1;
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
      case OPT_LIST:
        out->list_cases = true;
        break;
      case OPT_LIST_RULES:
        out->list_rules = true;
        if (parse_catalogue_format(optarg, &out->rules_format, error) != 0) return -1;
        break;
      case OPT_VERBOSE:
        out->verbose = true;
        break;
      case OPT_HELP:
        out->help = true;
        break;
      default:
        return adc_fail(error, "unknown or incomplete option '%s' (see --help)", argv[optind - 1]);
    }
  }
  if (optind < argc) return adc_fail(error, "unexpected argument '%s' (see --help)", argv[optind]);
  return 0;
}
