/* The frames of the thread a fatal signal interrupted, read from inside
 * its signal handler: for each, the file mapped at its address and the
 * offset there that `addr2line -e FILE` reads.  Async-signal-safe once
 * adc_fault_frames_prepare has run: the frames come from glibc's
 * backtrace() (its unwinder finds code without taking the loader's lock),
 * the files from /proc/self/maps read with open() and read(); dladdr(),
 * which takes the loader's lock, is not used (a fault while another thread
 * loads a library would wait for ever). */
#ifndef ADC_SUPPORT_FAULT_FRAMES_H
#define ADC_SUPPORT_FAULT_FRAMES_H

#include <stddef.h>
#include <stdint.h>

/* Eight frames are enough to say where a process died, and to say it in
 * one record (wire/crash_record.h); they are picked from the thread's
 * first ADC_FAULT_DEPTH. */
#define ADC_FAULT_FRAMES 8
#define ADC_FAULT_DEPTH 32
/* Longer paths are cut, and then not found by a symboliser. */
#define ADC_FAULT_OBJECT_SIZE 256

struct adc_fault_frame {
  unsigned depth; /* in the thread's stack: 0 is the innermost frame */
  /* In `object`, as its symbols read it (the address less the object's
   * load base; the address itself in an executable that is not
   * position-independent); the address itself where no file is mapped
   * there (code made at run time). */
  uintptr_t offset;
  /* The file mapped there, as /proc/self/maps names it ("[vdso]" for the
   * kernel's page); "" where none. */
  char object[ADC_FAULT_OBJECT_SIZE];
};

/* Loads what backtrace() needs (libgcc_s's unwinder, loaded on its first
 * call), so that a signal handler loads nothing.  Call once, before any
 * fault. */
void adc_fault_frames_prepare(void);

/* In a signal handler given `ucontext` (its third argument): frames of the
 * thread interrupted, innermost first (the instruction that faulted, or
 * that was running when the signal came), the handler's own left out, as
 * adc_fault_frames_pick picks them from the thread's first
 * ADC_FAULT_DEPTH; at most `capacity` (ADC_FAULT_FRAMES at most).
 * Returns how many. */
size_t adc_fault_frames_take(const void* ucontext, struct adc_fault_frame* frames, size_t capacity);

/* Of the thread's `n` frames (innermost first), those that tell where it
 * died, `capacity` at most, into `frames`: the innermost; but where those
 * are in system libraries (support/system_libraries.h) down to `capacity`
 * and beyond (an abort from deep in libstdc++), the two innermost, then
 * from the one before the first frame outside them on.  Returns how
 * many.  Async-signal-safe. */
size_t adc_fault_frames_pick(const struct adc_fault_frame* thread, size_t n, struct adc_fault_frame* frames,
                             size_t capacity);

#endif /* ADC_SUPPORT_FAULT_FRAMES_H */
