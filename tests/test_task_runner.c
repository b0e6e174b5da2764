/* The task runner on its own (runner/task_runner.h), with tasks written
 * here: what the runner must keep true whatever the tasks' timing. */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runner/orphans.h"
#include "runner/task_runner.h"
#include "support/clock.h"
#include "unit_test_support.h"
#include "wire/wire.h"

/* A task of its own process: what it runs, its argument, its limit, and
 * whether it mostly waits and is forked by the preloading server. */
#define TASK(function, task_argument, timeout, waits, served)                                              \
  {                                                                                                        \
    .run = (function), .argument = (task_argument), .timeout_seconds = (timeout), .mostly_waits = (waits), \
    .preloaded = (served)                                                                                  \
  }

/* The moment the first tasks of a round end, all at once. */
static double common_end;

static void end_at_common_moment(const void* argument, int verdict_fd) {
  (void)argument;
  /* A process left behind holds the task's pipes open, as a library's
   * helper process would: the parent sees no end of file on them when the
   * task ends, and closes them itself. */
  if (fork() == 0) {
    sleep(5);
    _exit(0);
  }
  /* Spinning, not sleeping: both see the moment within microseconds. */
  while (adc_now_seconds() < common_end) continue;
  adc_wire_send(verdict_fd, ADC_PASS, "");
}

static void end_at_once(const void* argument, int verdict_fd) {
  (void)argument;
  adc_wire_send(verdict_fd, ADC_PASS, "");
}

/* Two tasks that end in the same instant, each leaving a process that
 * holds its pipes, free both slots, and the last task starts in one of
 * them while the other stays free: the free slot's closed pipe
 * descriptors must not be taken for live ones.  (They were once: the new
 * task's process closed the free slot's stale descriptor numbers, which
 * its own pipes had reused, and lost its verdict.)  Whether the two ends
 * are reaped together depends on timing, so the round is repeated. */
START_TEST(slots_freed_together_keep_no_stale_pipes) {
  for (int round = 0; round < 30; round++) {
    common_end = adc_now_seconds() + 0.05;
    struct adc_task tasks[] = {
        TASK(end_at_common_moment, NULL, 10.0, false, false),
        TASK(end_at_common_moment, NULL, 10.0, false, false),
        TASK(end_at_once, NULL, 10.0, false, false),
    };
    struct adc_task_result results[3];
    memset(results, 0, sizeof(results));
    struct adc_task_run run = {.jobs = 2};
    struct adc_error error;
    ck_assert_int_eq(adc_run_tasks(tasks, 3, &run, results, &error), 0);
    for (int t = 0; t < 3; t++) {
      ck_assert_msg(results[t].status == ADC_PASS, "round %d, task %d ended %s: %s", round, t,
                    adc_status_name(results[t].status), results[t].message);
    }
  }
}
END_TEST

/* Passes only if its process holds no descriptor but standard input,
 * output and error and its verdict pipe. */
static void hold_only_own_descriptors(const void* argument, int verdict_fd) {
  (void)argument;
  char extra[200] = "";
  DIR* open_fds = opendir("/proc/self/fd");
  struct dirent* entry;
  while (open_fds != NULL && (entry = readdir(open_fds)) != NULL) {
    if (entry->d_name[0] == '.') continue;
    int fd = atoi(entry->d_name);
    if (fd <= 2 || fd == verdict_fd || fd == dirfd(open_fds)) continue;
    size_t used = strlen(extra);
    snprintf(extra + used, sizeof(extra) - used, " %d", fd);
  }
  if (open_fds != NULL) closedir(open_fds);
  adc_wire_send(verdict_fd, extra[0] ? ADC_FAIL : ADC_PASS, extra);
}

/* A task's process gets none of the harness's descriptors (a report file,
 * the signal descriptor, a running sibling's pipes): a library must not be
 * able to write into them. */
START_TEST(task_process_holds_no_harness_descriptor) {
  int harness_file[2]; /* inheritable, as a report file opened without O_CLOEXEC would be */
  ck_assert_int_eq(pipe(harness_file), 0);
  struct adc_task tasks[] = {
      TASK(hold_only_own_descriptors, NULL, 10.0, false, false),
      TASK(hold_only_own_descriptors, NULL, 10.0, false, false),
      TASK(hold_only_own_descriptors, NULL, 10.0, false, false),
  };
  struct adc_task_result results[3];
  memset(results, 0, sizeof(results));
  struct adc_task_run run = {.jobs = 3};
  struct adc_error error;
  ck_assert_int_eq(adc_run_tasks(tasks, 3, &run, results, &error), 0);
  for (int t = 0; t < 3; t++) {
    ck_assert_msg(results[t].status == ADC_PASS, "task %d ended %s, holding descriptors%s", t,
                  adc_status_name(results[t].status), results[t].message);
  }
  close(harness_file[0]);
  close(harness_file[1]);
}
END_TEST

/* ---- waiting slots ----------------------------------------------------- */

/* The folder where the tasks of a waiting-slot test leave their marks. */
static char marks_dir[64];

static void mark_path(char* path, size_t size, const char* name) {
  snprintf(path, size, "%s/%s", marks_dir, name);
}

/* A task that mostly waits: leaves its mark and ends. */
static void leave_mark(const void* argument, int verdict_fd) {
  char path[128];
  mark_path(path, sizeof(path), argument);
  FILE* mark = fopen(path, "w");
  if (mark != NULL) fclose(mark);
  adc_wire_send(verdict_fd, mark != NULL ? ADC_PASS : ADC_FAIL, "");
}

/* A task that uses the CPU: passes once the three marks exist, which the
 * waiting tasks after it in the list leave only if they run beside it;
 * fails after 5 s without them. */
static void wait_for_three_marks(const void* argument, int verdict_fd) {
  (void)argument;
  double give_up = adc_now_seconds() + 5.0;
  const char* names[] = {"a", "b", "c"};
  for (;;) {
    int present = 0;
    for (int i = 0; i < 3; i++) {
      char path[128];
      mark_path(path, sizeof(path), names[i]);
      present += access(path, F_OK) == 0;
    }
    if (present == 3) break;
    if (adc_now_seconds() > give_up) {
      adc_wire_send(verdict_fd, ADC_FAIL, "the waiting tasks did not run beside this one");
      return;
    }
    usleep(1000);
  }
  adc_wire_send(verdict_fd, ADC_PASS, "");
}

static void make_marks_dir(void) {
  snprintf(marks_dir, sizeof(marks_dir), "/tmp/adc-task-runner-XXXXXX");
  ck_assert_ptr_nonnull(mkdtemp(marks_dir));
}

static void remove_marks_dir(const char* const* names, size_t n) {
  for (size_t i = 0; i < n; i++) {
    char path[128];
    mark_path(path, sizeof(path), names[i]);
    unlink(path);
  }
  rmdir(marks_dir);
}

static void expect_passes(const struct adc_task_result* results, size_t n) {
  for (size_t t = 0; t < n; t++) {
    ck_assert_msg(results[t].status == ADC_PASS, "task %zu ended %s: %s", t,
                  adc_status_name(results[t].status), results[t].message);
  }
}

/* Runs the four `tasks` with --jobs 1 and `waiting_jobs` waiting slots;
 * each must pass. */
static void run_four_expecting_passes(const struct adc_task tasks[4], int waiting_jobs) {
  struct adc_task_result results[4];
  memset(results, 0, sizeof(results));
  struct adc_task_run run = {.jobs = 1, .waiting_jobs = waiting_jobs};
  struct adc_error error;
  ck_assert_int_eq(adc_run_tasks(tasks, 4, &run, results, &error), 0);
  expect_passes(results, 4);
}

/* Tasks that mostly wait run in the waiting slots while the one slot of
 * --jobs 1 is taken by a task that uses the CPU, which ends only once
 * they have run. */
START_TEST(waiting_tasks_run_beside_busy_ones) {
  make_marks_dir();
  struct adc_task tasks[] = {
      TASK(wait_for_three_marks, NULL, 10.0, false, false),
      TASK(leave_mark, "a", 10.0, true, false),
      TASK(leave_mark, "b", 10.0, true, false),
      TASK(leave_mark, "c", 10.0, true, false),
  };
  run_four_expecting_passes(tasks, 1);
  remove_marks_dir((const char* const[]){"a", "b", "c"}, 3);
}
END_TEST

/* A task that uses the CPU: holds the one lock file for 20 ms, failing if
 * another such task holds it. */
static void hold_the_busy_lock(const void* argument, int verdict_fd) {
  (void)argument;
  char path[128];
  mark_path(path, sizeof(path), "busy");
  int lock = open(path, O_CREAT | O_EXCL | O_WRONLY, 0600);
  if (lock < 0) {
    adc_wire_send(verdict_fd, ADC_FAIL, errno == EEXIST ? "another busy task was running" : "no lock file");
    return;
  }
  usleep(20000);
  close(lock);
  unlink(path);
  adc_wire_send(verdict_fd, ADC_PASS, "");
}

/* With --jobs 1, tasks that use the CPU run one at a time even where
 * waiting slots are free. */
START_TEST(busy_tasks_never_take_waiting_slots) {
  make_marks_dir();
  struct adc_task tasks[] = {
      TASK(hold_the_busy_lock, NULL, 10.0, false, false),
      TASK(hold_the_busy_lock, NULL, 10.0, false, false),
      TASK(hold_the_busy_lock, NULL, 10.0, false, false),
      TASK(leave_mark, "a", 10.0, true, false),
  };
  run_four_expecting_passes(tasks, 2);
  remove_marks_dir((const char* const[]){"a", "busy"}, 2);
}
END_TEST

/* ---- the preloading server (runner/preload_server.h) ---- */

/* The process that runs the tasks: every task's parent. */
static pid_t task_parent;
/* Set by the preload, so true only in the server and what it forks. */
static bool preload_ran;

static void note_preload(void* context) {
  (void)context;
  preload_ran = true;
}

static void end_the_server(void* context) {
  (void)context;
  _exit(3);
}

static void hang_in_the_preload(void* context) {
  (void)context;
  for (;;) pause();
}

/* Passes when the task's parent is the process that ran the tasks, and
 * the task was forked by the server or not, as `argument` says. */
static void check_origin(const void* argument, int verdict_fd) {
  bool from_server = *(const bool*)argument;
  if (getppid() != task_parent) {
    adc_wire_send(verdict_fd, ADC_FAIL, "the task's parent is not the process that ran it");
  } else if (preload_ran != from_server) {
    adc_wire_send(verdict_fd, ADC_FAIL, from_server ? "not forked by the server" : "forked by the server");
  } else {
    adc_wire_send(verdict_fd, ADC_PASS, "");
  }
}

static void hang(const void* argument, int verdict_fd) {
  (void)argument;
  (void)verdict_fd;
  for (;;) pause();
}

/* SIGKILL, which no sanitizer's handler turns into an exit status. */
static void crash(const void* argument, int verdict_fd) {
  (void)argument;
  (void)verdict_fd;
  kill(getpid(), SIGKILL);
}

static const bool from_server = true;
static const bool from_harness = false;

static void run_preloaded(const struct adc_task* tasks, size_t n, void (*preload)(void*),
                          struct adc_task_result* results) {
  task_parent = getpid();
  memset(results, 0, n * sizeof(*results));
  struct adc_task_run run = {.jobs = 2, .preload = preload, .preload_answer_seconds = 0.5};
  struct adc_error error;
  ck_assert_int_eq(adc_run_tasks(tasks, n, &run, results, &error), 0);
  /* The server and its middle processes are gone with the run. */
  pid_t left[4];
  ck_assert_uint_eq(adc_list_children(left, 4), 0);
}

/* Tasks that ask for the server are forked by it, and the others by the
 * harness; either way the harness is their parent, and nothing is left
 * behind. */
START_TEST(preloaded_tasks_have_the_harness_as_parent) {
  struct adc_task tasks[] = {
      TASK(check_origin, &from_server, 10.0, false, true),
      TASK(check_origin, &from_harness, 10.0, false, false),
      TASK(check_origin, &from_server, 10.0, false, true),
      TASK(check_origin, &from_server, 10.0, false, true),
  };
  struct adc_task_result results[4];
  run_preloaded(tasks, 4, note_preload, results);
  expect_passes(results, 4);
}
END_TEST

/* A task the server forked is timed and killed, and its death read, as
 * any other; the server goes on serving after them. */
START_TEST(preloaded_tasks_end_by_deadline_and_death) {
  struct adc_task tasks[] = {
      TASK(hang, NULL, 0.3, false, true),
      TASK(crash, NULL, 10.0, false, true),
      TASK(check_origin, &from_server, 10.0, false, true),
  };
  struct adc_task_result results[3];
  run_preloaded(tasks, 3, note_preload, results);
  ck_assert_int_eq(results[0].status, ADC_TIMEOUT);
  ck_assert_int_eq(results[1].status, ADC_CRASH);
  ck_assert_msg(strstr(results[1].message, "SIGKILL") != NULL, "%s", results[1].message);
  ck_assert_msg(results[2].status == ADC_PASS, "%s", results[2].message);
}
END_TEST

/* Three tasks that ask for the server, where `preload` keeps the server
 * from serving: each must pass, started by the harness without it. */
static void expect_tasks_started_by_the_harness(void (*preload)(void*)) {
  struct adc_task tasks[] = {
      TASK(check_origin, &from_harness, 10.0, false, true),
      TASK(check_origin, &from_harness, 10.0, false, true),
      TASK(check_origin, &from_harness, 10.0, false, true),
  };
  struct adc_task_result results[3];
  run_preloaded(tasks, 3, preload, results);
  expect_passes(results, 3);
}

/* A server that dies leaves its tasks to the harness, which starts them
 * itself: they run without the preload, and still pass. */
START_TEST(tasks_start_from_the_harness_when_the_server_dies) {
  expect_tasks_started_by_the_harness(end_the_server);
}
END_TEST

/* A server whose preload hangs answers nothing: past its limit it is
 * stopped, its tasks start from the harness, and the run ends. */
START_TEST(tasks_start_from_the_harness_when_the_preload_hangs) {
  expect_tasks_started_by_the_harness(hang_in_the_preload);
}
END_TEST

int main(void) {
  Suite* suite = suite_create("task_runner");
  TCase* runner = tcase_create("runner");
  tcase_set_timeout(runner, 60);
  tcase_add_test(runner, slots_freed_together_keep_no_stale_pipes);
  tcase_add_test(runner, task_process_holds_no_harness_descriptor);
  tcase_add_test(runner, waiting_tasks_run_beside_busy_ones);
  tcase_add_test(runner, busy_tasks_never_take_waiting_slots);
  tcase_add_test(runner, preloaded_tasks_have_the_harness_as_parent);
  tcase_add_test(runner, preloaded_tasks_end_by_deadline_and_death);
  tcase_add_test(runner, tasks_start_from_the_harness_when_the_server_dies);
  tcase_add_test(runner, tasks_start_from_the_harness_when_the_preload_hangs);
  suite_add_tcase(suite, runner);
  return run_suite(suite);
}
