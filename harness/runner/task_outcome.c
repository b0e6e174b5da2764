#include "runner/task_outcome.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "support/clock.h"

const char* adc_signal_abbreviation(int signal_number) {
  const char* name = sigabbrev_np(signal_number);
  return name != NULL ? name : "?";
}

void adc_describe_death(int wait_status, char* text, size_t size) {
  if (WIFSIGNALED(wait_status)) {
    snprintf(text, size, "was killed by signal %d (SIG%s: %s)", WTERMSIG(wait_status),
             adc_signal_abbreviation(WTERMSIG(wait_status)), strsignal(WTERMSIG(wait_status)));
  } else {
    snprintf(text, size, "exited with status %d", WEXITSTATUS(wait_status));
  }
}

/* "(N bytes on the verdict channel)" or "(a record out of place)". */
static void describe_malformed(const struct adc_slot* slot, char* text, size_t size) {
  if (slot->malformed_out_of_place) {
    snprintf(text, size, "a record out of place on the verdict channel");
  } else {
    snprintf(text, size, "%zu bytes on the verdict channel", slot->malformed_bytes);
  }
}

void adc_settle_alone(const struct adc_slot* slot, int wait_status, const struct adc_task* task,
                      int interrupted_by, double now, struct adc_task_result* result) {
  result->seconds = now - (slot->ready ? slot->task_started : slot->started);
  char detail[ADC_CAPTURE_LINE];
  adc_capture_explain(&slot->output, detail, sizeof(detail));
  const char* sep = detail[0] ? ": " : "";
  char* message = result->message;
  size_t size = sizeof(result->message);
  const struct adc_wire_record* verdict = &slot->verdict;
  bool accepted = slot->verdict_came && !slot->malformed;
  char death[160];
  adc_describe_death(wait_status, death, sizeof(death));
  bool clean_exit = WIFEXITED(wait_status) && WEXITSTATUS(wait_status) == 0;

  if (slot->cause == ADC_INTERRUPTED) {
    result->status = ADC_UNRESOLVED;
    snprintf(message, size, "the run was interrupted by SIG%s after %.1f s",
             adc_signal_abbreviation(interrupted_by), result->seconds);
  } else if (slot->cause == ADC_TIMED_OUT && task->start_seconds > 0 && !slot->ready) {
    result->status = ADC_UNRESOLVED;
    snprintf(message, size,
             "the case's device did not open within %g s (its runtime's start); the case was killed%s%s",
             task->start_seconds, sep, detail);
  } else if (slot->cause == ADC_TIMED_OUT) {
    result->status = ADC_TIMEOUT;
    snprintf(message, size, "no verdict within %g s; the case was killed%s%s", task->timeout_seconds, sep,
             detail);
  } else if (slot->cause == ADC_STOPPED) {
    result->status = ADC_TIMEOUT;
    snprintf(message, size, "the case stopped itself (signal %d, SIG%s) and was killed%s%s",
             slot->stop_signal, adc_signal_abbreviation(slot->stop_signal), sep, detail);
  } else if (slot->malformed) {
    char what[64];
    describe_malformed(slot, what, sizeof(what));
    result->status = ADC_CRASH;
    snprintf(message, size, "the case sent a malformed verdict (%s); the case %s%s%s", what, death, sep,
             detail);
  } else if (accepted && clean_exit) {
    result->status = (enum adc_status)verdict->status;
    snprintf(message, size, "%s", verdict->message);
  } else if (accepted && verdict->status != ADC_PASS) {
    /* The rule had already judged; the death came after. */
    result->status = (enum adc_status)verdict->status;
    snprintf(message, size, "%.800s (then the case %s%s%s)", verdict->message, death, sep, detail);
  } else {
    result->status = ADC_CRASH;
    snprintf(message, size, "%s %s%s%s", accepted ? "after passing, the case" : "the case", death, sep,
             detail);
  }
}

void adc_settle_interrupted_task(const struct adc_slot* slot, int wait_status, const struct adc_task* task,
                                 int interrupted_by, enum adc_status* status, char* message, size_t size) {
  char detail[ADC_CAPTURE_LINE];
  adc_capture_explain(&slot->output, detail, sizeof(detail));
  const char* sep = detail[0] ? ": " : "";
  char death[160];
  adc_describe_death(wait_status, death, sizeof(death));
  if (slot->cause == ADC_INTERRUPTED) {
    *status = ADC_UNRESOLVED;
    snprintf(message, size, "the run was interrupted by SIG%s after %.1f s",
             adc_signal_abbreviation(interrupted_by), adc_now_seconds() - slot->task_started);
  } else if (slot->cause == ADC_TIMED_OUT) {
    *status = ADC_TIMEOUT;
    snprintf(message, size, "no verdict within %g s; the prepared process was killed%s%s",
             task->timeout_seconds, sep, detail);
  } else if (slot->cause == ADC_STOPPED) {
    *status = ADC_TIMEOUT;
    snprintf(message, size, "the prepared process stopped itself (SIG%s) and was killed%s%s",
             adc_signal_abbreviation(slot->stop_signal), sep, detail);
  } else if (slot->malformed) {
    char what[64];
    describe_malformed(slot, what, sizeof(what));
    *status = ADC_CRASH;
    snprintf(message, size, "the case sent a malformed verdict (%s); the prepared process %s%s%s", what,
             death, sep, detail);
  } else {
    *status = ADC_CRASH;
    snprintf(message, size, "the prepared process %s%s%s", death, sep, detail);
  }
}

void adc_describe_unclean_end(const struct adc_slot* slot, int wait_status, char* text, size_t size) {
  char death[160];
  adc_describe_death(wait_status, death, sizeof(death));
  if (slot->cause == ADC_TIMED_OUT && slot->phase == ADC_PHASE_CLOSING) {
    snprintf(text, size, "the prepared process did not end when told to, and was killed");
  } else if (slot->cause == ADC_TIMED_OUT || slot->cause == ADC_STOPPED || slot->malformed) {
    snprintf(text, size, "the prepared process was killed over a later case");
  } else if (slot->phase != ADC_PHASE_CLOSING) {
    snprintf(text, size, "the prepared process %s before it was told to end", death);
  } else {
    snprintf(text, size, "the prepared process %s as it ended", death);
  }
}
