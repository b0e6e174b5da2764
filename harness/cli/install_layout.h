/* Where adc-conform finds what it ships with, the reference library and the
 * default fixtures, whether it runs from its build folder or from an
 * installed prefix (cmake --install). */
#ifndef ADC_INSTALL_LAYOUT_H
#define ADC_INSTALL_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>

/* The running executable's own path (/proc/self/exe), into `path`; false
 * when /proc cannot say or the path does not fit. */
bool adc_executable_path(char* path, size_t size);

/* The bundled reference library, the first of: next to the executable (a
 * build folder); the installed library folder, found from the executable's
 * folder by the relative path the build computed (ADC_LIBDIR_FROM_BINDIR);
 * the path the build wrote it to (ADC_REFERENCE_LIBRARY). */
void adc_find_reference_library(char* path, size_t size);

/* The Python shim (harness/python: --producer python:MODULE:FACTORY),
 * found as the reference library is; its build path is
 * ADC_PYTHON_SHIM_LIBRARY. */
void adc_find_python_shim(char* path, size_t size);

/* The folder of the default fixtures, the first of: the installed fixtures
 * folder, found from the executable's folder by a relative path
 * (ADC_FIXTURES_FROM_BINDIR); the source tree's fixtures/data
 * (ADC_FIXTURES_DIR). */
void adc_find_fixtures_dir(char* path, size_t size);

/* Valgrind's suppressions for the GPU runtimes' known reports (--valgrind),
 * the first of: the installed copy, found from the executable's folder
 * (ADC_VALGRIND_SUPPRESSIONS_FROM_BINDIR); the source tree's
 * harness/valgrind/gpu-runtimes.supp (ADC_VALGRIND_SUPPRESSIONS). */
void adc_find_valgrind_suppressions(char* path, size_t size);

#endif /* ADC_INSTALL_LAYOUT_H */
