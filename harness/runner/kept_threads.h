/* The threads a library keeps between the cases of a prepared process
 * (task_runner.h): a pool it starts on first use and leaves blocked until
 * its next call (DuckDB starts 9 threads, DataFusion and polars 3).  Such
 * threads do not end the process; what they do is followed, so that none
 * changes a case's verdict unseen:
 *   - after each case, the process waits until every thread of the library
 *     is blocked and idle (asleep at two looks, having run nothing in
 *     between), at most ADC_THREAD_SETTLE_SECONDS: what the case set its
 *     pool doing is done within the case, before what it left is judged,
 *     and a thread still running then ends the process;
 *   - each kept thread's wait is read (blocked_wait.h): one on this process
 *     alone with no timeout (a condition variable, a pipe, tokio's
 *     eventfd) ends only when a thread of the process wakes it, which
 *     between cases none does; one with a timeout may end by itself from
 *     its deadline on; any other (a socket, a device, a signal wait, a call
 *     not known) at any moment;
 *   - a kept thread that ran between two cases, with no call of the library
 *     in progress, ran by itself: the next case is not run in the process;
 *   - a kept thread that ran during a case when its wait could have ended by
 *     itself may have done what no call of the case asked (a timer's work
 *     changing what a later case judges): the case is judged again alone,
 *     and the process ends.  A pool's thread running during a case because
 *     the case's calls woke it is the library at work, as DuckDB's are in
 *     every scan, and changes nothing.
 * An allocator's background thread, known by its name (jemalloc's, which
 * polars links), runs on a timer of its own but none of the library's
 * code: it is named and waited for, and its running is not the library's.
 * Threads that exist before the library is loaded (the main thread, a
 * device runtime's) are the process's own and not followed.  One set of
 * threads per process: a prepared process follows its library's. */
#ifndef ADC_KEPT_THREADS_H
#define ADC_KEPT_THREADS_H

#include <stdbool.h>
#include <stddef.h>

/* How long, at most, the threads of the library are given to block after a
 * case (a pool thread finishing the work item of the last call, a thread
 * exiting).  It bounds only a library whose thread keeps running, which
 * costs its process; it decides no verdict. */
#define ADC_THREAD_SETTLE_SECONDS 0.25

/* The threads followed at most; a library with more ends its process. */
#define ADC_KEPT_THREADS_MAX 256

/* Before the library is loaded: the threads that exist now are the
 * process's own; every later one is the library's.  Called again, it
 * starts over. */
void adc_kept_threads_begin(void);

/* Waits until every thread of the library is blocked and idle, at most
 * ADC_THREAD_SETTLE_SECONDS; those are kept for the next case.  Whether
 * any is still running past it (or more threads than are followed), said
 * in `left` ("left 1 thread(s) running"). */
bool adc_kept_threads_settle(char* left, size_t size);

/* At a case's start, with no call of the library in progress since the
 * last settle: whether a kept thread ran, or a thread of the library
 * started or ended, since then (`why` says which).  Where none did, what
 * the kept threads do from now on is watched as the case's. */
bool adc_kept_threads_ran_between(char* why, size_t size);

/* After a case and its settle: whether a thread kept at its start ran
 * during it when its wait could have ended by itself (`why` says which,
 * and how it waited). */
bool adc_kept_threads_woke_by_themselves(char* why, size_t size);

/* Names the threads kept now that no earlier call named ("the library
 * keeps 2 thread(s) between cases, blocked: ..."); whether there are any. */
bool adc_kept_threads_name_new(char* text, size_t size);

#endif /* ADC_KEPT_THREADS_H */
