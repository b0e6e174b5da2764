/* What the other threads of this process are doing: whether any of them
 * can still act by itself, told from what they wait in, not from how long
 * they have been silent.
 *
 * A case's process holds the library under test and the harness side that
 * drives it (the async handler or the consumer feed).  When every thread
 * but the one asking waits without timeout on something only this process
 * can end (blocked_wait.h), and none ran between two looks, the process
 * is quiet: nothing in it happens until the asking thread acts (signals
 * and the other ends of pipes or sockets held outside aside).  A library
 * that is quiet will make no more callbacks, return no call, free nothing
 * more; one with a thread running may.  So a harness wait may end as soon
 * as the library is quiet, and keeps its time limit only for a library
 * that is not: one that spins, or that wakes on timers (a runtime's
 * housekeeping thread never lets its process go quiet). */
#ifndef ADC_SUPPORT_QUIESCENCE_H
#define ADC_SUPPORT_QUIESCENCE_H

enum adc_activity {
  /* This system does not show what threads wait in (no
   * /proc/self/task/<tid>/syscall or schedstat), or Valgrind runs the
   * process: every thread it holds back waits in a read of its own pipe
   * while, as the program sees it, it is ready to run. */
  ADC_ACTIVITY_UNKNOWN,
  /* A thread is running or ready to run (or in uninterruptible sleep),
   * at either look, ran between them, or started or ended. */
  ADC_ACTIVITY_RUNNING,
  /* None runs, but one waits in a way that may end by itself: a timeout,
   * a device, a call not known here. */
  ADC_ACTIVITY_TIMED,
  /* Every thread waits on this process alone, and none ran between the
   * looks. */
  ADC_ACTIVITY_QUIET,
};

/* Looks at every thread of this process but the calling one and those
 * marked waiting (below), twice, ADC_QUIESCENCE_LOOK_GAP_SECONDS apart
 * (the pause is how a thread woken meanwhile shows: it runs, so its count
 * of times scheduled changes); once, up to the first thread found running,
 * when there is one.  Call it holding no lock a thread of the
 * library may take: a thread waiting for that lock would look quiet. */
enum adc_activity adc_process_activity(void);

#define ADC_QUIESCENCE_LOOK_GAP_SECONDS 0.001

/* The same with `between(context)` called between the two looks instead of
 * the pause: a test wakes a thread there, and waits until it waits again. */
enum adc_activity adc_process_activity_between(void (*between)(void* context), void* context);

/* Marks the calling thread as one that, until adc_quiescence_end_waiting,
 * only waits for what the library does and acts on nothing else: other
 * threads' looks leave it out.  The case's main thread, waiting for a
 * callback, marks itself so, so that a callback held open on a library
 * thread (which looks too) is not kept open by the main thread's own
 * polling.  Marking a marked thread again changes nothing; at most a few
 * threads are marked at once (a thread beyond is still looked at, which
 * only makes a look less precise). */
void adc_quiescence_begin_waiting(void);
void adc_quiescence_end_waiting(void);

#endif /* ADC_SUPPORT_QUIESCENCE_H */
