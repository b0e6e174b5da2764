/* The quiescence detector (harness/support/quiescence.h): a process whose
 * other threads wait without timeout on the process itself is quiet; one
 * with a thread sleeping on a timer, spinning, or woken between the two
 * looks is not.  And the watch built on it (activity_watch.h): over at
 * once when quiet, on past its window while a thread runs, over after its
 * window when one sleeps on a timer.  Each test starts its threads in its own process (Check
 * forks every test), waits until the thread it watches is blocked where it
 * should be (read from /proc, bounded only so that a broken test ends),
 * then asks for the activity once. */
#include <check.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "support/activity_watch.h"
#include "support/blocked_wait.h"
#include "support/clock.h"
#include "support/quiescence.h"

/* What a test's thread shares with the test. */
static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static int wakeups;      /* times the test woke the waiting thread */
static int times_waited; /* times it went back to its wait */
static int pipe_ends[2];

static pid_t own_tid(void) {
  return (pid_t)syscall(SYS_gettid);
}

/* The tid of a started thread, published by the thread itself. */
static _Atomic pid_t started_tid;

static pthread_t start(void* (*body)(void*), void* argument) {
  atomic_store(&started_tid, 0);
  pthread_t thread;
  ck_assert_int_eq(pthread_create(&thread, NULL, body, argument), 0);
  return thread;
}

static pid_t tid_of_started(void) {
  while (atomic_load(&started_tid) == 0) adc_sleep_seconds(0.0001);
  return atomic_load(&started_tid);
}

static bool read_file(const char* path, char* text, size_t size) {
  FILE* file = fopen(path, "r");
  if (file == NULL) return false;
  size_t length = fread(text, 1, size - 1, file);
  fclose(file);
  text[length] = '\0';
  return length > 0;
}

/* Waits until thread `tid` sleeps in a system call: its state S and its
 * syscall line not "running".  The bound only ends a test whose thread
 * never gets there. */
static void wait_until_blocked(pid_t tid) {
  char path[64], text[512];
  double until = adc_now_seconds() + 30;
  while (adc_now_seconds() < until) {
    snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)tid);
    const char* close = read_file(path, text, sizeof(text)) ? strrchr(text, ')') : NULL;
    bool sleeping = close != NULL && close[1] == ' ' && close[2] == 'S';
    snprintf(path, sizeof(path), "/proc/self/task/%d/syscall", (int)tid);
    if (sleeping && read_file(path, text, sizeof(text)) && strncmp(text, "running", 7) != 0) return;
    adc_sleep_seconds(0.0005);
  }
  ck_abort_msg("thread %d never blocked", (int)tid);
}

/* Starts a thread running `body`, waits until it is blocked, and checks
 * what a look at the process then finds. */
static void expect_once_blocked(void* (*body)(void*), const void* argument, enum adc_activity expected) {
  start(body, (void*)argument);
  wait_until_blocked(tid_of_started());
  ck_assert_int_eq(adc_process_activity(), expected);
}

static void* wait_on_condition(void* argument) {
  (void)argument;
  atomic_store(&started_tid, own_tid());
  pthread_mutex_lock(&mutex);
  for (;;) {
    times_waited++;
    pthread_cond_broadcast(&changed);
    int seen = wakeups;
    while (wakeups == seen) pthread_cond_wait(&changed, &mutex);
  }
  return NULL;
}

static void* wait_with_timeout(void* argument) {
  (void)argument;
  pthread_mutex_lock(&mutex);
  atomic_store(&started_tid, own_tid());
  struct timespec until;
  clock_gettime(CLOCK_REALTIME, &until);
  until.tv_sec += 600;
  for (;;) pthread_cond_timedwait(&changed, &mutex, &until);
  return NULL;
}

static void* sleep_long(void* argument) {
  (void)argument;
  atomic_store(&started_tid, own_tid());
  for (;;) sleep(600);
  return NULL;
}

static void* read_empty_pipe(void* argument) {
  (void)argument;
  atomic_store(&started_tid, own_tid());
  char byte;
  for (;;) {
    if (read(pipe_ends[0], &byte, 1) <= 0) return NULL;
  }
}

/* Polls pipe_ends[0] with the timeout in milliseconds `argument` points
 * at (-1: none). */
static void* poll_pipe(void* argument) {
  int timeout = *(const int*)argument;
  atomic_store(&started_tid, own_tid());
  struct pollfd watched = {.fd = pipe_ends[0], .events = POLLIN};
  for (;;) poll(&watched, 1, timeout);
  return NULL;
}

static void* epoll_pipe(void* argument) {
  (void)argument;
  atomic_store(&started_tid, own_tid());
  int instance = epoll_create1(EPOLL_CLOEXEC);
  struct epoll_event event = {.events = EPOLLIN};
  epoll_ctl(instance, EPOLL_CTL_ADD, pipe_ends[0], &event);
  for (;;) epoll_wait(instance, &event, 1, -1);
  return NULL;
}

static void* join_thread(void* argument) {
  atomic_store(&started_tid, own_tid());
  pthread_join(*(pthread_t*)argument, NULL);
  return NULL;
}

static _Atomic bool spinning_stops;

static void* spin(void* argument) {
  bool mark = argument != NULL;
  if (mark) adc_quiescence_begin_waiting();
  atomic_store(&started_tid, own_tid());
  while (!atomic_load(&spinning_stops)) {
  }
  if (mark) adc_quiescence_end_waiting();
  return NULL;
}

START_TEST(quiet_in_cond_wait) {
  expect_once_blocked(wait_on_condition, NULL, ADC_ACTIVITY_QUIET);
}
END_TEST

/* pthread_join waits on a shared futex (the kernel wakes it as the thread
 * ends), with FUTEX_WAIT_BITSET and no timeout. */
START_TEST(quiet_in_join) {
  pthread_t waiting = start(wait_on_condition, NULL);
  wait_until_blocked(tid_of_started());
  expect_once_blocked(join_thread, &waiting, ADC_ACTIVITY_QUIET);
}
END_TEST

/* Waits on a descriptor: a pipe only this process can make ready, with no
 * timeout (quiet) or with one (timed); a socket, which something outside
 * may make ready (a server, a daemon). */
static const int no_timeout = -1, ten_minutes = 600000;
static const struct {
  void* (*body)(void*);
  const int* timeout;
  bool socket; /* a socketpair instead of a pipe */
  enum adc_activity expected;
} descriptor_waits[] = {
    {read_empty_pipe, NULL, false, ADC_ACTIVITY_QUIET}, {poll_pipe, &no_timeout, false, ADC_ACTIVITY_QUIET},
    {epoll_pipe, NULL, false, ADC_ACTIVITY_QUIET},      {poll_pipe, &ten_minutes, false, ADC_ACTIVITY_TIMED},
    {read_empty_pipe, NULL, true, ADC_ACTIVITY_TIMED},
};

START_TEST(wait_on_a_descriptor) {
  ck_assert_int_eq(
      descriptor_waits[_i].socket ? socketpair(AF_UNIX, SOCK_STREAM, 0, pipe_ends) : pipe(pipe_ends), 0);
  expect_once_blocked(descriptor_waits[_i].body, descriptor_waits[_i].timeout, descriptor_waits[_i].expected);
}
END_TEST

/* A thread blocked on a mutex the asking thread holds looks quiet: why a
 * caller must hold no lock a library thread may take while it looks. */
START_TEST(quiet_behind_a_lock_the_caller_holds) {
  pthread_mutex_lock(&mutex);
  expect_once_blocked(wait_on_condition, NULL, ADC_ACTIVITY_QUIET);
  pthread_mutex_unlock(&mutex);
}
END_TEST

START_TEST(timed_in_nanosleep) {
  expect_once_blocked(sleep_long, NULL, ADC_ACTIVITY_TIMED);
}
END_TEST

START_TEST(timed_in_cond_timedwait) {
  expect_once_blocked(wait_with_timeout, NULL, ADC_ACTIVITY_TIMED);
}
END_TEST

START_TEST(running_when_spinning) {
  start(spin, NULL);
  tid_of_started();
  ck_assert_int_eq(adc_process_activity(), ADC_ACTIVITY_RUNNING);
  atomic_store(&spinning_stops, true);
}
END_TEST

/* Between the looks: wakes the waiting thread and returns once it waits
 * again, so that both looks find it blocked without timeout; only its
 * count of times scheduled shows that it ran. */
static void wake_and_wait_until_blocked_again(void* context) {
  pid_t tid = *(pid_t*)context;
  pthread_mutex_lock(&mutex);
  int waited = times_waited;
  wakeups++;
  pthread_cond_broadcast(&changed);
  while (times_waited == waited) pthread_cond_wait(&changed, &mutex);
  pthread_mutex_unlock(&mutex);
  wait_until_blocked(tid);
}

START_TEST(running_when_woken_between_looks) {
  start(wait_on_condition, NULL);
  pid_t tid = tid_of_started();
  wait_until_blocked(tid);
  ck_assert_int_eq(adc_process_activity_between(wake_and_wait_until_blocked_again, &tid),
                   ADC_ACTIVITY_RUNNING);
  pthread_mutex_lock(&mutex);
  ck_assert_int_eq(wakeups, 1); /* it was woken once, between the looks */
  pthread_mutex_unlock(&mutex);
}
END_TEST

/* A thread marked waiting is left out, whatever it does. */
START_TEST(marked_waiting_thread_left_out) {
  start(spin, (void*)1);
  tid_of_started();
  ck_assert_int_eq(adc_process_activity(), ADC_ACTIVITY_QUIET);
  atomic_store(&spinning_stops, true);
}
END_TEST

/* Under Valgrind a thread held back waits in a read of Valgrind's pipe
 * while it is ready to run: activity cannot be told. */
START_TEST(unknown_under_valgrind) {
  setenv("LD_PRELOAD", "/usr/libexec/valgrind/vgpreload_memcheck-amd64-linux.so", 1);
  ck_assert_int_eq(adc_process_activity(), ADC_ACTIVITY_UNKNOWN);
}
END_TEST

/* Syscall lines as Linux prints them: futex waits count only without a
 * timeout, whatever their flags; other calls, and threads outside a call,
 * may end by themselves. */
START_TEST(syscall_lines_classified) {
  char line[160];
  const struct {
    long op;
    unsigned long timeout;
    enum adc_blocked_wait wait;
  } futexes[] = {
      {0x80, 0, ADC_WAIT_ON_THIS_PROCESS},   /* FUTEX_WAIT_PRIVATE: a mutex */
      {0x189, 0, ADC_WAIT_ON_THIS_PROCESS},  /* WAIT_BITSET, PRIVATE, CLOCK_REALTIME: a condition */
      {0x109, 0, ADC_WAIT_ON_THIS_PROCESS},  /* WAIT_BITSET, shared: pthread_join */
      {0x86, 0, ADC_WAIT_ON_THIS_PROCESS},   /* LOCK_PI_PRIVATE */
      {0x189, 0x7ffd1000, ADC_WAIT_MAY_END}, /* a timed condition wait */
      {0x80, 0x7ffd1000, ADC_WAIT_MAY_END},  /* a timed mutex wait */
      {0x81, 0, ADC_WAIT_MAY_END},           /* FUTEX_WAKE_PRIVATE does not wait */
  };
  for (size_t i = 0; i < sizeof(futexes) / sizeof(futexes[0]); i++) {
    snprintf(line, sizeof(line), "%ld 0x55d0c0 0x%lx 0x0 0x%lx 0x0 0x0 0x7ffd0 0x7f00\n", (long)SYS_futex,
             (unsigned long)futexes[i].op, futexes[i].timeout);
    ck_assert_msg(adc_blocked_wait_of(line) == futexes[i].wait, "%s", line);
  }
  snprintf(line, sizeof(line), "%ld 0x0 0x0 0x7f00 0x7f00 0x0 0x0 0x7ffd0 0x7f00\n",
           (long)SYS_clock_nanosleep);
  ck_assert_int_eq(adc_blocked_wait_of(line), ADC_WAIT_MAY_END);
  ck_assert_int_eq(adc_blocked_wait_of("-1 0x7ffd0 0x7f00\n"), ADC_WAIT_MAY_END);
  ck_assert_int_eq(adc_blocked_wait_of("running\n"), ADC_WAIT_RUNNING);
  /* A read of a descriptor that is not open here (nor a pipe). */
  snprintf(line, sizeof(line), "%ld 0x3ff 0x7f00 0x1 0x0 0x0 0x0 0x7ffd0 0x7f00\n", (long)SYS_read);
  ck_assert_int_eq(adc_blocked_wait_of(line), ADC_WAIT_MAY_END);
}
END_TEST

/* Starts a thread running `body` (once it is blocked, unless it spins),
 * starts a watch with `window` and `bound`, and looks once after `after`
 * seconds; what the look says. */
static enum adc_watch_state watch_once(void* (*body)(void*), double window, double bound, double after) {
  start(body, NULL);
  pid_t tid = tid_of_started();
  if (body != spin) wait_until_blocked(tid);
  struct adc_activity_watch watch;
  adc_watch_begin(&watch, window, bound);
  adc_sleep_seconds(after);
  enum adc_watch_state state = adc_watch_look(&watch);
  atomic_store(&spinning_stops, true);
  return state;
}

/* The watch: over at once when quiet, on past its window while a thread
 * runs (up to its bound), over after its window when a thread sleeps on a
 * timer, on within it. */
static const struct {
  void* (*body)(void*);
  double window, bound, after;
  enum adc_watch_state expected;
} watches[] = {
    {wait_on_condition, 600, 600, 0, ADC_WATCH_QUIET}, {spin, 0.001, 600, 0.002, ADC_WATCH_GOES_ON},
    {spin, 0.001, 0.002, 0.003, ADC_WATCH_TIME_UP},    {sleep_long, 0.001, 600, 0.002, ADC_WATCH_TIME_UP},
    {sleep_long, 600, 600, 0, ADC_WATCH_GOES_ON},
};

START_TEST(watch_ends_on_what_threads_do) {
  ck_assert_int_eq(watch_once(watches[_i].body, watches[_i].window, watches[_i].bound, watches[_i].after),
                   watches[_i].expected);
}
END_TEST

/* A sleep until a moment already past is none: a watch's pause or a
 * hold's time left may be (a look can take longer than what was left on a
 * loaded machine).  It spun for ever, nanosleep refusing a negative time:
 * an OpenCL hold's opener hung its case under ThreadSanitizer beside busy
 * processes. */
START_TEST(a_sleep_into_the_past_returns) {
  double started = adc_now_seconds();
  adc_sleep_seconds(-0.0007);
  adc_sleep_seconds(0);
  adc_sleep_seconds(0.001);
  ck_assert_double_lt(adc_now_seconds() - started, 5.0);
}
END_TEST

int main(void) {
  Suite* suite = suite_create("quiescence");
  TCase* looks = tcase_create("looks");
  /* Each test ends in well under a second; the limit leaves room for a
   * loaded machine. */
  tcase_set_timeout(looks, 60);
  tcase_add_test(looks, a_sleep_into_the_past_returns);
  tcase_add_test(looks, quiet_in_cond_wait);
  tcase_add_test(looks, quiet_in_join);
  tcase_add_loop_test(looks, wait_on_a_descriptor, 0,
                      (int)(sizeof(descriptor_waits) / sizeof(descriptor_waits[0])));
  tcase_add_test(looks, quiet_behind_a_lock_the_caller_holds);
  tcase_add_test(looks, timed_in_nanosleep);
  tcase_add_test(looks, timed_in_cond_timedwait);
  tcase_add_test(looks, running_when_spinning);
  tcase_add_test(looks, running_when_woken_between_looks);
  tcase_add_test(looks, marked_waiting_thread_left_out);
  tcase_add_test(looks, unknown_under_valgrind);
  tcase_add_test(looks, syscall_lines_classified);
  tcase_add_loop_test(looks, watch_ends_on_what_threads_do, 0, (int)(sizeof(watches) / sizeof(watches[0])));
  suite_add_tcase(suite, looks);
  SRunner* runner = srunner_create(suite);
  srunner_run_all(runner, CK_NORMAL);
  int failed = srunner_ntests_failed(runner);
  srunner_free(runner);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
