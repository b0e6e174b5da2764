/* The Arrow integration JSON format (apache/arrow docs/source/format/
 * Integration.rst), read into a plain in-memory model.
 *
 * The model is what both halves of the suite agree on: the reference
 * producer builds Arrow arrays from it, the reference consumer and the
 * harness compare Arrow arrays against it.  It covers the types the fixtures
 * use: signed and unsigned integers of 8 to 64 bits, utf8, struct, and
 * dictionary-encoded columns whose values are integers or utf8. */
#ifndef ADC_ARROW_JSON_H
#define ADC_ARROW_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "adc/arrow_c_abi.h"

#ifdef __cplusplus
extern "C" {
#endif

enum arrow_json_kind { ARROW_JSON_INT, ARROW_JSON_UTF8, ARROW_JSON_STRUCT };

struct arrow_json_type {
  enum arrow_json_kind kind;
  int bit_width; /* ARROW_JSON_INT only */
  bool is_signed;
};

struct arrow_json_field {
  char* name;
  bool nullable;
  /* For a dictionary-encoded field, the type of the dictionary values. */
  struct arrow_json_type type;
  int64_t n_children;
  struct arrow_json_field* children;

  bool is_dictionary;
  int64_t dictionary_id;
  struct arrow_json_type index_type;
  bool dictionary_ordered;
};

/* One column of one batch.  For a dictionary-encoded field, `ints` holds the
 * indices and the values live in the file's dictionary of that id. */
struct arrow_json_column {
  int64_t length;
  uint8_t* validity; /* `length` entries, 1 = valid */
  int64_t* ints;     /* ints and dictionary indices: `length` entries */
  int32_t* offsets;  /* utf8: `length + 1` entries */
  char* bytes;       /* utf8: the concatenated values */
  int64_t n_bytes;
  int64_t n_children;
  struct arrow_json_column* children;
};

struct arrow_json_batch {
  int64_t length;
  struct arrow_json_column* columns; /* one per top-level field */
};

struct arrow_json_dictionary {
  int64_t id;
  struct arrow_json_column values;
};

struct arrow_json_file {
  int64_t n_fields;
  struct arrow_json_field* fields;
  int64_t n_batches;
  struct arrow_json_batch* batches;
  int64_t n_dictionaries;
  struct arrow_json_dictionary* dictionaries;
};

/* Read and validate `path`.  Returns 0, or -1 with a one-line reason in `err`. */
int arrow_json_read_file(const char* path, struct arrow_json_file* out, char* err,
                         size_t err_size);
void arrow_json_file_free(struct arrow_json_file* file);

/* The dictionary values of a dictionary-encoded field (NULL if absent). */
const struct arrow_json_column* arrow_json_dictionary_values(
    const struct arrow_json_file* file, const struct arrow_json_field* field);

/* C Data Interface format string of a type ("i", "u", "+s", ...). */
const char* arrow_json_format(const struct arrow_json_type* type);

/* Whether any column of any batch (or dictionary) matches a predicate; used
 * by rules to decide which fixtures they apply to. */
bool arrow_json_has_dictionary(const struct arrow_json_file* file);
bool arrow_json_has_nulls(const struct arrow_json_file* file);
/* Index of the first top-level int32 field holding at least one row, or -1. */
int64_t arrow_json_first_int32_column(const struct arrow_json_file* file);

/* Compare an exported schema with the file's schema (a struct of the fields).
 * Returns 0, or -1 with the first difference in `err`. */
int arrow_json_compare_schema(const struct arrow_json_file* file,
                              const struct ArrowSchema* schema, char* err, size_t err_size);

/* Compare an exported batch (a struct array on the CPU) with batch
 * `batch_index`.  Logical comparison: offsets are honoured, null_count may be
 * -1, values under nulls are ignored.  Returns 0, or -1 with the first
 * difference in `err`. */
int arrow_json_compare_batch(const struct arrow_json_file* file, int64_t batch_index,
                             const struct ArrowArray* array, char* err, size_t err_size);

/* The same for one column on its own (used after moving a child out). */
int arrow_json_compare_column(const struct arrow_json_file* file,
                              const struct arrow_json_field* field,
                              const struct arrow_json_column* column,
                              const struct ArrowArray* array, char* err, size_t err_size);

/* The same for a dictionary's values array moved out of its column. */
int arrow_json_compare_values(const struct arrow_json_type* type,
                              const struct arrow_json_column* column,
                              const struct ArrowArray* array, char* err, size_t err_size);

#ifdef __cplusplus
}
#endif

#endif /* ADC_ARROW_JSON_H */
