#include "support/utf8.h"

/* Well-formed sequences, as in Unicode's table 3-7. */
size_t adc_utf8_sequence_length(const char* text, size_t size) {
  const unsigned char* s = (const unsigned char*)text;
  if (size == 0) return 0;
  if (s[0] < 0x80) return 1;
  size_t length;
  unsigned char low = 0x80;
  unsigned char high = 0xBF;
  if (s[0] >= 0xC2 && s[0] <= 0xDF) {
    length = 2;
  } else if (s[0] >= 0xE0 && s[0] <= 0xEF) {
    length = 3;
    if (s[0] == 0xE0) low = 0xA0;  /* no overlong forms */
    if (s[0] == 0xED) high = 0x9F; /* no surrogates */
  } else if (s[0] >= 0xF0 && s[0] <= 0xF4) {
    length = 4;
    if (s[0] == 0xF0) low = 0x90;
    if (s[0] == 0xF4) high = 0x8F; /* nothing past U+10FFFF */
  } else {
    return 0;
  }
  if (size < length || s[1] < low || s[1] > high) return 0;
  for (size_t i = 2; i < length; i++) {
    if (s[i] < 0x80 || s[i] > 0xBF) return 0;
  }
  return length;
}

bool adc_utf8_valid(const char* text, size_t size) {
  for (size_t i = 0; i < size;) {
    size_t length = adc_utf8_sequence_length(text + i, size - i);
    if (length == 0) return false;
    i += length;
  }
  return true;
}

void adc_utf8_sanitize(char* text) {
  for (size_t i = 0; text[i] != '\0';) {
    size_t rest = 0;
    while (rest < 4 && text[i + rest] != '\0') rest++;
    size_t length = adc_utf8_sequence_length(text + i, rest);
    if (length == 0) {
      text[i++] = '?';
    } else {
      i += length;
    }
  }
}
