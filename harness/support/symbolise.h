/* The function, source file and line of offsets in an object file, asked
 * of binutils' addr2line (`addr2line -f -C -e OBJECT OFFSET...`) in a
 * process of its own, which reads the file and loads nothing of it: the
 * debug information where the object has it (or a debug file
 * .gnu_debuglink names), else the nearest symbol, dynamic ones included.
 * Parent only (it forks and waits for its child by pid).  Bounded in time:
 * past the bound, or where addr2line is missing or fails, what it did not
 * say stays unknown.  What it answered is remembered for the run: a place
 * asked again costs no process. */
#ifndef ADC_SUPPORT_SYMBOLISE_H
#define ADC_SUPPORT_SYMBOLISE_H

#include <stddef.h>
#include <stdint.h>

/* How long one object's symbols may take: a large object with debug
 * information takes a fraction of a second. */
#define ADC_SYMBOLISE_SECONDS 10.0

struct adc_symbol {
  char function[256]; /* demangled; "" where unknown */
  char file[256];     /* as the debug information names it; "" where unknown */
  int line;           /* 0 where unknown */
};

/* Fills symbols[i] for offsets[i] in `object`, at most 16 offsets; what is
 * not known stays empty.  Returns how many offsets addr2line answered. */
size_t adc_symbolise(const char* object, const uintptr_t* offsets, size_t n, struct adc_symbol* symbols);

#endif /* ADC_SUPPORT_SYMBOLISE_H */
