/* Reading a shared library's exported symbol names straight from its ELF
 * file, so that the parent can guess the entry-point prefix without
 * dlopen (which would run the library's constructors in the parent). */
#ifndef ADC_ELF_SYMBOLS_H
#define ADC_ELF_SYMBOLS_H

#include <stddef.h>

/* Finds every distinct prefix P such that the library defines
 * "P_CDataIntegration_..." or "P_CDeviceIntegration_...".  Writes up to
 * `max_prefixes` of them, comma-separated, to `prefixes`.  Returns the
 * number found, or -1 with a reason in `error` when the file is not an ELF
 * shared object that can be read. */
int adc_elf_find_prefixes(const char* path, char* prefixes, size_t prefixes_size, char* error,
                          size_t error_size);

#endif /* ADC_ELF_SYMBOLS_H */
