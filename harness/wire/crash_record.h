/* Where a task's process was when a fatal signal reached it: the record
 * (ADC_WIRE_CRASH_SITE, wire.h) its signal handler sends just before the
 * process dies of the signal, and the parent's reading of it.  Its message
 * is text, one line each:
 *
 *   signal 11 code 1 address 0x10 handed 0
 *   #0 0x1139 /build/libmisbehaving_crash_on_export.so
 *   #1 0x2f0a1 /build/adc-conform
 *   #2 0x2f230 "
 *
 * the signal's number, its si_code (0 or less: sent, by raise, kill or
 * abort, rather than caused by an instruction), its si_addr (the address
 * a SIGSEGV or SIGBUS could not reach) and whether that address is on
 * memory the library handed over (1: rule_api/handed_over.h); then the
 * frames of the thread it interrupted, innermost first (wire.h's message
 * cut ends the list): its depth in the thread's stack, an offset in an
 * object (support/fault_frames.h), and the object's path, `"` for the
 * object of the line above, `-` for none (the offset is then an
 * address). */
#ifndef ADC_WIRE_CRASH_RECORD_H
#define ADC_WIRE_CRASH_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "support/fault_frames.h"

struct adc_crash_record {
  int signal_number;
  int code;          /* si_code: 0 or less when the signal was sent */
  uintptr_t address; /* si_addr */
  bool handed_over;  /* `address` is on a page a pointer the library handed over points into */
  size_t n_frames;
  struct adc_fault_frame frames[ADC_FAULT_FRAMES];
};

/* In a signal handler: sends `record` on `fd` as one CRASH_SITE record
 * about the current task (adc_wire_set_task), its frames as many as fit.
 * Async-signal-safe; not reentrant (the caller lets one thread at a
 * time in). */
void adc_crash_record_send(int fd, const struct adc_crash_record* record);

/* Reads the message of a CRASH_SITE record; false when it is not one
 * (the record then says nothing of where the process was). */
bool adc_crash_record_read(const char* message, struct adc_crash_record* out);

#endif /* ADC_WIRE_CRASH_RECORD_H */
