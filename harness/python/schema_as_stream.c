#include "schema_as_stream.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct schema_stream {
  struct ArrowSchema schema; /* release NULL once handed out */
  adc_schema_again_function again;
  char last_error[512];
};

static int get_schema(struct ArrowArrayStream* stream, struct ArrowSchema* out) {
  struct schema_stream* state = stream->private_data;
  if (state->schema.release != NULL) {
    memcpy(out, &state->schema, sizeof(*out));
    state->schema.release = NULL;
    return 0;
  }
  const char* error = state->again(out);
  if (error == NULL) return 0;
  snprintf(state->last_error, sizeof(state->last_error), "%s", error);
  return EIO;
}

/* No batches: the end at once, as often as asked. */
static int get_next(struct ArrowArrayStream* stream, struct ArrowArray* out) {
  (void)stream;
  memset(out, 0, sizeof(*out));
  return 0;
}

static const char* get_last_error(struct ArrowArrayStream* stream) {
  struct schema_stream* state = stream->private_data;
  return state->last_error[0] != '\0' ? state->last_error : NULL;
}

static void release(struct ArrowArrayStream* stream) {
  struct schema_stream* state = stream->private_data;
  if (state->schema.release != NULL) state->schema.release(&state->schema);
  free(state);
  stream->release = NULL;
}

int adc_schema_as_stream(struct ArrowSchema* schema, adc_schema_again_function again,
                         struct ArrowArrayStream* stream) {
  struct schema_stream* state = calloc(1, sizeof(*state));
  if (state == NULL) return -1;
  memcpy(&state->schema, schema, sizeof(*schema));
  schema->release = NULL;
  state->again = again;
  stream->get_schema = get_schema;
  stream->get_next = get_next;
  stream->get_last_error = get_last_error;
  stream->private_data = state;
  stream->release = release;
  return 0;
}
