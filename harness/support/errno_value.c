#include "support/errno_value.h"

#include <string.h>

bool adc_is_errno_value(int code) {
  /* glibc describes every number it does not know as "Unknown error N". */
  static const char unknown[] = "Unknown error";
  return code > 0 && strncmp(strerror(code), unknown, sizeof(unknown) - 1) != 0;
}
