/* adc-conform verify DIR: whether the bundle certify wrote in DIR is a
 * conformance claim that holds: complete and unmodified (commands/bundle.h),
 * made by this suite version, with every MUST case passed or not
 * applicable, and every side certified shown to conform by the run's own
 * verdict (commands/claim_check.h).  Every reason it does not hold is
 * printed, not only the first.  Exit status: 0 the claim holds; 1 it does
 * not; 2 when DIR is no bundle at all (missing, without a readable,
 * well-formed manifest). */
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands/bundle.h"
#include "commands/claim_check.h"
#include "commands/subcommands.h"
#include "report/json_file.h"
#include "support/version.h"

static void print_verify_usage(void) {
  printf(
      "Usage: adc-conform verify DIR\n"
      "\n"
      "Checks the bundle `adc-conform certify --out DIR` wrote: every file listed once in\n"
      "SHA256SUMS with its digest, no other file; made by this suite version and commit;\n"
      "a certify run (every rule, every device); every MUST case passed or not_supported,\n"
      "and every side certified shown to conform, as the run judges it.\n"
      "Prints what the claim covers and every reason it does not hold.\n"
      "\n"
      "Exit status: 0 the claim holds; 1 it does not; 2 DIR is not a bundle (missing, or\n"
      "its manifest missing or malformed).\n");
}

/* suite-version.txt says what this suite would write. */
static void check_suite_version_file(const char* dir, struct adc_reason_list* reasons) {
  char path[PATH_MAX];
  snprintf(path, sizeof(path), "%s/%s", dir, ADC_BUNDLE_SUITE_VERSION);
  FILE* f = fopen(path, "r");
  if (f == NULL) return; /* missing: the manifest check says so */
  char text[512] = "";
  size_t n = fread(text, 1, sizeof(text) - 1, f);
  text[n] = '\0';
  fclose(f);
  char expected[512];
  adc_bundle_suite_version_text(expected, sizeof(expected));
  if (strcmp(text, expected) != 0) {
    adc_reason_add(reasons, "%s: does not name this suite (adc-conform %s, git commit %s)",
                   ADC_BUNDLE_SUITE_VERSION, ADC_VERSION, ADC_GIT_COMMIT);
  }
}

/* environment.json is the report's environment. */
static void check_environment_file(const char* dir, const cJSON* report, struct adc_reason_list* reasons) {
  char path[PATH_MAX];
  snprintf(path, sizeof(path), "%s/%s", dir, ADC_BUNDLE_ENVIRONMENT);
  struct adc_error error;
  cJSON* environment = adc_read_json_file(path, &error);
  if (environment == NULL) return; /* missing: the manifest check says so */
  if (!cJSON_Compare(environment, cJSON_GetObjectItemCaseSensitive(report, "environment"), true)) {
    adc_reason_add(reasons, "%s: differs from the environment of %s", ADC_BUNDLE_ENVIRONMENT,
                   ADC_BUNDLE_REPORT);
  }
  cJSON_Delete(environment);
}

/* The claim in the report, and the files that repeat parts of it. */
static void check_report(const char* dir, struct adc_reason_list* reasons, struct adc_reason_list* scope) {
  char path[PATH_MAX];
  snprintf(path, sizeof(path), "%s/%s", dir, ADC_BUNDLE_REPORT);
  struct adc_error error;
  cJSON* report = adc_read_json_file(path, &error);
  if (report == NULL) {
    adc_reason_add(reasons, "%s: no claim to judge: %s", ADC_BUNDLE_REPORT, error.message);
    return;
  }
  adc_check_claim(report, ADC_VERSION, ADC_GIT_COMMIT, reasons, scope);
  check_environment_file(dir, report, reasons);
  cJSON_Delete(report);
}

int adc_verify_command(int argc, char** argv) {
  struct adc_error error;
  if (argc == 2 && strcmp(argv[1], "--help") == 0) {
    print_verify_usage();
    return EXIT_SUCCESS;
  }
  if (argc != 2 || strncmp(argv[1], "--", 2) == 0) {
    adc_fail(&error, "verify takes one argument, the bundle's folder (see verify --help)");
    return adc_cli_bad_input(&error);
  }
  const char* dir = argv[1];
  struct stat info;
  if (stat(dir, &info) != 0 || !S_ISDIR(info.st_mode)) {
    adc_fail(&error, "'%s' is not a folder: verify takes the folder certify wrote", dir);
    return adc_cli_bad_input(&error);
  }
  char manifest_path[PATH_MAX];
  snprintf(manifest_path, sizeof(manifest_path), "%s/%s", dir, ADC_MANIFEST_NAME);
  struct adc_manifest manifest;
  if (adc_manifest_read(manifest_path, &manifest, &error) != 0) return adc_cli_bad_input(&error);
  struct adc_reason_list reasons = {0}, scope = {0};
  int listed = adc_check_bundle_files(dir, &manifest, &reasons, &error);
  adc_manifest_free(&manifest);
  if (listed != 0) {
    adc_reason_list_free(&reasons);
    return adc_cli_bad_input(&error);
  }
  check_suite_version_file(dir, &reasons);
  check_report(dir, &reasons, &scope);

  printf("Bundle %s\n", dir);
  for (size_t i = 0; i < scope.count; i++) printf("  %s\n", scope.lines[i]);
  for (size_t i = 0; i < reasons.count; i++) printf("NOT VALID: %s\n", reasons.lines[i]);
  if (reasons.count == 0) {
    printf(
        "VALID CLAIM: unmodified, made by this suite, every side certified conforms (every MUST case passed "
        "or not applicable).\n");
  } else {
    printf("CLAIM DOES NOT HOLD: %zu reason%s above.\n", reasons.count, reasons.count == 1 ? "" : "s");
  }
  int exit_code = reasons.count == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
  adc_reason_list_free(&reasons);
  adc_reason_list_free(&scope);
  return exit_code;
}
