/* Every byte the reference producer hands out goes through here, so that
 * <prefix>_BytesAllocated can tell the harness whether a release gave all of
 * it back (spec: "The release callback MUST free any data area directly
 * owned by the structure"). */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "reference_core.h"

static _Atomic int64_t bytes_allocated;

/* Each block starts with its size so that ref_free can account for it; the
 * header is 16 bytes to keep the payload aligned for any value type. */
#define HEADER_SIZE 16

void* ref_alloc(size_t size) {
  unsigned char* block = malloc(HEADER_SIZE + size);
  if (block == NULL) return NULL;
  memcpy(block, &size, sizeof(size));
  atomic_fetch_add(&bytes_allocated, (int64_t)size);
  return block + HEADER_SIZE;
}

void* ref_calloc(size_t count, size_t size) {
  void* pointer = ref_alloc(count * size);
  if (pointer != NULL) memset(pointer, 0, count * size);
  return pointer;
}

char* ref_strdup(const char* text) {
  size_t size = strlen(text) + 1;
  char* copy = ref_alloc(size);
  if (copy != NULL) memcpy(copy, text, size);
  return copy;
}

void ref_free(void* pointer) {
  if (pointer == NULL) return;
  unsigned char* block = (unsigned char*)pointer - HEADER_SIZE;
  size_t size;
  memcpy(&size, block, sizeof(size));
  atomic_fetch_sub(&bytes_allocated, (int64_t)size);
  free(block);
}

int64_t ref_bytes_allocated(void) {
  return atomic_load(&bytes_allocated);
}
