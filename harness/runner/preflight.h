/* Checks, before any case runs, that a library loads and exports at least
 * one entry point, so that a bad path or prefix gets one clear error line
 * instead of a report full of unresolved cases.  The load happens in a
 * child process: the parent never loads the library under test. */
#ifndef ADC_PREFLIGHT_H
#define ADC_PREFLIGHT_H

#include "support/error.h"

/* Returns the number of entry points found (>= 0), or -1 with the loader's
 * message. */
int adc_preflight_library(const char* path, const char* prefix, struct adc_error* error);

#endif /* ADC_PREFLIGHT_H */
