#include "support/clock.h"

#include <errno.h>
#include <time.h>

double adc_now_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

void adc_monotonic_cond_init(pthread_cond_t* condition) {
  pthread_condattr_t attributes;
  pthread_condattr_init(&attributes);
  pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC);
  pthread_cond_init(condition, &attributes);
  pthread_condattr_destroy(&attributes);
}

static struct timespec deadline_on(clockid_t clock, double seconds) {
  struct timespec deadline;
  clock_gettime(clock, &deadline);
  long long nanoseconds = deadline.tv_nsec + (long long)(seconds * 1e9);
  deadline.tv_sec += (time_t)(nanoseconds / 1000000000LL);
  deadline.tv_nsec = (long)(nanoseconds % 1000000000LL);
  return deadline;
}

struct timespec adc_monotonic_deadline(double seconds) {
  return deadline_on(CLOCK_MONOTONIC, seconds);
}

struct timespec adc_realtime_deadline(double seconds) {
  return deadline_on(CLOCK_REALTIME, seconds);
}

void adc_sleep_seconds(double seconds) {
  /* A moment already past is no sleep: nanosleep refuses a negative time
   * (EINVAL), and retrying it would spin for ever (an OpenCL hold's opener,
   * whose look at the process took longer than the time left, did, on a
   * loaded machine). */
  if (!(seconds > 0)) return;
  struct timespec pause = {(time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9)};
  while (nanosleep(&pause, &pause) != 0 && errno == EINTR) {
  }
}
