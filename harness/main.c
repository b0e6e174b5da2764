/* adc-conform: runs the rule catalogue against a producer and/or consumer
 * library.  The parent settles the session (libraries, prefixes, device,
 * fixtures), lists the cases and hands them to the runner; it never loads a
 * library under test nor a GPU runtime itself. */
#include <fnmatch.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "elf_symbols.h"
#include "fixture_set.h"
#include "options.h"
#include "preflight.h"
#include "report.h"
#include "runner.h"

#define REFERENCE_PREFIX "adc_reference"

static int bad_input(const char* fmt, const char* a, const char* b, const char* c) {
  fprintf(stderr, "adc-conform: error: ");
  fprintf(stderr, fmt, a, b, c);
  fputc('\n', stderr);
  return -1;
}

/* The bundled reference library: next to the executable in a build tree,
 * else where the build put it. */
static void find_reference_library(char* path, size_t size) {
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
  if (n > 0) {
    exe[n] = '\0';
    snprintf(path, size, "%s/libadc_reference.so", dirname(exe));
    if (access(path, R_OK) == 0) return;
  }
  snprintf(path, size, "%s", ADC_REFERENCE_LIBRARY);
}

static int guess_prefix(const char* role, struct adc_side* side) {
  char prefixes[512];
  char error[256];
  int found = adc_elf_find_prefixes(side->path, prefixes, sizeof(prefixes), error, sizeof(error));
  if (found < 0) return bad_input("cannot load %s library '%s': %s", role, side->path, error);
  if (found == 0) {
    return bad_input("%s library '%s' exports no <prefix>_CDataIntegration_* or <prefix>_CDeviceIntegration_* "
                     "entry point%s", role, side->path, " (if its names differ, give --prefix)");
  }
  if (found > 1) {
    return bad_input("%s library '%s' exports entry points under several prefixes (%s); choose one with --prefix",
                     role, side->path, prefixes);
  }
  snprintf(side->prefix, sizeof(side->prefix), "%.127s", prefixes);
  return 0;
}

static int settle_side(const char* role, const char* given, const char* prefix, const char* reference,
                       struct adc_side* side) {
  side->tested = given != NULL;
  if (given == NULL || strcmp(given, "reference") == 0) {
    side->is_reference = true;
    snprintf(side->path, sizeof(side->path), "%s", reference);
    snprintf(side->prefix, sizeof(side->prefix), "%s", prefix ? prefix : REFERENCE_PREFIX);
  } else {
    if (realpath(given, side->path) == NULL) {
      return bad_input("cannot load %s library '%s': %s", role, given, "no such file");
    }
    if (prefix != NULL) {
      snprintf(side->prefix, sizeof(side->prefix), "%s", prefix);
    } else if (guess_prefix(role, side) != 0) {
      return -1;
    }
  }
  if (!side->tested) return 0;
  char error[1024];
  int found = adc_preflight_library(side->path, side->prefix, error, sizeof(error));
  if (found < 0) return bad_input("cannot load %s library '%s': %s", role, side->path, error);
  if (found == 0) {
    return bad_input("%s library '%s' exports no entry point with prefix '%s' (wrong --prefix?)", role, side->path,
                     side->prefix);
  }
  return 0;
}

static bool selected(const struct adc_options* options, const char* id) {
  if (options->n_filters == 0) return true;
  for (int i = 0; i < options->n_filters; i++) {
    if (fnmatch(options->filters[i], id, 0) == 0) return true;
  }
  return false;
}

static size_t plan_cases(const struct adc_session* session, const struct adc_options* options,
                         struct adc_case** out) {
  struct adc_case* cases = calloc(adc_rule_count * session->n_fixtures + 1, sizeof(*cases));
  size_t n = 0;
  for (size_t r = 0; r < adc_rule_count; r++) {
    const struct adc_rule* rule = &adc_rules[r];
    const struct adc_side* side = rule->role == ADC_ROLE_PRODUCER ? &session->producer : &session->consumer;
    if (!side->tested || (rule->devices & session->device->bit) == 0) continue;
    for (size_t f = 0; f < session->n_fixtures; f++) {
      const struct adc_fixture* fixture = &session->fixtures[f];
      if (rule->applies != NULL && !rule->applies(&fixture->model)) continue;
      struct adc_case* c = &cases[n];
      snprintf(c->id, sizeof(c->id), "%s/%s/%s", session->device->name, rule->id, fixture->name);
      if (!selected(options, c->id)) continue;
      c->rule = rule;
      c->fixture = fixture;
      n++;
    }
  }
  *out = cases;
  return n;
}

static double now_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char** argv) {
  struct adc_options options;
  if (adc_parse_options(argc, argv, &options) != 0) return 2;
  if (options.help) {
    adc_print_usage();
    return 0;
  }
  if (options.list_rules) {
    for (size_t r = 0; r < adc_rule_count; r++) printf("%s\n", adc_rules[r].id);
    return 0;
  }
  if (options.producer == NULL && options.consumer == NULL) {
    fprintf(stderr, "adc-conform: error: name a library with --producer and/or --consumer (see --help)\n");
    return 2;
  }

  struct adc_session session;
  memset(&session, 0, sizeof(session));
  session.timeout_seconds = options.timeout_seconds;
  session.jobs = options.jobs;
  session.device = adc_device_find(options.device);
  if (session.device == NULL) {
    fprintf(stderr, "adc-conform: error: unknown device '%s' (known: %s)\n", options.device, adc_device_names());
    return 2;
  }
  char reference[PATH_MAX];
  find_reference_library(reference, sizeof(reference));
  const char* producer_prefix = options.producer_prefix ? options.producer_prefix : options.prefix;
  const char* consumer_prefix = options.consumer_prefix ? options.consumer_prefix : options.prefix;
  if (settle_side("producer", options.producer, producer_prefix, reference, &session.producer) != 0 ||
      settle_side("consumer", options.consumer, consumer_prefix, reference, &session.consumer) != 0) {
    return 2;
  }
  snprintf(session.fixtures_dir, sizeof(session.fixtures_dir), "%s",
           options.fixtures_dir ? options.fixtures_dir : ADC_FIXTURES_DIR);
  if (adc_load_fixtures(&session) != 0) return 2;

  struct adc_case* cases = NULL;
  size_t n = plan_cases(&session, &options, &cases);
  int exit_code = 0;
  if (options.list_cases) {
    for (size_t i = 0; i < n; i++) printf("%s\n", cases[i].id);
  } else if (n == 0) {
    fprintf(stderr, "adc-conform: error: no case to run on device '%s'%s\n", session.device->name,
            options.n_filters ? " matches the --filter globs" : " (no rule of this catalogue applies to it yet)");
    exit_code = 2;
  } else {
    struct adc_case_result* results = calloc(n, sizeof(*results));
    double started = now_seconds();
    adc_run_cases(&session, cases, n, results);
    double wall = now_seconds() - started;
    adc_print_console_report(stdout, &session, cases, results, n, options.verbose);
    printf("Wall time: %.3f s\n", wall);
    exit_code = adc_summarize(cases, results, n).failing_must_cases == 0 ? 0 : 1;
    if (options.report_json != NULL &&
        adc_write_json_report(options.report_json, &session, cases, results, n, wall) != 0) {
      exit_code = 2;
    }
    free(results);
  }
  free(cases);
  adc_free_fixtures(&session);
  return exit_code;
}
