/* adc-conform: runs the rule catalogue against a producer and/or consumer
 * library (run_command.c), or one of the commands of subcommands.h. */
#include <stddef.h>

#include "commands/subcommands.h"

int main(int argc, char** argv) {
  const struct adc_subcommand* command = argc > 1 ? adc_subcommand_find(argv[1]) : NULL;
  if (command != NULL) return command->run(argc - 1, argv + 1);
  return adc_run_command(argc, argv);
}
