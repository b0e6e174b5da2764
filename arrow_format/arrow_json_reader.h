/* What the two halves of the fixture reader share (arrow_json_reader.c):
 * the schema half (arrow_json_read.c) and the column half
 * (arrow_json_read_column.c) both use these, and neither calls the other
 * but for reader_column. */
#ifndef ARROW_JSON_READER_H
#define ARROW_JSON_READER_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

#include "arrow_format/arrow_json.h"

/* An integer literal of the parsed text that a double may not hold
 * exactly (16 digits or more), kept for the number item cJSON made of it:
 * cJSON keeps numbers as doubles only, and a writer may put 64-bit values
 * in numbers (archery does, for MONTH_DAY_NANO's nanoseconds). */
struct reader_literal {
  const cJSON* item;
  const char* text; /* in the parsed text, `length` bytes */
  size_t length;
};

struct reader {
  const char* path;
  char* err;
  size_t err_size;
  struct reader_literal* literals; /* sorted by item */
  size_t n_literals;
};

/* Writes "<path>: <message>" to the reader's error, on one line; -1. */
int reader_fail(struct reader* r, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* The long integer literal cJSON read as `item` (see reader_literal),
 * NUL-terminated in `out`; false when it has none (or `size` is too small). */
bool reader_integer_literal(const struct reader* r, const cJSON* item, char* out, size_t size);
/* An integer (a JSON number, or a string for 64-bit values); 0 or -1.
 * Numbers are read exactly, whatever their size. */
int reader_int64(struct reader* r, const cJSON* item, const char* where, int64_t* out);
/* The member `key` of `object`, or NULL after an error naming it. */
const cJSON* reader_require(struct reader* r, const cJSON* object, const char* key, const char* where);
/* The array member `key` with `expected` entries (any number when
 * negative), or NULL after an error. */
const cJSON* reader_require_array(struct reader* r, const cJSON* json, const char* key, int64_t expected,
                                  const char* where);
/* Shortens `text` that a cut left ending inside a UTF-8 character. */
void reader_drop_cut_character(char* text);
/* Whether `byte` continues a UTF-8 sequence (10xxxxxx). */
bool reader_continues_character(char byte);
/* How many of the first `limit` bytes of `text` to show without cutting a
 * character. */
int reader_whole_characters(const char* text, size_t limit);
/* Keeps, for `root` parsed from `text`, the literals of its long integers
 * (reader_literal), for reader_int64 and reader_integer_literal. */
void reader_keep_integer_literals(struct reader* r, const cJSON* root, const char* text);

#endif /* ARROW_JSON_READER_H */
