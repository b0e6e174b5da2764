#include "runner/task_outcome.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "runner/crash_site.h"
#include "support/clock.h"
#include "support/parent_only_memory.h"

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

/* A process of its own that died without a verdict, or after a pass:
 * its task's crash, with where a fatal signal killed it where its handler
 * said (runner/crash_handler.h); unresolved where that was in the
 * harness's own code, which judged nothing of the task's library then. */
static void settle_death(const struct adc_slot* slot, int wait_status, const char* who, const char* death,
                         const char* detail, const char* const* suite_objects,
                         struct adc_task_result* result) {
  static struct adc_crash_site site; /* large: off the stack */
  const char* sep = detail[0] ? ": " : "";
  char* message = result->message;
  size_t size = sizeof(result->message);
  result->status = ADC_CRASH;
  bool told = WIFSIGNALED(wait_status) && slot->crash_site_came &&
              adc_crash_site_read(slot->crash_site, suite_objects, &site) &&
              site.signal_number == WTERMSIG(wait_status);
  if (!told) {
    snprintf(message, size, "%s %s%s%s", who, death, sep, detail);
    return;
  }
  char where[700];
  adc_crash_site_describe(&site, where, sizeof(where));
  result->crash_site = adc_crash_site_json(&site);
  adc_parent_only_hold(result->crash_site); /* results are parent-only memory */
  if (site.in == ADC_CRASH_IN_SUITE) {
    result->status = ADC_UNRESOLVED;
    snprintf(
        message, size,
        "the suite crashed in its own code, not in the library: %s %s, in %s; the case judged nothing of "
        "the library: a defect of the suite, to report with this case's ID%s%.300s",
        who, death, where, sep, detail);
  } else if (site.handed_over) {
    snprintf(message, size,
             "%s %s, in the library under test: a fault on memory a pointer it handed over points into "
             "(0x%jx), which it had not kept, at %s%s%.300s",
             who, death, (uintmax_t)site.address, where, sep, detail);
  } else {
    const char* whose = site.during_exit     ? "the process's exit (the handlers and destructors of the "
                                               "library, or of the system)"
                        : site.deciding >= 0 ? "the library under test"
                                             : "system libraries alone";
    snprintf(message, size, "%s %s, in %s, at %s%s%.300s", who, death, whose, where, sep, detail);
  }
}

void adc_settle_alone(const struct adc_slot* slot, int wait_status, const struct adc_task* task,
                      int interrupted_by, double now, const char* const* suite_objects,
                      struct adc_task_result* result) {
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
  } else if (accepted) {
    result->status = (enum adc_status)verdict->status;
    snprintf(message, size, "%s", verdict->message);
    if (!clean_exit) {
      /* The rule had judged; the death came after, as the process ended:
       * what it makes of the case, for the caller to weigh. */
      static struct adc_task_result ended; /* large: off the stack */
      memset(&ended, 0, sizeof(ended));
      settle_death(slot, wait_status, "after its verdict, the case", death, detail, suite_objects, &ended);
      struct adc_after_verdict* after = &result->after_verdict;
      after->died = true;
      after->status = ended.status;
      snprintf(after->message, sizeof(after->message), "%s", ended.message);
      after->crash_site = ended.crash_site;
    }
  } else {
    settle_death(slot, wait_status, "the case", death, detail, suite_objects, result);
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
