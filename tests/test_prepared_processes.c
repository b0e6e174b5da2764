/* Prepared processes (runner/task_runner.h, struct adc_task_group), with
 * tasks written here: a group's tasks share one process, and isolation
 * holds all the same.  A task that does not pass there runs again alone
 * and that run's verdict stands; a crash or a hang costs the process, not
 * the run; what a task leaves behind ends its process after its verdict,
 * but threads it leaves blocked are kept, unless one runs by itself;
 * the tasks a process passed before it died run again alone; a process
 * that cannot prepare leaves its tasks to run alone; a device that
 * refuses is retried, then gives up with its reason; a process's start is
 * timed apart from its task. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "runner/orphans.h"
#include "runner/task_runner.h"
#include "support/clock.h"
#include "unit_test_support.h"
#include "wire/wire.h"

/* What a task does, in whichever process it runs. */
enum behaviour {
  PASSES,
  /* Fails in a process where two tasks ran before it, as a library that
   * goes wrong after so many calls; passes otherwise. */
  FAILS_AFTER_TWO_TASKS,
  /* Fails the first time it runs in any process, then passes: as a
   * failure of load or timing, which does not happen again. */
  FAILS_ONCE,
  FAILS,
  CRASHES,
  HANGS,
  LEAVES_A_THREAD, /* running */
  LEAVES_A_PROCESS,
  CHANGES_A_SIGNAL,
  HOLDS_MEMORY,
  ARMS_AN_ALARM,
  TAKES_A_WHILE, /* 20 ms */
  /* Hands a pool of two threads a token and waits until both took it; the
   * first task of a process starts the pool, which waits on a condition
   * variable between tasks. */
  USES_A_POOL,
  /* The first task of a process starts a thread that, 30 ms later, wakes
   * by its timer, runs, and waits again without one. */
  STARTS_A_TIMER,
};

/* Every verdict's message is the pid of the process that gave it. */
static void say_pid(struct adc_task_verdict* verdict) {
  snprintf(verdict->message, sizeof(verdict->message), "%ld", (long)getpid());
}

static void* spin(void* argument) {
  (void)argument;
  for (volatile unsigned long turns = 0;; turns++) continue;
  return NULL;
}

/* The pool of USES_A_POOL, and the thread of STARTS_A_TIMER. */
static pthread_mutex_t pool_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t pool_changed = PTHREAD_COND_INITIALIZER;
static unsigned long tokens_posted, tokens_taken[2];
static bool pool_started, timer_started;

static void* serve_pool(void* argument) {
  unsigned long* taken = argument;
  pthread_mutex_lock(&pool_mutex);
  for (;;) {
    while (*taken == tokens_posted) pthread_cond_wait(&pool_changed, &pool_mutex);
    *taken = tokens_posted;
    pthread_cond_broadcast(&pool_changed);
  }
  return NULL;
}

static void use_pool(void) {
  pthread_mutex_lock(&pool_mutex);
  for (int t = 0; t < 2 && !pool_started; t++) {
    pthread_t thread;
    pthread_create(&thread, NULL, serve_pool, &tokens_taken[t]);
    pthread_detach(thread);
  }
  pool_started = true;
  unsigned long token = ++tokens_posted;
  pthread_cond_broadcast(&pool_changed);
  while (tokens_taken[0] < token || tokens_taken[1] < token) pthread_cond_wait(&pool_changed, &pool_mutex);
  pthread_mutex_unlock(&pool_mutex);
}

static void* wake_on_a_timer(void* argument) {
  (void)argument;
  struct timespec due;
  clock_gettime(CLOCK_REALTIME, &due);
  due.tv_nsec += 30000000L;
  if (due.tv_nsec >= 1000000000L) {
    due.tv_sec++;
    due.tv_nsec -= 1000000000L;
  }
  pthread_mutex_lock(&pool_mutex);
  while (pthread_cond_timedwait(&pool_changed, &pool_mutex, &due) != ETIMEDOUT) continue;
  for (;;) pthread_cond_wait(&pool_changed, &pool_mutex);
  return NULL;
}

/* What HOLDS_MEMORY tasks hold: a block per task of a process (a test
 * runs at most two there), volatile so that it is kept, and still
 * reachable at the process's exit, so that a leak checker does not end it
 * otherwise than told. */
static void* volatile held_blocks[2];
static unsigned tasks_holding;
/* The tasks this process has run; and the file whose creation marks that
 * FAILS_ONCE failed (in any process of the test). */
static unsigned tasks_here;
static char failed_once_path[64];

/* Does what `behaviour` says, in a process of its own or a prepared one;
 * gives the status. */
static enum adc_status behave(enum behaviour behaviour) {
  tasks_here++;
  switch (behaviour) {
    case PASSES:
      return ADC_PASS;
    case FAILS_AFTER_TWO_TASKS:
      return tasks_here > 2 ? ADC_FAIL : ADC_PASS;
    case FAILS_ONCE: {
      int fd = open(failed_once_path, O_WRONLY | O_CREAT | O_EXCL, 0600);
      if (fd < 0) return ADC_PASS;
      close(fd);
      return ADC_FAIL;
    }
    case FAILS:
      return ADC_FAIL;
    case CRASHES:
      kill(getpid(), SIGKILL); /* no sanitizer turns it into an exit status */
      return ADC_PASS;
    case HANGS:
      for (;;) pause();
    case LEAVES_A_THREAD: {
      pthread_t thread;
      pthread_create(&thread, NULL, spin, NULL);
      pthread_detach(thread);
      return ADC_PASS;
    }
    case LEAVES_A_PROCESS:
      if (fork() == 0) {
        sleep(30);
        _exit(0);
      }
      return ADC_PASS;
    case CHANGES_A_SIGNAL:
      signal(SIGUSR1, SIG_IGN);
      return ADC_PASS;
    case HOLDS_MEMORY: {
      void* block = malloc((size_t)8 << 20);
      memset(block, 1, (size_t)8 << 20);
      held_blocks[tasks_holding++ % 2] = block;
      return ADC_PASS;
    }
    case ARMS_AN_ALARM:
      alarm(30);
      return ADC_PASS;
    case TAKES_A_WHILE:
      nanosleep(&(struct timespec){0, 20000000L}, NULL);
      return ADC_PASS;
    case USES_A_POOL:
      use_pool();
      return ADC_PASS;
    case STARTS_A_TIMER:
      if (!timer_started) {
        pthread_t thread;
        pthread_create(&thread, NULL, wake_on_a_timer, NULL);
        pthread_detach(thread);
        timer_started = true;
      }
      return ADC_PASS;
  }
  return ADC_PASS;
}

static void run_alone(const void* argument, int channel_fd) {
  struct adc_task_verdict verdict;
  say_pid(&verdict);
  adc_wire_send(channel_fd, behave(*(const enum behaviour*)argument), verdict.message);
}

static void run_shared(const void* argument, struct adc_task_verdict* verdict) {
  say_pid(verdict);
  verdict->status = behave(*(const enum behaviour*)argument);
}

/* ---- groups ----------------------------------------------------------- */

enum preparation { PREPARES, FAILS_TO_PREPARE, REFUSED_ALWAYS, ONE_HOLDER_AT_A_TIME };
static char lock_path[64];
/* Each refusal of the one-holder device adds a byte to this file. */
static char refusals_path[64];

static int prepare(const void* argument, bool* refused, struct adc_error* error) {
  enum preparation preparation = *(const enum preparation*)argument;
  *refused = false;
  switch (preparation) {
    case PREPARES:
      return 0;
    case FAILS_TO_PREPARE:
      return adc_fail(error, "cannot load the library");
    case REFUSED_ALWAYS:
      *refused = true;
      return adc_fail(error, "all CUDA-capable devices are busy or unavailable");
    case ONE_HOLDER_AT_A_TIME: {
      /* A device of one client at a time, as a lock held for the process's
       * life (closed with it). */
      int fd = open(lock_path, O_RDWR | O_CREAT, 0600);
      if (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0) return 0;
      int refusals = open(refusals_path, O_WRONLY | O_CREAT | O_APPEND, 0600);
      if (refusals >= 0 && write(refusals, "r", 1) == 1) close(refusals);
      *refused = true;
      return adc_fail(error, "busy: another process holds the device");
    }
  }
  return 0;
}

static const enum preparation prepares = PREPARES;
static const enum preparation fails_to_prepare = FAILS_TO_PREPARE;
static const enum preparation refused_always = REFUSED_ALWAYS;
static const enum preparation one_holder = ONE_HOLDER_AT_A_TIME;

static struct adc_task_group group_of(const enum preparation* preparation) {
  return (struct adc_task_group){
      .prepare = prepare, .argument = preparation, .start_seconds = 10, .name = "test"};
}

static const enum behaviour passes = PASSES;

static struct adc_task shared_task(const enum behaviour* behaviour, const struct adc_task_group* group) {
  return (struct adc_task){.run = run_alone,
                           .argument = behaviour,
                           .timeout_seconds = 5,
                           .group = group,
                           .run_prepared = run_shared};
}

static void run_all(struct adc_task* tasks, size_t n, int jobs, const struct adc_task_resource* resources,
                    size_t n_resources, struct adc_task_result* results) {
  memset(results, 0, n * sizeof(*results));
  struct adc_task_run run = {.jobs = jobs, .resources = resources, .n_resources = n_resources};
  struct adc_error error;
  ck_assert_int_eq(adc_run_tasks(tasks, n, &run, results, &error), 0);
  pid_t left[4];
  ck_assert_uint_eq(adc_list_children(left, 4), 0);
}

static long pid_of(const struct adc_task_result* result) {
  return atol(result->message);
}

/* ---- the tests ----------------------------------------------------------- */

/* A group's tasks run one after another in one prepared process; a task
 * without a group has a process of its own. */
START_TEST(a_group_shares_one_process) {
  struct adc_task_group group = group_of(&prepares);
  struct adc_task tasks[6];
  for (int t = 0; t < 5; t++) tasks[t] = shared_task(&passes, &group);
  tasks[5] = shared_task(&passes, NULL);
  struct adc_task_result results[6];
  run_all(tasks, 6, 1, NULL, 0, results);
  for (int t = 0; t < 6; t++) ck_assert_int_eq(results[t].status, ADC_PASS);
  for (int t = 1; t < 5; t++) ck_assert_int_eq(pid_of(&results[t]), pid_of(&results[0]));
  ck_assert_int_ne(pid_of(&results[5]), pid_of(&results[0]));
  ck_assert(results[0].shared.ran && !results[0].shared.rerun_alone);
  ck_assert(!results[5].shared.ran);
}
END_TEST

/* A task that does not pass in the prepared process runs again alone:
 * where it does not pass there either, that verdict stands; where it
 * passes, the process is replayed up to it, and a failure it does not give
 * again is said beside its pass, with what the prepared process gave. */
START_TEST(a_task_not_passing_runs_again_alone) {
  static const enum behaviour fails_once = FAILS_ONCE;
  static const enum behaviour fails = FAILS;
  snprintf(failed_once_path, sizeof(failed_once_path), "/tmp/adc-failed-once-%ld", (long)getpid());
  unlink(failed_once_path);
  struct adc_task_group group = group_of(&prepares);
  struct adc_task tasks[] = {shared_task(&passes, &group), shared_task(&fails_once, &group),
                             shared_task(&fails, &group), shared_task(&passes, &group)};
  struct adc_task_result results[4];
  run_all(tasks, 4, 1, NULL, 0, results);
  unlink(failed_once_path);
  ck_assert_int_eq(results[1].status, ADC_PASS);
  ck_assert(results[1].shared.rerun_alone);
  ck_assert_int_eq(results[1].shared.status, ADC_FAIL);
  ck_assert(results[1].shared.replayed && !results[1].shared.reproduced);
  ck_assert_uint_eq(results[1].shared.earlier_tasks, 1);
  ck_assert_msg(strstr(results[1].message, "failed once, not again") != NULL, "%s", results[1].message);
  ck_assert(!results[2].shared.replayed);
  ck_assert_int_eq(results[2].status, ADC_FAIL);
  ck_assert(results[2].shared.rerun_alone);
  /* A failure costs nothing but its rerun: the next task stays shared. */
  ck_assert_int_eq(pid_of(&results[3]), pid_of(&results[0]));
  ck_assert(!results[3].shared.rerun_alone);
}
END_TEST

/* A crash or a hang costs the prepared process: the task is judged alone
 * (crash, timeout), those before it that had passed there run again alone
 * (their process did not end cleanly), and those after it go on in
 * another prepared process. */
START_TEST(a_crash_or_a_hang_costs_the_process_not_the_run) {
  static const enum behaviour crashes = CRASHES;
  static const enum behaviour hangs = HANGS;
  struct adc_task_group group = group_of(&prepares);
  struct adc_task tasks[] = {shared_task(&passes, &group), shared_task(&crashes, &group),
                             shared_task(&passes, &group), shared_task(&hangs, &group),
                             shared_task(&passes, &group)};
  tasks[3].timeout_seconds = 0.5;
  struct adc_task_result results[5];
  run_all(tasks, 5, 1, NULL, 0, results);
  ck_assert_int_eq(results[0].status, ADC_PASS);
  ck_assert_msg(results[0].shared.rerun_alone, "a pass in a process that then died stands unconfirmed");
  ck_assert_int_eq(results[1].status, ADC_CRASH);
  ck_assert_int_eq(results[1].shared.status, ADC_CRASH);
  ck_assert_int_eq(results[3].status, ADC_TIMEOUT);
  ck_assert_int_eq(results[3].shared.status, ADC_TIMEOUT);
  ck_assert_int_eq(results[4].status, ADC_PASS);
  ck_assert(!results[4].shared.rerun_alone);
}
END_TEST

/* A task that fails only after others ran in its process passes alone; the
 * replay of that process, in a fresh one, fails it again: where every task
 * before it passed there, its verdict is that failure, naming how many
 * tasks ran before it; where one went wrong first, that one's verdict
 * judges it, and its own pass stands, naming that one.  One replay serves
 * every such task of the process. */
START_TEST(a_failure_after_earlier_tasks_is_replayed_and_stands) {
  static const enum behaviour fails_after_two = FAILS_AFTER_TWO_TASKS;
  struct adc_task_group group = group_of(&prepares);
  struct adc_task tasks[] = {shared_task(&passes, &group), shared_task(&passes, &group),
                             shared_task(&fails_after_two, &group), shared_task(&fails_after_two, &group)};
  tasks[2].name = "the third";
  struct adc_task_result results[4];
  run_all(tasks, 4, 1, NULL, 0, results);
  for (int t = 2; t < 4; t++) {
    ck_assert(results[t].shared.rerun_alone && results[t].shared.replayed && results[t].shared.reproduced);
    ck_assert_uint_eq(results[t].shared.earlier_tasks, (size_t)t);
  }
  ck_assert_msg(results[2].status == ADC_FAIL, "%s", results[2].message);
  ck_assert_str_eq(results[2].shared.first_to_go_wrong, "this one");
  ck_assert_msg(
      strstr(results[2].message, "only after 2 earlier case(s) in one process, each of which passed") != NULL,
      "%s", results[2].message);
  ck_assert_msg(results[3].status == ADC_PASS, "%s", results[3].message);
  ck_assert_str_eq(results[3].shared.first_to_go_wrong, "the third");
  ck_assert_msg(strstr(results[3].message, "one of which went wrong first, the third") != NULL, "%s",
                results[3].message);
}
END_TEST

/* The first task a prepared process runs has nothing of the library's run
 * before it, as in a process of its own: its verdict stands, whatever it
 * is, without a second run (a hang costs its limit once). */
START_TEST(the_first_task_of_a_process_is_judged_as_alone) {
  static const enum behaviour fails = FAILS;
  static const enum behaviour hangs = HANGS;
  static const enum behaviour crashes = CRASHES;
  const enum behaviour* firsts[] = {&fails, &hangs, &crashes};
  const enum adc_status statuses[] = {ADC_FAIL, ADC_TIMEOUT, ADC_CRASH};
  for (size_t f = 0; f < 3; f++) {
    struct adc_task_group group = group_of(&prepares);
    struct adc_task tasks[] = {shared_task(firsts[f], &group), shared_task(&passes, &group)};
    tasks[0].timeout_seconds = 0.5;
    struct adc_task_result results[2];
    run_all(tasks, 2, 1, NULL, 0, results);
    ck_assert_msg(results[0].status == statuses[f], "%zu: %s: %s", f, adc_status_name(results[0].status),
                  results[0].message);
    ck_assert_msg(results[0].shared.first_in_process && !results[0].shared.rerun_alone, "%zu: ran twice", f);
    ck_assert_int_eq(results[1].status, ADC_PASS);
  }
}
END_TEST

/* Once a task of a family (a rule's cases) has hung in a prepared process,
 * the family's other tasks each run first in a prepared process, where a
 * hang stands at once: a library that hangs pays each limit once, but the
 * first, whose hang came after other tasks. */
START_TEST(a_family_that_hung_runs_first_in_its_processes) {
  static const enum behaviour hangs = HANGS;
  struct adc_task_group group = group_of(&prepares);
  struct adc_task tasks[6];
  for (int t = 0; t < 6; t++) {
    tasks[t] = shared_task(t % 2 == 0 ? &passes : &hangs, &group);
    tasks[t].family = t % 2 == 0 ? 1 : 2;
    tasks[t].timeout_seconds = 0.3;
  }
  struct adc_task_result results[6];
  run_all(tasks, 6, 1, NULL, 0, results);
  ck_assert(results[1].status == ADC_TIMEOUT && results[1].shared.rerun_alone);
  for (int t = 3; t < 6; t += 2) {
    ck_assert_msg(results[t].status == ADC_TIMEOUT, "%d: %s", t, results[t].message);
    ck_assert_msg(results[t].shared.first_in_process && !results[t].shared.rerun_alone, "%d hung twice", t);
  }
  for (int t = 0; t < 6; t += 2) ck_assert_int_eq(results[t].status, ADC_PASS);
}
END_TEST

/* A task that did not pass later in a prepared process runs again as the
 * first task of another prepared process of its group, where one starts
 * for the group's tasks left: its verdict there stands, and the process
 * goes on with those tasks (no process of its own). */
START_TEST(a_task_run_again_is_the_first_of_another_process) {
  static const enum behaviour fails = FAILS;
  static const enum behaviour leaves = LEAVES_A_THREAD;
  struct adc_task_group group = group_of(&prepares);
  struct adc_task tasks[] = {shared_task(&passes, &group), shared_task(&fails, &group),
                             shared_task(&leaves, &group), shared_task(&passes, &group),
                             shared_task(&passes, &group)};
  struct adc_task_result results[5];
  run_all(tasks, 5, 1, NULL, 0, results);
  ck_assert_int_eq(results[1].status, ADC_FAIL);
  ck_assert(results[1].shared.rerun_alone && results[1].shared.first_in_process);
  ck_assert_int_ne(pid_of(&results[1]), pid_of(&results[0]));
  ck_assert_int_eq(pid_of(&results[1]), pid_of(&results[3]));
  ck_assert_int_eq(pid_of(&results[3]), pid_of(&results[4]));
}
END_TEST

/* What a task leaves behind (a thread, a process, a signal disposition,
 * memory, an alarm) ends its prepared process once its verdict is given: the next
 * task runs in a new one, and no verdict changes. */
START_TEST(what_a_task_leaves_ends_its_process) {
  static const enum behaviour leaving[] = {LEAVES_A_THREAD, LEAVES_A_PROCESS, CHANGES_A_SIGNAL, HOLDS_MEMORY,
                                           ARMS_AN_ALARM};
  for (size_t l = 0; l < sizeof(leaving) / sizeof(leaving[0]); l++) {
    struct adc_task_group group = group_of(&prepares);
    struct adc_task tasks[] = {shared_task(&passes, &group), shared_task(&leaving[l], &group),
                               shared_task(&passes, &group)};
    struct adc_task_result results[3];
    run_all(tasks, 3, 1, NULL, 0, results);
    for (int t = 0; t < 3; t++) {
      ck_assert_msg(results[t].status == ADC_PASS && !results[t].shared.rerun_alone,
                    "behaviour %zu, task %d: %s", l, t, results[t].message);
    }
    ck_assert_int_eq(pid_of(&results[1]), pid_of(&results[0]));
    ck_assert_msg(pid_of(&results[2]) != pid_of(&results[1]), "behaviour %zu left nothing seen", l);
  }
}
END_TEST

/* Threads a task leaves blocked (a pool started on first use, waiting on a
 * condition variable) are kept: every task runs in one process, the pool
 * running in each, and the first task's result names them. */
START_TEST(a_pool_left_blocked_is_kept) {
  static const enum behaviour pooled = USES_A_POOL;
  struct adc_task_group group = group_of(&prepares);
  struct adc_task tasks[8];
  for (int t = 0; t < 8; t++) tasks[t] = shared_task(&pooled, &group);
  struct adc_task_result results[8];
  run_all(tasks, 8, 1, NULL, 0, results);
  for (int t = 0; t < 8; t++) {
    ck_assert_msg(results[t].status == ADC_PASS && !results[t].shared.rerun_alone &&
                      results[t].shared.left_behind[0] == '\0',
                  "task %d: %s (%s)", t, results[t].message, results[t].shared.left_behind);
    ck_assert_int_eq(pid_of(&results[t]), pid_of(&results[0]));
    ck_assert_msg((t == 0) == (results[t].shared.kept_threads[0] != '\0'), "task %d: %s", t,
                  results[t].shared.kept_threads);
  }
  ck_assert_msg(strstr(results[0].shared.kept_threads, "keeps 2 thread(s)") != NULL &&
                    strstr(results[0].shared.kept_threads, "x2 (untimed)") != NULL,
                "%s", results[0].shared.kept_threads);
}
END_TEST

/* A kept thread that wakes by its timer, during a task or between two,
 * ends its process: the task it ran in, or the next, is judged alone (its
 * shared attempt says why), and the tasks after it run in a new process. */
START_TEST(a_kept_thread_woken_by_its_timer_ends_its_process) {
  static const enum behaviour timer = STARTS_A_TIMER;
  static const enum behaviour slow = TAKES_A_WHILE;
  struct adc_task_group group = group_of(&prepares);
  struct adc_task tasks[12];
  tasks[0] = shared_task(&timer, &group);
  for (int t = 1; t < 12; t++) tasks[t] = shared_task(&slow, &group);
  struct adc_task_result results[12];
  run_all(tasks, 12, 1, NULL, 0, results);
  ck_assert_msg(strstr(results[0].shared.kept_threads, "x1 (timed)") != NULL, "%s",
                results[0].shared.kept_threads);
  int seen = -1;
  for (int t = 0; t < 12; t++) {
    ck_assert_msg(results[t].status == ADC_PASS, "task %d: %s", t, results[t].message);
    const char* left = results[t].shared.left_behind;
    bool ran =
        strstr(left, "when it could have woken by itself") != NULL || strstr(left, "between two cases");
    if (ran && seen < 0) seen = t;
  }
  ck_assert_msg(seen > 0, "no task saw the kept thread run by itself");
  ck_assert_msg(results[seen].shared.rerun_alone && results[seen].shared.status == ADC_UNRESOLVED &&
                    strstr(results[seen].shared.message, "in the prepared process") != NULL,
                "task %d: %s", seen, results[seen].shared.message);
  ck_assert_int_ne(pid_of(&results[seen]), pid_of(&results[0])); /* judged alone */
  if (seen + 1 < 12) ck_assert_int_ne(pid_of(&results[seen + 1]), pid_of(&results[0]));
}
END_TEST

/* Memory a process's first task left is the library's first use (a device
 * set up lazily): the process goes on from there; memory a later task
 * leaves ends it. */
START_TEST(memory_the_first_task_left_is_the_librarys_first_use) {
  static const enum behaviour holds = HOLDS_MEMORY;
  struct adc_task_group group = group_of(&prepares);
  struct adc_task tasks[] = {shared_task(&holds, &group), shared_task(&passes, &group),
                             shared_task(&holds, &group), shared_task(&passes, &group)};
  struct adc_task_result results[4];
  run_all(tasks, 4, 1, NULL, 0, results);
  for (int t = 0; t < 4; t++) {
    ck_assert_msg(results[t].status == ADC_PASS && !results[t].shared.rerun_alone, "task %d: %s", t,
                  results[t].message);
  }
  ck_assert_int_eq(pid_of(&results[1]), pid_of(&results[0]));
  ck_assert_int_eq(pid_of(&results[2]), pid_of(&results[1]));
  ck_assert_msg(pid_of(&results[3]) != pid_of(&results[2]), "memory a later task left went unseen");
}
END_TEST

/* A group whose process cannot prepare (its library does not load) has
 * its tasks run alone, each getting its own verdict. */
START_TEST(a_group_that_cannot_prepare_runs_alone) {
  struct adc_task_group group = group_of(&fails_to_prepare);
  struct adc_task tasks[] = {shared_task(&passes, &group), shared_task(&passes, &group)};
  struct adc_task_result results[2];
  run_all(tasks, 2, 1, NULL, 0, results);
  for (int t = 0; t < 2; t++) {
    ck_assert_int_eq(results[t].status, ADC_PASS);
    ck_assert(!results[t].shared.ran);
  }
  ck_assert_int_ne(pid_of(&results[0]), pid_of(&results[1]));
}
END_TEST

/* A device that refuses every process (busy, as a GPU's runtime says):
 * retried a few times, then its tasks end unresolved with its reason,
 * never not_supported, and the run ends. */
START_TEST(a_refusing_device_gives_up_with_its_reason) {
  struct adc_task_group group = group_of(&refused_always);
  const struct adc_task_resource resources[] = {{.limit = 4, .name = "test GPU 0"}};
  struct adc_task tasks[3];
  for (int t = 0; t < 3; t++) {
    tasks[t] = shared_task(&passes, &group);
    tasks[t].resource = &resources[0];
  }
  struct adc_task_result results[3];
  run_all(tasks, 3, 3, resources, 1, results);
  for (int t = 0; t < 3; t++) {
    ck_assert_int_eq(results[t].status, ADC_UNRESOLVED);
    ck_assert_msg(strstr(results[t].message, "test GPU 0 refused") != NULL &&
                      strstr(results[t].message, "busy or unavailable") != NULL,
                  "%s", results[t].message);
  }
}
END_TEST

/* A device of one client at a time, asked by three jobs at once: the
 * refused processes are retried and the device's admission comes down to
 * what it accepts, so that it is not asked again while its one client
 * lasts (0.4 s of tasks here: asked again after each pause, it would
 * refuse about five more times); every task passes. */
START_TEST(a_device_admits_what_it_accepts) {
  static const enum behaviour slow = TAKES_A_WHILE;
  snprintf(lock_path, sizeof(lock_path), "/tmp/adc-test-device-%ld", (long)getpid());
  snprintf(refusals_path, sizeof(refusals_path), "/tmp/adc-test-refusals-%ld", (long)getpid());
  struct adc_task_group group = group_of(&one_holder);
  const struct adc_task_resource resources[] = {{.limit = 3, .name = "test GPU 0"}};
  struct adc_task tasks[20];
  for (int t = 0; t < 20; t++) {
    tasks[t] = shared_task(&slow, &group);
    tasks[t].resource = &resources[0];
  }
  struct adc_task_result results[20];
  run_all(tasks, 20, 3, resources, 1, results);
  for (int t = 0; t < 20; t++) ck_assert_msg(results[t].status == ADC_PASS, "%d: %s", t, results[t].message);
  char* refusals = read_text_file(refusals_path);
  ck_assert_msg(strlen(refusals) <= 2, "the device was asked %zu times while its one client held it",
                strlen(refusals));
  free(refusals);
  unlink(refusals_path);
  unlink(lock_path);
}
END_TEST

/* A process of its own whose start (a device's runtime) is slow: its
 * limit counts from READY, so a start longer than the limit costs
 * nothing; a start that never ends is unresolved, not a timeout. */
static void start_slowly(const void* argument, int channel_fd) {
  double start_seconds = *(const double*)argument;
  if (start_seconds < 0) {
    for (;;) pause();
  }
  nanosleep(&(struct timespec){0, (long)(start_seconds * 1e9)}, NULL);
  adc_wire_send_kind(channel_fd, ADC_WIRE_READY, "");
  /* Its case takes part of its limit (0.3 s), after the start. */
  nanosleep(&(struct timespec){0, 150000000L}, NULL);
  adc_wire_send(channel_fd, ADC_PASS, "");
}

START_TEST(a_case_limit_counts_from_its_device_open) {
  static const double slow = 0.6;
  static const double never = -1;
  struct adc_task tasks[] = {
      {.run = start_slowly, .argument = &slow, .timeout_seconds = 0.3, .start_seconds = 10},
      {.run = start_slowly, .argument = &never, .timeout_seconds = 0.3, .start_seconds = 0.5},
  };
  struct adc_task_result results[2];
  run_all(tasks, 2, 2, NULL, 0, results);
  ck_assert_msg(results[0].status == ADC_PASS, "%s", results[0].message);
  ck_assert_msg(results[1].status == ADC_UNRESOLVED && strstr(results[1].message, "did not open") != NULL,
                "%s", results[1].message);
}
END_TEST

int main(void) {
  Suite* suite = suite_create("prepared_processes");
  TCase* prepared = tcase_create("prepared");
  tcase_set_timeout(prepared, 120);
  tcase_add_test(prepared, a_group_shares_one_process);
  tcase_add_test(prepared, a_task_not_passing_runs_again_alone);
  tcase_add_test(prepared, a_failure_after_earlier_tasks_is_replayed_and_stands);
  tcase_add_test(prepared, a_crash_or_a_hang_costs_the_process_not_the_run);
  tcase_add_test(prepared, the_first_task_of_a_process_is_judged_as_alone);
  tcase_add_test(prepared, a_task_run_again_is_the_first_of_another_process);
  tcase_add_test(prepared, a_family_that_hung_runs_first_in_its_processes);
  tcase_add_test(prepared, what_a_task_leaves_ends_its_process);
  tcase_add_test(prepared, memory_the_first_task_left_is_the_librarys_first_use);
  tcase_add_test(prepared, a_pool_left_blocked_is_kept);
  tcase_add_test(prepared, a_kept_thread_woken_by_its_timer_ends_its_process);
  tcase_add_test(prepared, a_group_that_cannot_prepare_runs_alone);
  tcase_add_test(prepared, a_refusing_device_gives_up_with_its_reason);
  tcase_add_test(prepared, a_device_admits_what_it_accepts);
  tcase_add_test(prepared, a_case_limit_counts_from_its_device_open);
  suite_add_tcase(suite, prepared);
  return run_suite(suite);
}
