#include "commands/shard_command_line.h"

#include <stdlib.h>
#include <string.h>

#include "cli/options.h"
#include "runner/case_plan.h"

/* The options `adc-conform matrix` takes besides the main command's
 * (commands/matrix_command.c), which the main table does not hold: its
 * libraries decide what runs; its page is an output. */
static bool matrix_option_facts(const char* argument, struct adc_option_facts* facts) {
  static const struct {
    const char* name;
    bool output_only;
  } matrix_options[] = {{"library", false}, {"html", true}};
  for (size_t o = 0; o < sizeof(matrix_options) / sizeof(matrix_options[0]); o++) {
    size_t length = strlen(matrix_options[o].name);
    if (strncmp(argument, "--", 2) != 0 || strncmp(argument + 2, matrix_options[o].name, length) != 0)
      continue;
    char after = argument[2 + length];
    if (after != '\0' && after != '=') continue;
    *facts = (struct adc_option_facts){.name = matrix_options[o].name,
                                       .takes_value = true,
                                       .inline_value = after == '=' ? argument + 3 + length : NULL,
                                       .output_only = matrix_options[o].output_only};
    return true;
  }
  return false;
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
  /* Read with the main command's own option table (cli/options.c), so
   * that an option's value is never taken for an option. */
  for (int a = 1; a < argc; a++) {
    struct adc_option_facts option;
    bool named = matrix_option_facts(argv[a], &option) || adc_option_facts(argv[a], &option);
    bool value_follows = named && option.takes_value && option.inline_value == NULL;
    if (value_follows && a + 1 == argc) {
      adc_shard_command_line_free(out);
      return adc_fail(error, "--%s has no value", option.name);
    }
    if (!named || !option.output_only) {
      out->deciding[out->n_deciding++] = argv[a];
      if (value_follows) out->deciding[out->n_deciding++] = argv[++a];
      continue;
    }
    const char* value = value_follows ? argv[a + 1] : option.inline_value;
    bool is_shard = strcmp(option.name, "shard") == 0;
    out->is_shard_argument[a] = is_shard;
    if (value_follows) out->is_shard_argument[++a] = is_shard;
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
