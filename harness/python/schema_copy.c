#include "schema_copy.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static char* copy_text(const char* text) {
  if (text == NULL) return NULL;
  size_t size = strlen(text) + 1;
  char* copy = malloc(size);
  if (copy != NULL) memcpy(copy, text, size);
  return copy;
}

/* The size of metadata in bytes: an int32 count, then each key and value
 * as an int32 length and its bytes (the C Data Interface's "metadata"). */
static size_t metadata_size(const char* metadata) {
  int32_t n, length;
  memcpy(&n, metadata, sizeof(n));
  size_t size = sizeof(n);
  for (int32_t i = 0; i < 2 * n; i++) {
    memcpy(&length, metadata + size, sizeof(length));
    size += sizeof(length) + (size_t)length;
  }
  return size;
}

/* What a copy allocated, kept apart from its members: a consumer may
 * point them elsewhere (a library altering a schema it was given), and
 * the release frees what was allocated, not what the members hold. */
struct allocations {
  char* format;
  char* name;
  char* metadata;
  struct ArrowSchema** children;
  int64_t n_children;
  struct ArrowSchema* dictionary;
};

static void release_copy(struct ArrowSchema* schema) {
  struct allocations* made = schema->private_data;
  for (int64_t i = 0; i < made->n_children; i++) {
    if (made->children[i]->release != NULL) made->children[i]->release(made->children[i]);
    free(made->children[i]);
  }
  free(made->children);
  if (made->dictionary != NULL) {
    if (made->dictionary->release != NULL) made->dictionary->release(made->dictionary);
    free(made->dictionary);
  }
  free(made->format);
  free(made->name);
  free(made->metadata);
  free(made);
  schema->release = NULL;
}

/* A copy into a fresh allocation, or NULL. */
static struct ArrowSchema* copy_new(const struct ArrowSchema* source) {
  struct ArrowSchema* copy = malloc(sizeof(*copy));
  if (copy != NULL && adc_schema_copy(source, copy) != 0) {
    free(copy);
    return NULL;
  }
  return copy;
}

int adc_schema_copy(const struct ArrowSchema* source, struct ArrowSchema* out) {
  struct allocations* made = calloc(1, sizeof(*made));
  if (made == NULL) return -1;
  struct ArrowSchema copy;
  memset(&copy, 0, sizeof(copy));
  copy.flags = source->flags;
  copy.release = release_copy;
  copy.private_data = made;
  bool failed = (made->format = copy_text(source->format)) == NULL && source->format != NULL;
  failed |= (made->name = copy_text(source->name)) == NULL && source->name != NULL;
  if (source->metadata != NULL) {
    size_t size = metadata_size(source->metadata);
    made->metadata = malloc(size);
    if (made->metadata != NULL) memcpy(made->metadata, source->metadata, size);
    failed |= made->metadata == NULL;
  }
  if (source->n_children > 0) {
    made->children = calloc((size_t)source->n_children, sizeof(*made->children));
    failed |= made->children == NULL;
    for (int64_t i = 0; !failed && i < source->n_children; i++) {
      failed = (made->children[i] = copy_new(source->children[i])) == NULL;
      if (!failed) made->n_children = i + 1;
    }
  }
  if (!failed && source->dictionary != NULL)
    failed = (made->dictionary = copy_new(source->dictionary)) == NULL;
  if (failed) {
    release_copy(&copy);
    return -1;
  }
  copy.format = made->format;
  copy.name = made->name;
  copy.metadata = made->metadata;
  copy.n_children = made->n_children;
  copy.children = made->children;
  copy.dictionary = made->dictionary;
  memcpy(out, &copy, sizeof(copy));
  return 0;
}
