#include "runner/output_capture.h"

#include "support/utf8.h"

#include <stdio.h>
#include <string.h>

/* What a sanitizer, memcheck (--valgrind) or a failed assertion prints
 * first.  Memcheck's headlines are the first line of each of its error
 * kinds; "ASan runtime does not come first" is what a library built with
 * ASan says when loaded without it (the cure: --preload). */
static const char* const telling_marks[] = {"ERROR: AddressSanitizer",
                                            "ERROR: LeakSanitizer",
                                            "runtime error:",
                                            "ThreadSanitizer",
                                            "Assertion",
                                            "ASan runtime does not come first",
                                            "== Invalid read of size",
                                            "== Invalid write of size",
                                            "== Invalid free()",
                                            "== Mismatched free()",
                                            "== Conditional jump or move depends on uninitialised value",
                                            "== Use of uninitialised value",
                                            "== Syscall param",
                                            "== Source and destination overlap",
                                            "== Jump to the invalid address",
                                            "are definitely lost in loss record"};

void adc_capture_reset(struct adc_output_capture* capture) {
  capture->tail_bytes = 0;
  capture->tail[0] = '\0';
  capture->has_telling = false;
  capture->telling[0] = '\0';
  capture->total_bytes = 0;
}

/* Looks for a complete telling line in the tail. */
static void find_telling(struct adc_output_capture* capture) {
  for (size_t m = 0; m < sizeof(telling_marks) / sizeof(telling_marks[0]); m++) {
    const char* hit = strstr(capture->tail, telling_marks[m]);
    if (hit == NULL) continue;
    const char* start = hit;
    while (start > capture->tail && start[-1] != '\n') start--;
    const char* end = strchr(hit, '\n');
    if (end == NULL) return; /* the line is not complete yet */
    snprintf(capture->telling, sizeof(capture->telling), "%.*s", (int)(end - start), start);
    capture->has_telling = true;
    return;
  }
}

void adc_capture_append(struct adc_output_capture* capture, const char* data, size_t size) {
  capture->total_bytes += size;
  if (size > ADC_CAPTURE_TAIL) {
    data += size - ADC_CAPTURE_TAIL;
    size = ADC_CAPTURE_TAIL;
  }
  size_t keep = capture->tail_bytes + size > ADC_CAPTURE_TAIL ? ADC_CAPTURE_TAIL - size : capture->tail_bytes;
  memmove(capture->tail, capture->tail + capture->tail_bytes - keep, keep);
  memcpy(capture->tail + keep, data, size);
  capture->tail_bytes = keep + size;
  /* A NUL written by the process must not hide what follows it. */
  for (size_t i = keep; i < capture->tail_bytes; i++) {
    if (capture->tail[i] == '\0') capture->tail[i] = ' ';
  }
  capture->tail[capture->tail_bytes] = '\0';
  if (!capture->has_telling) find_telling(capture);
}

void adc_capture_explain(const struct adc_output_capture* capture, char* line, size_t size) {
  if (capture->has_telling) {
    snprintf(line, size, "%s", capture->telling);
    adc_utf8_sanitize(line);
    return;
  }
  const char* output = capture->tail;
  const char* end = output + capture->tail_bytes;
  while (end > output && (end[-1] == '\n' || end[-1] == ' ')) end--;
  const char* start = end;
  while (start > output && start[-1] != '\n') start--;
  int length = (int)(end - start) < ADC_CAPTURE_LINE ? (int)(end - start) : ADC_CAPTURE_LINE;
  snprintf(line, size, "%.*s", length, start);
  adc_utf8_sanitize(line);
}
