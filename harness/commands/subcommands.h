/* The commands of adc-conform.  The first argument picks one by name
 * ("adc-conform merge ..."); without one of these names the arguments are
 * the main command's options (run_command.c). */
#ifndef ADC_SUBCOMMANDS_H
#define ADC_SUBCOMMANDS_H

#include "support/error.h"

/* The exit status of bad input (an unknown option, a library that does not
 * load, a malformed file): one line on standard error names the problem. */
#define ADC_EXIT_BAD_INPUT 2

/* Prints "adc-conform: error: <message>" and returns ADC_EXIT_BAD_INPUT. */
int adc_cli_bad_input(const struct adc_error* error);

/* Says on standard error each entry of `expectations` that matched no
 * case of this `what` ("run", "matrix"): likely stale or misspelt (or
 * left out by --filter), but not a failure. */
struct adc_expectations;
void adc_warn_unmatched_expectations(const struct adc_expectations* expectations, const char* what);

/* A command: its arguments start with its own name, as argv does. */
struct adc_subcommand {
  const char* name;
  int (*run)(int argc, char** argv);
  const char* summary; /* one line for --help */
};

/* The command named `name`; NULL when it names none. */
const struct adc_subcommand* adc_subcommand_find(const char* name);
/* Prints the commands and their summaries, for --help. */
void adc_print_subcommands(void);

/* The main command: runs the rules (options.h). */
int adc_run_command(int argc, char** argv);

/* merge: the JSON reports of a run's shards made into one (merge_command.c). */
int adc_merge_command(int argc, char** argv);
/* adc-conform certify (certify_command.c): the main command with its
 * options fixed, its reports written into a bundle with a manifest. */
int adc_certify_command(int argc, char** argv);
/* adc-conform verify DIR (verify_command.c): whether a bundle's claim
 * holds; 0 yes, 1 no, 2 not a bundle. */
int adc_verify_command(int argc, char** argv);

/* adc-conform matrix (matrix_command.c): every pair of libraries, each
 * one's exports into the other's imports, in one report. */
int adc_matrix_command(int argc, char** argv);

#endif /* ADC_SUBCOMMANDS_H */
