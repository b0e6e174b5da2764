/* Custom metadata compared as a set of key/value pairs (arrow_logical.h,
 * clause 3).
 *
 * spec ("ArrowSchema.metadata"): an int32 pair count, then per pair an
 * int32 length and the key's bytes, an int32 length and the value's.  The
 * C Data Interface gives no size for the whole, so the exported encoding
 * is read only as far as it could still match the fixture's: its count
 * must be the fixture's, and no length is followed past the longest key or
 * value the fixture has. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrow_format/arrow_json.h"
#include "arrow_format/arrow_logical_tree.h"

/* One pair, pointing into its encoding. */
struct pair {
  const char* key;
  int32_t key_size;
  const char* value;
  int32_t value_size;
};

static int32_t read_int32(const char* at) {
  int32_t value;
  memcpy(&value, at, sizeof(value));
  return value;
}

static bool same_bytes(const char* a, int32_t a_size, const char* b, int32_t b_size) {
  return a_size == b_size && memcmp(a, b, (size_t)a_size) == 0;
}

/* Shown at most this long in a message. */
#define SHOWN 64
#define CUT(size) ((size) > SHOWN ? SHOWN : (int)(size))

/* The fixture's pairs, decoded: its own encoding, trusted.  NULL (and 0
 * pairs) for none; -1 when out of memory. */
static int decode_expected(const char* encoded, struct pair** out, int32_t* n) {
  *out = NULL;
  *n = encoded != NULL ? read_int32(encoded) : 0;
  if (*n <= 0) return 0;
  *out = calloc((size_t)*n, sizeof(struct pair));
  if (*out == NULL) return -1;
  const char* at = encoded + sizeof(int32_t);
  for (int32_t i = 0; i < *n; i++) {
    struct pair* pair = &(*out)[i];
    pair->key_size = read_int32(at);
    pair->key = at + sizeof(int32_t);
    pair->value_size = read_int32(pair->key + pair->key_size);
    pair->value = pair->key + pair->key_size + sizeof(int32_t);
    at = pair->value + pair->value_size;
  }
  return 0;
}

/* The exported pair `got` matched against the fixture's pairs not yet
 * used: 0 (and that pair used), or -1 with the difference. */
static int match_pair(struct logical_report* r, const struct pair* got, const struct pair* expected,
                      bool* used, int32_t n) {
  const struct pair* same_key = NULL;
  for (int32_t j = 0; j < n; j++) {
    if (used[j] || !same_bytes(got->key, got->key_size, expected[j].key, expected[j].key_size)) continue;
    if (same_bytes(got->value, got->value_size, expected[j].value, expected[j].value_size)) {
      used[j] = true;
      return 0;
    }
    if (same_key == NULL) same_key = &expected[j];
  }
  if (same_key != NULL) {
    return logical_fail(r, "metadata value of \"%.*s\" is \"%.*s\", fixture has \"%.*s\"", CUT(got->key_size),
                        got->key, CUT(got->value_size), got->value, CUT(same_key->value_size),
                        same_key->value);
  }
  return logical_fail(r, "metadata has a pair \"%.*s\": \"%.*s\" the fixture does not have",
                      CUT(got->key_size), got->key, CUT(got->value_size), got->value);
}

static int compare_pairs(struct logical_report* r, const char* exported, const struct pair* expected,
                         int32_t n) {
  int32_t longest_key = 0, longest_value = 0;
  for (int32_t j = 0; j < n; j++) {
    if (expected[j].key_size > longest_key) longest_key = expected[j].key_size;
    if (expected[j].value_size > longest_value) longest_value = expected[j].value_size;
  }
  bool* used = calloc((size_t)n, sizeof(bool));
  if (used == NULL) return logical_fail(r, "out of memory");
  const char* at = exported + sizeof(int32_t);
  int status = 0;
  for (int32_t i = 0; i < n && status == 0; i++) {
    struct pair got;
    got.key_size = read_int32(at);
    got.key = at + sizeof(int32_t);
    if (got.key_size < 0 || got.key_size > longest_key) {
      status = logical_fail(r, "metadata key %d has length %d, which no key of the fixture has", (int)i,
                            (int)got.key_size);
      break;
    }
    got.value_size = read_int32(got.key + got.key_size);
    got.value = got.key + got.key_size + sizeof(int32_t);
    if (got.value_size < 0 || got.value_size > longest_value) {
      status = logical_fail(r, "metadata value of \"%.*s\" has length %d, which no value of the fixture has",
                            CUT(got.key_size), got.key, (int)got.value_size);
      break;
    }
    status = match_pair(r, &got, expected, used, n);
    at = got.value + got.value_size;
  }
  free(used);
  return status;
}

int arrow_json_compare_metadata_pairs(const char* exported, const struct arrow_json_metadata* expected,
                                      char* err, size_t err_size) {
  size_t size = arrow_json_metadata_size(expected);
  char* encoded = size > 0 ? malloc(size) : NULL;
  if (size > 0 && encoded == NULL) {
    snprintf(err, err_size, "out of memory");
    return -1;
  }
  if (encoded != NULL) arrow_json_metadata_encode(expected, encoded);
  struct logical_report r;
  memset(&r, 0, sizeof(r));
  int status = logical_compare_metadata(&r, exported, encoded);
  free(encoded);
  if (status != 0) snprintf(err, err_size, "%s", r.detail);
  return status;
}

int logical_compare_metadata(struct logical_report* r, const char* exported, const char* expected) {
  struct pair* pairs;
  int32_t n;
  if (decode_expected(expected, &pairs, &n) != 0) return logical_fail(r, "out of memory");
  int32_t n_exported = exported != NULL ? read_int32(exported) : 0;
  int status = 0;
  /* spec: "If omitted, this field MUST be NULL"; an encoding of no pairs
   * is still no pairs. */
  if (n_exported != n) {
    status = logical_fail(r, "metadata has %d pairs, fixture has %d", (int)n_exported, (int)n);
  } else if (n > 0) {
    status = compare_pairs(r, exported, pairs, n);
  }
  free(pairs);
  return status;
}
