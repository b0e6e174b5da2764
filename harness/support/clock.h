/* Seconds on the monotonic clock, for durations and deadlines, and pauses. */
#ifndef ADC_SUPPORT_CLOCK_H
#define ADC_SUPPORT_CLOCK_H

#include <pthread.h>
#include <time.h>

double adc_now_seconds(void);

/* For timed waits on a condition variable: initialises `condition` to
 * measure its timeouts on the monotonic clock, and gives the absolute time
 * on that clock `seconds` from now, to pass to pthread_cond_timedwait. */
void adc_monotonic_cond_init(pthread_cond_t* condition);
struct timespec adc_monotonic_deadline(double seconds);
/* The same on the real-time clock, for a condition variable made with
 * default attributes (one inside an event of a library's, or of
 * include/adc/simulated_device.h). */
struct timespec adc_realtime_deadline(double seconds);

/* Sleeps `seconds`, resuming after signals; no time at all for 0 or less. */
void adc_sleep_seconds(double seconds);

#endif /* ADC_SUPPORT_CLOCK_H */
