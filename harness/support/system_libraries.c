#include "support/system_libraries.h"

#include <string.h>

/* By the start of their file names. */
static const char* const system_libraries[] = {
    "libc.so",  "libc-",      "libm.so",    "libm-",       "libpthread.so", "libpthread-",
    "libdl.so", "librt.so",   "ld-linux",   "ld64.so",     "libgcc_s.so",   "libstdc++.so",
    "[vdso]",   "linux-vdso", "libasan.so", "libubsan.so", "libtsan.so",    "liblsan.so",
};

bool adc_is_system_library(const char* path) {
  const char* slash = strrchr(path, '/');
  const char* name = slash != NULL ? slash + 1 : path;
  for (size_t i = 0; i < sizeof(system_libraries) / sizeof(system_libraries[0]); i++) {
    if (strncmp(name, system_libraries[i], strlen(system_libraries[i])) == 0) return true;
  }
  return false;
}
