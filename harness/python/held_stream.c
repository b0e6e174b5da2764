#include "held_stream.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct held_stream {
  struct ArrowSchema schema; /* release NULL once handed out */
  struct ArrowArray array;   /* release NULL once handed out, or where none was held */
  adc_schema_again_function again;
  void* again_context;
  void (*free_context)(void*);
  char last_error[512];
};

static int get_schema(struct ArrowArrayStream* stream, struct ArrowSchema* out) {
  struct held_stream* state = stream->private_data;
  if (state->schema.release != NULL) {
    memcpy(out, &state->schema, sizeof(*out));
    state->schema.release = NULL;
    return 0;
  }
  const char* error = state->again(state->again_context, out);
  if (error == NULL) return 0;
  snprintf(state->last_error, sizeof(state->last_error), "%s", error);
  return EIO;
}

/* The array held, once; then the end, as often as asked. */
static int get_next(struct ArrowArrayStream* stream, struct ArrowArray* out) {
  struct held_stream* state = stream->private_data;
  memcpy(out, &state->array, sizeof(*out));
  state->array.release = NULL;
  return 0;
}

static const char* get_last_error(struct ArrowArrayStream* stream) {
  struct held_stream* state = stream->private_data;
  return state->last_error[0] != '\0' ? state->last_error : NULL;
}

static void release(struct ArrowArrayStream* stream) {
  struct held_stream* state = stream->private_data;
  if (state->schema.release != NULL) state->schema.release(&state->schema);
  if (state->array.release != NULL) state->array.release(&state->array);
  if (state->free_context != NULL) state->free_context(state->again_context);
  free(state);
  stream->release = NULL;
}

int adc_held_stream(struct ArrowSchema* schema, struct ArrowArray* array, adc_schema_again_function again,
                    void* again_context, void (*free_context)(void*), struct ArrowArrayStream* stream) {
  struct held_stream* state = calloc(1, sizeof(*state));
  if (state == NULL) return -1;
  memcpy(&state->schema, schema, sizeof(*schema));
  schema->release = NULL;
  if (array != NULL) {
    memcpy(&state->array, array, sizeof(*array));
    array->release = NULL;
  }
  state->again = again;
  state->again_context = again_context;
  state->free_context = free_context;
  stream->get_schema = get_schema;
  stream->get_next = get_next;
  stream->get_last_error = get_last_error;
  stream->private_data = state;
  stream->release = release;
  return 0;
}
