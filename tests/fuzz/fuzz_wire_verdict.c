/* Fuzz target: the records a task's process sends its parent
 * (harness/wire/wire.c).
 *
 * The first byte picks a path:
 *   even: the rest is what arrived on the record channel; whatever
 *         adc_wire_accept accepts must keep the promises the parent relies
 *         on when it prints and stores a verdict: a known kind, a status in
 *         range (a pass on any record but a verdict), a message
 *         NUL-terminated inside the record and valid UTF-8.  Inputs of the
 *         record's size are the interesting ones; shorter and longer ones
 *         must be refused.  An accepted CRASH_SITE record's message is
 *         read as the parent reads it (wire/crash_record.h): what it
 *         accepts has at most ADC_FAULT_FRAMES frames, each object a
 *         NUL-terminated path or none.
 *   odd:  the rest (a status byte, a task byte, then a message) goes
 *         through adc_wire_send into a sequenced-packet socket, as a case's
 *         process sends; what comes out must be accepted, with the status
 *         and task sent and a message that begins as the one sent did, up
 *         to the first byte adc_wire_send had to replace.
 * A broken promise aborts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "fuzz_target.h"
#include "support/utf8.h"
#include "wire/crash_record.h"
#include "wire/wire.h"

static int channel[2] = {-1, -1};

static void require(int condition, const char* promise) {
  if (!condition) {
    fprintf(stderr, "verdict wire broke a promise: %s\n", promise);
    abort();
  }
}

static void check_accepted(const struct adc_wire_record* verdict) {
  require(verdict->magic == ADC_WIRE_MAGIC, "an accepted record has the magic number");
  require(verdict->kind >= ADC_WIRE_VERDICT && verdict->kind <= ADC_WIRE_LAST_KIND,
          "an accepted kind is a kind");
  require(verdict->status >= 0 && verdict->status < ADC_STATUS_COUNT, "an accepted status is a status");
  require(verdict->kind == ADC_WIRE_VERDICT || verdict->status == ADC_PASS,
          "only a verdict carries a status other than pass");
  const char* end = memchr(verdict->message, '\0', sizeof(verdict->message));
  require(end != NULL, "an accepted message ends inside the record");
  require(adc_utf8_valid(verdict->message, (size_t)(end - verdict->message)), "an accepted message is UTF-8");
}

static void check_crash_site(const struct adc_wire_record* record) {
  struct adc_crash_record site;
  if (!adc_crash_record_read(record->message, &site)) return;
  require(site.n_frames <= ADC_FAULT_FRAMES, "a crash site has at most ADC_FAULT_FRAMES frames");
  for (size_t i = 0; i < site.n_frames; i++) {
    require(memchr(site.frames[i].object, '\0', sizeof(site.frames[i].object)) != NULL,
            "a frame's object ends inside its field");
  }
}

static void decode(const uint8_t* data, size_t size) {
  struct adc_wire_record verdict;
  bool accepted = adc_wire_accept(data, size, &verdict);
  require(!accepted || size == sizeof(verdict), "only a whole record is accepted");
  if (accepted) check_accepted(&verdict);
  if (accepted && verdict.kind == ADC_WIRE_CRASH_SITE) check_crash_site(&verdict);
}

static void round_trip(const uint8_t* data, size_t size) {
  if (size < 2) return;
  enum adc_status status = (enum adc_status)(data[0] % ADC_STATUS_COUNT);
  uint64_t task = data[1];
  /* The message, NUL-terminated where the input has none. */
  char message[2048];
  size_t length = size - 2 < sizeof(message) - 1 ? size - 2 : sizeof(message) - 1;
  memcpy(message, data + 2, length);
  message[length] = '\0';

  adc_wire_set_task(task);
  adc_wire_send(channel[1], status, message);
  struct adc_wire_record received;
  uint8_t bytes[sizeof(received) + 1];
  ssize_t got = recv(channel[0], bytes, sizeof(bytes), 0);
  require(got == (ssize_t)sizeof(received), "one send writes one whole record");
  require(adc_wire_accept(bytes, (size_t)got, &received), "what adc_wire_send writes is accepted");
  check_accepted(&received);
  require(received.kind == ADC_WIRE_VERDICT, "a verdict arrives as a verdict");
  require(received.status == (int32_t)status, "the status arrives as sent");
  require(received.task == task, "the task arrives as set");
  /* Up to the first byte that needed replacing, the message arrives as is. */
  size_t same = 0;
  while (message[same] != '\0' && received.message[same] == message[same]) same++;
  if (message[same] != '\0' && same < sizeof(received.message) - 1) {
    size_t rest = strnlen(message + same, 4);
    size_t sequence = adc_utf8_sequence_length(message + same, rest);
    require(received.message[same] == '?' || received.message[same] == '\0',
            "a difference is a replaced byte or the cut");
    require(sequence == 0 || same + sequence > sizeof(received.message) - 1,
            "only bytes that are not UTF-8, or a character cut by the end, are replaced");
  }
}

int LLVMFuzzerInitialize(int* argc, char*** argv) {
  (void)argc;
  (void)argv;
  if (socketpair(AF_UNIX, SOCK_SEQPACKET, 0, channel) != 0) {
    perror("socketpair");
    abort();
  }
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  if (data[0] % 2 == 0) {
    decode(data + 1, size - 1);
  } else {
    round_trip(data + 1, size - 1);
  }
  return 0;
}
