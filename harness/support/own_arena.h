/* Work whose memory lies apart from the heap that case processes use.
 *
 * A case's process is a fork of the parent and allocates with the heap it
 * inherited.  Where the parent left free chunks between the blocks it
 * keeps (reading fixtures frees the parsed JSON between the model's
 * blocks), the child's malloc splits and unlinks those chunks, writing into
 * pages spread over the whole heap: a copy-on-write fault for each.  Work
 * run here allocates from a malloc arena of its own (glibc gives each new
 * thread one; elsewhere this is merely a thread), so the heap that children
 * allocate from keeps no such gaps. */
#ifndef ADC_SUPPORT_OWN_ARENA_H
#define ADC_SUPPORT_OWN_ARENA_H

/* Runs `work(argument)` to its end on a thread of its own and returns what
 * it returned; runs it on the calling thread where no thread can be made.
 * Blocks stay valid after it returns, and may be freed from any thread. */
int adc_run_in_own_arena(int (*work)(void* argument), void* argument);

#endif /* ADC_SUPPORT_OWN_ARENA_H */
