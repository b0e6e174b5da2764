/* A defect of the suite that a test switches on: with
 * ADC_DELIBERATE_SUITE_CRASH set in its environment, a case's process
 * crashes in the suite's own code just before the rule's body, as a bug of
 * the suite would.  `segv` writes to memory no longer mapped, `abort` calls
 * abort() (a failed assertion), `overflow` recurses until the stack
 * overflows.  tests/test_crash_sites.c checks that each is reported as
 * the suite's crash (runner/crash_site.h: unresolved, its frames naming
 * these functions), never as the library's.  A hook rather than a broken
 * library: whatever a library does to make the suite's code fault is the
 * library's doing (a wild pointer it handed over), and would be judged as
 * such; only a defect in the suite's own code is the suite's. */
#ifndef ADC_DELIBERATE_SUITE_CRASH_H
#define ADC_DELIBERATE_SUITE_CRASH_H

/* Crashes as ADC_DELIBERATE_SUITE_CRASH says; returns where it is unset
 * (or names no crash). */
void adc_deliberate_suite_crash(void);

#endif /* ADC_DELIBERATE_SUITE_CRASH_H */
