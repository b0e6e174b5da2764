/* adc-conform merge: the reports of a run's shards (--shard INDEX/COUNT,
 * run on one machine or several) made into the record of the whole run
 * (commands/report_merge.h), and from it every report the run writes, by
 * the run's own writers and options, with its console verdict and exit
 * status. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "commands/report_merge.h"
#include "commands/subcommands.h"
#include "report/console_style.h"
#include "report/json_file.h"
#include "report/matrix_report.h"
#include "report/report.h"
#include "report/report_outputs.h"

static void print_merge_usage(void) {
  printf(
      "Usage: adc-conform merge REPORT.json... [--report-json FILE] [--junit FILE] [--tap]\n"
      "                         [--verbose]\n"
      "\n"
      "Merges the JSON reports of the shards of one run (--shard 1/N to N/N) into the\n"
      "report that the run unsharded would have written: its cases in the run's order,\n"
      "its summary counted again, and under \"merged_from\" each shard's report path,\n"
      "command line and environment.  Every shard must be given, once; the reports must\n"
      "come from this adc-conform's build (version and commit) and share their command\n"
      "line but for --report-json, --junit, --tap, --shard, --verbose and --jobs.  A\n"
      "report of a run without --shard is a whole run: it merges only alone.  Every\n"
      "report is written as the unsharded run writes it, from the merged cases.  The\n"
      "shards of an interop matrix (adc-conform matrix --shard) merge so into the\n"
      "matrix's report, each pair's cases in its order, and its page with --html.\n"
      "\n"
      "  --report-json FILE          write the merged report (schema:\n"
      "                              harness/report/report.schema.json; a matrix's:\n"
      "                              harness/report/matrix.schema.json)\n"
      "  --html FILE                 a matrix's shards: its page, as adc-conform matrix --html\n");
  adc_print_report_format_help(stdout);
  printf(
      "  --verbose                   first one console line per case, as a run's --verbose\n"
      "  --help                      this text\n"
      "\n"
      "With GITHUB_ACTIONS=true, the run's annotations follow on the console's stream\n"
      "and its summary is appended to $GITHUB_STEP_SUMMARY, as a run does.\n"
      "\n"
      "Exit status: as the unsharded run's (0, 1, 3, or 128 + the signal when a shard\n"
      "was interrupted); 2 when the reports cannot be merged, one line saying why.\n");
}

/* The command's options; the report paths are what getopt_long leaves. */
struct merge_options {
  const char* report_json; /* NULL when not given */
  const char* html;        /* a matrix's page; NULL when not given */
  struct adc_report_outputs outputs;
  bool verbose;
  bool help;
};

static int parse_merge_options(int argc, char** argv, struct merge_options* out, struct adc_error* error) {
  /* Its own, then one per report format (report/report_outputs.h), whose
   * values start at FORMAT. */
  enum { FORMAT = 256 };
  struct option long_options[4 + ADC_REPORT_FORMAT_COUNT + 1] = {
      {"report-json", required_argument, NULL, 'j'},
      {"html", required_argument, NULL, 'p'},
      {"verbose", no_argument, NULL, 'v'},
      {"help", no_argument, NULL, 'h'},
  };
  for (size_t i = 0; i < ADC_REPORT_FORMAT_COUNT; i++) {
    long_options[4 + i] = adc_report_format_option(i, FORMAT + (int)i);
  }
  *out = (struct merge_options){0};
  opterr = 0;
  int option;
  while ((option = getopt_long(argc, argv, "", long_options, NULL)) != -1) {
    switch (option) {
      case 'j':
        out->report_json = optarg;
        break;
      case 'v':
        out->verbose = true;
        break;
      case 'p':
        out->html = optarg;
        break;
      case 'h':
        out->help = true;
        break;
      default:
        if (option >= FORMAT && option < FORMAT + ADC_REPORT_FORMAT_COUNT) {
          adc_report_format_chosen(&out->outputs, (size_t)(option - FORMAT), optarg);
          break;
        }
        return adc_fail(error, "merge: unknown or incomplete option '%s' (see merge --help)",
                        argv[optind - 1]);
    }
  }
  return 0;
}

/* The reports of a merged matrix: its JSON and page where asked, and its
 * console; the matrix's exit status. */
static int report_merged_matrix(const struct merge_options* options, const struct adc_merged_report* merged) {
  struct adc_error error;
  if (adc_report_outputs_any(&options->outputs)) {
    adc_fail(&error, "merge: a matrix's shards merge into --report-json and --html alone");
    return adc_cli_bad_input(&error);
  }
  if (options->report_json != NULL) {
    cJSON* root = adc_merged_report_json(merged);
    int written = adc_write_json_file(options->report_json, root, &error);
    cJSON_Delete(root);
    if (written != 0) return adc_cli_bad_input(&error);
  }
  if (options->html != NULL && adc_write_matrix_html(options->html, &merged->matrix, &error) != 0)
    return adc_cli_bad_input(&error);
  adc_print_matrix_console(stdout, &merged->matrix, options->verbose, adc_console_wants_colour(stdout));
  printf("Merged %d shards' reports of a matrix%s%s\n", merged->shard_count,
         options->report_json != NULL ? " into " : "",
         options->report_json != NULL ? options->report_json : "");
  return merged->matrix.exit_status;
}

int adc_merge_command(int argc, char** argv) {
  struct merge_options options;
  struct adc_error error;
  if (parse_merge_options(argc, argv, &options, &error) != 0) return adc_cli_bad_input(&error);
  if (options.help) {
    print_merge_usage();
    return EXIT_SUCCESS;
  }
  if (optind >= argc) {
    adc_fail(&error, "merge: name the shards' JSON reports (see merge --help)");
    return adc_cli_bad_input(&error);
  }
  struct adc_merged_report merged;
  if (adc_merge_reports((const char* const*)argv + optind, (size_t)(argc - optind), &merged, &error) != 0) {
    return adc_cli_bad_input(&error);
  }
  if (merged.is_matrix) {
    int exit_code = report_merged_matrix(&options, &merged);
    adc_merged_report_free(&merged);
    return exit_code;
  }
  if (options.html != NULL) {
    adc_merged_report_free(&merged);
    adc_fail(&error, "merge: --html writes a matrix's page; these are a run's reports");
    return adc_cli_bad_input(&error);
  }
  const struct adc_run_record* record = &merged.record;
  if (options.report_json != NULL) {
    cJSON* root = adc_merged_report_json(&merged);
    int written = adc_write_json_file(options.report_json, root, &error);
    cJSON_Delete(root);
    if (written != 0) {
      adc_merged_report_free(&merged);
      return adc_cli_bad_input(&error);
    }
  }
  /* With --tap, standard output carries TAP alone, as in a run. */
  FILE* console = adc_report_outputs_use_stdout(&options.outputs) ? stderr : stdout;
  bool colour = adc_console_wants_colour(console);
  if (options.verbose) adc_print_console_cases(console, record, colour);
  char shards_text[64];
  if (merged.shard_count == 1) {
    snprintf(shards_text, sizeof(shards_text), "the report of an unsharded run");
  } else {
    snprintf(shards_text, sizeof(shards_text), "%d shards' reports", merged.shard_count);
  }
  /* "Merged 3 shards' reports into ALL.json: 57 cases: 50 pass, 7 not_supported." */
  fprintf(console, "Merged %s%s%s: %zu cases", shards_text, options.report_json != NULL ? " into " : "",
          options.report_json != NULL ? options.report_json : "", record->summary.cases);
  adc_print_status_counts(console, record);
  adc_print_verdict(console, record, colour);
  int exit_code = record->exit_status;
  if (adc_write_report_outputs(record, &options.outputs, console, &error) != 0) {
    exit_code = adc_cli_bad_input(&error);
  }
  adc_merged_report_free(&merged);
  return exit_code;
}
