#include "support/activity_watch.h"

#include "support/clock.h"

#define FIRST_PAUSE_SECONDS 0.001
#define LONGEST_PAUSE_SECONDS 0.016

void adc_watch_begin(struct adc_activity_watch* watch, double window, double bound) {
  *watch = (struct adc_activity_watch){.started = adc_now_seconds(),
                                       .window = window,
                                       .bound = bound > window ? bound : window,
                                       .pause = FIRST_PAUSE_SECONDS,
                                       .last = ADC_ACTIVITY_UNKNOWN};
}

double adc_watch_pause(const struct adc_activity_watch* watch) {
  double elapsed = adc_now_seconds() - watch->started;
  double left = elapsed < watch->window ? watch->window - elapsed : watch->bound - elapsed;
  if (left < 0) left = 0;
  return watch->pause < left ? watch->pause : left;
}

enum adc_watch_state adc_watch_look(struct adc_activity_watch* watch) {
  watch->last = adc_process_activity();
  if (watch->pause < LONGEST_PAUSE_SECONDS) watch->pause *= 2;
  if (watch->last == ADC_ACTIVITY_QUIET) return ADC_WATCH_QUIET;
  double elapsed = adc_now_seconds() - watch->started;
  if (elapsed >= watch->bound) return ADC_WATCH_TIME_UP;
  if (elapsed >= watch->window && watch->last != ADC_ACTIVITY_RUNNING) return ADC_WATCH_TIME_UP;
  return ADC_WATCH_GOES_ON;
}
