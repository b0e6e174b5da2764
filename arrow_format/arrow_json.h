/* The fixture model: the Arrow integration JSON format (apache/arrow
 * docs/source/format/Integration.rst), read into a plain in-memory model,
 * and the comparison of Arrow structures against it.
 *
 * Every verdict rests on it, so it stands on its own: the harness judges
 * with it, and the reference pair and the deliberately broken libraries use
 * it to know what to export and what to expect; it depends on none of
 * them.
 *
 * The model is physical: each column holds its buffers already laid out as
 * the C Data Interface exports them (arrow_layout.h says, per type, which
 * buffers and children that is), so an exporter copies buffers and never
 * needs to know a type; only the reader (JSON to buffers) and the
 * comparison (buffers to values) look inside them. */
#ifndef ADC_ARROW_JSON_H
#define ADC_ARROW_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "adc/arrow_c_abi.h"
#include "arrow_format/arrow_layout.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A data type: its row of the type table and the parameters the JSON gave
 * it.  Owned by its field; `format` and `type_ids` are freed with it. */
struct arrow_json_type {
  const struct arrow_type_row* row; /* NULL only in a zeroed type */
  enum arrow_json_kind kind;        /* row->kind, for short */
  enum arrow_layout_id layout;      /* row->layout, for short */
  char* format;                     /* the C Data format string, parameters filled in */
  int value_bytes;                  /* fixed-width values: bytes per row (fixedsizebinary: byteWidth) */
  int bit_width;                    /* integers (and dictionary indices, run ends): 8 to 64 */
  bool is_signed;
  int64_t list_size;    /* fixedsizelist */
  bool map_keys_sorted; /* map: keysSorted */
  int64_t n_type_ids;
  int32_t* type_ids; /* unions: the type id of each child, in order */
};

/* One key/value pair of custom metadata (spec: "ArrowSchema.metadata"). */
struct arrow_json_pair {
  char* key;
  char* value;
  size_t key_size; /* bytes, without the NUL the reader adds */
  size_t value_size;
};

struct arrow_json_metadata {
  int64_t n_pairs;
  struct arrow_json_pair* pairs;
};

struct arrow_json_field {
  char* name;
  bool nullable;
  /* For a dictionary-encoded field, the type of the dictionary values. */
  struct arrow_json_type type;
  int64_t n_children; /* the children of `type` (of the values, when dictionary-encoded) */
  struct arrow_json_field* children;
  struct arrow_json_metadata metadata;

  bool is_dictionary;
  int64_t dictionary_id;
  struct arrow_json_type index_type;
  bool dictionary_ordered;
};

/* `size` bytes of one buffer; `bytes` NULL when the buffer is absent. */
struct arrow_json_buffer {
  uint8_t* bytes;
  int64_t size;
};

/* One column of one batch (or a dictionary's values), laid out as the C
 * Data Interface exports it, from row 0 (offset 0). */
struct arrow_json_column {
  int64_t length;
  int64_t null_count; /* the nulls its own validity says (null type: length; unions, run-end encoded: 0) */
  /* `length` entries, 1 = valid, for a layout with a validity buffer; NULL
   * for one without (null, unions, run-end encoded), whose rows are null
   * (null) or as their children say. */
  uint8_t* validity;
  /* The buffers in the C Data Interface's order for the layout (validity
   * first where there is one, packed, absent when null_count is 0; a
   * binary view's variadic buffers then their sizes). For a
   * dictionary-encoded column: its indices'. */
  int64_t n_buffers;
  struct arrow_json_buffer* buffers;
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
  struct arrow_json_metadata metadata; /* the schema's own */
  int64_t n_batches;
  struct arrow_json_batch* batches;
  int64_t n_dictionaries;
  struct arrow_json_dictionary* dictionaries;
};

/* Read and validate `path`.  Returns 0, or -1 with a one-line reason in `err`. */
int arrow_json_read_file(const char* path, struct arrow_json_file* out, char* err, size_t err_size);
/* The same for `size` bytes of JSON in memory (which need not end in a NUL);
 * errors name the text `name`, as those of a file name its path. */
int arrow_json_read_text(const char* name, const char* text, size_t size, struct arrow_json_file* out,
                         char* err, size_t err_size);
void arrow_json_file_free(struct arrow_json_file* file);
void arrow_json_column_free(struct arrow_json_column* column);

/* The dictionary values of a dictionary-encoded field (NULL if absent). */
const struct arrow_json_column* arrow_json_dictionary_values(const struct arrow_json_file* file,
                                                             const struct arrow_json_field* field);

/* C Data Interface format string of a type ("i", "d:10,2", "+us:5,2,9", ...). */
const char* arrow_json_format(const struct arrow_json_type* type);
/* The type a field's arrays are laid out as: its indices' when
 * dictionary-encoded, its own otherwise. */
const struct arrow_json_type* arrow_json_storage_type(const struct arrow_json_field* field);
/* The schema flags a field exports (ARROW_FLAG_NULLABLE,
 * ARROW_FLAG_DICTIONARY_ORDERED, ARROW_FLAG_MAP_KEYS_SORTED). */
int64_t arrow_json_field_flags(const struct arrow_json_field* field);

/* spec: "ArrowSchema.metadata": an int32 pair count, then per pair an
 * int32 length and the key's bytes, an int32 length and the value's, in
 * native byte order.  The size of that encoding (0 for no pairs: the member
 * is then NULL), and the encoding written to `out` of that size. */
size_t arrow_json_metadata_size(const struct arrow_json_metadata* metadata);
void arrow_json_metadata_encode(const struct arrow_json_metadata* metadata, void* out);

/* Compares `exported` (an "ArrowSchema.metadata" encoding, or NULL) with
 * `expected` as sets of key/value pairs, in any order, as Arrow compares
 * metadata (arrow_logical.h, clause 3; arrow_logical_metadata.c), reading
 * the encoding no further than it could still match.  0, or -1 with the
 * difference in `err`. */
int arrow_json_compare_metadata_pairs(const char* exported, const struct arrow_json_metadata* expected,
                                      char* err, size_t err_size);

/* Stores `value` as element `index` of an integer buffer of `bit_width` bits. */
void arrow_json_store_int(void* data, int bit_width, int64_t index, int64_t value);
/* Reads element `index` of an integer buffer of `bit_width` bits. */
int64_t arrow_json_load_int(const void* data, int bit_width, bool is_signed, int64_t index);
/* The run holding logical position `position` of a run-end encoded array
 * whose run ends are `count` signed integers of `bit_width` bits from
 * element `first` of `run_ends`: the first whose end is above the
 * position (Columnar.rst, "Run-End Encoded Layout"), counted from
 * `first`, found by bisection; -1 when the last run ends at or before it. */
int64_t arrow_json_find_run(const void* run_ends, int bit_width, int64_t first, int64_t count,
                            int64_t position);
/* Whether row `row` of a model column is valid (one without validity:
 * every row is). */
bool arrow_json_row_valid(const struct arrow_json_column* column, int64_t row);
/* Element `index` of buffer `buffer` of a model column, a buffer of
 * signed offsets (or list-view sizes) of `offset_bytes` bytes each. */
int64_t arrow_json_column_offset(const struct arrow_json_column* column, int64_t buffer, int offset_bytes,
                                 int64_t index);

/* Whether any column of any batch (or dictionary) matches a predicate; used
 * by rules to decide which fixtures they apply to. */
bool arrow_json_has_dictionary(const struct arrow_json_file* file);
bool arrow_json_has_nulls(const struct arrow_json_file* file);
/* Whether any row of any column (at any depth) is valid. */
bool arrow_json_has_values(const struct arrow_json_file* file);
/* Whether a batch of a file with columns has rows: its columns can be
 * exported with an offset. */
bool arrow_json_has_rows(const struct arrow_json_file* file);
/* Index of the first top-level int32 field holding at least one row, or -1. */
int64_t arrow_json_first_int32_column(const struct arrow_json_file* file);

/* A deep copy of `column` (of `field`) with `padding` rows put before its
 * own, so that it exports with offset `padding` (spec: "ArrowArray.offset"):
 * the padding rows hold values no fixture uses, so a consumer that ignores
 * the offset reads visibly wrong data.  Returns the padding applied: 0 (a
 * plain copy) where the layout cannot take it, -1 when out of memory. */
int64_t arrow_json_column_pad(const struct arrow_json_file* file, const struct arrow_json_field* field,
                              const struct arrow_json_column* column, int64_t padding,
                              struct arrow_json_column* out);
/* A deep copy of `column`, with `padding` 0 and nothing changed; 0, or -1. */
int arrow_json_column_copy(const struct arrow_json_column* column, struct arrow_json_column* out);
/* Changes one value of one batch so that it no longer equals the
 * fixture's: the first, in column order, of a valid row (a flipped bit of a
 * fixed-width value or boolean, of an ASCII character of a string), nested
 * children included, and for a dictionary-encoded column the dictionary
 * value one of its valid indices points to.  Never an index, an offset or a
 * type id, which would make the array malformed rather than wrong.
 * `columns` are the batch's (of `file`'s fields), `dictionaries` the
 * file's or copies of them in its order; both are changed in place.
 * Returns whether one was changed. */
bool arrow_json_alter_one_value(const struct arrow_json_file* file, struct arrow_json_column* columns,
                                struct arrow_json_dictionary* dictionaries);

/* What a comparison of arrays found first: the same data (0), or a
 * difference of data, of buffer or child counts, or of a dictionary's
 * presence.  A layout difference is found before any buffer is read, so
 * that the rule on layouts judges it and the data rules name that rule. */
enum arrow_json_difference {
  ARROW_JSON_SAME = 0,
  ARROW_JSON_DIFFERENT_DATA = -1,
  ARROW_JSON_DIFFERENT_COUNTS = -2,
  ARROW_JSON_DIFFERENT_DICTIONARY = -3,
  /* A schema whose types (formats, names, children, dictionaries) differ,
   * found while comparing its flags or metadata alone. */
  ARROW_JSON_DIFFERENT_TYPES = -4,
};

/* What a schema comparison looks at; ARROW_JSON_SCHEMA_ALL for all. */
enum arrow_json_schema_aspect {
  ARROW_JSON_SCHEMA_TYPES = 1 << 0,    /* formats, names, children, dictionaries */
  ARROW_JSON_SCHEMA_FLAGS = 1 << 1,    /* nullable, dictionary ordered, map keys sorted */
  ARROW_JSON_SCHEMA_METADATA = 1 << 2, /* custom metadata, as encoded */
  ARROW_JSON_SCHEMA_ALL = 7,
};

/* Compare an exported schema with the file's schema (a struct of the fields).
 * Returns 0, or -1 with the first difference in `err`. */
int arrow_json_compare_schema(const struct arrow_json_file* file, const struct ArrowSchema* schema, char* err,
                              size_t err_size);
/* The same for some aspects alone (enum arrow_json_schema_aspect): 0, -1
 * for a difference of those, or ARROW_JSON_DIFFERENT_TYPES when the types
 * differ while they were not asked (the tree cannot be walked then). */
int arrow_json_compare_schema_aspects(const struct arrow_json_file* file, const struct ArrowSchema* schema,
                                      int aspects, char* err, size_t err_size);

/* Compare an exported batch (a struct array on the CPU) with batch
 * `batch_index`.  Logical comparison: offsets are honoured, null_count may be
 * -1, values under nulls are ignored, values are compared as values where
 * layouts may legitimately differ (views over other variadic buffers, dense
 * unions with their children's rows in another order).  Returns 0, or the
 * kind of the first difference (enum arrow_json_difference) with it in
 * `err`.  The layout of every node is checked before any data are read. */
int arrow_json_compare_batch(const struct arrow_json_file* file, int64_t batch_index,
                             const struct ArrowArray* array, char* err, size_t err_size);

/* The same for one column on its own (used after moving a child out). */
int arrow_json_compare_column(const struct arrow_json_file* file, const struct arrow_json_field* field,
                              const struct arrow_json_column* column, const struct ArrowArray* array,
                              char* err, size_t err_size);

/* The same for a dictionary's values array moved out of its column
 * (`field` is the dictionary-encoded field). */
int arrow_json_compare_values(const struct arrow_json_file* file, const struct arrow_json_field* field,
                              const struct ArrowArray* array, char* err, size_t err_size);

#ifdef __cplusplus
}
#endif

#endif /* ADC_ARROW_JSON_H */
