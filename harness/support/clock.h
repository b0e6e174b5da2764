/* Seconds on the monotonic clock, for durations and deadlines, and pauses. */
#ifndef ADC_SUPPORT_CLOCK_H
#define ADC_SUPPORT_CLOCK_H

double adc_now_seconds(void);

/* Sleeps `seconds`, resuming after signals. */
void adc_sleep_seconds(double seconds);

#endif /* ADC_SUPPORT_CLOCK_H */
