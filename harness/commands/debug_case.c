#include "commands/debug_case.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "outcome/record_of_run.h"
#include "report/report.h"
#include "runner/case_child.h"
#include "support/clock.h"
#include "wire/wire.h"

/* The case's verdict from the records it sent, into `result`; false where
 * none came. */
static bool take_verdict(int channel, struct adc_task_result* result) {
  struct adc_wire_record record;
  unsigned char received[sizeof(record) + 1];
  ssize_t n;
  while ((n = recv(channel, received, sizeof(received), MSG_DONTWAIT)) > 0) {
    if (!adc_wire_accept(received, (size_t)n, &record)) continue;
    if (record.kind == ADC_WIRE_REFUSED) {
      result->status = ADC_UNRESOLVED;
      snprintf(result->message, sizeof(result->message), "not run: the device refused the process: %s",
               record.message);
      return true;
    }
    if (record.kind == ADC_WIRE_VERDICT) {
      result->status = (enum adc_status)record.status;
      snprintf(result->message, sizeof(result->message), "%s", record.message);
      return true;
    }
  }
  return false;
}

int adc_debug_case(const struct adc_session* session, const struct adc_case* c) {
  /* The case's records come back to this same process, read once its body
   * has run: a sequenced-packet pair, as a case's channel is. */
  int channel[2];
  if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, channel) != 0) {
    fprintf(stderr, "adc-conform: error: cannot create a socket pair: %s\n", strerror(errno));
    return 2;
  }
  fprintf(stderr, "adc-conform: running %s in this process (pid %ld), no fork from here on\n", c->id,
          (long)getpid());
  fflush(NULL);
  double started = adc_now_seconds();
  adc_run_case_in_child(session, c, channel[1]);
  struct adc_task_result result = {.seconds = adc_now_seconds() - started};
  bool came = take_verdict(channel[0], &result);
  close(channel[0]);
  close(channel[1]);
  if (!came) {
    fprintf(stderr, "adc-conform: error: %s sent no verdict\n", c->id);
    return 2;
  }
  /* Judged and printed as a run of that case alone would be. */
  struct adc_run_record record;
  struct adc_error error;
  struct adc_run_outcome outcome = {result.seconds, 0};
  if (adc_run_record_of_run(&record, session, c, &result, 1, &outcome, &error) != 0) {
    fprintf(stderr, "adc-conform: error: %s\n", error.message);
    return 2;
  }
  struct adc_console_style style = {true, false};
  adc_print_console_report(stdout, &record, &style);
  int exit_status = record.exit_status;
  adc_run_record_free(&record);
  return exit_status;
}
