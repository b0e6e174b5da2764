/* Where the harness places a structure it hands a library to fill (the
 * `out` of an export).
 *
 * Each slot has a page of its own between two inaccessible pages, with the
 * structure's last byte the page's last: a write past the end faults at
 * once.  The bytes before the structure on its page hold a known pattern,
 * checked when the call returns: a write before the start shows then (one
 * that reaches the page before faults).  Either ends the case as a crash
 * naming the structure and the entry point, since nothing the case does
 * after a memory error can be trusted.
 *
 * The structure stays where the library wrote it (moving it is a rule of
 * its own, spec: "Moving an array"), so slots live until the case's process
 * ends, or, in a process that runs many cases, until the next case
 * (adc_output_slots_release). */
#ifndef ADC_OUTPUT_SLOT_H
#define ADC_OUTPUT_SLOT_H

#include <stdbool.h>
#include <stddef.h>

#include "rule_api/case_context.h"

/* A zeroed slot for a `size`-byte structure called `structure` ("ArrowArray"),
 * handed to `entry_point`; NULL with an unresolved verdict when no memory is
 * left. */
void* adc_output_slot_new(struct adc_case_context* ctx, size_t size, const char* structure,
                          const char* entry_point);

/* After the call: whether the bytes before the structure are as they were;
 * otherwise gives the crash verdict and returns false. */
bool adc_output_slot_intact(struct adc_case_context* ctx, const void* slot);

/* The size the slot was made for. */
size_t adc_output_slot_size(const void* slot);

/* Makes the slot's page inaccessible: a touch there ends the case with
 * `status` and `message` (which must outlive the case). */
void adc_output_slot_seal(const void* slot, enum adc_status status, const char* message);

/* Slot `index` (from 0): the structure in it and its name ("ArrowArray",
 * as given to adc_output_slot_new); false past the last.  A signal handler
 * may call it (rule_api/handed_over.h). */
bool adc_output_slot_at(size_t index, const void** structure, const char** name);

/* Unmaps every slot, and forgets the guard regions (adc_guard_forget_all):
 * in a prepared process, before the next case, once nothing of the last
 * one is left running (runner/prepared_process.h). */
void adc_output_slots_release(void);

#endif /* ADC_OUTPUT_SLOT_H */
