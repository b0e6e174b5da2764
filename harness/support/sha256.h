/* SHA-256 (FIPS 180-4, section 6.2), for the digests of a certification
 * bundle's manifest (SHA256SUMS, as coreutils' sha256sum writes it).  Our
 * own implementation, written from the standard: the harness links no
 * crypto library for one checksum. */
#ifndef ADC_SUPPORT_SHA256_H
#define ADC_SUPPORT_SHA256_H

#include <stddef.h>
#include <stdint.h>

#include "support/error.h"

#define ADC_SHA256_DIGEST_BYTES 32
/* Hexadecimal digest, lower case, and its terminating NUL. */
#define ADC_SHA256_HEX_SIZE (2 * ADC_SHA256_DIGEST_BYTES + 1)

/* A digest being computed: the caller owns it (on its stack, typically);
 * it holds no other memory. */
struct adc_sha256 {
  uint32_t state[8];     /* H0..H7 */
  uint64_t length_bytes; /* message length so far */
  uint8_t block[64];     /* the block being filled */
  size_t block_used;     /* bytes of `block` filled */
};

void adc_sha256_init(struct adc_sha256* hash);
/* Adds `size` bytes of `data` (read only during the call). */
void adc_sha256_update(struct adc_sha256* hash, const void* data, size_t size);
/* Pads the message, writes its digest to `digest`; `hash` is spent after
 * (init it again to reuse it). */
void adc_sha256_final(struct adc_sha256* hash, uint8_t digest[ADC_SHA256_DIGEST_BYTES]);

/* The digest of `size` bytes of `data`, as lower-case hexadecimal in `hex`
 * (the caller's buffer). */
void adc_sha256_hex(const void* data, size_t size, char hex[ADC_SHA256_HEX_SIZE]);

/* The digest of the file at `path`, as lower-case hexadecimal in `hex`.
 * Returns 0, or -1 with the reason (a file that cannot be opened or read). */
int adc_sha256_file_hex(const char* path, char hex[ADC_SHA256_HEX_SIZE], struct adc_error* error);

#endif /* ADC_SUPPORT_SHA256_H */
