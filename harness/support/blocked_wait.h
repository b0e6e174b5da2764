/* What a thread of this process, blocked in a system call, waits for: read
 * from the line Linux shows in /proc/self/task/<tid>/syscall (the call's
 * number and arguments, or "running"), it says whether only this process
 * can end the wait.  Such a thread does nothing until another thread of the
 * process acts: it cannot be on its way to a callback (quiescence.h). */
#ifndef ADC_SUPPORT_BLOCKED_WAIT_H
#define ADC_SUPPORT_BLOCKED_WAIT_H

#include <stdbool.h>
#include <time.h>

enum adc_blocked_wait {
  /* Not blocked: "running" (Linux prints it for a thread running or ready
   * to run). */
  ADC_WAIT_RUNNING,
  /* Blocked without timeout on something only this process can end: a
   * futex wait with no timeout (private or shared: pthread_join waits on a
   * shared one); poll, select, epoll or a read with no timeout on
   * anonymous pipes only. */
  ADC_WAIT_ON_THIS_PROCESS,
  /* Anything else, which may end by itself: a timeout (nanosleep, a timed
   * futex wait), a descriptor something outside may make ready (a device,
   * a socket, an eventfd, a timerfd, a file), a signal wait (a timer may
   * send one), a child process (wait4, waitid), a call this module does
   * not know, a thread not in a system call. */
  ADC_WAIT_MAY_END,
};

/* The wait of the thread whose syscall line is `line`, a thread of this
 * very process (its descriptors and memory are read here). */
enum adc_blocked_wait adc_blocked_wait_of(const char* line);

/* The same wait with its timeout: when a thread in it may first go on by
 * itself.  A wait on this process alone that also has a timeout (a timed
 * condition wait, a poll of pipes with a timeout, a sleep) ends by itself
 * at that timeout and at no other time; adc_blocked_wait_of counts it as
 * ADC_WAIT_MAY_END, which here is kept for a wait that anything outside
 * may end at any moment. */
struct adc_wait_timing {
  enum adc_blocked_wait wait;
  /* ADC_WAIT_ON_THIS_PROCESS: it ends by itself at a timeout as well. */
  bool timed;
  /* The timeout is a deadline on `clock`; otherwise a span from the
   * call's start, which a look cannot see. */
  bool absolute;
  clockid_t clock;
  double seconds; /* the deadline, or the span */
};

/* Where a wait counts an eventfd among the descriptors only this process
 * can make ready: threads waking each other through one (tokio's reactor
 * waits so, on an epoll set of one eventfd).  io_uring, aio and drivers
 * may signal one too, on the completion of work a thread of the process
 * started; the quiescence detector, which ends waits early, does not take
 * that risk (adc_blocked_wait_of). */
#define ADC_WAIT_EVENTFD_INSIDE 1u

void adc_blocked_wait_timing(const char* line, unsigned flags, struct adc_wait_timing* timing);

#endif /* ADC_SUPPORT_BLOCKED_WAIT_H */
