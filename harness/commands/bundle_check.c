#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "commands/bundle.h"
#include "support/version.h"

const char* const adc_bundle_files[] = {ADC_BUNDLE_REPORT, ADC_BUNDLE_JUNIT, ADC_BUNDLE_COMMAND,
                                        ADC_BUNDLE_SUITE_VERSION, ADC_BUNDLE_ENVIRONMENT};
const size_t adc_bundle_file_count = sizeof(adc_bundle_files) / sizeof(adc_bundle_files[0]);

static bool named_in(const char* name, const char* const* names, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (strcmp(name, names[i]) == 0) return true;
  }
  return false;
}

bool adc_certify_passes_on(const char* option_name) {
  static const char* const passed_on[] = {"producer",        "consumer", "prefix", "producer-prefix",
                                          "consumer-prefix", "timeout",  "jobs",   "isolation"};
  return named_in(option_name, passed_on, sizeof(passed_on) / sizeof(passed_on[0]));
}

bool adc_certify_sets(const char* option_name) {
  static const char* const set[] = {"device", "report-json", "junit"};
  return named_in(option_name, set, sizeof(set) / sizeof(set[0]));
}

void adc_bundle_suite_version_text(char* text, size_t size) {
  snprintf(text, size, "adc-conform %s\ngit commit %s\n", ADC_VERSION, ADC_GIT_COMMIT);
}

static size_t times_listed(const struct adc_manifest* manifest, const char* name) {
  size_t times = 0;
  for (size_t i = 0; i < manifest->count; i++) times += strcmp(manifest->entries[i].name, name) == 0;
  return times;
}

/* The first line listing `name`, for a name listed twice. */
static bool listed_before(const struct adc_manifest* manifest, size_t index) {
  for (size_t i = 0; i < index; i++) {
    if (strcmp(manifest->entries[i].name, manifest->entries[index].name) == 0) return true;
  }
  return false;
}

static void check_listing(const struct adc_manifest* manifest, struct adc_reason_list* reasons) {
  for (size_t f = 0; f < adc_bundle_file_count; f++) {
    if (times_listed(manifest, adc_bundle_files[f]) == 0) {
      adc_reason_add(reasons, "%s: not listed in %s", adc_bundle_files[f], ADC_MANIFEST_NAME);
    }
  }
  for (size_t i = 0; i < manifest->count; i++) {
    const struct adc_manifest_entry* entry = &manifest->entries[i];
    if (listed_before(manifest, i)) {
      adc_reason_add(reasons, "%s: listed again on line %d of %s", entry->name, entry->line,
                     ADC_MANIFEST_NAME);
    }
  }
}

static void check_digests(const char* dir, const struct adc_manifest* manifest,
                          struct adc_reason_list* reasons) {
  for (size_t i = 0; i < manifest->count; i++) {
    const struct adc_manifest_entry* entry = &manifest->entries[i];
    if (listed_before(manifest, i)) continue;
    char path[PATH_MAX];
    snprintf(path, sizeof(path), "%s/%s", dir, entry->name);
    char actual[ADC_SHA256_HEX_SIZE];
    struct adc_error error;
    if (adc_sha256_file_hex(path, actual, &error) != 0) {
      adc_reason_add(reasons, "%s: listed in %s but missing (%s)", entry->name, ADC_MANIFEST_NAME,
                     error.message);
    } else if (strcasecmp(actual, entry->hex) != 0) {
      adc_reason_add(reasons, "%s: modified: its SHA-256 is %s, %s line %d says %s", entry->name, actual,
                     ADC_MANIFEST_NAME, entry->line, entry->hex);
    }
  }
}

int adc_check_bundle_files(const char* dir, const struct adc_manifest* manifest,
                           struct adc_reason_list* reasons, struct adc_error* error) {
  DIR* folder = opendir(dir);
  if (folder == NULL) return adc_fail(error, "cannot list '%s': %s", dir, strerror(errno));
  check_listing(manifest, reasons);
  check_digests(dir, manifest, reasons);
  /* What is in the folder but not in the manifest: a claim is exactly the
   * files listed, so that nothing unverified travels with it. */
  struct dirent* item;
  while ((item = readdir(folder)) != NULL) {
    const char* name = item->d_name;
    if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0 || strcmp(name, ADC_MANIFEST_NAME) == 0) continue;
    if (times_listed(manifest, name) == 0) {
      adc_reason_add(reasons, "%s: in the bundle but not listed in %s", name, ADC_MANIFEST_NAME);
    }
  }
  closedir(folder);
  return 0;
}
