#include "fuzz_bytes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint8_t fuzz_byte(struct fuzz_bytes* in) {
  if (in->size == 0) return 0;
  in->size--;
  return *in->data++;
}

uint64_t fuzz_u64(struct fuzz_bytes* in) {
  uint64_t value = 0;
  for (int i = 0; i < 8; i++) value |= (uint64_t)fuzz_byte(in) << (8 * i);
  return value;
}

int64_t fuzz_range(struct fuzz_bytes* in, int64_t low, int64_t high) {
  uint64_t span = (uint64_t)(high - low) + 1;
  uint64_t raw = fuzz_byte(in);
  if (span > 256) raw |= (uint64_t)fuzz_byte(in) << 8;
  return low + (int64_t)(raw % span);
}

int64_t fuzz_pick(struct fuzz_bytes* in, const int64_t* values, size_t n) {
  return values[fuzz_byte(in) % n];
}

void fuzz_fill(struct fuzz_bytes* in, void* out, size_t size) {
  size_t taken = size < in->size ? size : in->size;
  if (taken > 0) memcpy(out, in->data, taken);
  memset((uint8_t*)out + taken, 0, size - taken);
  in->data += taken;
  in->size -= taken;
}

void* fuzz_alloc(struct fuzz_arena* arena, size_t size) {
  if (arena->n_blocks == arena->capacity) {
    size_t bigger = arena->capacity ? arena->capacity * 2 : 64;
    void** grown = realloc(arena->blocks, bigger * sizeof(*grown));
    if (grown == NULL) abort();
    arena->blocks = grown;
    arena->capacity = bigger;
  }
  /* malloc(0) gives a block of no bytes, which is what a zero-sized buffer is. */
  void* block = malloc(size);
  if (block == NULL && size > 0) {
    fprintf(stderr, "fuzz_alloc: out of memory for %zu bytes\n", size);
    abort();
  }
  arena->blocks[arena->n_blocks++] = block;
  return block;
}

void* fuzz_zalloc(struct fuzz_arena* arena, size_t size) {
  void* block = fuzz_alloc(arena, size);
  if (size > 0) memset(block, 0, size);
  return block;
}

void fuzz_arena_free(struct fuzz_arena* arena) {
  for (size_t i = 0; i < arena->n_blocks; i++) free(arena->blocks[i]);
  free(arena->blocks);
  memset(arena, 0, sizeof(*arena));
}
