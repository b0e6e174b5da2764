/* Whether a child of this process made by fork() waits for ever: a fork
 * copies only the calling thread, so a child that waits on a lock of its
 * process's own (a private futex, with no timeout) waits for a thread it
 * does not have, and nothing can wake it.  A library whose threads held a
 * lock at the fork (a query engine's pool) leaves its child so as soon as
 * it needs that lock; the probe that forks (pycapsule_probe.c) then moves
 * on at once rather than after its time bound. */
#ifndef ADC_FORKED_CHILD_WAIT_H
#define ADC_FORKED_CHILD_WAIT_H

#include <stdbool.h>
#include <sys/types.h>

/* True when the child `child` (single-threaded: made by fork, never
 * having started a thread) was seen twice, a millisecond apart, blocked in
 * a private futex wait with no timeout, not having run between the looks.
 * False where it runs, waits otherwise, or Linux does not show it. */
bool adc_forked_child_waits_for_ever(pid_t child);

#endif /* ADC_FORKED_CHILD_WAIT_H */
