/* Memory that the harness's case processes never see.
 *
 * A fork copies the page table entries of every private page the parent
 * has touched and write-protects them on both sides, so that the parent's
 * next write to each is a copy-on-write fault.  The runner's own records
 * (every case's result, each running case's slot and captured output)
 * grow with the run and are written after every case, yet no case's
 * process reads them: mapped with MADV_DONTFORK, they cost a fork nothing
 * and their writes no fault.  A child that touched them would fault:
 * nothing a case's process runs may point into them. */
#ifndef ADC_SUPPORT_PARENT_ONLY_MEMORY_H
#define ADC_SUPPORT_PARENT_ONLY_MEMORY_H

#include <stddef.h>

/* `count` zeroed elements of `size` bytes, or NULL when they cannot be
 * mapped (or count * size overflows).  Free with adc_parent_only_free. */
void* adc_parent_only_calloc(size_t count, size_t size);

/* Unmaps a block from adc_parent_only_calloc; NULL is ignored. */
void adc_parent_only_free(void* block);

/* Says that the heap object at `object` (from malloc) is held through
 * parent-only memory.  A forked child has the object but not the pointer
 * to it, so LeakSanitizer, checking the child as it exits, would report it
 * and what it points to as the child's leak, and the case would end
 * `crash` ("the case exited with status 1: LeakSanitizer") for the parent's
 * memory (the crash site of an earlier case, in the JSON report).  Under
 * LeakSanitizer the object becomes a root; elsewhere this does nothing.
 * The parent still frees it. */
void adc_parent_only_hold(const void* object);

#endif /* ADC_SUPPORT_PARENT_ONLY_MEMORY_H */
