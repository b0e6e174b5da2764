#include "stream_schema.h"

#include <stdio.h>

bool adc_python_schema_of_stream(struct ArrowArrayStream* stream, struct ArrowSchema* out, const char* whose,
                                 char* message, size_t size) {
  int code = stream->get_schema(stream, out);
  if (code != 0) {
    const char* error = stream->get_last_error(stream);
    snprintf(message, size,
             "%s has no __arrow_c_schema__, and get_schema of its __arrow_c_stream__ returned %d: %s", whose,
             code, error != NULL ? error : "(no message)");
  }
  stream->release(stream);
  return code == 0;
}
