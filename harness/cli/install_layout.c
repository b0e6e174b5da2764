/* An installed prefix is found from the executable itself, at run time, so
 * that a prefix stays usable when it is moved or copied elsewhere as a
 * whole (a package, a container image, cmake --install --prefix ANYWHERE):
 * the build records only paths relative to the executable's folder. */
#include "cli/install_layout.h"

#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define REFERENCE_FILE "libadc_reference.so"
#define PYTHON_SHIM_FILE "libadc_python.so"

bool adc_executable_path(char* path, size_t size) {
  if (size == 0) return false;
  ssize_t n = readlink("/proc/self/exe", path, size - 1);
  if (n <= 0 || (size_t)n >= size - 1) return false;
  path[n] = '\0';
  return true;
}

/* The folder of the running executable, or false when /proc cannot say. */
static bool executable_dir(char* dir, size_t size) {
  char exe[PATH_MAX];
  if (!adc_executable_path(exe, sizeof(exe))) return false;
  return (size_t)snprintf(dir, size, "%s", dirname(exe)) < size;
}

/* `relative` taken from the executable's folder into `path`; false when
 * the folder is unknown or the result would not fit. */
static bool from_executable(const char* relative, char* path, size_t size) {
  char dir[PATH_MAX];
  if (!executable_dir(dir, sizeof(dir))) return false;
  return (size_t)snprintf(path, size, "%s/%s", dir, relative) < size;
}

void adc_find_reference_library(char* path, size_t size) {
  if (from_executable(REFERENCE_FILE, path, size) && access(path, R_OK) == 0) return;
  if (from_executable(ADC_LIBDIR_FROM_BINDIR "/" REFERENCE_FILE, path, size) && access(path, R_OK) == 0)
    return;
  snprintf(path, size, "%s", ADC_REFERENCE_LIBRARY);
}

void adc_find_python_shim(char* path, size_t size) {
  if (from_executable(PYTHON_SHIM_FILE, path, size) && access(path, R_OK) == 0) return;
  if (from_executable(ADC_LIBDIR_FROM_BINDIR "/" PYTHON_SHIM_FILE, path, size) && access(path, R_OK) == 0)
    return;
  snprintf(path, size, "%s", ADC_PYTHON_SHIM_LIBRARY);
}

void adc_find_fixtures_dir(char* path, size_t size) {
  struct stat info;
  if (from_executable(ADC_FIXTURES_FROM_BINDIR, path, size) && stat(path, &info) == 0 &&
      S_ISDIR(info.st_mode)) {
    return;
  }
  snprintf(path, size, "%s", ADC_FIXTURES_DIR);
}

void adc_find_valgrind_suppressions(char* path, size_t size) {
  if (from_executable(ADC_VALGRIND_SUPPRESSIONS_FROM_BINDIR, path, size) && access(path, R_OK) == 0) return;
  snprintf(path, size, "%s", ADC_VALGRIND_SUPPRESSIONS);
}
