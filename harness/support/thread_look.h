/* The threads of this process as Linux shows them under /proc/self/task:
 * their ids, and for each its state, how long it has run and how often it
 * was scheduled in, what it is blocked in, and its name.  Read without
 * allocating (a prepared process's look at what a case left must not move
 * the memory it counts, and a look may run on a library's thread, whose
 * stack may be small), and without taking any lock a library's thread may
 * hold. */
#ifndef ADC_SUPPORT_THREAD_LOOK_H
#define ADC_SUPPORT_THREAD_LOOK_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* The ids of this process's threads, in the listing's order, into `tids`
 * (at most `max` of them); how many there are (more than `max` when they
 * did not all fit), or -1 where the listing cannot be read. */
int adc_list_threads(pid_t* tids, int max);

/* One thread at one look. */
struct adc_thread_seen {
  /* From schedstat: nanoseconds run and times scheduled in; either moves
   * when the thread ran. */
  unsigned long long run_ns, scheduled;
  /* From stat: 'S' sleeping (blocked, interruptibly), 'R' running or ready
   * to, 'D' in an uninterruptible wait (a page fault, a device), 'Z' or 'X'
   * ending, 'T' or 't' stopped or traced. */
  char state;
};

/* Reads thread `tid`; false when its files are gone (it ended). */
bool adc_see_thread(pid_t tid, struct adc_thread_seen* seen);

/* Whether the two looks saw the thread do nothing in between: asleep at
 * both, and neither count moved. */
bool adc_thread_stayed_asleep(const struct adc_thread_seen* before, const struct adc_thread_seen* after);

/* The line of /proc/self/task/<tid>/syscall (blocked_wait.h reads it);
 * false when it is gone. */
bool adc_thread_syscall_line(pid_t tid, char* line, size_t size);

/* The thread's name (comm), "?" when it is gone. */
void adc_thread_name(pid_t tid, char* name, size_t size);

/* Reads a small /proc file whole, NUL-terminated; false when it is gone or
 * empty. */
bool adc_read_proc_text(const char* path, char* text, size_t size);

#endif /* ADC_SUPPORT_THREAD_LOOK_H */
