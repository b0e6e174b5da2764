/* What a report's command line says of its run for merging shards: which
 * shard it was, and the arguments that decide which cases ran and how they
 * were judged, which the shards of one run share. */
#ifndef ADC_SHARD_COMMAND_LINE_H
#define ADC_SHARD_COMMAND_LINE_H

#include <stdbool.h>
#include <stddef.h>

#include "support/error.h"

struct adc_shard_command_line {
  /* --shard INDEX/COUNT; 1/1 (and `sharded` false) without it. */
  int shard_index;
  int shard_count;
  bool sharded;
  /* The arguments after the program but for the output and sharding
   * options (those cli/options.c marks output_only) and their values,
   * which shards may give differently: pointers into the
   * argv given (not owned), in an array this struct owns. */
  const char** deciding;
  size_t n_deciding;
  /* For each argument of argv, whether it is --shard or its value: what an
   * unsharded run of the same command leaves out (owned). */
  bool* is_shard_argument;
};

/* Splits `argv` (a run's command line, `argc` arguments, the program
 * first; or a matrix's, "matrix" first), as adc-conform's own option parser
 * read it: an option may be abbreviated or take its value after '='.  Returns 0, or -1 with the
 * reason (a --shard value that is not INDEX/COUNT, an option missing its
 * value).  Free with adc_shard_command_line_free. */
int adc_shard_command_line_split(int argc, const char* const* argv, struct adc_shard_command_line* out,
                                 struct adc_error* error);
void adc_shard_command_line_free(struct adc_shard_command_line* line);

#endif /* ADC_SHARD_COMMAND_LINE_H */
