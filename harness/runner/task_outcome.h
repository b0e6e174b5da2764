/* How a task's process ended, in words and as a status: the verdict of a
 * process of its own (task_runner.h), and what a prepared process's end
 * means for the task it was running and for those it had passed.  Parent
 * only; reads the slot (task_slot.h) once its process has been reaped. */
#ifndef ADC_TASK_OUTCOME_H
#define ADC_TASK_OUTCOME_H

#include <stddef.h>

#include "runner/task_slot.h"

/* "was killed by signal 11 (SIGSEGV: Segmentation fault)", "exited with
 * status 3". */
void adc_describe_death(int wait_status, char* text, size_t size);

/* "SIGINT": the name of a signal, without its prefix ("?" when unknown). */
const char* adc_signal_abbreviation(int signal_number);

/* The verdict of a process of its own that ran `task` and ended with
 * `wait_status` (its records, its cause of end, what it printed), into
 * `result`'s status, message, seconds and crash site; `interrupted_by`
 * names the signal of an interrupted run, `suite_objects` the harness's
 * own files (adc_task_run.suite_objects). */
void adc_settle_alone(const struct adc_slot* slot, int wait_status, const struct adc_task* task,
                      int interrupted_by, double now, const char* const* suite_objects,
                      struct adc_task_result* result);

/* What the task a prepared process was running when it ended, without a
 * verdict, came to there: timeout, crash, or unresolved when the run was
 * interrupted. */
void adc_settle_interrupted_task(const struct adc_slot* slot, int wait_status, const struct adc_task* task,
                                 int interrupted_by, enum adc_status* status, char* message, size_t size);

/* Why a prepared process's end was not clean, for the tasks it had
 * passed: "the prepared process then was killed by signal 9 (...)". */
void adc_describe_unclean_end(const struct adc_slot* slot, int wait_status, char* text, size_t size);

#endif /* ADC_TASK_OUTCOME_H */
