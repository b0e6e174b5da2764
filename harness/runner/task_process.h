/* Making a task's process and reading what it sends (private to the task
 * runner): the child's setting up, the record channel and output pipe,
 * and reading records, output and a wrapper's log in the parent. */
#ifndef ADC_TASK_PROCESS_H
#define ADC_TASK_PROCESS_H

#include <stdbool.h>
#include <sys/types.h>

#include "runner/task_slot.h"
#include "support/error.h"

/* Where a task's process finds its record channel: the first descriptor
 * after standard input, output and error.  It has no other. */
#define ADC_TASK_CHANNEL_FD 3

/* In the child: a process group of its own, no blocked signal, standard
 * input from `null_input`, standard output and error into the output
 * pipe, the channel as ADC_TASK_CHANNEL_FD and no other descriptor, death
 * with the harness, and the records it sends about task `task`.
 * `forked_by` is the process that forked it: the harness, or the
 * preloading server's middle process, in which case the harness becomes
 * its parent once that has exited. */
void adc_become_task_process(pid_t harness, pid_t forked_by, const struct adc_task_run* run, int null_input,
                             int channel_fd, int output_fd, size_t task);

/* A process's record channel (a sequenced-packet socket pair: a record
 * arrives whole and alone; the parent's end does not block) and its
 * output pipe (the write end blocks, as a library that prints expects).
 * 0, or -1 with the reason. */
int adc_make_channels(int channel[2], int output[2], struct adc_error* error);
void adc_close_pair(int ends[2]);

/* Reads the output that is available, within a budget, so that a process
 * flooding its output cannot starve the others or their deadlines. */
void adc_drain_output(struct adc_slot* slot);

/* The log a wrapper of the harness wrote for the slot's process, added to
 * its output (so that its headline can explain the end), then removed. */
void adc_take_process_log(struct adc_slot* slot, const char* log_dir);

/* Reads every record waiting on the slot's channel and hands each one
 * that is well-formed to `take`; anything else marks the slot malformed
 * and stops.  Returns whether the channel reached its end. */
bool adc_read_records(struct adc_slot* slot,
                      void (*take)(struct adc_slot* slot, const struct adc_wire_record* record,
                                   void* context),
                      void* context);

#endif /* ADC_TASK_PROCESS_H */
