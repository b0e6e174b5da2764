/* Memory the library under test handed the harness: what the pointers in
 * the structures it filled point to (the output slots: schemas, arrays and
 * device arrays, and through them their children, dictionaries, buffers
 * and strings).  A fault on such memory, in whoever's code, is the
 * library's: it handed over a pointer to memory it did not keep (freed,
 * unmapped, never there), and the harness's code that reads it had no way
 * to know (runner/crash_site.h).
 *
 * Only a fault on the very page a handed-over pointer points into counts:
 * that page cannot be reached, so the pointer itself is bad.  A fault
 * further on, past the end of memory that was there, proves nothing of the
 * library (the harness may have misread its layout), and stays a crash of
 * whoever's code faulted.  Buffers of a device the host does not read
 * (device_kinds.h) are left out: the harness must not read them in place
 * at all.  A structure moved out of its slot (the move rules) is not
 * followed once the slot is sealed. */
#ifndef ADC_HANDED_OVER_H
#define ADC_HANDED_OVER_H

#include <stdbool.h>

/* In a SIGSEGV or SIGBUS handler: whether `address` lies on the page of a
 * pointer the library handed over.  It reads the structures with reads
 * that cannot fault (support/safe_read.h); async-signal-safe. */
bool adc_handed_over_page(const void* address);

#endif /* ADC_HANDED_OVER_H */
