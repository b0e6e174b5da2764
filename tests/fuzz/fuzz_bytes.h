/* The fuzzer's input read as a stream of choices, and the blocks one input
 * allocates.  Once the input runs out every choice reads as 0, so that any
 * prefix of an input still describes a whole structure. */
#ifndef ADC_FUZZ_BYTES_H
#define ADC_FUZZ_BYTES_H

#include <stddef.h>
#include <stdint.h>

struct fuzz_bytes {
  const uint8_t* data;
  size_t size;
};

uint8_t fuzz_byte(struct fuzz_bytes* in);
/* 8 bytes, little-endian. */
uint64_t fuzz_u64(struct fuzz_bytes* in);
/* A value from `low` to `high` inclusive (high - low < 65536). */
int64_t fuzz_range(struct fuzz_bytes* in, int64_t low, int64_t high);
/* One of the `n` values at `values`. */
int64_t fuzz_pick(struct fuzz_bytes* in, const int64_t* values, size_t n);
/* Fills `size` bytes at `out` from the input (zeros once it runs out). */
void fuzz_fill(struct fuzz_bytes* in, void* out, size_t size);

/* Every block one input builds, freed together: the structures' release
 * callbacks then need to free nothing. */
struct fuzz_arena {
  void** blocks;
  size_t n_blocks;
  size_t capacity;
};

/* A block of exactly `size` bytes (so that AddressSanitizer sees a read one
 * byte past it), uninitialised; aborts when memory runs out. */
void* fuzz_alloc(struct fuzz_arena* arena, size_t size);
/* A zeroed block of `size` bytes. */
void* fuzz_zalloc(struct fuzz_arena* arena, size_t size);
void fuzz_arena_free(struct fuzz_arena* arena);

#endif /* ADC_FUZZ_BYTES_H */
