/* The child side of a case: load the library, open the device, check the
 * rule's needs, run the body, give the verdict.  Either in the case's own
 * process (adc_run_case_in_child), or in a prepared process that loaded
 * the library and opened the device once for the cases of a group
 * (adc_prepare_cases, then adc_run_prepared_case for each). */
#ifndef ADC_CASE_CHILD_H
#define ADC_CASE_CHILD_H

#include <stdbool.h>
#include <stddef.h>

#include "runner/session.h"
#include "runner/task.h"

/* The cases a prepared process may run: those of one library (the side
 * the rules test; both sides where one library is both), or of one pair,
 * on one device. */
struct adc_case_group {
  const struct adc_session* session;
  const struct adc_device_target* device;
  const struct adc_side* side;
  /* For the cases of a pair's run (session.h, pairs): the producer, loaded
   * beside `side` (the consumer); NULL otherwise. */
  const struct adc_side* pair_producer;
};

/* A case as a task's argument. */
struct adc_case_task {
  const struct adc_session* session;
  const struct adc_case* c;
  size_t case_index;
};

/* Runs case `c` in its own process and sends its verdict to `channel_fd`:
 * READY first where the device's start is timed apart
 * (adc_device_start_is_costly), REFUSED instead when the device refuses
 * the process although the run's probe found it. */
void adc_run_case_in_child(const struct adc_session* session, const struct adc_case* c, int channel_fd);

/* In a prepared process: installs the handler of fatal signals
 * (runner/crash_handler.h), loads the group's library and opens its
 * device.  0, or -1 with the reason (`*refused` when the device refused
 * the process). */
int adc_prepare_cases(const struct adc_case_group* group, bool* refused, struct adc_error* error);

/* In a prepared process, after adc_prepare_cases: runs the case with what
 * was prepared, and gives its verdict. */
void adc_run_prepared_case(const struct adc_case_task* task, struct adc_task_verdict* verdict);

/* In a prepared process, after a case: what it left that the next case
 * would meet and the process's own state does not show (memory the
 * library says it still holds, work queued on the device, a runtime error
 * that sticks), into `text`; whether there is anything. */
bool adc_prepared_left_behind(char* text, size_t size);

#endif /* ADC_CASE_CHILD_H */
