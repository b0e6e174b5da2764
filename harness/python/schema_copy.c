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

static void release_copy(struct ArrowSchema* schema) {
  for (int64_t i = 0; i < schema->n_children; i++) {
    if (schema->children[i]->release != NULL) schema->children[i]->release(schema->children[i]);
    free(schema->children[i]);
  }
  free(schema->children);
  if (schema->dictionary != NULL) {
    if (schema->dictionary->release != NULL) schema->dictionary->release(schema->dictionary);
    free(schema->dictionary);
  }
  free((void*)schema->format);
  free((void*)schema->name);
  free((void*)schema->metadata);
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
  struct ArrowSchema copy;
  memset(&copy, 0, sizeof(copy));
  copy.flags = source->flags;
  copy.release = release_copy;
  bool failed = (copy.format = copy_text(source->format)) == NULL && source->format != NULL;
  failed |= (copy.name = copy_text(source->name)) == NULL && source->name != NULL;
  if (source->metadata != NULL) {
    size_t size = metadata_size(source->metadata);
    char* metadata = malloc(size);
    if (metadata != NULL) memcpy(metadata, source->metadata, size);
    copy.metadata = metadata;
    failed |= metadata == NULL;
  }
  if (source->n_children > 0) {
    copy.children = calloc((size_t)source->n_children, sizeof(*copy.children));
    failed |= copy.children == NULL;
    for (int64_t i = 0; !failed && i < source->n_children; i++) {
      failed = (copy.children[i] = copy_new(source->children[i])) == NULL;
      if (!failed) copy.n_children = i + 1;
    }
  }
  if (!failed && source->dictionary != NULL) failed = (copy.dictionary = copy_new(source->dictionary)) == NULL;
  if (failed) {
    release_copy(&copy);
    return -1;
  }
  memcpy(out, &copy, sizeof(copy));
  return 0;
}
