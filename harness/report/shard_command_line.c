#include "report/shard_command_line.h"

#include <stdlib.h>
#include <string.h>

#include "runner/case_plan.h"

/* The options of the main command (cli/options.c) that change only where
 * the results go, how they are shown or how the cases are shared out:
 * shards of one run may give them differently. */
static const struct free_option {
  const char* name;
  bool takes_value;
} free_options[] = {
    {"report-json", true}, {"junit", true}, {"tap", false},
    {"shard", true},       {"jobs", true},  {"verbose", false},
};
enum { N_FREE_OPTIONS = sizeof(free_options) / sizeof(free_options[0]) };

/* The free option that `argument` ("--NAME" or "--NAME=VALUE") names, NULL
 * for any other.  getopt_long takes any unambiguous prefix of a long name;
 * since the run accepted its command line, a prefix of a free option's name
 * is that option (no other option's name begins as a free one's does). */
static const struct free_option* free_option_named(const char* argument) {
  if (strncmp(argument, "--", 2) != 0 || argument[2] == '\0') return NULL;
  const char* name = argument + 2;
  size_t length = strcspn(name, "=");
  for (size_t o = 0; o < N_FREE_OPTIONS; o++) {
    if (length <= strlen(free_options[o].name) && strncmp(free_options[o].name, name, length) == 0) {
      return &free_options[o];
    }
  }
  return NULL;
}

int adc_shard_command_line_split(int argc, const char* const* argv, struct adc_shard_command_line* out,
                                 struct adc_error* error) {
  memset(out, 0, sizeof(*out));
  out->shard_index = 1;
  out->shard_count = 1;
  out->deciding = calloc((size_t)argc + 1, sizeof(*out->deciding));
  out->is_shard_argument = calloc((size_t)argc + 1, sizeof(*out->is_shard_argument));
  if (out->deciding == NULL || out->is_shard_argument == NULL) {
    adc_shard_command_line_free(out);
    return adc_fail(error, "out of memory");
  }
  for (int a = 1; a < argc; a++) {
    const struct free_option* option = free_option_named(argv[a]);
    if (option == NULL) {
      out->deciding[out->n_deciding++] = argv[a];
      continue;
    }
    const char* equals = strchr(argv[a], '=');
    const char* value = equals != NULL ? equals + 1 : NULL;
    bool is_shard = strcmp(option->name, "shard") == 0;
    out->is_shard_argument[a] = is_shard;
    if (option->takes_value && value == NULL) {
      if (a + 1 == argc) {
        adc_shard_command_line_free(out);
        return adc_fail(error, "--%s has no value", option->name);
      }
      value = argv[++a];
      out->is_shard_argument[a] = is_shard;
    }
    /* As getopt_long reads it, the last --shard counts. */
    if (is_shard && adc_parse_shard(value, &out->shard_index, &out->shard_count, error) != 0) {
      adc_shard_command_line_free(out);
      return -1;
    }
    out->sharded = out->sharded || is_shard;
  }
  return 0;
}

void adc_shard_command_line_free(struct adc_shard_command_line* line) {
  free(line->deciding);
  free(line->is_shard_argument);
  line->deciding = NULL;
  line->is_shard_argument = NULL;
  line->n_deciding = 0;
}
