#include "runner/kept_threads.h"

#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "support/allocator_threads.h"
#include "support/blocked_wait.h"
#include "support/clock.h"
#include "support/thread_look.h"

/* The process's own threads, at most (the main one, a device runtime's). */
#define MAX_OWN 64

/* A thread of the library, as the last look saw it. */
struct kept_thread {
  pid_t tid;
  struct adc_thread_seen seen;
  /* Its current wait began after this moment (monotonic seconds): the
   * start of the look before the one that saw it had run, or that first
   * saw it.  A wait with a span for timeout ends no sooner than that plus
   * the span. */
  double waits_since;
  bool wait_read; /* may_end_from is that of its current wait */
  /* The first moment its current wait may end by itself: INFINITY where
   * only a thread of this process can end it, -INFINITY where anything may
   * at any moment. */
  double may_end_from;
  /* During a case: it was kept at its start, and what its wait was then. */
  bool kept_at_start;
  double may_end_from_at_start;
  bool named; /* a note has named it */
};

static struct {
  pid_t own[MAX_OWN];
  int n_own;
  struct kept_thread kept[ADC_KEPT_THREADS_MAX];
  int n_kept;
  bool too_many;
  double last_look; /* the start of the last look */
  /* During a case: the first kept thread seen to have run when its wait
   * could have ended by itself, described. */
  char woke[400];
} threads;

static void say(char* text, size_t size, const char* format, ...) __attribute__((format(printf, 3, 4)));
static void say(char* text, size_t size, const char* format, ...) {
  va_list arguments;
  va_start(arguments, format);
  vsnprintf(text, size, format, arguments);
  va_end(arguments);
}

static bool is_own(pid_t tid) {
  for (int i = 0; i < threads.n_own; i++) {
    if (threads.own[i] == tid) return true;
  }
  return false;
}

static void* do_nothing(void* argument) {
  return argument;
}

void adc_kept_threads_begin(void) {
  /* What a process's first thread starts is the process's own: a thread
   * started and joined here, TSan's background thread comes now, not with
   * the library's first thread. */
  pthread_t thread;
  if (pthread_create(&thread, NULL, do_nothing, NULL) == 0) pthread_join(thread, NULL);
  memset(&threads, 0, sizeof(threads));
  int listed = adc_list_threads(threads.own, MAX_OWN);
  threads.n_own = listed < 0 ? 0 : listed < MAX_OWN ? listed : MAX_OWN;
  threads.last_look = adc_now_seconds();
}

/* What a thread's wait lets it do by itself, in words. */
static const char* wait_words(const struct kept_thread* thread) {
  char name[32];
  adc_thread_name(thread->tid, name, sizeof(name));
  if (adc_is_allocator_thread(name)) return "an allocator's, returning freed memory on a timer";
  if (thread->may_end_from == INFINITY) return "untimed";
  if (thread->may_end_from == -INFINITY) return "on what may end from outside";
  return "timed";
}

/* The moment the wait read may first end by itself, on the monotonic clock. */
static double first_end(const struct adc_wait_timing* wait, double waits_since) {
  if (wait->wait != ADC_WAIT_ON_THIS_PROCESS) return -INFINITY;
  if (!wait->timed) return INFINITY;
  if (!wait->absolute) return waits_since + wait->seconds;
  if (wait->clock == CLOCK_MONOTONIC || wait->clock == CLOCK_BOOTTIME) return wait->seconds;
  if (wait->clock != CLOCK_REALTIME && wait->clock != CLOCK_TAI) return -INFINITY; /* a CPU-time clock */
  struct timespec now;
  clock_gettime(wait->clock, &now);
  return wait->seconds - ((double)now.tv_sec + (double)now.tv_nsec / 1e9) + adc_now_seconds();
}

/* Notes that a thread kept at the case's start ran (or ended), seen by a
 * look at `seen_at`: if its wait could have ended by itself by then, the
 * case cannot tell what it did from its own calls. */
static void note_ran_during_case(const struct kept_thread* thread, double seen_at, bool ended) {
  if (!thread->kept_at_start || threads.woke[0] != '\0' || thread->may_end_from_at_start > seen_at) return;
  char name[32];
  adc_thread_name(thread->tid, name, sizeof(name));
  if (adc_is_allocator_thread(name)) return;
  char how[160];
  if (thread->may_end_from_at_start == -INFINITY) {
    say(how, sizeof(how), "its wait was one that something outside the process may end");
  } else {
    say(how, sizeof(how), "its wait had a timeout, which may have expired %.3f s before",
        seen_at - thread->may_end_from_at_start);
  }
  say(threads.woke, sizeof(threads.woke),
      "a thread the library keeps between cases (tid %d '%s') %s during the case when it could have "
      "woken by itself (%s)",
      (int)thread->tid, name, ended ? "ended" : "ran", how);
}

/* The first change a look found, for a caller that names it. */
struct change {
  bool any;
  char what[300];
};

static void note_change(struct change* change, pid_t tid, const char* what) {
  if (change->any) return;
  char name[32];
  adc_thread_name(tid, name, sizeof(name));
  if (adc_is_allocator_thread(name)) return;
  change->any = true;
  say(change->what, sizeof(change->what), "a thread of the library (tid %d '%s') %s", (int)tid, name, what);
}

static struct kept_thread* find(pid_t tid) {
  for (int i = 0; i < threads.n_kept; i++) {
    if (threads.kept[i].tid == tid) return &threads.kept[i];
  }
  return NULL;
}

/* Removes the threads a look did not list (they ended). */
static void forget_ended(const bool* listed, double now, struct change* change) {
  int kept = 0;
  for (int i = 0; i < threads.n_kept; i++) {
    if (!listed[i]) {
      note_change(change, threads.kept[i].tid, "ended");
      note_ran_during_case(&threads.kept[i], now, true);
      continue;
    }
    threads.kept[kept++] = threads.kept[i];
  }
  threads.n_kept = kept;
}

/* One look at every thread of the library: updates what is kept, and
 * says whether any thread is not blocked and idle since the last look. */
static void look(struct change* change) {
  double started = adc_now_seconds();
  pid_t tids[ADC_KEPT_THREADS_MAX + MAX_OWN];
  int listed = adc_list_threads(tids, ADC_KEPT_THREADS_MAX + MAX_OWN);
  threads.too_many = listed > ADC_KEPT_THREADS_MAX + MAX_OWN;
  if (listed > ADC_KEPT_THREADS_MAX + MAX_OWN) listed = ADC_KEPT_THREADS_MAX + MAX_OWN;
  bool still_there[ADC_KEPT_THREADS_MAX] = {false};
  for (int i = 0; i < listed; i++) {
    if (is_own(tids[i])) continue;
    struct adc_thread_seen seen;
    bool readable = adc_see_thread(tids[i], &seen);
    struct kept_thread* thread = find(tids[i]);
    if (thread == NULL) {
      if (!readable) continue; /* started and ended between the listing and its files */
      if (threads.n_kept == ADC_KEPT_THREADS_MAX) {
        threads.too_many = true;
        continue;
      }
      thread = &threads.kept[threads.n_kept++];
      *thread = (struct kept_thread){.tid = tids[i], .seen = seen, .waits_since = threads.last_look};
      note_change(change, tids[i], "started");
      if (seen.state != 'S') note_change(change, tids[i], "runs");
    } else if (readable) {
      bool idle = adc_thread_stayed_asleep(&thread->seen, &seen);
      if (seen.run_ns != thread->seen.run_ns || seen.scheduled != thread->seen.scheduled) {
        thread->waits_since = threads.last_look;
        thread->wait_read = false;
        note_ran_during_case(thread, adc_now_seconds(), false);
      }
      thread->seen = seen;
      if (!idle) note_change(change, tids[i], seen.state == 'S' ? "ran" : "runs");
    } else {
      continue; /* ended between the listing and its files: forgotten below */
    }
    still_there[thread - threads.kept] = true;
  }
  forget_ended(still_there, adc_now_seconds(), change);
  threads.last_look = started;
}

/* Reads the wait of each kept thread that ran since its wait was read. */
static void read_waits(void) {
  for (int i = 0; i < threads.n_kept; i++) {
    struct kept_thread* thread = &threads.kept[i];
    if (thread->wait_read) continue;
    char line[512];
    struct adc_wait_timing wait = {.wait = ADC_WAIT_MAY_END};
    if (adc_thread_syscall_line(thread->tid, line, sizeof(line))) {
      adc_blocked_wait_timing(line, ADC_WAIT_EVENTFD_INSIDE, &wait);
    }
    thread->may_end_from = first_end(&wait, thread->waits_since);
    thread->wait_read = true;
  }
}

static int count_running(void) {
  int running = 0;
  for (int i = 0; i < threads.n_kept; i++) running += threads.kept[i].seen.state != 'S';
  return running;
}

bool adc_kept_threads_settle(char* left, size_t size) {
  double until = adc_now_seconds() + ADC_THREAD_SETTLE_SECONDS;
  /* The first look compares with the last one (the case's start, or the
   * settle before): a case that left its threads as it found them settles
   * at once.  Then none was woken between two looks that found them all
   * asleep with the same counts: a thread woken is shown running ('R')
   * from its wake-up on, and one that ran has moved its counts. */
  double pause = 0;
  struct change change;
  for (;;) {
    change.any = false;
    look(&change);
    if ((!change.any && !threads.too_many) || adc_now_seconds() >= until) break;
    adc_sleep_seconds(pause);
    pause = pause == 0 ? 0.00005 : pause * 2 > 0.005 ? 0.005 : pause * 2;
  }
  read_waits();
  if (threads.too_many) {
    say(left, size, "left more threads than the harness follows (%d)", ADC_KEPT_THREADS_MAX);
  } else if (change.any && count_running() > 0) {
    say(left, size, "left %d thread(s) running", count_running());
  } else if (change.any) {
    say(left, size, "left threads starting and ending: %s", change.what);
  }
  return change.any || threads.too_many;
}

bool adc_kept_threads_ran_between(char* why, size_t size) {
  threads.woke[0] = '\0';
  for (int i = 0; i < threads.n_kept; i++) threads.kept[i].kept_at_start = false;
  struct change change = {false, ""};
  look(&change);
  if (change.any) {
    say(why, size, "%s between two cases, with no call of the library in progress", change.what);
    return true;
  }
  for (int i = 0; i < threads.n_kept; i++) {
    threads.kept[i].kept_at_start = true;
    threads.kept[i].may_end_from_at_start = threads.kept[i].may_end_from;
  }
  return false;
}

bool adc_kept_threads_woke_by_themselves(char* why, size_t size) {
  if (threads.woke[0] == '\0') return false;
  say(why, size, "%s", threads.woke);
  return true;
}

/* Adds "'name' xN (how it waits)" for each kind of thread not named yet
 * like `first` (same name and wait), marking them named. */
static void name_alike(const struct kept_thread* first, char* text, size_t size) {
  char name[32], other[32];
  adc_thread_name(first->tid, name, sizeof(name));
  int alike = 0;
  const char* words = wait_words(first);
  for (int i = 0; i < threads.n_kept; i++) {
    struct kept_thread* thread = &threads.kept[i];
    if (thread->named || wait_words(thread) != words) continue;
    adc_thread_name(thread->tid, other, sizeof(other));
    if (strcmp(name, other) != 0) continue;
    thread->named = true;
    alike++;
  }
  size_t used = strlen(text);
  snprintf(text + used, size - used, "%s '%s' x%d (%s)", text[used - 1] == ':' ? "" : ",", name, alike,
           words);
}

bool adc_kept_threads_name_new(char* text, size_t size) {
  int fresh = 0;
  for (int i = 0; i < threads.n_kept; i++) fresh += !threads.kept[i].named;
  if (fresh == 0) return false;
  snprintf(text, size, "the library keeps %d thread(s) between cases, each blocked:", threads.n_kept);
  for (int i = 0; i < threads.n_kept; i++) {
    if (!threads.kept[i].named) name_alike(&threads.kept[i], text, size);
  }
  return true;
}
