#include "commands/subcommands.h"

#include <stdio.h>
#include <string.h>

#include "runner/expectations.h"

int adc_cli_bad_input(const struct adc_error* error) {
  fprintf(stderr, "adc-conform: error: %s\n", error->message);
  return ADC_EXIT_BAD_INPUT;
}

void adc_warn_unmatched_expectations(const struct adc_expectations* expectations, const char* what) {
  for (size_t e = 0; e < expectations->n_entries; e++) {
    const struct adc_expectation* entry = &expectations->entries[e];
    if (entry->matched_cases > 0) continue;
    fprintf(stderr, "adc-conform: warning: %s:%d: '%s' matches no case of this %s\n", expectations->path,
            entry->line, entry->glob, what);
  }
}

/* Every command but the main one, which takes no name. */
static const struct adc_subcommand subcommands[] = {
    {"merge", adc_merge_command, "merge shard reports into one report"},
    {"certify", adc_certify_command, "every rule, every device: a conformance bundle in --out DIR"},
    {"verify", adc_verify_command, "check a certify bundle: complete, unmodified, claim holds"},
    {"matrix", adc_matrix_command, "every library's exports into every library's imports: one report"},
    {NULL, NULL, NULL},
};

const struct adc_subcommand* adc_subcommand_find(const char* name) {
  for (size_t i = 0; subcommands[i].name != NULL; i++) {
    if (strcmp(subcommands[i].name, name) == 0) return &subcommands[i];
  }
  return NULL;
}

void adc_print_subcommands(void) {
  if (subcommands[0].name == NULL) return;
  printf("\nCommands (adc-conform COMMAND --help for each):\n");
  for (size_t i = 0; subcommands[i].name != NULL; i++) {
    printf("  %-26s  %s\n", subcommands[i].name, subcommands[i].summary);
  }
}
