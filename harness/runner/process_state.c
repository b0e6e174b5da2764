#include "runner/process_state.h"

#include <dirent.h>
#include <malloc.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

static size_t count_threads(void) {
  DIR* tasks = opendir("/proc/self/task");
  if (tasks == NULL) return 0;
  size_t n = 0;
  struct dirent* entry;
  while ((entry = readdir(tasks)) != NULL) n += entry->d_name[0] != '.';
  closedir(tasks);
  return n;
}

static bool is_changeable(int signal_number) {
  return signal_number != SIGKILL && signal_number != SIGSTOP;
}

static bool any_timer_armed(void) {
  static const int timers[] = {ITIMER_REAL, ITIMER_VIRTUAL, ITIMER_PROF};
  for (size_t t = 0; t < sizeof(timers) / sizeof(timers[0]); t++) {
    struct itimerval value;
    if (getitimer(timers[t], &value) == 0 && (value.it_value.tv_sec != 0 || value.it_value.tv_usec != 0)) {
      return true;
    }
  }
  return false;
}

void adc_process_state_take(struct adc_process_state* state) {
  memset(state, 0, sizeof(*state));
  state->threads = count_threads();
  struct mallinfo2 info = mallinfo2();
  state->memory_in_use = info.uordblks + info.hblkhd;
  sigprocmask(SIG_SETMASK, NULL, &state->mask);
  state->timer_armed = any_timer_armed();
  for (int s = 1; s < NSIG; s++) {
    if (is_changeable(s)) sigaction(s, NULL, &state->actions[s]);
  }
}

bool adc_process_has_children(void) {
  siginfo_t info;
  memset(&info, 0, sizeof(info));
  /* 0 while any child exists, changed or not; -1 (ECHILD) when none. */
  return waitid(P_ALL, 0, &info, WEXITED | WSTOPPED | WCONTINUED | WNOHANG | WNOWAIT) == 0;
}

struct phrases {
  char* text;
  size_t size;
  size_t used;
};

static void add(struct phrases* phrases, const char* format, ...) __attribute__((format(printf, 2, 3)));
static void add(struct phrases* phrases, const char* format, ...) {
  if (phrases->used + 3 >= phrases->size) return;
  if (phrases->used > 0) phrases->used += (size_t)snprintf(phrases->text + phrases->used, 3, "; ");
  va_list arguments;
  va_start(arguments, format);
  int n = vsnprintf(phrases->text + phrases->used, phrases->size - phrases->used, format, arguments);
  va_end(arguments);
  if (n > 0)
    phrases->used +=
        (size_t)n < phrases->size - phrases->used ? (size_t)n : phrases->size - phrases->used - 1;
}

static bool same_action(const struct sigaction* a, const struct sigaction* b) {
  /* sa_handler and sa_sigaction share their storage.  The masks are
   * compared signal by signal: glibc fills only the kernel's part of a
   * sigset_t, the rest of it is whatever its stack held (a comparison of
   * the whole found every disposition changed after every case). */
  if (a->sa_handler != b->sa_handler || a->sa_flags != b->sa_flags) return false;
  for (int s = 1; s < NSIG; s++) {
    if (is_changeable(s) && sigismember(&a->sa_mask, s) != sigismember(&b->sa_mask, s)) return false;
  }
  return true;
}

static const char* signal_name(int signal_number) {
  const char* name = sigabbrev_np(signal_number);
  return name != NULL ? name : "?";
}

bool adc_process_state_differs(const struct adc_process_state* before, const struct adc_process_state* after,
                               char* text, size_t size) {
  struct phrases phrases = {text, size, 0};
  text[0] = '\0';
  if (after->threads > before->threads) {
    add(&phrases, "left %zu thread(s) running", after->threads - before->threads);
  }
  if (after->memory_in_use > before->memory_in_use + ADC_HELD_MEMORY_TOLERANCE) {
    add(&phrases, "left %zu bytes of memory allocated", after->memory_in_use - before->memory_in_use);
  }
  if (after->timer_armed && !before->timer_armed) add(&phrases, "left an interval timer armed");
  for (int s = 1; s < NSIG; s++) {
    if (!is_changeable(s)) continue;
    if (!same_action(&before->actions[s], &after->actions[s])) {
      add(&phrases, "changed the disposition of SIG%s", signal_name(s));
    }
    if (sigismember(&before->mask, s) != sigismember(&after->mask, s)) {
      add(&phrases, "changed whether SIG%s is blocked", signal_name(s));
    }
  }
  return phrases.used > 0;
}
