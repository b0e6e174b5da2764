#include "tf_error.h"

#include <stdarg.h>
#include <stdio.h>

static _Thread_local char message[1024];

int tf_fail(const char* format, ...) {
  va_list arguments;
  va_start(arguments, format);
  vsnprintf(message, sizeof(message), format, arguments);
  va_end(arguments);
  return -1;
}

const char* tf_error_message(void) {
  return message;
}
