/* Every byte the reference allocates goes through here, so that
 * <prefix>_BytesAllocated can tell the harness whether a release gave all of
 * it back (spec: "The release callback MUST free any data area directly
 * owned by the structure").
 *
 * What the count means.  The plugin ABI reads BytesAllocated as "bytes the
 * library currently holds for exported data" (include/adc/plugin_abi.h).
 * The producer hands out more than buffers: an array's private data and
 * device stream, a device stream's private state, an async producer object
 * and each task's batch are all its export, live until their release, and
 * all counted here.  The consumer's own working state (what an import
 * allocates to compare and frees before it returns) is not an export; it is
 * counted too, so that the reference has one way to allocate and a check
 * around an export and its import (as the walkthrough's program makes) sees
 * the consumer's leaks as well.  It changes nothing the harness sees: the
 * harness asks BytesAllocated between calls, when no import of the
 * reference is under way, so the count it reads is what the producer has
 * handed out and not yet had back.
 *
 * Not counted: the fixture a producer reads from, which the fixture model
 * (arrow_format) allocates as it parses the JSON.  It stands for a
 * producer's data source, not for memory the Device Data Interface hands
 * over. */
#include <stdatomic.h>
#include <stdint.h>
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
  if (size != 0 && count > SIZE_MAX / size) return NULL; /* as calloc: no wrapped-around size */
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
