/* The fixture reader's helpers, shared by its two halves (arrow_json_read.c
 * for the file and its schema, arrow_json_read_column.c for the columns):
 * errors naming the file, UTF-8 cuts, and integers read exactly. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrow_format/arrow_json_reader.h"

/* Whether `byte` continues a UTF-8 sequence (10xxxxxx). */
bool reader_continues_character(char byte) {
  return ((unsigned char)byte & 0xC0) == 0x80;
}

/* The bytes a UTF-8 sequence starting with `lead` has (1 for anything else). */
static size_t sequence_bytes(char lead) {
  unsigned char b = (unsigned char)lead;
  return b >= 0xF0 && b <= 0xF7 ? 4 : b >= 0xE0 ? (b <= 0xEF ? 3 : 1) : b >= 0xC0 ? 2 : 1;
}

/* Shortens `text` that a cut (a full buffer, a precision) left ending
 * inside a UTF-8 character, so that whole characters go in, whole
 * characters come out. */
void reader_drop_cut_character(char* text) {
  size_t n = strlen(text);
  size_t continuation = 0;
  while (continuation < 3 && continuation < n && reader_continues_character(text[n - 1 - continuation]))
    continuation++;
  if (continuation == n) return;
  size_t lead = n - 1 - continuation;
  if (sequence_bytes(text[lead]) > continuation + 1) text[lead] = '\0';
}

/* How many of the first `limit` bytes of `text` to show without cutting a
 * character. */
int reader_whole_characters(const char* text, size_t limit) {
  size_t n = strnlen(text, limit);
  while (n > 0 && reader_continues_character(text[n])) n--;
  return (int)n;
}

int reader_fail(struct reader* r, const char* fmt, ...) {
  int n = snprintf(r->err, r->err_size, "%s: ", r->path);
  if (n < 0 || (size_t)n >= r->err_size) return -1;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(r->err + n, r->err_size - (size_t)n, fmt, ap);
  va_end(ap);
  /* One line, whatever the names and the text quoted in it hold. */
  for (char* c = r->err; *c != '\0'; c++) {
    if ((unsigned char)*c < 0x20 || *c == 0x7F) *c = ' ';
  }
  reader_drop_cut_character(r->err);
  return -1;
}

/* ---- integers beyond a double's precision ---- */

/* The next number literal of the JSON text at *cursor, strings skipped;
 * NULL when there is none.  A number is what cJSON reads as one: from a
 * '-' or a digit, the run of the characters it copies for strtod. */
static const char* next_number_literal(const char** cursor, size_t* length) {
  const char* c = *cursor;
  while (*c != '\0') {
    if (*c == '"') {
      for (c++; *c != '\0' && *c != '"'; c++) {
        if (*c == '\\' && c[1] != '\0') c++;
      }
      if (*c == '"') c++;
    } else if (*c == '-' || (*c >= '0' && *c <= '9')) {
      const char* start = c;
      while (*c != '\0' && strchr("0123456789+-.eE", *c) != NULL) c++;
      *cursor = c;
      *length = (size_t)(c - start);
      return start;
    } else {
      c++;
    }
  }
  *cursor = c;
  return NULL;
}

/* Whether a literal is an integer (no fraction, no exponent) of 16 digits
 * or more, which a double may round (2^53 has 16). */
static bool long_integer_literal(const char* text, size_t length) {
  size_t digits = 0;
  for (size_t i = 0; i < length; i++) {
    if (text[i] >= '0' && text[i] <= '9') {
      digits++;
    } else if (i != 0 || text[i] != '-') {
      return false;
    }
  }
  return digits >= 16;
}

struct literal_scan {
  struct reader* r;
  const char* cursor; /* the text after the literals matched so far */
  size_t capacity;
  bool lost; /* the text and the tree disagree: keep no literal */
};

/* Pairs the number items under `item`, in document order (cJSON keeps
 * the text's order), with the text's number literals, keeping the long
 * integers'. */
static void pair_literals(struct literal_scan* scan, const cJSON* item) {
  for (; item != NULL && !scan->lost; item = item->next) {
    if (cJSON_IsNumber(item)) {
      size_t length = 0;
      const char* text = next_number_literal(&scan->cursor, &length);
      if (text == NULL) {
        scan->lost = true;
        return;
      }
      if (!long_integer_literal(text, length)) continue;
      char copy[64];
      if (length >= sizeof(copy) || (snprintf(copy, sizeof(copy), "%.*s", (int)length, text),
                                     strtod(copy, NULL) != item->valuedouble)) {
        scan->lost = true; /* not the literal cJSON read there */
        return;
      }
      struct reader* r = scan->r;
      if (r->n_literals == scan->capacity) {
        size_t capacity = scan->capacity == 0 ? 16 : scan->capacity * 2;
        struct reader_literal* grown = realloc(r->literals, capacity * sizeof(*grown));
        if (grown == NULL) {
          scan->lost = true;
          return;
        }
        r->literals = grown;
        scan->capacity = capacity;
      }
      r->literals[r->n_literals++] = (struct reader_literal){item, text, length};
    } else if (item->child != NULL) {
      pair_literals(scan, item->child);
    }
  }
}

static int compare_literals(const void* a, const void* b) {
  uintptr_t x = (uintptr_t)((const struct reader_literal*)a)->item;
  uintptr_t y = (uintptr_t)((const struct reader_literal*)b)->item;
  return x < y ? -1 : x > y;
}

/* Keeps, for `root` parsed from `text`, the literals of its long integers
 * (none when the text has none: one pass over it, no allocation). */
void reader_keep_integer_literals(struct reader* r, const cJSON* root, const char* text) {
  const char* cursor = text;
  size_t length = 0;
  const char* literal;
  bool any = false;
  while (!any && (literal = next_number_literal(&cursor, &length)) != NULL) {
    any = long_integer_literal(literal, length);
  }
  if (!any) return;
  struct literal_scan scan = {r, text, 0, false};
  pair_literals(&scan, root);
  if (scan.lost) {
    /* Numbers are then read as cJSON rounded them, as before. */
    free(r->literals);
    r->literals = NULL;
    r->n_literals = 0;
    return;
  }
  /* The text's long literals may all lie past the root's end (cJSON_Parse
   * stops there): none kept, no table to sort. */
  if (r->n_literals > 1) qsort(r->literals, r->n_literals, sizeof(*r->literals), compare_literals);
}

bool reader_integer_literal(const struct reader* r, const cJSON* item, char* out, size_t size) {
  if (r->n_literals == 0 || !cJSON_IsNumber(item)) return false;
  struct reader_literal key = {item, NULL, 0};
  const struct reader_literal* found =
      bsearch(&key, r->literals, r->n_literals, sizeof(*r->literals), compare_literals);
  if (found == NULL || found->length >= size) return false;
  memcpy(out, found->text, found->length);
  out[found->length] = '\0';
  return true;
}

/* The integer `text` (decimal digits after an optional '-'), exactly;
 * non-negative values up to UINT64_MAX keep their bit pattern (uint64). */
static int parse_integer_text(struct reader* r, const char* text, bool from_number, const char* where,
                              int64_t* out) {
  char* end = NULL;
  errno = 0;
  if (text[0] == '-') {
    long long v = strtoll(text, &end, 10);
    *out = (int64_t)v;
  } else {
    unsigned long long v = strtoull(text, &end, 10);
    *out = (int64_t)v; /* uint64 values keep their bit pattern */
  }
  if (from_number && errno == ERANGE) {
    return reader_fail(r, "%s: %s is outside the 64-bit integer range", where, text);
  }
  if (errno != 0 || end == text || *end != '\0') {
    return reader_fail(r, "%s: \"%s\" is not an integer", where, text);
  }
  return 0;
}

int reader_int64(struct reader* r, const cJSON* item, const char* where, int64_t* out) {
  char literal[64];
  if (reader_integer_literal(r, item, literal, sizeof(literal))) {
    return parse_integer_text(r, literal, true, where, out);
  }
  if (cJSON_IsNumber(item)) {
    double d = item->valuedouble;
    /* Converting a double outside int64's range is undefined: test first.
     * (Larger values are written as strings, as 64-bit ones are.) */
    if (!(d >= -0x1p63 && d < 0x1p63))
      return reader_fail(r, "%s: %g is outside the 64-bit integer range", where, d);
    if (d != (double)(int64_t)d) return reader_fail(r, "%s: %g is not an integer", where, d);
    *out = (int64_t)d;
    return 0;
  }
  if (cJSON_IsString(item)) {
    /* 64-bit values are written as strings to keep their precision. */
    return parse_integer_text(r, item->valuestring, false, where, out);
  }
  return reader_fail(r, "%s: expected an integer", where);
}

const cJSON* reader_require(struct reader* r, const cJSON* object, const char* key, const char* where) {
  const cJSON* item = cJSON_GetObjectItemCaseSensitive(object, key);
  if (item == NULL) reader_fail(r, "%s: missing \"%s\"", where, key);
  return item;
}

const cJSON* reader_require_array(struct reader* r, const cJSON* json, const char* key, int64_t expected,
                                  const char* where) {
  const cJSON* item = reader_require(r, json, key, where);
  if (item == NULL) return NULL;
  if (!cJSON_IsArray(item)) {
    reader_fail(r, "%s: \"%s\" is not an array", where, key);
    return NULL;
  }
  if (expected >= 0 && cJSON_GetArraySize(item) != expected) {
    reader_fail(r, "%s: \"%s\" has %d entries, expected %" PRId64, where, key, cJSON_GetArraySize(item),
                expected);
    return NULL;
  }
  return item;
}
