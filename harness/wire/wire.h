/* What a task's process sends its parent: fixed-size records, each written
 * with a single write() on a sequenced-packet socket so that it arrives
 * whole and alone, even from a signal handler.
 *
 * A process of its own sends one verdict (ADC_WIRE_VERDICT), after a
 * READY where its start is timed apart (a device runtime's start), or a
 * REFUSED instead when its device refused it.  A prepared process (one
 * that runs many tasks, task_runner.h) sends READY once, then a verdict
 * per task it is given, each naming the task, and before a verdict KEPT
 * when the task left threads the library keeps between tasks, and
 * LEFT_BEHIND after a verdict when the task left something behind (the
 * process then ends), and NOT_JUDGED before a verdict that is not the
 * task's own.  Either may send CRASH_SITE as a fatal signal kills
 * it.
 *
 * The parent trusts nothing in a record: it is accepted only when it is
 * one whole record with the magic number, a known kind, a status that is a
 * status, and a NUL-terminated UTF-8 message; the parent then checks that
 * it is the record it expects next, about the task it expects.  Anything
 * else is the task's `crash` ("the case sent a malformed verdict").  The
 * channel is an open file descriptor of the process, so a library that
 * means harm could still forge a well-formed passing record: certification
 * assumes the library under test is not malicious (CONFORMANCE.md). */
#ifndef ADC_WIRE_H
#define ADC_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rule_api/status.h"

#define ADC_WIRE_MAGIC 0x41444357u /* "ADCW": records with a kind and a task */

enum adc_wire_kind {
  ADC_WIRE_VERDICT = 1, /* the verdict on the task: status and message */
  /* The process has opened what its tasks need (its device): the time
   * limit of its task counts from here. */
  ADC_WIRE_READY = 2,
  /* The device refused the process although the run's probe found it
   * (busy, out of memory): the message is the runtime's reason; the
   * process ends without running its task. */
  ADC_WIRE_REFUSED = 3,
  /* The task just judged left something behind in the prepared process
   * (a thread, a process, a signal disposition, memory): the message says
   * what, and the process ends. */
  ADC_WIRE_LEFT_BEHIND = 4,
  /* A fatal signal reached the process, which dies of it next: the
   * message says where (wire/crash_record.h).  Sent by the signal
   * handler, at any point of the process's life. */
  ADC_WIRE_CRASH_SITE = 5,
  /* The task just judged left threads the library keeps, blocked, for the
   * next task (runner/kept_threads.h): the message names them.  Said once
   * per thread, before the task's verdict; nothing ends. */
  ADC_WIRE_KEPT = 6,
  /* The verdict that follows is not the task's own (the prepared process
   * did not judge it: a thread of the library ran between tasks, or may
   * have changed it): the task runs again alone, wherever it came in the
   * process. */
  ADC_WIRE_NOT_JUDGED = 7,
};
#define ADC_WIRE_LAST_KIND ADC_WIRE_NOT_JUDGED

struct adc_wire_record {
  uint32_t magic;
  uint32_t kind;  /* enum adc_wire_kind */
  uint64_t task;  /* the task it is about (adc_wire_set_task) */
  int32_t status; /* ADC_WIRE_VERDICT: enum adc_status; otherwise 0 */
  char message[1012];
};

/* The task this process's records are about from now on. */
void adc_wire_set_task(uint64_t task);

/* Sends the verdict on the current task; a message longer than the record
 * holds is cut, and bytes that are not UTF-8 are sent as '?'.
 * Async-signal-safe. */
void adc_wire_send(int fd, enum adc_status status, const char* message);

/* Sends a record of another kind (READY, REFUSED, LEFT_BEHIND, CRASH_SITE, KEPT) about the
 * current task, its message treated as adc_wire_send treats one. */
void adc_wire_send_kind(int fd, enum adc_wire_kind kind, const char* message);

/* Whether the `size` bytes received are one well-formed record; if so,
 * copies it to `out`. */
bool adc_wire_accept(const void* received, size_t size, struct adc_wire_record* out);

#endif /* ADC_WIRE_H */
