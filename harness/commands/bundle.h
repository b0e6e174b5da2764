/* A certification bundle: the folder `adc-conform certify --out DIR`
 * writes and `adc-conform verify DIR` checks (CONFORMANCE.md, "Making a
 * conformance claim").  Its files, each listed once in its manifest
 * (manifest.h), and nothing else but the manifest itself:
 *   report.json        the JSON report of the run (the canonical record)
 *   report.junit.xml   the JUnit report of the same run
 *   command.txt        the certify command line as typed, shell-quoted
 *   suite-version.txt  adc_bundle_suite_version_text: version and commit
 *   environment.json   the report's "environment", on its own */
#ifndef ADC_REPORT_BUNDLE_H
#define ADC_REPORT_BUNDLE_H

#include <stdbool.h>
#include <stddef.h>

#include "support/error.h"
#include "support/manifest.h"
#include "support/reason_list.h"

#define ADC_BUNDLE_REPORT "report.json"
#define ADC_BUNDLE_JUNIT "report.junit.xml"
#define ADC_BUNDLE_COMMAND "command.txt"
#define ADC_BUNDLE_SUITE_VERSION "suite-version.txt"
#define ADC_BUNDLE_ENVIRONMENT "environment.json"

/* The files above, in manifest order (static storage). */
extern const char* const adc_bundle_files[];
extern const size_t adc_bundle_file_count;

/* The options of the run (cli/options.c, by full name) that certify takes
 * from its own command line and passes on as they are: those choosing the
 * libraries, --timeout and --jobs.  Every other is refused. */
bool adc_certify_passes_on(const char* option_name);
/* Those certify sets itself, the same for every claim: --device (all),
 * --report-json and --junit (into the bundle).  A bundle's run has these
 * and those passed on, and no other (verify). */
bool adc_certify_sets(const char* option_name);

/* What suite-version.txt holds for this build of the suite:
 * "adc-conform <version>\ngit commit <commit>\n", into the caller's
 * `text`. */
void adc_bundle_suite_version_text(char* text, size_t size);

/* Checks folder `dir` against `manifest` (read from it): every bundle file
 * listed exactly once, no name listed twice, every name listed present
 * with its digest, and no file in `dir` but those listed and the manifest.
 * Adds a line to `reasons` for each shortfall.  Returns 0, or -1 with the
 * reason when `dir` cannot be listed. */
int adc_check_bundle_files(const char* dir, const struct adc_manifest* manifest,
                           struct adc_reason_list* reasons, struct adc_error* error);

#endif /* ADC_REPORT_BUNDLE_H */
