/* The manifest of a certification bundle: SHA256SUMS, in the format of
 * coreutils' sha256sum ("<64 hex digits>  <file name>\n" a line), so that
 * `sha256sum -c SHA256SUMS` in the bundle checks it as well as
 * `adc-conform verify` does.  Names are plain file names of the bundle's
 * folder: no '/', no escapes. */
#ifndef ADC_REPORT_MANIFEST_H
#define ADC_REPORT_MANIFEST_H

#include <stddef.h>

#include "support/error.h"
#include "support/sha256.h"

#define ADC_MANIFEST_NAME "SHA256SUMS"
/* Longest file name a manifest line may carry, and its NUL. */
#define ADC_MANIFEST_NAME_SIZE 256

struct adc_manifest_entry {
  char hex[ADC_SHA256_HEX_SIZE]; /* as written (either case) */
  char name[ADC_MANIFEST_NAME_SIZE];
  int line; /* 1-based, for messages */
};

/* The lines of a manifest, in file order; owns `entries`.  Free with
 * adc_manifest_free. */
struct adc_manifest {
  struct adc_manifest_entry* entries;
  size_t count;
};

/* Digests the files `names` (n of them) of folder `dir` and writes
 * dir/SHA256SUMS listing them in that order.  Returns 0, or -1 with the
 * reason. */
int adc_manifest_write(const char* dir, const char* const* names, size_t n, struct adc_error* error);

/* Reads the manifest at `path` into `out` (zeroed first).  Returns 0, or -1
 * with the reason when it cannot be read or a line is not
 * "<64 hex>  <name>" ("<64 hex> *<name>", sha256sum's binary mode, too),
 * naming the line; `out` then holds nothing. */
int adc_manifest_read(const char* path, struct adc_manifest* out, struct adc_error* error);
void adc_manifest_free(struct adc_manifest* manifest);

#endif /* ADC_REPORT_MANIFEST_H */
