/* A Python library as a side under test: `--producer python:MODULE:FACTORY`
 * or `--consumer python:MODULE:FUNCTION`.
 *
 * The side's library is the bundled Python shim (harness/python), prefix
 * adc_python, which embeds CPython in each case's process; the harness's
 * own process never loads libpython.  Here, in the parent, the Python to
 * use ($ADC_PYTHON, else python3 on PATH) is run once, in a process of its
 * own, to find its libpython, its standard library and its sys.path (a
 * virtual environment's site-packages included), and to import MODULE and
 * check FACTORY (a consumer's FUNCTION) is callable there: a module that
 * cannot be imported is one error line before any case.  What it found is put in this process's
 * environment, which every case's process inherits
 * (harness/python/python_runtime.h names the variables). */
#ifndef ADC_PYTHON_SIDE_H
#define ADC_PYTHON_SIDE_H

#include <stdbool.h>
#include <stddef.h>

#include "support/error.h"

#define ADC_PYTHON_SIDE_SCHEME "python:"
/* The shim's prefixes (harness/python): the producer's JSON entry points,
 * and the consumer's round-trip ones (python_consumer.c). */
#define ADC_PYTHON_SHIM_PREFIX "adc_python"
#define ADC_PYTHON_SHIM_CONSUMER_PREFIX "adc_python_consumer"

/* Whether `given` (--producer, --consumer) names a Python library. */
bool adc_is_python_side(const char* given);

/* Settles `given` ("python:MODULE:FACTORY", or "python:MODULE:FUNCTION"
 * for the consumer) for `role`: the shim's path into `shim` and the
 * environment of the cases set.  Returns 0, or -1 with
 * one line naming the problem. */
int adc_settle_python_side(const char* role, const char* given, char* shim, size_t size,
                           struct adc_error* error);

/* Makes `given`, settled before, the `role` side the next cases' processes
 * reach (NULL: none, where that role is no Python library's): where several
 * Python libraries are settled in one run (`adc-conform matrix`), each pair
 * selects its own before its cases run.  The Python found (its libpython
 * and sys.path) is the one settling found for all. */
void adc_select_python_side(const char* role, const char* given);

#endif /* ADC_PYTHON_SIDE_H */
