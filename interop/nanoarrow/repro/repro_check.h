/* Shared by the standalone reproductions of the nanoarrow findings (C and
 * C++): a step the program needs, not the behaviour under test, that
 * fails ends it with exit status 2 (a setup error, which
 * ci/check-reproductions.sh reports as such), naming the step. */
#ifndef ADC_NANOARROW_REPRO_CHECK_H
#define ADC_NANOARROW_REPRO_CHECK_H

#include <stdio.h>

#define CHECK_OK(expr)                              \
  do {                                              \
    if ((expr) != NANOARROW_OK) {                   \
      fprintf(stderr, "setup failed: %s\n", #expr); \
      return 2;                                     \
    }                                               \
  } while (0)

#endif /* ADC_NANOARROW_REPRO_CHECK_H */
