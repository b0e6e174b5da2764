/* adc-conform merge: the reports of a run's shards (--shard INDEX/COUNT,
 * run on one machine or several) made into the report of the whole run
 * (report/report_merge.h), judged again as a run is judged, with the
 * run's console verdict and exit status. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/subcommands.h"
#include "report/console_style.h"
#include "report/json_file.h"
#include "report/report.h"
#include "report/report_merge.h"

static void print_merge_usage(void) {
  printf(
      "Usage: adc-conform merge REPORT.json... [--report-json FILE]\n"
      "\n"
      "Merges the JSON reports of the shards of one run (--shard 1/N to N/N) into the\n"
      "report that the run unsharded would have written: its cases in the run's order,\n"
      "its summary counted again, and under \"merged_from\" each shard's report path,\n"
      "command line and environment.  Every shard must be given, once; the reports must\n"
      "come from this adc-conform's build (version and commit) and share their command\n"
      "line but for --report-json, --junit, --tap, --shard, --verbose and --jobs.  A\n"
      "report of a run without --shard is a whole run: it merges only alone.\n"
      "\n"
      "  --report-json FILE          write the merged report (schema:\n"
      "                              harness/report/report.schema.json)\n"
      "  --help                      this text\n"
      "\n"
      "Exit status: as the unsharded run's (0, 1, 3, or 128 + the signal when a shard\n"
      "was interrupted); 2 when the reports cannot be merged, one line saying why.\n");
}

/* The command's options; the report paths are what getopt_long leaves. */
struct merge_options {
  const char* report_json; /* NULL when not given */
  bool help;
};

static int parse_merge_options(int argc, char** argv, struct merge_options* out, struct adc_error* error) {
  static const struct option long_options[] = {
      {"report-json", required_argument, NULL, 'j'},
      {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0},
  };
  out->report_json = NULL;
  out->help = false;
  opterr = 0;
  int option;
  while ((option = getopt_long(argc, argv, "", long_options, NULL)) != -1) {
    switch (option) {
      case 'j':
        out->report_json = optarg;
        break;
      case 'h':
        out->help = true;
        break;
      default:
        return adc_fail(error, "merge: unknown or incomplete option '%s' (see merge --help)",
                        argv[optind - 1]);
    }
  }
  return 0;
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
  char shards_text[64];
  if (merged.shard_count == 1) {
    snprintf(shards_text, sizeof(shards_text), "the report of an unsharded run");
  } else {
    snprintf(shards_text, sizeof(shards_text), "%d shards' reports", merged.shard_count);
  }
  /* "Merged 3 shards' reports into ALL.json: 57 cases: 50 pass, 7 not_supported." */
  printf("Merged %s%s%s: %zu cases", shards_text, options.report_json != NULL ? " into " : "",
         options.report_json != NULL ? options.report_json : "", record->summary.cases);
  adc_print_status_counts(stdout, record);
  adc_print_verdict(stdout, record, adc_console_wants_colour(stdout));
  int exit_code = record->exit_status;
  adc_merged_report_free(&merged);
  return exit_code;
}
