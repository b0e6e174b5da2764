/* A harness wait for what a library may still do (a callback, a return, a
 * free), ended by what the process's threads do (quiescence.h) rather
 * than by the clock alone:
 *   - once the other threads are quiet, nothing more can come: the wait
 *     ends at once, whatever the time;
 *   - while one of them runs (or is ready to run: on a loaded machine it
 *     may wait long for a CPU), it may be on its way: the wait goes on, up
 *     to `bound`, which only a library that keeps running (spins) reaches;
 *   - while none runs but one may wake by itself (a timed wait, a device,
 *     a wait not known), or where threads cannot be seen at all, the wait
 *     lasts `window`: the time limit the harness had before it could tell.
 * A caller loops: it waits for its own signal (a callback, a request) for
 * adc_watch_pause, then, holding no lock a library thread may take, calls
 * adc_watch_look, and rechecks its condition after the look (a look that
 * finds the process quiet is taken after anything that happened before). */
#ifndef ADC_SUPPORT_ACTIVITY_WATCH_H
#define ADC_SUPPORT_ACTIVITY_WATCH_H

#include "support/quiescence.h"

struct adc_activity_watch {
  double started;
  double window;
  double bound;
  double pause;           /* before the next look: grows while nothing settles */
  enum adc_activity last; /* what the last look saw */
};

enum adc_watch_state {
  ADC_WATCH_GOES_ON,
  ADC_WATCH_QUIET,   /* the other threads are quiet: nothing more will come */
  ADC_WATCH_TIME_UP, /* the window passed with no thread running, or the bound passed */
};

/* Starts (or starts again) a watch from now; a bound below the window is
 * the window. */
void adc_watch_begin(struct adc_activity_watch* watch, double window, double bound);

/* How long the caller waits for its own signal before the next look:
 * a millisecond at first, doubling up to 16 ms (a library that keeps
 * running is looked at less often), never past the window or the bound. */
double adc_watch_pause(const struct adc_activity_watch* watch);

/* Looks at the process (about ADC_QUIESCENCE_LOOK_GAP_SECONDS) and says
 * whether the wait is over. */
enum adc_watch_state adc_watch_look(struct adc_activity_watch* watch);

#endif /* ADC_SUPPORT_ACTIVITY_WATCH_H */
