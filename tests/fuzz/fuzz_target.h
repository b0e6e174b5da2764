/* The two entry points every fuzz target defines, as libFuzzer declares
 * them; replay_main.c calls them where libFuzzer is not linked. */
#ifndef ADC_FUZZ_TARGET_H
#define ADC_FUZZ_TARGET_H

#include <stddef.h>
#include <stdint.h>

/* Called once before any input; loads what every input is judged against. */
int LLVMFuzzerInitialize(int* argc, char*** argv);

/* Runs one input; returns 0 (libFuzzer reserves other values).  A bug shows
 * as a crash, a sanitizer report or an abort() on a broken invariant. */
int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

#endif /* ADC_FUZZ_TARGET_H */
