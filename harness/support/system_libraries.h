/* The system's libraries: the C library, libm, libpthread, libdl, librt,
 * the dynamic loader, libgcc_s, libstdc++, the kernel's vDSO and the
 * sanitizers' runtimes.  A crash in their code was asked for by whoever
 * called them, so where a process died is told by the first frame outside
 * them (runner/crash_site.h). */
#ifndef ADC_SUPPORT_SYSTEM_LIBRARIES_H
#define ADC_SUPPORT_SYSTEM_LIBRARIES_H

#include <stdbool.h>

/* Whether the file at `path` ("/lib/x86_64-linux-gnu/libc.so.6",
 * "[vdso]") is one of them, by its name.  Async-signal-safe. */
bool adc_is_system_library(const char* path);

#endif /* ADC_SUPPORT_SYSTEM_LIBRARIES_H */
