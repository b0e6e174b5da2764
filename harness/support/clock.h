/* Seconds on the monotonic clock, for durations and deadlines. */
#ifndef ADC_SUPPORT_CLOCK_H
#define ADC_SUPPORT_CLOCK_H

double adc_now_seconds(void);

#endif /* ADC_SUPPORT_CLOCK_H */
