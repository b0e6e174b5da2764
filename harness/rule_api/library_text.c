#include "rule_api/library_text.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "support/safe_read.h"
#include "support/utf8.h"

const char* adc_library_text(const char* text, char* out, size_t size) {
  bool well_formed;
  return adc_library_text_checked(text, out, size, &well_formed);
}

const char* adc_library_text_checked(const char* text, char* out, size_t size, bool* well_formed) {
  *well_formed = true;
  if (text == NULL) return NULL;
  char copy[ADC_LIBRARY_TEXT_LIMIT + 1];
  size_t readable = adc_copy_readable(copy, text, ADC_LIBRARY_TEXT_LIMIT);
  size_t length = strnlen(copy, readable);
  bool terminated = length < readable;
  copy[length] = '\0';
  bool utf8 = adc_utf8_valid(copy, length);
  adc_utf8_sanitize(copy);
  const char* ending = "";
  char note[128];
  if (!terminated && readable < ADC_LIBRARY_TEXT_LIMIT) {
    snprintf(note, sizeof(note), " ... (unreadable memory after %zu bytes, no NUL before it)", readable);
    ending = note;
  } else if (!terminated) {
    snprintf(note, sizeof(note), " ... (truncated, no NUL within %d bytes)", ADC_LIBRARY_TEXT_LIMIT);
    ending = note;
  }
  snprintf(out, size, "%s%s%s", copy, ending, utf8 ? "" : " (not UTF-8: such bytes shown as '?')");
  *well_formed = terminated && utf8;
  return out;
}
