#include "runner/crash_handler.h"

#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#include "rule_api/handed_over.h"
#include "support/fault_frames.h"
#include "wire/crash_record.h"

static const int fatal_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};

/* Static, so that it exists before a case's memory limit, and a stack
 * overflow has room to be told: the unwinder and the handler take a few
 * KiB of it. */
static char alternate_stack[128 * 1024];

static int channel = -1;
static pid_t installed_in;
/* The thread in the handler, 0 when none: one thread tells where it
 * died, and a fault inside the handler itself ends the process at once. */
static atomic_int handling_thread;

/* Dies of the signal as without the handler: a signal sent is sent again;
 * a fault comes again as the instruction runs again once this returns. */
static void die_of(int signal_number, const siginfo_t* info) {
  struct sigaction default_action;
  memset(&default_action, 0, sizeof(default_action));
  default_action.sa_handler = SIG_DFL;
  sigemptyset(&default_action.sa_mask);
  sigaction(signal_number, &default_action, NULL);
  if (info->si_code <= 0) raise(signal_number);
}

static void on_fatal_signal(int signal_number, siginfo_t* info, void* ucontext) {
  if (signal_number == SIGSEGV || signal_number == SIGBUS) adc_guard_claim_fault(info);
  if (getpid() != installed_in) {
    die_of(signal_number, info);
    return;
  }
  int self = gettid();
  int none = 0;
  if (!atomic_compare_exchange_strong(&handling_thread, &none, self)) {
    if (none == self) {
      die_of(signal_number, info);
      return;
    }
    /* Another thread is telling where it died, and kills the process next. */
    for (;;) pause();
  }
  static struct adc_crash_record record; /* off the alternate stack */
  bool reaches_memory = (signal_number == SIGSEGV || signal_number == SIGBUS) && info->si_code > 0;
  record.signal_number = signal_number;
  record.code = info->si_code;
  record.address = reaches_memory ? (uintptr_t)info->si_addr : 0;
  record.handed_over = reaches_memory && adc_handed_over_page(info->si_addr);
  record.n_frames = adc_fault_frames_take(ucontext, record.frames, ADC_FAULT_FRAMES);
  adc_crash_record_send(channel, &record);
  die_of(signal_number, info);
}

void adc_crash_handler_install(int channel_fd, adc_guard_report_fn guard_report) {
  channel = channel_fd;
  installed_in = getpid();
  adc_guard_report_to(guard_report);
  adc_fault_frames_prepare();
  stack_t stack = {.ss_sp = alternate_stack, .ss_size = sizeof(alternate_stack), .ss_flags = 0};
  sigaltstack(&stack, NULL);
  struct sigaction action;
  memset(&action, 0, sizeof(action));
  action.sa_sigaction = on_fatal_signal;
  /* SA_NODEFER: a fault inside the handler comes back into it, which
   * then lets it kill the process. */
  action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
  sigemptyset(&action.sa_mask);
  for (size_t i = 0; i < sizeof(fatal_signals) / sizeof(fatal_signals[0]); i++) {
    sigaction(fatal_signals[i], &action, NULL);
  }
}
