/* The two sides of a run, settled from the command line before any case:
 * which library plays producer and consumer, and under which prefix. */
#ifndef ADC_LIBRARY_SIDES_H
#define ADC_LIBRARY_SIDES_H

#include <stddef.h>

#include "runner/preflight.h"
#include "runner/session.h"
#include "support/error.h"

/* Settles `side` (`role` is "producer" or "consumer"): the library `given`
 * on the command line, or the reference at `reference_path` when none or
 * "reference" is given; its prefix: `side_prefix` (--producer-prefix,
 * --consumer-prefix) when given, else for a library other than the
 * reference `shared_prefix` (--prefix), else the reference's own or the
 * one read from the library's ELF symbols; and for a side under test, a
 * load in a throw-away process (held to the cases' `limits`) to check it
 * exports entry points, unless
 * `other` (the side settled before, or NULL) is the same library under
 * the same prefix, tested, whose load stands for both.  A load that
 * crashes or hangs is not an error: it becomes the side's load verdict.
 * Returns 0, or -1 with one line naming the library and the problem. */
int adc_settle_side(const char* role, const char* given, const char* side_prefix, const char* shared_prefix,
                    const char* reference_path, const struct adc_load_limits* limits,
                    const struct adc_side* other, struct adc_side* side, struct adc_error* error);

#endif /* ADC_LIBRARY_SIDES_H */
