/* What a case's process writes on stdout and stderr, kept to explain its
 * end: a bounded tail, and the first "telling" line (a sanitizer headline,
 * a failed assertion) even when a flood of output follows it. */
#ifndef ADC_OUTPUT_CAPTURE_H
#define ADC_OUTPUT_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>

/* A telling line longer than this is cut. */
#define ADC_CAPTURE_LINE 400
/* Bytes of tail kept; twice the largest read, so a line split across two
 * reads is seen whole. */
#define ADC_CAPTURE_TAIL 8192

struct adc_output_capture {
  char tail[ADC_CAPTURE_TAIL + 1];
  size_t tail_bytes;
  char telling[ADC_CAPTURE_LINE];
  bool has_telling;
  size_t total_bytes;
};

void adc_capture_reset(struct adc_output_capture* capture);
/* Appends bytes as they arrive (at most ADC_CAPTURE_TAIL / 2 at a time). */
void adc_capture_append(struct adc_output_capture* capture, const char* data, size_t size);
/* The line that best explains the process's end: the first telling line,
 * else the last non-empty line; empty when nothing was written. */
void adc_capture_explain(const struct adc_output_capture* capture, char* line, size_t size);

#endif /* ADC_OUTPUT_CAPTURE_H */
