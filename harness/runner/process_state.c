#include "runner/process_state.h"

#include <fcntl.h>
#include <malloc.h>
#if defined(ADC_SANITIZE_ADDRESS) || defined(ADC_SANITIZE_THREAD)
/* The sanitizer runtimes' own count (sanitizer/allocator_interface.h,
 * which GCC does not install). */
size_t __sanitizer_get_current_allocated_bytes(void);
#endif
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runner/task_outcome.h"

/* Bytes the allocator has handed out and not been given back.  Under a
 * sanitizer malloc is the sanitizer's, which glibc's mallinfo2 does not
 * see: its own count is asked. */
static size_t memory_in_use(void) {
#if defined(ADC_SANITIZE_ADDRESS) || defined(ADC_SANITIZE_THREAD)
  return __sanitizer_get_current_allocated_bytes();
#else
  struct mallinfo2 info = mallinfo2();
  return info.uordblks + info.hblkhd;
#endif
}

/* Whether a library can change what the signal does: not SIGKILL or
 * SIGSTOP, nor the signals between 32 and SIGRTMIN, which the C library
 * keeps for itself (glibc's SIGCANCEL and SIGSETXID: sigaction refuses
 * them, and glibc installs a handler for one as the process starts its
 * first thread, which a library's pool may be). */
static bool is_changeable(int signal_number) {
  return signal_number != SIGKILL && signal_number != SIGSTOP &&
         (signal_number < 32 || signal_number >= SIGRTMIN);
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

/* The value of the line "NAME:\t..." of /proc/self/status's text, in
 * `base`; 0 where there is none. */
static unsigned long long status_value(const char* text, const char* name, int base) {
  size_t length = strlen(name);
  for (const char* line = text; line != NULL && *line != '\0'; line = strchr(line, '\n')) {
    if (*line == '\n') line++;
    if (strncmp(line, name, length) == 0 && line[length] == ':')
      return strtoull(line + length + 1, NULL, base);
  }
  return 0;
}

/* The signal sets, from one read of /proc/self/status (the threads are
 * runner/kept_threads.h's). */
static void read_status(struct adc_process_state* state) {
  char text[4096];
  int fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  ssize_t n = read(fd, text, sizeof(text) - 1);
  close(fd);
  text[n > 0 ? n : 0] = '\0';
  state->blocked = status_value(text, "SigBlk", 16);
  state->ignored = status_value(text, "SigIgn", 16);
  state->caught = status_value(text, "SigCgt", 16);
}

static bool is_set(adc_signal_bits bits, int signal_number) {
  return (bits >> (signal_number - 1)) & 1;
}

void adc_process_state_take(struct adc_process_state* state) {
  memset(state, 0, sizeof(*state));
  read_status(state);
  state->memory_in_use = memory_in_use();
  state->timer_armed = any_timer_armed();
  for (int s = 1; s <= 64 && s < NSIG; s++) {
    struct sigaction action;
    memset(&action, 0, sizeof(action));
    if (!is_set(state->caught, s) || !is_changeable(s) || sigaction(s, NULL, &action) != 0) continue;
    state->actions[s].handler = action.sa_handler; /* sa_sigaction shares its storage */
    state->actions[s].flags = action.sa_flags;
    /* glibc fills only the kernel's part of a sigset_t, the signals 1 to
     * 64, the rest of it being whatever its stack held: those are read. */
    for (int m = 1; m <= 64 && m < NSIG; m++) {
      if (sigismember(&action.sa_mask, m) == 1) state->actions[s].mask |= (adc_signal_bits)1 << (m - 1);
    }
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

bool adc_process_state_differs(const struct adc_process_state* before, const struct adc_process_state* after,
                               char* text, size_t size) {
  struct phrases phrases = {text, size, 0};
  text[0] = '\0';
  if (after->memory_in_use > before->memory_in_use + ADC_HELD_MEMORY_TOLERANCE) {
    add(&phrases, "left %zu bytes of memory allocated", after->memory_in_use - before->memory_in_use);
  }
  if (after->timer_armed && !before->timer_armed) add(&phrases, "left an interval timer armed");
  for (int s = 1; s <= 64 && s < NSIG; s++) {
    if (!is_changeable(s)) continue;
    bool same = is_set(before->ignored, s) == is_set(after->ignored, s) &&
                is_set(before->caught, s) == is_set(after->caught, s) &&
                before->actions[s].handler == after->actions[s].handler &&
                before->actions[s].flags == after->actions[s].flags &&
                before->actions[s].mask == after->actions[s].mask;
    if (!same) add(&phrases, "changed the disposition of SIG%s", adc_signal_abbreviation(s));
    if (is_set(before->blocked, s) != is_set(after->blocked, s)) {
      add(&phrases, "changed whether SIG%s is blocked", adc_signal_abbreviation(s));
    }
  }
  return phrases.used > 0;
}
