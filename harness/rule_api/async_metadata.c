#include "rule_api/async_metadata.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/safe_read.h"

/* A cursor over the bytes that could be read. */
struct reader {
  const unsigned char* bytes;
  size_t readable;
  size_t at;
  bool cut_at_limit; /* readable == ADC_METADATA_LIMIT: more may follow */
  bool ran_out;      /* the encoding reached past the readable bytes */
};

/* Reads an int32 at the cursor; false when fewer than 4 bytes are left. */
static bool read_int32(struct reader* r, int32_t* value) {
  if (r->readable - r->at < sizeof(*value)) {
    r->ran_out = true;
    return false;
  }
  memcpy(value, r->bytes + r->at, sizeof(*value));
  r->at += sizeof(*value);
  return true;
}

/* Skips a length-prefixed string ("key" or "value" of pair `pair`);
 * returns NULL or what is wrong. */
static const char* skip_string(struct reader* r, const char* what, int32_t pair, char* problem, size_t size) {
  int32_t length;
  if (!read_int32(r, &length)) {
    snprintf(problem, size, "the length of the %s of pair %d lies past the readable bytes", what, (int)pair);
    return problem;
  }
  if (length < 0) {
    snprintf(problem, size, "the %s of pair %d has a negative length (%d)", what, (int)pair, (int)length);
    return problem;
  }
  if ((size_t)length > r->readable - r->at) {
    r->ran_out = true;
    snprintf(problem, size, "the %s of pair %d (%d bytes) runs past the readable bytes", what, (int)pair,
             (int)length);
    return problem;
  }
  r->at += (size_t)length;
  return NULL;
}

const char* adc_metadata_problem(const char* metadata, char* problem, size_t size) {
  problem[0] = '\0';
  if (metadata == NULL) return problem;
  unsigned char* copy = malloc(ADC_METADATA_LIMIT);
  if (copy == NULL) return problem; /* cannot judge: no claim made */
  /* adc_copy_readable copies a few pages per call: read on until the
   * limit or the first unreadable page. */
  size_t readable = 0;
  for (size_t got = 1; got > 0 && readable < ADC_METADATA_LIMIT; readable += got) {
    got = adc_copy_readable(copy + readable, metadata + readable, ADC_METADATA_LIMIT - readable);
  }
  struct reader r = {copy, readable, 0, readable == ADC_METADATA_LIMIT, false};
  int32_t pairs;
  if (!read_int32(&r, &pairs)) {
    snprintf(problem, size, "fewer than 4 readable bytes: no pair count");
  } else if (pairs < 0) {
    snprintf(problem, size, "the pair count is negative (%d)", (int)pairs);
  } else {
    for (int32_t pair = 0; pair < pairs; pair++) {
      if (skip_string(&r, "key", pair, problem, size) != NULL ||
          skip_string(&r, "value", pair, problem, size) != NULL) {
        break;
      }
    }
  }
  /* Cut short by the limit rather than by unreadable memory: no claim. */
  if (r.ran_out && r.cut_at_limit) problem[0] = '\0';
  free(copy);
  return problem;
}
