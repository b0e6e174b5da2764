#include "report/progress.h"

#include <unistd.h>

#include "support/clock.h"

#define REDRAW_SECONDS 0.1
/* Carriage return, then erase to the end of the line. */
#define ERASE_LINE "\r\033[K"

void adc_progress_start(struct adc_progress* progress, FILE* out, size_t total) {
  *progress = (struct adc_progress){isatty(fileno(out)) ? out : NULL, total, 0, 0, adc_now_seconds(), 0.0};
}

void adc_progress_case_ended(struct adc_progress* progress, enum adc_status status) {
  if (progress->out == NULL) return;
  progress->done++;
  progress->not_passed += status != ADC_PASS;
  double now = adc_now_seconds();
  if (now - progress->drawn < REDRAW_SECONDS && progress->done < progress->total) return;
  progress->drawn = now;
  fprintf(progress->out, ERASE_LINE "adc-conform: %zu/%zu cases, %zu not passed, %.0f s", progress->done,
          progress->total, progress->not_passed, now - progress->started);
  fflush(progress->out);
}

void adc_progress_end(struct adc_progress* progress) {
  if (progress->out == NULL) return;
  fputs(ERASE_LINE, progress->out);
  fflush(progress->out);
}
