/* Where a task's process died of a fatal signal, and whose code that was:
 * the parent's reading of the CRASH_SITE record (wire/crash_record.h) that
 * the process's handler sent (runner/crash_handler.h), its frames
 * symbolised (support/symbolise.h).
 *
 * Whose: the innermost frame that is not in a system library (the C
 * library, libm, libpthread, the dynamic loader, libgcc_s, libstdc++, the
 * kernel's vDSO, a sanitizer's runtime) decides.  In one of the suite's
 * own files (its executable, the Python shim libadc_python.so), the crash
 * is the suite's; in any other file (the library under test, libpython, an
 * extension module, a library they load), or in no file (code made at run
 * time, a call to a wild address), it is the library's; where every frame
 * is a system library's, it is the library's too (what the library asked
 * of the system, as far as anyone can tell).  And a fault on memory a
 * pointer the library handed over points into (rule_api/handed_over.h) is
 * the library's wherever it struck: the harness's code read what the
 * library gave it, which the library had not kept. */
#ifndef ADC_CRASH_SITE_H
#define ADC_CRASH_SITE_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "support/fault_frames.h"
#include "support/symbolise.h"

enum adc_crash_owner { ADC_CRASH_IN_LIBRARY, ADC_CRASH_IN_SUITE };

struct adc_crash_frame {
  unsigned depth;                     /* in the thread's stack: 0 is the innermost frame */
  char object[ADC_FAULT_OBJECT_SIZE]; /* "" where no file is mapped there */
  /* In `object` (the address where no file); a return address but for
   * the first frame's, and symbolised as the call before it. */
  uintptr_t offset;
  struct adc_symbol symbol;
  bool system; /* in a system library */
};

struct adc_crash_site {
  int signal_number;
  bool sent;         /* sent (raise, kill, abort), not caused by an instruction */
  uintptr_t address; /* a SIGSEGV's or SIGBUS's fault address; else 0 */
  bool handed_over;  /* `address` is on memory the library handed over */
  enum adc_crash_owner in;
  /* The suite's frame that would have decided called exit(): the crash is
   * in the process's exit, its handlers and destructors (the library's or
   * the system's), and `in` the library's. */
  bool during_exit;
  int deciding; /* the frame that decided; -1 where every frame is a system library's */
  size_t n_frames;
  struct adc_crash_frame frames[ADC_FAULT_FRAMES];
};

/* Reads a CRASH_SITE record's message, symbolises its frames and decides
 * whose code the crash is in; `suite_objects` (NULL-terminated) are the
 * suite's own files, as canonical paths.  False where the message is not
 * such a record. */
bool adc_crash_site_read(const char* message, const char* const* suite_objects, struct adc_crash_site* out);

/* "compare_binary (arrow_json_compare.c:123, adc-conform), called from
 * compare_column (...)": the innermost frame, then the one that decided
 * with the frame before it and its caller (four at most where none did). */
void adc_crash_site_describe(const struct adc_crash_site* site, char* text, size_t size);

/* The site as the JSON report writes it (report.schema.json, a case's
 * "crash_site"); the caller owns it. */
cJSON* adc_crash_site_json(const struct adc_crash_site* site);

#endif /* ADC_CRASH_SITE_H */
