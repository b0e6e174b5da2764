/* A C Data Interface format string read back into its row of the type
 * table (arrow_layout.h) and its parameters: the inverse of
 * arrow_json_format, for the schemas a library exports.
 *
 * spec (CDataInterface.rst, "Data type description -- format strings"):
 * the format is a code ("i", "tsu", "+l"), or a code and parameters after a
 * colon ("d:19,10", "w:42", "tsu:UTC", "+w:4", "+us:0,1").  The codes and
 * the places of their parameters are the type table's `format` templates
 * ("d:{precision},{scale}", "+us:{typeIds}"), so that no second table of
 * types is written: a format is the row whose template it fills. */
#ifndef ADC_ARROW_FORMAT_STRING_H
#define ADC_ARROW_FORMAT_STRING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arrow_format/arrow_layout.h"

#ifdef __cplusplus
extern "C" {
#endif

/* spec (Columnar.rst, "Union Layout"): type ids are 8-bit, 0 to 127. */
#define ARROW_FORMAT_MAX_TYPE_IDS 128

/* One parsed format.  `format` and `timezone` point into the string that
 * was parsed, which must outlive the struct; nothing here is allocated. */
struct arrow_format_type {
  const char* format;               /* the string parsed */
  const struct arrow_type_row* row; /* its row of arrow_type_rows */
  enum arrow_layout_id layout;      /* row->layout, for short */
  int value_bytes;                  /* fixed-width values: bytes per row ("w:N": N) */
  int bit_width;                    /* integers, dates, times...: row->bit_width */
  bool is_signed;
  int32_t precision; /* decimals */
  int32_t scale;
  int64_t list_size;    /* "+w:N" */
  const char* timezone; /* timestamps: the text after the colon (maybe empty), else NULL */
  size_t timezone_size;
  int n_type_ids; /* unions */
  int8_t type_ids[ARROW_FORMAT_MAX_TYPE_IDS];
};

/* Parses `format` into `out`.  0, or -1 when it is NULL or no row's
 * template reads it (an unknown code, a missing or malformed parameter,
 * text left over, a union type id outside 0..127 or given twice). */
int arrow_format_parse(const char* format, struct arrow_format_type* out);

/* Whether two parsed formats name the same type: the same row and the
 * same parameters (a decimal's "d:P,S" and "d:P,S,128" are one type). */
bool arrow_format_same_type(const struct arrow_format_type* a, const struct arrow_format_type* b);

/* Whether the type is an integer ("c" to "L"), as dictionary indices and
 * run ends must be. */
bool arrow_format_is_integer(const struct arrow_format_type* type);

/* The type's name for messages: "int8", "uint32", "float64", else the
 * integration JSON's name ("utf8", "utf8view", "list"), then the format in
 * parentheses: "uint32 (I)".  Returns what snprintf returns. */
int arrow_format_describe(const struct arrow_format_type* type, char* out, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* ADC_ARROW_FORMAT_STRING_H */
