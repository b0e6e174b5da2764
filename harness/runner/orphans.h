/* Processes a case leaves behind.  The harness makes itself a child
 * subreaper, so that a process started by a case that outlives its parent
 * (a forked helper, a double-forked daemon that called setsid) becomes the
 * harness's child instead of init's.  A sweep kills every child of the
 * harness it does not run on purpose, and the runner reaps them. */
#ifndef ADC_ORPHANS_H
#define ADC_ORPHANS_H

#include <stddef.h>
#include <sys/types.h>

#include "support/error.h"

/* Returns 0, or -1 with the reason. */
int adc_become_subreaper(struct adc_error* error);

/* Writes up to `capacity` pids of this process's living children (zombies
 * left out) to `pids`; returns how many there are. */
size_t adc_list_children(pid_t* pids, size_t capacity);

/* Sends SIGKILL to every living child of this process whose pid is not one
 * of `keep`; returns how many it found. */
size_t adc_kill_orphans(const pid_t* keep, size_t n_keep);

/* At the end of a run: kills and reaps every child left, and their own
 * children as they are handed over, until none is left (or `seconds` pass). */
void adc_kill_all_orphans(double seconds);

#endif /* ADC_ORPHANS_H */
