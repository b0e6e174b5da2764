/* adc-conform certify: the whole suite with the options fixed (every rule,
 * every device present), its reports and what made them written into a
 * fresh folder with a manifest of SHA-256 digests: a bundle (report/
 * bundle.h) that `adc-conform verify` checks.  Only the options choosing
 * the libraries, --timeout, --jobs and --isolation are taken: a claim covers every
 * rule on every device, judged as the suite judges, so --filter, --expect,
 * --shard, --device and --fixtures are refused. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/options.h"
#include "commands/bundle.h"
#include "commands/subcommands.h"
#include "report/json_file.h"

static void print_certify_usage(void) {
  printf(
      "Usage: adc-conform certify [--producer PATH|reference] [--consumer PATH|reference] --out DIR\n"
      "\n"
      "Runs every rule on every device (--device all) against the libraries named and\n"
      "writes DIR, which must not exist or be empty: the JSON and JUnit reports, the\n"
      "command, the suite version and the environment, and SHA256SUMS, the manifest of\n"
      "their digests (`sha256sum -c SHA256SUMS` checks it too).  `adc-conform verify DIR`\n"
      "checks the bundle.  A side not named is not certified: the bundled reference is\n"
      "its partner.\n"
      "\n"
      "  --producer PATH|reference   library certified as producer\n"
      "  --consumer PATH|reference   library certified as consumer\n"
      "  --prefix NAME, --producer-prefix NAME, --consumer-prefix NAME\n"
      "                              entry-point prefixes, as for the run (see --help)\n"
      "  --timeout SECONDS, --jobs N as for the run\n"
      "  --isolation auto|case       as for the run (default auto: cases of costly devices\n"
      "                              share prepared processes); recorded in the bundle\n"
      "  --out DIR                   the bundle's folder\n"
      "\n"
      "Exit status: the run's (0: no MUST case failed; 1: one did; 3: a side named is\n"
      "not shown to conform; the bundle is still written); 2 on bad input, with no\n"
      "bundle left behind.\n");
}

/* What certify was asked: the bundle's folder, and the run's options it
 * passes on as they are (commands/bundle.h: adc_certify_passes_on), each
 * with its value.  `passed_on` points into argv. */
struct certify_options {
  const char* out;
  const char* passed_on[64];
  int n_passed_on;
  bool library_named; /* --producer or --consumer among them */
  bool help;
};

/* "--out DIR" or "--out=DIR": certify's own option, not the run's. */
static bool takes_out(int argc, char** argv, int* a, struct certify_options* out) {
  if (strcmp(argv[*a], "--out") == 0 && *a + 1 < argc) {
    out->out = argv[++*a];
    return true;
  }
  if (strncmp(argv[*a], "--out=", 6) == 0) {
    out->out = argv[*a] + 6;
    return true;
  }
  return false;
}

/* Reads certify's arguments with the run's own option table (cli/options.c),
 * so that certify takes exactly the run's spelling of each option it
 * passes on, and names an option it refuses rather than calling it
 * unknown.  Returns 0, or -1 with the reason. */
static int parse_certify_options(int argc, char** argv, struct certify_options* out,
                                 struct adc_error* error) {
  memset(out, 0, sizeof(*out));
  for (int a = 1; a < argc; a++) {
    if (strcmp(argv[a], "--help") == 0) {
      out->help = true;
      continue;
    }
    if (takes_out(argc, argv, &a, out)) continue;
    struct adc_option_facts option;
    if (!adc_option_facts(argv[a], &option)) {
      return adc_fail(error, "certify: unknown or incomplete option '%s' (see certify --help)", argv[a]);
    }
    if (!adc_certify_passes_on(option.name)) {
      return adc_fail(error,
                      "certify takes no '%s': a claim covers every rule on every device present, judged "
                      "as the suite judges (the bundle's reports are written to --out)",
                      argv[a]);
    }
    bool value_follows = option.takes_value && option.inline_value == NULL;
    if (value_follows && a + 1 == argc) return adc_fail(error, "certify: %s needs a value", argv[a]);
    if (out->n_passed_on + 2 > (int)(sizeof(out->passed_on) / sizeof(out->passed_on[0]))) {
      return adc_fail(error, "certify: too many options");
    }
    out->passed_on[out->n_passed_on++] = argv[a];
    if (value_follows) out->passed_on[out->n_passed_on++] = argv[++a];
    out->library_named |= strcmp(option.name, "producer") == 0 || strcmp(option.name, "consumer") == 0;
  }
  if (out->help) return 0;
  if (out->out == NULL) return adc_fail(error, "certify needs --out DIR, the folder of the bundle");
  if (!out->library_named) {
    return adc_fail(error, "certify needs --producer and/or --consumer, the libraries certified");
  }
  return 0;
}

/* Makes `dir` the bundle's fresh folder: created, or an empty one taken
 * as it is.  `*created` says which, for cleaning up.  Returns 0, or -1
 * with the reason. */
static int prepare_folder(const char* dir, bool* created, struct adc_error* error) {
  *created = false;
  if (mkdir(dir, 0777) == 0) {
    *created = true;
    return 0;
  }
  if (errno != EEXIST) return adc_fail(error, "cannot create --out folder '%s': %s", dir, strerror(errno));
  DIR* folder = opendir(dir);
  if (folder == NULL)
    return adc_fail(error, "--out '%s' is not a folder certify can use: %s", dir, strerror(errno));
  struct dirent* item;
  bool empty = true;
  while (empty && (item = readdir(folder)) != NULL) {
    empty = strcmp(item->d_name, ".") == 0 || strcmp(item->d_name, "..") == 0;
  }
  closedir(folder);
  if (!empty) {
    return adc_fail(
        error, "--out folder '%s' exists and is not empty: certify writes a bundle into a fresh folder", dir);
  }
  return 0;
}

/* After a run that wrote no claim (bad input): leaves nothing behind. */
static void remove_bundle(const char* dir, bool created) {
  char path[PATH_MAX];
  for (size_t f = 0; f < adc_bundle_file_count; f++) {
    snprintf(path, sizeof(path), "%s/%s", dir, adc_bundle_files[f]);
    unlink(path);
  }
  snprintf(path, sizeof(path), "%s/%s.journal", dir, ADC_BUNDLE_REPORT);
  unlink(path);
  snprintf(path, sizeof(path), "%s/%s", dir, ADC_MANIFEST_NAME);
  unlink(path);
  if (created) rmdir(dir);
}

/* The run's command line: the options passed on as given, then those
 * certify sets (adc_certify_sets), the same for every claim.  `argv` has
 * room for n_passed_on + 8. */
static int run_argv(const struct certify_options* options, const char* report_path, const char* junit_path,
                    char** argv) {
  int n = 0;
  argv[n++] = "adc-conform";
  for (int p = 0; p < options->n_passed_on; p++) argv[n++] = (char*)options->passed_on[p];
  const char* fixed[] = {"--device", "all", "--report-json", report_path, "--junit", junit_path};
  for (size_t f = 0; f < sizeof(fixed) / sizeof(fixed[0]); f++) argv[n++] = (char*)fixed[f];
  argv[n] = NULL;
  return n;
}

/* `argument` for a POSIX shell: as it is when it is plainly one word, else
 * in single quotes. */
static void write_shell_word(FILE* f, const char* argument) {
  if (argument[0] != '\0' &&
      strspn(argument, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./=:,+-@%") ==
          strlen(argument)) {
    fputs(argument, f);
    return;
  }
  fputc('\'', f);
  for (const char* c = argument; *c != '\0'; c++) {
    if (*c == '\'') {
      fputs("'\\''", f);
    } else {
      fputc(*c, f);
    }
  }
  fputc('\'', f);
}

static int write_text_files(const char* dir, int argc, char** argv, struct adc_error* error) {
  char path[PATH_MAX];
  snprintf(path, sizeof(path), "%s/%s", dir, ADC_BUNDLE_COMMAND);
  FILE* f = fopen(path, "w");
  if (f == NULL) return adc_fail(error, "cannot write '%s': %s", path, strerror(errno));
  fputs("adc-conform", f);
  for (int a = 0; a < argc; a++) {
    fputc(' ', f);
    write_shell_word(f, argv[a]);
  }
  fputc('\n', f);
  if (fclose(f) != 0) return adc_fail(error, "cannot write '%s'", path);
  snprintf(path, sizeof(path), "%s/%s", dir, ADC_BUNDLE_SUITE_VERSION);
  f = fopen(path, "w");
  if (f == NULL) return adc_fail(error, "cannot write '%s': %s", path, strerror(errno));
  char text[512];
  adc_bundle_suite_version_text(text, sizeof(text));
  fputs(text, f);
  if (fclose(f) != 0) return adc_fail(error, "cannot write '%s'", path);
  return 0;
}

/* environment.json: the report's environment, on its own, for a reader
 * who wants what the run ran on without the cases. */
static int write_environment(const char* dir, struct adc_error* error) {
  char path[PATH_MAX];
  snprintf(path, sizeof(path), "%s/%s", dir, ADC_BUNDLE_REPORT);
  cJSON* report = adc_read_json_file(path, error);
  if (report == NULL) return -1;
  const cJSON* environment = cJSON_GetObjectItemCaseSensitive(report, "environment");
  snprintf(path, sizeof(path), "%s/%s", dir, ADC_BUNDLE_ENVIRONMENT);
  int result = environment == NULL ? adc_fail(error, "the report has no environment")
                                   : adc_write_json_file(path, environment, error);
  cJSON_Delete(report);
  return result;
}

static int write_bundle(const char* dir, int argc, char** argv, struct adc_error* error) {
  if (write_text_files(dir, argc, argv, error) != 0 || write_environment(dir, error) != 0) return -1;
  return adc_manifest_write(dir, adc_bundle_files, adc_bundle_file_count, error);
}

int adc_certify_command(int argc, char** argv) {
  struct certify_options options;
  struct adc_error error;
  if (parse_certify_options(argc, argv, &options, &error) != 0) return adc_cli_bad_input(&error);
  if (options.help) {
    print_certify_usage();
    return EXIT_SUCCESS;
  }
  bool created = false;
  if (prepare_folder(options.out, &created, &error) != 0) return adc_cli_bad_input(&error);
  char report_path[PATH_MAX], junit_path[PATH_MAX];
  snprintf(report_path, sizeof(report_path), "%s/%s", options.out, ADC_BUNDLE_REPORT);
  snprintf(junit_path, sizeof(junit_path), "%s/%s", options.out, ADC_BUNDLE_JUNIT);
  char* run_arguments[sizeof(options.passed_on) / sizeof(options.passed_on[0]) + 8];
  int run_argc = run_argv(&options, report_path, junit_path, run_arguments);
  int exit_code = adc_run_command(run_argc, run_arguments);
  if (exit_code == ADC_EXIT_BAD_INPUT) {
    /* The run said why; a bundle of a run that did not happen claims nothing. */
    remove_bundle(options.out, created);
    return exit_code;
  }
  /* A failing run is a claim that does not hold, still written for the
   * record: verify names the cases that break it. */
  if (write_bundle(options.out, argc, argv, &error) != 0) {
    remove_bundle(options.out, created);
    return adc_cli_bad_input(&error);
  }
  printf("Bundle written to %s; check it with: adc-conform verify %s\n", options.out, options.out);
  return exit_code;
}
