#include "support/error.h"

#include <stdarg.h>
#include <stdio.h>

int adc_fail(struct adc_error* error, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(error->message, sizeof(error->message), fmt, ap);
  va_end(ap);
  return -1;
}
