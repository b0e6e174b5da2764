/* What a thread of this process, blocked in a system call, waits for: read
 * from the line Linux shows in /proc/self/task/<tid>/syscall (the call's
 * number and arguments, or "running"), it says whether only this process
 * can end the wait.  Such a thread does nothing until another thread of the
 * process acts: it cannot be on its way to a callback (quiescence.h). */
#ifndef ADC_SUPPORT_BLOCKED_WAIT_H
#define ADC_SUPPORT_BLOCKED_WAIT_H

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

#endif /* ADC_SUPPORT_BLOCKED_WAIT_H */
