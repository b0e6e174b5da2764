#include "report/console_style.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool adc_console_wants_colour(FILE* out) {
  const char* no_color = getenv("NO_COLOR");
  return isatty(fileno(out)) && (no_color == NULL || no_color[0] == '\0');
}

const char* adc_status_label(enum adc_status status) {
  static const char* const labels[ADC_STATUS_COUNT] = {"PASS", "FAIL", "CRASH", "TIMEOUT",
                                                       "N/S",  "WARN", "UNRES"};
  return (unsigned)status < ADC_STATUS_COUNT ? labels[status] : "?";
}

static const char* colour_of(enum adc_status status) {
  switch (status) {
    case ADC_PASS:
      return ADC_ANSI_GREEN;
    case ADC_FAIL:
    case ADC_CRASH:
    case ADC_TIMEOUT:
      return ADC_ANSI_RED;
    case ADC_WARNING:
      return ADC_ANSI_YELLOW;
    default:
      return ADC_ANSI_DIM;
  }
}

void adc_put_status_label(FILE* out, enum adc_status status, int width, bool colour) {
  adc_put_colour(out, colour, colour_of(status));
  fputs(adc_status_label(status), out);
  adc_put_colour(out, colour, ADC_ANSI_RESET);
  /* Padding after the colour ends, so that columns line up either way. */
  for (int column = (int)strlen(adc_status_label(status)); column < width; column++) fputc(' ', out);
}

void adc_put_one_line(FILE* out, const char* text, size_t max_bytes) {
  size_t length = strlen(text);
  size_t shown = length;
  if (length > max_bytes) {
    shown = max_bytes;
    /* Back to the first byte of a UTF-8 character. */
    while (shown > 0 && ((unsigned char)text[shown] & 0xC0) == 0x80) shown--;
  }
  for (size_t i = 0; i < shown; i++) {
    unsigned char c = (unsigned char)text[i];
    fputc(c < 0x20 || c == 0x7F ? ' ' : c, out);
  }
  if (shown < length) fputs("...", out);
}

void adc_put_colour(FILE* out, bool colour, const char* ansi) {
  if (colour) fputs(ansi, out);
}
