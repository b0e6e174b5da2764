/* A helper program run for what it writes on its standard output (the
 * Python that tells where its libpython is, addr2line), bounded in time:
 * in a process group of its own, with no signal blocked, standard input
 * and error /dev/null.  Parent only: it waits for its child by pid. */
#ifndef ADC_SUPPORT_PROGRAM_OUTPUT_H
#define ADC_SUPPORT_PROGRAM_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>

struct adc_program_run {
  int spawn_error; /* posix_spawnp's error where the program did not start; else 0 */
  bool timed_out;  /* it ran past the bound and was killed, with its process group */
  int status;      /* waitpid's status, once it started */
  size_t length;   /* bytes of its output kept */
};

/* Runs argv[0] (found on PATH) with `argv` (NULL-terminated), its output
 * read into `text` (`size` bytes, the last a NUL; what does not fit is
 * read and dropped) until it ends or `seconds` pass.  Fills `run`; returns
 * 0 where it started and ended within the bound, else -1. */
int adc_program_output(char* const* argv, double seconds, char* text, size_t size,
                       struct adc_program_run* run);

#endif /* ADC_SUPPORT_PROGRAM_OUTPUT_H */
