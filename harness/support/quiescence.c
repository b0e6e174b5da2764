#include "support/quiescence.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "support/blocked_wait.h"
#include "support/clock.h"
#include "support/thread_look.h"

/* Threads a look reads, at most: a process with more is not judged.  The
 * looks live on the caller's stack, which may be a library's thread (a
 * callback held open looks too), so they stay small; nothing here takes a
 * lock, since a thread waiting for it would look quiet to another looker. */
#define MAX_THREADS 128
/* Threads marked waiting at once, at most. */
#define MAX_WAITING 8

/* One thread as one look saw it. */
struct thread_seen {
  pid_t tid;
  /* From schedstat: nanoseconds run and times scheduled in; either moves
   * when the thread ran. */
  unsigned long long run_ns, scheduled;
  /* From its state (stat) and, when sleeping, what it waits in (syscall). */
  enum adc_blocked_wait wait;
};

struct look {
  int n;
  bool unreadable; /* a thread vanished between the listing and its files */
  bool too_many;
  bool running; /* a thread runs: the look stopped there */
  struct thread_seen threads[MAX_THREADS];
};

static _Atomic pid_t waiting[MAX_WAITING];
static _Thread_local int waiting_slot = -1;

static pid_t own_tid(void) {
  return (pid_t)syscall(SYS_gettid);
}

static bool marked_waiting(pid_t tid) {
  for (int i = 0; i < MAX_WAITING; i++) {
    if (atomic_load(&waiting[i]) == tid) return true;
  }
  return false;
}

/* Reads one thread; false when its files are gone (it ended). */
static bool see_thread(pid_t tid, struct thread_seen* seen) {
  struct adc_thread_seen counted;
  seen->tid = tid;
  if (!adc_see_thread(tid, &counted)) return false;
  seen->run_ns = counted.run_ns;
  seen->scheduled = counted.scheduled;
  switch (counted.state) {
    case 'S': /* sleeping, interruptibly: what in decides */
      break;
    case 'R': /* running or ready to */
    case 'D': /* uninterruptible: a page fault or a device; resumes by itself */
    case 'Z': /* ending */
    case 'X':
      seen->wait = ADC_WAIT_RUNNING;
      return true;
    default: /* stopped, traced, or unknown: resumes from outside */
      seen->wait = ADC_WAIT_MAY_END;
      return true;
  }
  char line[512];
  if (!adc_thread_syscall_line(tid, line, sizeof(line))) return false;
  seen->wait = adc_blocked_wait_of(line);
  return true;
}

static int by_tid(const void* a, const void* b) {
  pid_t x = ((const struct thread_seen*)a)->tid, y = ((const struct thread_seen*)b)->tid;
  return (x > y) - (x < y);
}

/* Reads the threads, in the listing's order, up to the first one running
 * (nothing more is needed to know the process is active, and a look at a
 * busy library is then cheap). */
static void take_look(pid_t self, struct look* look) {
  look->n = 0;
  look->unreadable = look->too_many = look->running = false;
  /* One more than is read: the caller and a few marked ones are left out. */
  pid_t tids[MAX_THREADS + MAX_WAITING + 1];
  int listed = adc_list_threads(tids, MAX_THREADS + MAX_WAITING + 1);
  if (listed < 0) {
    look->unreadable = true;
    return;
  }
  look->too_many = listed > MAX_THREADS + MAX_WAITING + 1;
  for (int i = 0; i < listed && !look->too_many; i++) {
    pid_t tid = tids[i];
    if (tid == self || marked_waiting(tid)) continue;
    if (look->n == MAX_THREADS) {
      look->too_many = true;
      break;
    }
    if (!see_thread(tid, &look->threads[look->n])) {
      look->unreadable = true;
    } else if (look->threads[look->n++].wait == ADC_WAIT_RUNNING) {
      look->running = true;
      break;
    }
  }
  qsort(look->threads, (size_t)look->n, sizeof(look->threads[0]), by_tid);
}

/* Whether this system shows what a thread waits in: the files exist for
 * the calling thread (and Valgrind does not run the process: see the
 * header).  Asked once; two threads asking at once find the same. */
static bool activity_visible(void) {
  static _Atomic int visible = -1;
  int known = atomic_load(&visible);
  if (known >= 0) return known;
  const char* preload = getenv("LD_PRELOAD");
  char path[64], text[512];
  pid_t self = own_tid();
  snprintf(path, sizeof(path), "/proc/self/task/%d/syscall", (int)self);
  bool shown = adc_read_proc_text(path, text, sizeof(text));
  snprintf(path, sizeof(path), "/proc/self/task/%d/schedstat", (int)self);
  shown = shown && adc_read_proc_text(path, text, sizeof(text));
  shown = shown && (preload == NULL || strstr(preload, "vgpreload") == NULL);
  atomic_store(&visible, shown);
  return shown;
}

/* What two looks say, one thread after another (both sorted by tid). */
static enum adc_activity compare_looks(const struct look* first, const struct look* second) {
  if (first->running || second->running) return ADC_ACTIVITY_RUNNING;
  if (first->unreadable || second->unreadable || first->n != second->n) return ADC_ACTIVITY_RUNNING;
  bool may_end = false;
  for (int i = 0; i < first->n; i++) {
    const struct thread_seen* a = &first->threads[i];
    const struct thread_seen* b = &second->threads[i];
    if (a->tid != b->tid || a->run_ns != b->run_ns || a->scheduled != b->scheduled)
      return ADC_ACTIVITY_RUNNING;
    if (a->wait == ADC_WAIT_RUNNING || b->wait == ADC_WAIT_RUNNING) return ADC_ACTIVITY_RUNNING;
    may_end |= a->wait == ADC_WAIT_MAY_END || b->wait == ADC_WAIT_MAY_END;
  }
  return may_end ? ADC_ACTIVITY_TIMED : ADC_ACTIVITY_QUIET;
}

static void pause_between_looks(void* context) {
  (void)context;
  adc_sleep_seconds(ADC_QUIESCENCE_LOOK_GAP_SECONDS);
}

enum adc_activity adc_process_activity(void) {
  return adc_process_activity_between(pause_between_looks, NULL);
}

enum adc_activity adc_process_activity_between(void (*between)(void* context), void* context) {
  if (!activity_visible()) return ADC_ACTIVITY_UNKNOWN;
  pid_t self = own_tid();
  struct look first, second;
  take_look(self, &first);
  if (first.running) return ADC_ACTIVITY_RUNNING; /* no second look needed */
  between(context);
  take_look(self, &second);
  if (first.too_many || second.too_many) return ADC_ACTIVITY_UNKNOWN;
  return compare_looks(&first, &second);
}

void adc_quiescence_begin_waiting(void) {
  if (waiting_slot >= 0) return;
  pid_t self = own_tid();
  for (int i = 0; i < MAX_WAITING; i++) {
    pid_t free_slot = 0;
    if (atomic_compare_exchange_strong(&waiting[i], &free_slot, self)) {
      waiting_slot = i;
      return;
    }
  }
  /* No slot: the thread stays looked at, which only costs precision. */
}

void adc_quiescence_end_waiting(void) {
  if (waiting_slot < 0) return;
  atomic_store(&waiting[waiting_slot], 0);
  waiting_slot = -1;
}
