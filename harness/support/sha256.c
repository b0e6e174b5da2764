/* SHA-256 as FIPS 180-4 specifies it: section 4.1.2 (functions), 4.2.2
 * (constants), 5.1.1 (padding), 5.3.3 (initial hash value), 6.2.2 (the
 * hash computation).  The names follow the standard's. */
#include "support/sha256.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* The first 32 bits of the fractional parts of the cube roots of the first
 * 64 primes (section 4.2.2). */
static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static uint32_t rotr(uint32_t x, unsigned n) {
  return (x >> n) | (x << (32 - n));
}
static uint32_t ch(uint32_t x, uint32_t y, uint32_t z) {
  return (x & y) ^ (~x & z);
}
static uint32_t maj(uint32_t x, uint32_t y, uint32_t z) {
  return (x & y) ^ (x & z) ^ (y & z);
}
static uint32_t big_sigma0(uint32_t x) {
  return rotr(x, 2) ^ rotr(x, 13) ^ rotr(x, 22);
}
static uint32_t big_sigma1(uint32_t x) {
  return rotr(x, 6) ^ rotr(x, 11) ^ rotr(x, 25);
}
static uint32_t small_sigma0(uint32_t x) {
  return rotr(x, 7) ^ rotr(x, 18) ^ (x >> 3);
}
static uint32_t small_sigma1(uint32_t x) {
  return rotr(x, 17) ^ rotr(x, 19) ^ (x >> 10);
}

/* The message is big-endian, whatever this machine is. */
static uint32_t load_be32(const uint8_t* bytes) {
  return (uint32_t)bytes[0] << 24 | (uint32_t)bytes[1] << 16 | (uint32_t)bytes[2] << 8 | (uint32_t)bytes[3];
}

/* Section 6.2.2: one 512-bit block into the hash value. */
static void compress(uint32_t H[8], const uint8_t block[64]) {
  uint32_t W[64];
  for (int t = 0; t < 16; t++) W[t] = load_be32(block + 4 * t);
  for (int t = 16; t < 64; t++)
    W[t] = small_sigma1(W[t - 2]) + W[t - 7] + small_sigma0(W[t - 15]) + W[t - 16];
  uint32_t a = H[0], b = H[1], c = H[2], d = H[3], e = H[4], f = H[5], g = H[6], h = H[7];
  for (int t = 0; t < 64; t++) {
    uint32_t T1 = h + big_sigma1(e) + ch(e, f, g) + K[t] + W[t];
    uint32_t T2 = big_sigma0(a) + maj(a, b, c);
    h = g;
    g = f;
    f = e;
    e = d + T1;
    d = c;
    c = b;
    b = a;
    a = T1 + T2;
  }
  H[0] += a;
  H[1] += b;
  H[2] += c;
  H[3] += d;
  H[4] += e;
  H[5] += f;
  H[6] += g;
  H[7] += h;
}

void adc_sha256_init(struct adc_sha256* hash) {
  /* Section 5.3.3: the first 32 bits of the fractional parts of the square
   * roots of the first 8 primes. */
  static const uint32_t initial[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                      0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  memcpy(hash->state, initial, sizeof(initial));
  hash->length_bytes = 0;
  hash->block_used = 0;
}

void adc_sha256_update(struct adc_sha256* hash, const void* data, size_t size) {
  const uint8_t* bytes = data;
  hash->length_bytes += size;
  while (size > 0) {
    size_t take = sizeof(hash->block) - hash->block_used;
    if (take > size) take = size;
    memcpy(hash->block + hash->block_used, bytes, take);
    hash->block_used += take;
    bytes += take;
    size -= take;
    if (hash->block_used == sizeof(hash->block)) {
      compress(hash->state, hash->block);
      hash->block_used = 0;
    }
  }
}

void adc_sha256_final(struct adc_sha256* hash, uint8_t digest[ADC_SHA256_DIGEST_BYTES]) {
  /* Section 5.1.1: a 1 bit, zeros up to 448 bits mod 512, then the length
   * in bits as a 64-bit big-endian number. */
  uint64_t length_bits = hash->length_bytes * 8;
  hash->block[hash->block_used++] = 0x80;
  if (hash->block_used > 56) {
    memset(hash->block + hash->block_used, 0, sizeof(hash->block) - hash->block_used);
    compress(hash->state, hash->block);
    hash->block_used = 0;
  }
  memset(hash->block + hash->block_used, 0, 56 - hash->block_used);
  for (int i = 0; i < 8; i++) hash->block[56 + i] = (uint8_t)(length_bits >> (56 - 8 * i));
  compress(hash->state, hash->block);
  for (int i = 0; i < 8; i++) {
    digest[4 * i] = (uint8_t)(hash->state[i] >> 24);
    digest[4 * i + 1] = (uint8_t)(hash->state[i] >> 16);
    digest[4 * i + 2] = (uint8_t)(hash->state[i] >> 8);
    digest[4 * i + 3] = (uint8_t)hash->state[i];
  }
}

static void to_hex(const uint8_t digest[ADC_SHA256_DIGEST_BYTES], char hex[ADC_SHA256_HEX_SIZE]) {
  static const char digits[] = "0123456789abcdef";
  for (int i = 0; i < ADC_SHA256_DIGEST_BYTES; i++) {
    hex[2 * i] = digits[digest[i] >> 4];
    hex[2 * i + 1] = digits[digest[i] & 0xf];
  }
  hex[2 * ADC_SHA256_DIGEST_BYTES] = '\0';
}

void adc_sha256_hex(const void* data, size_t size, char hex[ADC_SHA256_HEX_SIZE]) {
  struct adc_sha256 hash;
  uint8_t digest[ADC_SHA256_DIGEST_BYTES];
  adc_sha256_init(&hash);
  adc_sha256_update(&hash, data, size);
  adc_sha256_final(&hash, digest);
  to_hex(digest, hex);
}

int adc_sha256_file_hex(const char* path, char hex[ADC_SHA256_HEX_SIZE], struct adc_error* error) {
  FILE* f = fopen(path, "rb");
  if (f == NULL) return adc_fail(error, "cannot read '%s': %s", path, strerror(errno));
  struct adc_sha256 hash;
  adc_sha256_init(&hash);
  uint8_t buffer[65536];
  size_t n;
  while ((n = fread(buffer, 1, sizeof(buffer), f)) > 0) adc_sha256_update(&hash, buffer, n);
  bool failed = ferror(f) != 0;
  fclose(f);
  if (failed) return adc_fail(error, "cannot read '%s'", path);
  uint8_t digest[ADC_SHA256_DIGEST_BYTES];
  adc_sha256_final(&hash, digest);
  to_hex(digest, hex);
  return 0;
}
