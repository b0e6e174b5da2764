#include "commands/report_merge_checks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/version.h"

int adc_check_same_suite(const struct adc_read_report* reports, size_t n, struct adc_error* error) {
  const struct adc_read_report* first = &reports[0];
  for (size_t r = 1; r < n; r++) {
    if (strcmp(reports[r].suite_version, first->suite_version) != 0 ||
        strcmp(reports[r].git_commit, first->git_commit) != 0) {
      return adc_fail(error,
                      "%s: written by adc-conform %s at commit %s, but %s by adc-conform %s at commit %s: "
                      "shards of one run come from one build",
                      reports[r].path, reports[r].suite_version, reports[r].git_commit, first->path,
                      first->suite_version, first->git_commit);
    }
  }
  if (strcmp(first->suite_version, ADC_VERSION) != 0 || strcmp(first->git_commit, ADC_GIT_COMMIT) != 0) {
    return adc_fail(error,
                    "%s: written by adc-conform %s at commit %s, but this is adc-conform %s at commit %s: "
                    "merge with the build that ran the shards (its rule catalogue orders the cases)",
                    first->path, first->suite_version, first->git_commit, ADC_VERSION, ADC_GIT_COMMIT);
  }
  return 0;
}

int adc_check_same_command(const struct adc_read_report* reports, size_t n, struct adc_error* error) {
  const struct adc_shard_command_line* first = &reports[0].shard;
  for (size_t r = 1; r < n; r++) {
    const struct adc_shard_command_line* other = &reports[r].shard;
    size_t a = 0;
    while (a < first->n_deciding && a < other->n_deciding &&
           strcmp(first->deciding[a], other->deciding[a]) == 0)
      a++;
    if (a == first->n_deciding && a == other->n_deciding) continue;
    return adc_fail(error,
                    "%s: its command line differs from %s's in more than the output and sharding options "
                    "(--report-json, --junit, --tap, --shard, --verbose, --jobs): '%s' where %s has '%s'",
                    reports[r].path, reports[0].path,
                    a < other->n_deciding ? other->deciding[a] : "(nothing)", reports[0].path,
                    a < first->n_deciding ? first->deciding[a] : "(nothing)");
  }
  return 0;
}

/* The shards of a COUNT-way split that no report holds, as "3/4, 5/8"
 * (cut short where they are many) into `text`; returns how many there are. */
static size_t describe_missing(const struct adc_read_report* reports, size_t n, int count, char* text,
                               size_t size) {
  size_t missing = 0, used = 0;
  text[0] = '\0';
  for (int index = 1; index <= count; index++) {
    bool given = false;
    for (size_t r = 0; r < n && !given; r++) given = reports[r].shard.shard_index == index;
    if (given) continue;
    if (used < size) {
      used += (size_t)snprintf(text + used, size - used, "%s%d/%d", missing ? ", " : "", index, count);
    }
    missing++;
  }
  if (used >= size && size > 4) snprintf(text + size - 4, 4, "...");
  return missing;
}

int adc_check_shards(const struct adc_read_report* reports, size_t n, struct adc_error* error) {
  int count = reports[0].shard.shard_count;
  for (size_t r = 0; r < n; r++) {
    const struct adc_shard_command_line* shard = &reports[r].shard;
    if (n > 1 && shard->shard_count == 1) {
      return adc_fail(error,
                      "%s: a run without --shard (or with --shard 1/1) holds every case already: "
                      "merge it alone, not with other reports",
                      reports[r].path);
    }
    if (shard->shard_count != count) {
      return adc_fail(error, "%s: shard %d/%d, but %s is shard %d/%d: shards of different splits",
                      reports[r].path, shard->shard_index, shard->shard_count, reports[0].path,
                      reports[0].shard.shard_index, count);
    }
    for (size_t earlier = 0; earlier < r; earlier++) {
      if (reports[earlier].shard.shard_index == shard->shard_index) {
        return adc_fail(error, "%s: shard %d/%d given twice (%s is shard %d/%d too)", reports[r].path,
                        shard->shard_index, count, reports[earlier].path, shard->shard_index, count);
      }
    }
  }
  char missing_text[256];
  size_t missing = describe_missing(reports, n, count, missing_text, sizeof(missing_text));
  if (missing == 0) return 0;
  char given_text[512];
  size_t used = 0;
  for (size_t r = 0; r < n && used < sizeof(given_text); r++) {
    used += (size_t)snprintf(given_text + used, sizeof(given_text) - used, "%s%s (%d/%d)", r ? ", " : "",
                             reports[r].path, reports[r].shard.shard_index, count);
  }
  return adc_fail(error, "shard%s %s of the run %s missing: the reports given are %s", missing > 1 ? "s" : "",
                  missing_text, missing > 1 ? "are" : "is", given_text);
}
