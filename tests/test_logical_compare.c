/* The logical comparison (arrow_format/arrow_logical.h): every bundled
 * fixture equals itself as the reference exports it, and no longer once a
 * value is changed; the same values in another representation (string
 * views, large lists, list views, dictionaries decoded or re-encoded,
 * run-end encoding dropped, batches cut elsewhere, metadata reordered)
 * equal the fixture; other values, types and names do not, with a message
 * naming the column and the row; malformed exports, the string view that
 * crashed the exact comparison among them, are differences, never reads
 * outside what they declare (this test runs under the asan preset too).
 *
 * The exports of other representations are fixtures of their own, written
 * here as integration JSON and exported as views of their model
 * (arrow_format/arrow_json_view.h); a malformed one is such a view edited
 * in place. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrow_format/arrow_json_view.h"
#include "arrow_format/arrow_logical.h"
#include "reference_core.h"
#include "unit_test_support.h"

/* The integration JSON of a test, written as it reads. */
#define JSON(...) #__VA_ARGS__

#define MAX_BATCHES 8

static struct arrow_json_file load_text(const char* text) {
  struct arrow_json_file file;
  char error[512];
  ck_assert_msg(arrow_json_read_text("test", text, strlen(text), &file, error, sizeof(error)) == 0, "%s: %s",
                error, text);
  return file;
}

/* A file of the fields `fields` (their JSON, comma-separated), the
 * dictionaries `dictionaries` and the batches `batches` (JSON arrays). */
static struct arrow_json_file file_of(const char* fields, const char* dictionaries, const char* batches) {
  static char text[16384];
  int n = snprintf(text, sizeof(text), "{\"schema\":{\"fields\":[%s]},\"dictionaries\":%s,\"batches\":%s}",
                   fields, dictionaries, batches);
  ck_assert_int_lt(n, (int)sizeof(text));
  return load_text(text);
}

/* What a library exports in these tests: a file of its own, as views. */
struct exported {
  struct arrow_json_file file;
  struct ArrowSchema schema;
  int64_t n;
  struct ArrowArray arrays[MAX_BATCHES];
  const struct ArrowArray* batches[MAX_BATCHES];
};

static void export_views(struct exported* e) {
  ck_assert_int_eq(arrow_json_view_schema(&e->file, &e->schema), 0);
  ck_assert_int_le(e->file.n_batches, MAX_BATCHES);
  e->n = e->file.n_batches;
  for (int64_t k = 0; k < e->n; k++) {
    ck_assert_int_eq(arrow_json_view_batch(&e->file, k, &e->arrays[k]), 0);
    e->batches[k] = &e->arrays[k];
  }
}

static void export_of(struct exported* e, const char* fields, const char* dictionaries, const char* batches) {
  e->file = file_of(fields, dictionaries, batches);
  export_views(e);
}

static void exported_free(struct exported* e) {
  /* A test may have moved a view's parts around: the arena is the root's. */
  for (int64_t k = 0; k < e->n; k++) e->arrays[k].release(&e->arrays[k]);
  e->schema.release(&e->schema);
  arrow_json_file_free(&e->file);
}

static int compare(const struct arrow_json_file* fixture, const struct exported* e, char* err, size_t size) {
  return arrow_logical_compare_batches(fixture, -1, &e->schema, e->batches, e->n, err, size);
}

/* What a comparison returned (`status`, `err`) is equality where
 * `message` is NULL, else exactly that difference. */
static void expect(int status, const char* err, const char* message) {
  if (message == NULL) {
    ck_assert_msg(status == 0, "%s", err);
  } else {
    ck_assert_int_ne(status, 0);
    ck_assert_str_eq(err, message);
  }
}

/* Whether the fixture's values and the export's compare equal, both ways
 * (each side read by its own schema whichever is the fixture). */
static void assert_same_values(const char* fields, const char* dictionaries, const char* batches,
                               const char* exported_fields, const char* exported_dictionaries,
                               const char* exported_batches) {
  struct arrow_json_file fixture = file_of(fields, dictionaries, batches);
  struct exported e;
  export_of(&e, exported_fields, exported_dictionaries, exported_batches);
  char err[512] = "";
  ck_assert_msg(compare(&fixture, &e, err, sizeof(err)) == 0, "%s", err);
  ck_assert_msg(arrow_logical_compare_schema(&fixture, &e.schema, err, sizeof(err)) == 0, "%s", err);
  struct exported back;
  back.file = fixture;
  export_views(&back);
  ck_assert_msg(compare(&e.file, &back, err, sizeof(err)) == 0, "the other way: %s", err);
  back.file = (struct arrow_json_file){0};
  exported_free(&back);
  exported_free(&e);
  arrow_json_file_free(&fixture);
}

/* Whether the values compare different, with exactly `message`. */
static void assert_values_differ(const char* fields, const char* dictionaries, const char* batches,
                                 const char* exported_fields, const char* exported_batches,
                                 const char* message) {
  struct arrow_json_file fixture = file_of(fields, dictionaries, batches);
  struct exported e;
  export_of(&e, exported_fields, dictionaries, exported_batches);
  char err[512] = "";
  expect(compare(&fixture, &e, err, sizeof(err)), err, message);
  exported_free(&e);
  arrow_json_file_free(&fixture);
}

/* ---- the fields and columns of the tests ---- */

#define INT32 JSON({"name" : "int", "isSigned" : true, "bitWidth" : 32})
#define FIELD(name, type) "{\"name\":\"" name "\",\"nullable\":true,\"type\":" type ",\"children\":[]}"
#define INT32_FIELD(name) FIELD(name, INT32)
#define ONE_BATCH(count, columns) "[{\"count\":" #count ",\"columns\":[" columns "]}]"

/* "hello", null, "", and a string longer than a view holds inline. */
#define STRINGS_UTF8                                                      \
  ONE_BATCH(4, JSON({                                                     \
              "name" : "s",                                               \
              "count" : 4,                                                \
              "VALIDITY" : [ 1, 0, 1, 1 ],                                \
              "OFFSET" : [ 0, 5, 5, 5, 32 ],                              \
              "DATA" : [ "hello", "", "", "a string longer than twelve" ] \
            }))
/* The same as string views, the long one `long_view` into the variadic
 * buffer `buffer` (hexadecimal). */
#define STRING_VIEWS(long_view, buffer)                                          \
  ONE_BATCH(4, JSON({                                                            \
              "name" : "s",                                                      \
              "count" : 4,                                                       \
              "VALIDITY" : [ 1, 0, 1, 1 ],                                       \
              "VIEWS" : [                                                        \
                {"SIZE" : 5, "INLINED" : "hello"}, {"SIZE" : 0, "INLINED" : ""}, \
                {"SIZE" : 0, "INLINED" : ""}, long_view                          \
              ],                                                                 \
              "VARIADIC_DATA_BUFFERS" : [buffer]                                 \
            }))
/* Raw tokens, stringified where they are used (a string would be quoted
 * twice). */
#define LONG_VIEW \
  { "SIZE" : 27, "PREFIX_HEX" : "61207374", "BUFFER_INDEX" : 0, "OFFSET" : 2 }

START_TEST(strings_equal_their_string_views_and_large_strings) {
  assert_same_values(FIELD("s", JSON({"name" : "utf8"})), "[]", STRINGS_UTF8,
                     FIELD("s", JSON({"name" : "utf8view"})), "[]",
                     STRING_VIEWS(LONG_VIEW, "ffff6120737472696e67206c6f6e676572207468616e207477656c7665"));
  assert_same_values(FIELD("s", JSON({"name" : "utf8"})), "[]", STRINGS_UTF8,
                     FIELD("s", JSON({"name" : "largeutf8"})), "[]", STRINGS_UTF8);
}
END_TEST

START_TEST(binaries_equal_their_binary_views) {
  assert_same_values(FIELD("b", JSON({"name" : "binary"})), "[]",
                     ONE_BATCH(3, JSON({
                                 "name" : "b",
                                 "count" : 3,
                                 "VALIDITY" : [ 1, 0, 1 ],
                                 "OFFSET" : [ 0, 2, 2, 15 ],
                                 "DATA" : [ "00FF", "", "0102030405060708090A0B0C0D" ]
                               })),
                     FIELD("b", JSON({"name" : "binaryview"})), "[]",
                     ONE_BATCH(3, JSON({
                                 "name" : "b",
                                 "count" : 3,
                                 "VALIDITY" : [ 1, 0, 1 ],
                                 "VIEWS" : [
                                   {"SIZE" : 2, "INLINED" : "00FF"}, {"SIZE" : 0, "INLINED" : ""},
                                   {"SIZE" : 13, "PREFIX_HEX" : "01020304", "BUFFER_INDEX" : 0, "OFFSET" : 0}
                                 ],
                                 "VARIADIC_DATA_BUFFERS" : ["0102030405060708090A0B0C0D"]
                               })));
}
END_TEST

/* [[1, 2], null, [], [3]] as a list view of the child `data` (3 int32s),
 * in another order: row 0 is its rows 1 and 2, row 3 its row 0. */
#define LIST_VIEW_ROWS(item, data)                                                                        \
  ONE_BATCH(4,                                                                                            \
            "{\"name\":\"l\",\"count\":4,\"VALIDITY\":[1,0,1,1],\"OFFSET\":[1,0,0,0],\"SIZE\":[2,0,0,1]," \
            "\"children\":[{\"name\":\"" item "\",\"count\":3,\"VALIDITY\":[1,1,1],\"DATA\":" data "}]}")
/* [[1, 2], null, [], [3]] */
#define LIST_FIELD(type, item) \
  "{\"name\":\"l\",\"nullable\":true,\"type\":{\"name\":\"" type "\"},\"children\":[" INT32_FIELD(item) "]}"
#define LIST_ROWS(item)                                                                                 \
  ONE_BATCH(4,                                                                                          \
            "{\"name\":\"l\",\"count\":4,\"VALIDITY\":[1,0,1,1],\"OFFSET\":[0,2,2,2,3],\"children\":[{" \
            "\"name\":\"" item "\",\"count\":3,\"VALIDITY\":[1,1,1],\"DATA\":[1,2,3]}]}")

START_TEST(lists_equal_their_large_lists_and_list_views) {
  assert_same_values(LIST_FIELD("list", "item"), "[]", LIST_ROWS("item"), LIST_FIELD("largelist", "item"),
                     "[]", LIST_ROWS("item"));
  /* A list view may order its child's rows as it likes, share them, and
   * name its child otherwise (Schema.fbs: "Name is not required"). */
  assert_same_values(LIST_FIELD("list", "item"), "[]", LIST_ROWS("item"), LIST_FIELD("listview", "element"),
                     "[]", LIST_VIEW_ROWS("element", "[3,1,2]"));
}
END_TEST

/* "red", "blue", null, "green": a dictionary of int8 indices. */
#define COLOURS_FIELD(bits, sign)                                                                            \
  "{\"name\":\"d\",\"nullable\":true,\"type\":{\"name\":\"utf8\"},\"children\":[],\"dictionary\":{\"id\":0," \
  "\"indexType\":{\"name\":\"int\",\"isSigned\":" #sign ",\"bitWidth\":" #bits "},\"isOrdered\":false}}"
#define COLOURS(values, offsets)                                                                        \
  "[{\"id\":0,\"data\":{\"count\":3,\"columns\":[{\"name\":\"DICT0\",\"count\":3,\"VALIDITY\":[1,1,1]," \
  "\"OFFSET\":" offsets ",\"DATA\":" values "}]}}]"
#define RED_GREEN_BLUE COLOURS(JSON([ "red", "green", "blue" ]), JSON([ 0, 3, 8, 12 ]))
#define COLOUR_ROWS(indices) \
  ONE_BATCH(4, "{\"name\":\"d\",\"count\":4,\"VALIDITY\":[1,1,0,1],\"DATA\":" indices "}")

/* COLOUR_ROWS("[0,2,0,1]") of RED_GREEN_BLUE, decoded: a utf8 column. */
#define DECODED_COLOUR_ROWS                                                               \
  ONE_BATCH(4,                                                                            \
            "{\"name\":\"d\",\"count\":4,\"VALIDITY\":[1,1,0,1],\"OFFSET\":[0,3,7,7,12]," \
            "\"DATA\":[\"red\",\"blue\",\"\",\"green\"]}")

START_TEST(dictionaries_equal_their_values_whatever_the_indices) {
  /* Decoded. */
  assert_same_values(COLOURS_FIELD(8, true), RED_GREEN_BLUE, COLOUR_ROWS("[0,2,0,1]"),
                     FIELD("d", JSON({"name" : "utf8"})), "[]", DECODED_COLOUR_ROWS);
  /* uint32 indices into the values in another order. */
  assert_same_values(
      COLOURS_FIELD(8, true), RED_GREEN_BLUE, COLOUR_ROWS("[0,2,0,1]"), COLOURS_FIELD(32, false),
      COLOURS(JSON([ "blue", "green", "red" ]), JSON([ 0, 4, 9, 12 ])), COLOUR_ROWS("[2,0,1,1]"));
}
END_TEST

START_TEST(plain_columns_equal_their_dictionary_encoding) {
  assert_same_values(
      INT32_FIELD("d"), "[]",
      ONE_BATCH(4, JSON({"name" : "d", "count" : 4, "VALIDITY" : [ 1, 1, 0, 1 ], "DATA" : [ 7, 42, 0, 7 ]})),
      "{\"name\":\"d\",\"nullable\":true,\"type\":" INT32
      ",\"children\":[],\"dictionary\":{\"id\":3,\"indexType\":{\"name\":\"int\",\"isSigned\":true,"
      "\"bitWidth\":16},"
      "\"isOrdered\":false}}",
      JSON([ {
        "id" : 3,
        "data" : {
          "count" : 2,
          "columns" : [ {"name" : "DICT3", "count" : 2, "VALIDITY" : [ 1, 1 ], "DATA" : [ 42, 7 ]} ]
        }
      } ]),
      COLOUR_ROWS("[1,0,0,1]"));
}
END_TEST

/* 7, 7, null, 9, 9 as runs of int32 values with `bits`-bit run ends. */
#define RUNS_FIELD(bits)                                                                                   \
  "{\"name\":\"r\",\"nullable\":true,\"type\":{\"name\":\"runendencoded\"},\"children\":[{\"name\":\"run_" \
  "ends\","                                                                                                \
  "\"nullable\":false,\"type\":{\"name\":\"int\",\"isSigned\":true,\"bitWidth\":" #bits                    \
  "},\"children\":[]}," INT32_FIELD("values") "]}"
#define RUNS                                                                                        \
  ONE_BATCH(5, JSON({                                                                               \
              "name" : "r",                                                                         \
              "count" : 5,                                                                          \
              "children" : [                                                                        \
                {"name" : "run_ends", "count" : 3, "VALIDITY" : [ 1, 1, 1 ], "DATA" : [ 2, 3, 5 ]}, \
                {"name" : "values", "count" : 3, "VALIDITY" : [ 1, 0, 1 ], "DATA" : [ 7, 0, 9 ]}    \
              ]                                                                                     \
            }))
#define PLAIN_RUNS \
  ONE_BATCH(5, JSON({"name" : "r", "count" : 5, "VALIDITY" : [ 1, 1, 0, 1, 1 ], "DATA" : [ 7, 7, 0, 9, 9 ]}))

START_TEST(run_end_encoded_columns_equal_their_values) {
  assert_same_values(RUNS_FIELD(16), "[]", RUNS, INT32_FIELD("r"), "[]", PLAIN_RUNS);
  assert_same_values(RUNS_FIELD(16), "[]", RUNS, RUNS_FIELD(64), "[]", RUNS);
}
END_TEST

/* A map {"a": 1}, {"b": 2}, its entries, key and value named `entries`,
 * `key` and `value`, the second value `second`. */
#define MAP_FIELD(entries, key, value)                                                                 \
  "{\"name\":\"m\",\"nullable\":true,\"type\":{\"name\":\"map\",\"keysSorted\":false},\"children\":[{" \
  "\"name\":\"" entries                                                                                \
  "\",\"nullable\":false,\"type\":{\"name\":\"struct\"},\"children\":[{\"name\":\"" key                \
  "\",\"nullable\":false,\"type\":{\"name\":\"utf8\"},\"children\":[]}," INT32_FIELD(value) "]}]}"
#define MAP_ROWS(entries, key, value, second)                                                                \
  ONE_BATCH(                                                                                                 \
      2,                                                                                                     \
      "{\"name\":\"m\",\"count\":2,\"VALIDITY\":[1,1],\"OFFSET\":[0,1,2],\"children\":[{\"name\":\"" entries \
      "\",\"count\":2,\"VALIDITY\":[1,1],\"children\":[{\"name\":\"" key                                     \
      "\",\"count\":2,\"VALIDITY\":[1,1],\"OFFSET\":[0,1,2],\"DATA\":[\"a\",\"b\"]},{\"name\":\"" value      \
      "\",\"count\":2,\"VALIDITY\":[1,1],\"DATA\":[1," #second "]}]}]}")

/* Schema.fbs: a map's entries, key and value names "may be" those, "but
 * this is not enforced". */
START_TEST(map_entry_names_do_not_count) {
  assert_same_values(MAP_FIELD("entries", "key", "value"), "[]", MAP_ROWS("entries", "key", "value", 2),
                     MAP_FIELD("items", "k", "v"), "[]", MAP_ROWS("items", "k", "v", 2));
  assert_values_differ(MAP_FIELD("entries", "key", "value"), "[]", MAP_ROWS("entries", "key", "value", 2),
                       MAP_FIELD("items", "k", "v"), MAP_ROWS("items", "k", "v", 3),
                       "column 'm' > entry 0 > child 'value': value at row 1 is 3, fixture has 2");
}
END_TEST

/* Two columns, seven rows: the values of the batch tests. */
#define TWO_FIELDS INT32_FIELD("a") "," FIELD("s", JSON({"name" : "utf8"}))
#define A_BATCH(count, validity, data, offsets, strings)                                                   \
  "{\"count\":" #count ",\"columns\":[{\"name\":\"a\",\"count\":" #count ",\"VALIDITY\":" validity         \
  ",\"DATA\":" data "},{\"name\":\"s\",\"count\":" #count ",\"VALIDITY\":" validity ",\"OFFSET\":" offsets \
  ",\"DATA\":" strings "}]}"
#define SEVEN_ROWS                                                          \
  "[" A_BATCH(7, "[1,1,1,1,0,1,1]", "[1,2,3,4,0,6,7]", "[0,1,2,3,4,4,5,6]", \
              "[\"a\",\"b\",\"c\",\"d\",\"\",\"f\",\"g\"]") "]"
#define SEVEN_IN_THREE(sixth)                                                                           \
  "[" A_BATCH(3, "[1,1,1]", "[1,2,3]", "[0,1,2,3]", "[\"a\",\"b\",\"c\"]") "," A_BATCH(                 \
      0, "[]", "[]", "[0]", "[]") "," A_BATCH(2, "[1,0]", "[4,0]", "[0,1,1]",                           \
                                              "[\"d\",\"\"]") "," A_BATCH(2, "[1,1]", "[" #sixth ",7]", \
                                                                          "[0,1,2]", "[\"f\",\"g\"]") "]"

START_TEST(batch_boundaries_do_not_matter) {
  /* One fixture batch of seven rows exported as three (and an empty one). */
  assert_same_values(TWO_FIELDS, "[]", SEVEN_ROWS, TWO_FIELDS, "[]", SEVEN_IN_THREE(6));
  /* Rows are counted over the whole concatenation. */
  assert_values_differ(TWO_FIELDS, "[]", SEVEN_ROWS, TWO_FIELDS, SEVEN_IN_THREE(60),
                       "column 'a': value at row 5 is 60, fixture has 6");
  /* One fixture batch compared alone, or every batch. */
  struct arrow_json_file fixture = file_of(TWO_FIELDS, "[]", SEVEN_IN_THREE(6));
  struct exported e;
  export_of(&e, TWO_FIELDS, "[]", SEVEN_ROWS);
  char err[512] = "";
  ck_assert_msg(compare(&fixture, &e, err, sizeof(err)) == 0, "%s", err);
  ck_assert_int_ne(arrow_logical_compare_batches(&fixture, 0, &e.schema, e.batches, e.n, err, sizeof(err)),
                   0);
  ck_assert_str_eq(err, "column 'a': row 3 is extra: the export has 7 rows, fixture has 3");
  ck_assert_int_eq(arrow_logical_compare_batches(&fixture, 9, &e.schema, e.batches, e.n, err, sizeof(err)),
                   -1);
  ck_assert_str_eq(err, "the fixture has no batch 9");
  exported_free(&e);
  arrow_json_file_free(&fixture);
}
END_TEST

/* spec ("ArrowArray.offset"): a record batch's offset applies to its
 * columns' rows, each column's own offset to its rows again. */
START_TEST(offsets_are_honoured_at_every_level) {
  struct arrow_json_file fixture = file_of(TWO_FIELDS, "[]", SEVEN_ROWS);
  struct exported e;
  export_of(&e, TWO_FIELDS, "[]",
            ONE_BATCH(9, JSON({
                        "name" : "a",
                        "count" : 9,
                        "VALIDITY" : [ 1, 1, 1, 1, 1, 1, 0, 1, 1 ],
                        "DATA" : [ 0, 0, 1, 2, 3, 4, 0, 6, 7 ]
                      },
                              {
                                "name" : "s",
                                "count" : 9,
                                "VALIDITY" : [ 1, 1, 1, 1, 1, 0, 1, 1, 1 ],
                                "OFFSET" : [ 0, 1, 2, 3, 4, 5, 5, 6, 7, 8 ],
                                "DATA" : [ "x", "a", "b", "c", "d", "", "f", "g", "z" ]
                              })));
  char err[512] = "";
  ck_assert_int_ne(compare(&fixture, &e, err, sizeof(err)), 0);
  e.arrays[0].offset = 1;
  e.arrays[0].length = 7;
  e.arrays[0].children[0]->offset = 1; /* the batch's offset, then its own */
  e.arrays[0].children[0]->length = 8;
  e.arrays[0].children[0]->null_count = -1;
  e.arrays[0].children[1]->length = 8; /* its rows 1 to 8 */
  ck_assert_msg(compare(&fixture, &e, err, sizeof(err)) == 0, "%s", err);
  e.arrays[0].children[0]->offset = 0;
  ck_assert_int_ne(compare(&fixture, &e, err, sizeof(err)), 0);
  ck_assert_str_eq(err, "column 'a': value at row 0 is 0, fixture has 1");
  exported_free(&e);
  arrow_json_file_free(&fixture);
}
END_TEST

/* ---- what differs ---- */

#define THREE_INTS(validity, data) \
  ONE_BATCH(3, "{\"name\":\"a\",\"count\":3,\"VALIDITY\":" validity ",\"DATA\":" data "}")

START_TEST(other_values_differ_naming_column_and_row) {
  const char* fixture = THREE_INTS("[1,0,1]", "[1,0,3]");
  assert_values_differ(INT32_FIELD("a"), "[]", fixture, INT32_FIELD("a"), THREE_INTS("[1,0,1]", "[1,0,5]"),
                       "column 'a': value at row 2 is 5, fixture has 3");
  assert_values_differ(INT32_FIELD("a"), "[]", fixture, INT32_FIELD("a"), THREE_INTS("[1,1,1]", "[1,2,3]"),
                       "column 'a': row 1 is valid, fixture has it null");
  assert_values_differ(
      INT32_FIELD("a"), "[]", fixture, INT32_FIELD("a"),
      ONE_BATCH(2, JSON({"name" : "a", "count" : 2, "VALIDITY" : [ 1, 0 ], "DATA" : [ 1, 0 ]})),
      "column 'a': row 2 is missing: the export has 2 rows, fixture has 3");
  assert_values_differ(
      INT32_FIELD("a"), "[]", fixture, INT32_FIELD("a"),
      ONE_BATCH(4, JSON({"name" : "a", "count" : 4, "VALIDITY" : [ 1, 0, 1, 1 ], "DATA" : [ 1, 0, 3, 4 ]})),
      "column 'a': row 3 is extra: the export has 4 rows, fixture has 3");
  /* Across representations, read by each side's own type. */
  assert_values_differ(
      FIELD("s", JSON({"name" : "utf8"})), "[]", STRINGS_UTF8, FIELD("s", JSON({"name" : "utf8view"})),
      STRING_VIEWS(LONG_VIEW, "ffff6120737472696e67206c6f6e676572207468616e207477656c7666"),
      "column 's': value at row 3 is \"a string longer than twelvf\" (27 bytes), fixture has \"a "
      "string longer than twelve\"");
  assert_values_differ(LIST_FIELD("list", "item"), "[]", LIST_ROWS("item"), LIST_FIELD("listview", "item"),
                       LIST_VIEW_ROWS("item", "[3,1,5]"),
                       "column 'l' > item 1: value at row 0 is 5, fixture has 2");
  assert_values_differ(
      RUNS_FIELD(16), "[]", RUNS, INT32_FIELD("r"),
      ONE_BATCH(
          5, JSON({"name" : "r", "count" : 5, "VALIDITY" : [ 1, 1, 0, 1, 1 ], "DATA" : [ 7, 7, 0, 9, 8 ]})),
      "column 'r': value at row 4 is 8, fixture has 9");
  assert_values_differ(COLOURS_FIELD(8, true), RED_GREEN_BLUE, COLOUR_ROWS("[0,2,0,1]"),
                       COLOURS_FIELD(8, true), COLOUR_ROWS("[0,2,0,2]"),
                       "column 'd': value at row 3 is \"blue\" (4 bytes), fixture has \"green\"");
}
END_TEST

/* A null is a null whatever its slot holds. */
START_TEST(values_under_nulls_do_not_count) {
  assert_same_values(INT32_FIELD("a"), "[]", THREE_INTS("[1,0,1]", "[1,0,3]"), INT32_FIELD("a"), "[]",
                     THREE_INTS("[1,0,1]", "[1,99,3]"));
  assert_same_values(FIELD("s", JSON({"name" : "utf8"})), "[]", STRINGS_UTF8,
                     FIELD("s", JSON({"name" : "utf8"})), "[]",
                     ONE_BATCH(4, JSON({
                                 "name" : "s",
                                 "count" : 4,
                                 "VALIDITY" : [ 1, 0, 1, 1 ],
                                 "OFFSET" : [ 0, 5, 8, 8, 35 ],
                                 "DATA" : [ "hello", "xyz", "", "a string longer than twelve" ]
                               })));
}
END_TEST

/* Whether the schemas differ with exactly `message`, and the batches
 * with `batch_message` (NULL: their values are equal). */
static void assert_schema_differs(const char* fields, const char* batches, const char* exported_fields,
                                  const char* exported_batches, const char* message,
                                  const char* batch_message) {
  struct arrow_json_file fixture = file_of(fields, "[]", batches);
  struct exported e;
  export_of(&e, exported_fields, "[]", exported_batches);
  char err[512] = "";
  expect(arrow_logical_compare_schema(&fixture, &e.schema, err, sizeof(err)), err, message);
  expect(compare(&fixture, &e, err, sizeof(err)), err, batch_message);
  exported_free(&e);
  arrow_json_file_free(&fixture);
}

#define STRUCT_FIELD(first, first_type, second, second_type)                               \
  "{\"name\":\"t\",\"nullable\":true,\"type\":{\"name\":\"struct\"},\"children\":[" FIELD( \
      first, first_type) "," FIELD(second, second_type) "]}"
#define STRUCT_ROWS(first, first_data, second, second_data)                                      \
  ONE_BATCH(2, "{\"name\":\"t\",\"count\":2,\"VALIDITY\":[1,1],\"children\":[{\"name\":\"" first \
               "\",\"count\":2,\"VALIDITY\":[1,1],\"DATA\":" first_data "},{\"name\":\"" second  \
               "\",\"count\":2,\"VALIDITY\":[1,1],\"DATA\":" second_data "}]}")
#define TIMESTAMP(unit, zone) "{\"name\":\"timestamp\",\"unit\":\"" unit "\"" zone "}"
#define TIMES ONE_BATCH(1, JSON({"name" : "a", "count" : 1, "VALIDITY" : [1], "DATA" : [1000]}))

START_TEST(other_types_and_names_differ) {
  const char* ints = THREE_INTS("[1,0,1]", "[1,0,3]");
  assert_schema_differs(INT32_FIELD("a"), ints,
                        FIELD("a", JSON({"name" : "int", "isSigned" : true, "bitWidth" : 64})), ints,
                        "column 'a': type is int64 (l), fixture has int32 (i)",
                        "column 'a': type is int64 (l), fixture has int32 (i)");
  assert_schema_differs(FIELD("a", TIMESTAMP("MILLISECOND", "")), TIMES,
                        FIELD("a", TIMESTAMP("MICROSECOND", "")), TIMES,
                        "column 'a': type is timestamp (tsu:), fixture has timestamp (tsm:)",
                        "column 'a': type is timestamp (tsu:), fixture has timestamp (tsm:)");
  assert_schema_differs(FIELD("a", TIMESTAMP("MILLISECOND", "")), TIMES,
                        FIELD("a", TIMESTAMP("MILLISECOND", ",\"timezone\":\"UTC\"")), TIMES,
                        "column 'a': type is timestamp (tsm:UTC), fixture has timestamp (tsm:)",
                        "column 'a': type is timestamp (tsm:UTC), fixture has timestamp (tsm:)");
  /* Names are the schema's: the batches' values are still equal. */
  assert_schema_differs(INT32_FIELD("a"), ints, INT32_FIELD("b"), THREE_INTS("[1,0,1]", "[1,0,3]"),
                        "column 'a': name is \"b\", fixture has \"a\"", NULL);
  /* A struct's children reordered. */
  assert_schema_differs(STRUCT_FIELD("x", INT32, "y", JSON({"name" : "utf8"})),
                        STRUCT_ROWS("x", "[1,2]", "y", "[\"p\",\"q\"],\"OFFSET\":[0,1,2]"),
                        STRUCT_FIELD("y", JSON({"name" : "utf8"}), "x", INT32),
                        STRUCT_ROWS("y", "[\"p\",\"q\"],\"OFFSET\":[0,1,2]", "x", "[1,2]"),
                        "column 't' > child 'x': name is \"y\", fixture has \"x\"",
                        "column 't' > child 'x': type is utf8 (u), fixture has int32 (i)");
  assert_schema_differs(STRUCT_FIELD("x", INT32, "y", INT32), STRUCT_ROWS("x", "[1,2]", "y", "[10,20]"),
                        STRUCT_FIELD("y", INT32, "x", INT32), STRUCT_ROWS("y", "[10,20]", "x", "[1,2]"),
                        "column 't' > child 'x': name is \"y\", fixture has \"x\"",
                        "column 't' > child 'x': value at row 0 is 10, fixture has 1");
  assert_schema_differs(FIELD("s", JSON({"name" : "utf8"})), STRINGS_UTF8,
                        FIELD("s", JSON({"name" : "binary"})), ONE_BATCH(4, JSON({
                                                                           "name" : "s",
                                                                           "count" : 4,
                                                                           "VALIDITY" : [ 1, 0, 1, 1 ],
                                                                           "OFFSET" : [ 0, 1, 1, 1, 2 ],
                                                                           "DATA" : [ "AA", "", "", "BB" ]
                                                                         })),
                        "column 's': type is binary (z), fixture has utf8 (u)",
                        "column 's': type is binary (z), fixture has utf8 (u)");
}
END_TEST

/* spec: "d:19,10" is a decimal128; "d:19,10,NNN" gives the width: an
 * explicit 128 is the same type, another precision or scale is not. */
START_TEST(formats_are_read_with_their_parameters) {
  const char* decimal = FIELD("a", JSON({"name" : "decimal", "precision" : 10, "scale" : 2}));
  const char* rows = ONE_BATCH(1, JSON({"name" : "a", "count" : 1, "VALIDITY" : [1], "DATA" : ["12345"]}));
  struct arrow_json_file fixture = file_of(decimal, "[]", rows);
  struct exported e;
  export_of(&e, decimal, "[]", rows);
  char err[512] = "";
  e.schema.children[0]->format = "d:10,2,128";
  ck_assert_msg(arrow_logical_compare_schema(&fixture, &e.schema, err, sizeof(err)) == 0, "%s", err);
  ck_assert_msg(compare(&fixture, &e, err, sizeof(err)) == 0, "%s", err);
  e.schema.children[0]->format = "d:10,3";
  ck_assert_int_ne(arrow_logical_compare_schema(&fixture, &e.schema, err, sizeof(err)), 0);
  ck_assert_str_eq(err, "column 'a': type is decimal (d:10,3), fixture has decimal (d:10,2)");
  e.schema.children[0]->format = "d:10,2,256";
  ck_assert_int_ne(compare(&fixture, &e, err, sizeof(err)), 0);
  ck_assert_str_eq(err, "column 'a': type is decimal (d:10,2,256), fixture has decimal (d:10,2)");
  e.schema.children[0]->format = "d:10";
  ck_assert_int_ne(compare(&fixture, &e, err, sizeof(err)), 0);
  ck_assert_str_eq(err, "column 'a': format \"d:10\" is not a format of the C Data Interface");
  e.schema.children[0]->format = NULL;
  ck_assert_int_ne(compare(&fixture, &e, err, sizeof(err)), 0);
  ck_assert_str_eq(err, "column 'a': format \"(null)\" is not a format of the C Data Interface");
  e.schema.children[0]->format = "+s";
  ck_assert_int_ne(compare(&fixture, &e, err, sizeof(err)), 0);
  ck_assert_str_eq(err, "column 'a': type is struct (+s), fixture has decimal (d:10,2)");
  e.schema.format = "+l";
  ck_assert_int_ne(compare(&fixture, &e, err, sizeof(err)), 0);
  ck_assert_str_eq(err, "top-level format is \"+l\", a record batch is \"+s\"");
  exported_free(&e);
  arrow_json_file_free(&fixture);
}
END_TEST

/* ---- metadata ---- */

/* A file whose schema and column 'a' have the given metadata pairs. */
static struct arrow_json_file with_metadata(const char* schema_pairs, const char* field_pairs) {
  char text[2048];
  snprintf(text, sizeof(text),
           "{\"schema\":{\"fields\":[{\"name\":\"a\",\"nullable\":true,\"type\":" INT32
           ",\"children\":[],\"metadata\":%s}],\"metadata\":%s},\"batches\":[]}",
           field_pairs, schema_pairs);
  return load_text(text);
}

#define PAIR(key, value) "{\"key\":\"" key "\",\"value\":\"" value "\"}"

/* The schema differs from the fixture's with exactly `message` (NULL:
 * equal). */
static void assert_metadata(const struct arrow_json_file* fixture, const char* schema_pairs,
                            const char* field_pairs, const char* message) {
  struct exported e;
  e.file = with_metadata(schema_pairs, field_pairs);
  export_views(&e);
  char err[512] = "";
  expect(arrow_logical_compare_schema(fixture, &e.schema, err, sizeof(err)), err, message);
  exported_free(&e);
}

START_TEST(metadata_is_a_set_of_pairs) {
  struct arrow_json_file fixture =
      with_metadata("[" PAIR("origin", "test") "]", "[" PAIR("k1", "v1") "," PAIR("k2", "v2") "]");
  assert_metadata(&fixture, "[" PAIR("origin", "test") "]", "[" PAIR("k2", "v2") "," PAIR("k1", "v1") "]",
                  NULL);
  /* The exact comparison takes the pairs as a set too (one definition:
   * arrow_json_compare_metadata_pairs), and still sees a changed value. */
  struct exported e;
  e.file = with_metadata("[" PAIR("origin", "test") "]", "[" PAIR("k2", "v2") "," PAIR("k1", "v1") "]");
  export_views(&e);
  char err[512];
  ck_assert_int_eq(arrow_json_compare_schema(&fixture, &e.schema, err, sizeof(err)), 0);
  exported_free(&e);
  e.file = with_metadata("[" PAIR("origin", "test") "]", "[" PAIR("k2", "v2") "," PAIR("k1", "v0") "]");
  export_views(&e);
  ck_assert_int_ne(arrow_json_compare_schema(&fixture, &e.schema, err, sizeof(err)), 0);
  ck_assert_str_eq(err, "field 'a': metadata value of \"k1\" is \"v0\", fixture has \"v1\"");
  exported_free(&e);
  assert_metadata(&fixture, "[" PAIR("origin", "test") "]", "[" PAIR("k2", "v3") "," PAIR("k1", "v1") "]",
                  "column 'a': metadata value of \"k2\" is \"v3\", fixture has \"v2\"");
  assert_metadata(&fixture, "[" PAIR("origin", "test") "]",
                  "[" PAIR("k2", "v2") "," PAIR("k1", "v1") "," PAIR("k3", "v3") "]",
                  "column 'a': metadata has 3 pairs, fixture has 2");
  assert_metadata(&fixture, "[" PAIR("origin", "test") "]", "[" PAIR("k2", "v2") "," PAIR("k0", "v1") "]",
                  "column 'a': metadata has a pair \"k0\": \"v1\" the fixture does not have");
  assert_metadata(&fixture, "[" PAIR("origin", "test") "]", "[]",
                  "column 'a': metadata has 0 pairs, fixture has 2");
  assert_metadata(&fixture, "[" PAIR("origin", "tests") "]", "[" PAIR("k1", "v1") "," PAIR("k2", "v2") "]",
                  "schema: metadata value of \"origin\" has length 5, which no value of the fixture has");
  /* The same pair twice is not the two pairs. */
  assert_metadata(&fixture, "[" PAIR("origin", "test") "]", "[" PAIR("k1", "v1") "," PAIR("k1", "v1") "]",
                  "column 'a': metadata has a pair \"k1\": \"v1\" the fixture does not have");
  arrow_json_file_free(&fixture);
}
END_TEST

/* ---- the string view that crashed the exact comparison ---- */

/* polars exports strings as string views; where every value is inline it
 * exports no variadic buffer: 3 buffers, as many as a string array has.
 * Read by the fixture's type (utf8), its 16-byte views were read as int32
 * offsets and the comparison read far outside the data (SIGSEGV in
 * compare_binary).  Read by its own schema ("vu"), it is views. */
START_TEST(string_views_without_variadic_buffers_are_read_as_views) {
  const char* strings = ONE_BATCH(4, JSON({
                                    "name" : "s",
                                    "count" : 4,
                                    "VALIDITY" : [ 1, 1, 0, 1 ],
                                    "OFFSET" : [ 0, 5, 5, 5, 11 ],
                                    "DATA" : [ "hello", "", "", "polars" ]
                                  }));
  struct arrow_json_file fixture = file_of(FIELD("s", JSON({"name" : "utf8"})), "[]", strings);
  struct exported e;
  export_of(&e, FIELD("s", JSON({"name" : "utf8view"})), "[]",
            ONE_BATCH(4, JSON({
                        "name" : "s",
                        "count" : 4,
                        "VALIDITY" : [ 1, 1, 0, 1 ],
                        "VIEWS" : [
                          {"SIZE" : 5, "INLINED" : "hello"}, {"SIZE" : 0, "INLINED" : ""},
                          {"SIZE" : 0, "INLINED" : ""}, {"SIZE" : 6, "INLINED" : "polars"}
                        ],
                        "VARIADIC_DATA_BUFFERS" : []
                      })));
  const struct ArrowArray* column = e.arrays[0].children[0];
  ck_assert_int_eq(column->n_buffers, 3);
  /* What a reader by the fixture's type takes for the second offset: the
   * bytes "hell", far past the 11 bytes of data. */
  ck_assert_int_gt(((const int32_t*)column->buffers[1])[1], 1 << 20);
  char err[512] = "";
  ck_assert_msg(compare(&fixture, &e, err, sizeof(err)) == 0, "%s", err);
  uint8_t* views = e.file.batches[0].columns[0].buffers[1].bytes;
  views[16 * 3 + 9] = 'z';
  ck_assert_int_ne(compare(&fixture, &e, err, sizeof(err)), 0);
  ck_assert_str_eq(err, "column 's': value at row 3 is \"polarz\" (6 bytes), fixture has \"polars\"");
  /* A view longer than 12 bytes where there is no variadic buffer. */
  int32_t size = 20, index = 0;
  memcpy(views + 16 * 3, &size, 4);
  memcpy(views + 16 * 3 + 8, &index, 4);
  ck_assert_int_ne(compare(&fixture, &e, err, sizeof(err)), 0);
  ck_assert_str_eq(err, "column 's': view at row 3 names variadic buffer 0 of 0");
  exported_free(&e);
  arrow_json_file_free(&fixture);
}
END_TEST

/* ---- malformed exports ---- */

/* Compares and expects exactly `message`. */
static void assert_export_differs(const struct arrow_json_file* fixture, const struct exported* e,
                                  const char* message) {
  char err[512] = "";
  expect(compare(fixture, e, err, sizeof(err)), err, message);
}

START_TEST(malformed_exports_are_differences_not_crashes) {
  struct arrow_json_file fixture = file_of(TWO_FIELDS, "[]", SEVEN_ROWS);
  struct exported e;
  export_of(&e, TWO_FIELDS, "[]", SEVEN_ROWS);
  struct ArrowArray* batch = &e.arrays[0];
  struct ArrowArray* a = batch->children[0];
  struct ArrowArray* s = batch->children[1];
  a->n_buffers = 3;
  assert_export_differs(&fixture, &e,
                        "exported batch 0: column 'a': n_buffers is 3, a fixed-width array (\"i\") has 2");
  a->n_buffers = 2;
  batch->children[1] = NULL;
  assert_export_differs(&fixture, &e, "exported batch 0: children[1] is NULL");
  batch->children[1] = s;
  struct ArrowArray** children = batch->children;
  batch->children = NULL;
  assert_export_differs(&fixture, &e, "exported batch 0: children is NULL");
  batch->children = children;
  a->null_count = 5;
  assert_export_differs(&fixture, &e,
                        "exported batch 0: column 'a': null_count is 5 but the validity bitmap has 1 nulls");
  a->null_count = -1;
  const void* data = s->buffers[2];
  s->buffers[2] = NULL;
  assert_export_differs(&fixture, &e, "column 's': row 0: the data buffer (buffers[2]) is NULL");
  s->buffers[2] = data;
  batch->offset = 3;
  assert_export_differs(&fixture, &e,
                        "column 'a': row 0 reaches past the end of an array of 7 rows (rows 3 to 9)");
  batch->offset = 0;
  void (*release)(struct ArrowArray*) = a->release;
  a->release = NULL;
  assert_export_differs(&fixture, &e, "exported batch 0: column 'a': array is released (release is NULL)");
  a->release = release;
  char err[512] = "";
  ck_assert_msg(compare(&fixture, &e, err, sizeof(err)) == 0, "restored: %s", err);
  exported_free(&e);
  arrow_json_file_free(&fixture);
}
END_TEST

START_TEST(malformed_views_indices_and_offsets_are_differences) {
  struct arrow_json_file strings = file_of(FIELD("s", JSON({"name" : "utf8"})), "[]", STRINGS_UTF8);
  struct exported e;
  export_of(&e, FIELD("s", JSON({"name" : "utf8view"})), "[]",
            STRING_VIEWS(LONG_VIEW, "ffff6120737472696e67206c6f6e676572207468616e207477656c7665"));
  uint8_t* long_view = e.file.batches[0].columns[0].buffers[1].bytes + 16 * 3;
  int32_t index = 1, offset = 3;
  memcpy(long_view + 8, &index, 4);
  assert_export_differs(&strings, &e, "column 's': view at row 3 names variadic buffer 1 of 1");
  index = 0;
  memcpy(long_view + 8, &index, 4);
  memcpy(long_view + 12, &offset, 4);
  assert_export_differs(&strings, &e, "column 's': view at row 3 reaches past variadic buffer 0 (29 bytes)");
  e.arrays[0].children[0]->n_buffers = 2;
  assert_export_differs(
      &strings, &e,
      "exported batch 0: column 's': n_buffers is 2, a binary view array (\"vu\") has at least 3");
  exported_free(&e);
  arrow_json_file_free(&strings);

  struct arrow_json_file colours = file_of(COLOURS_FIELD(8, true), RED_GREEN_BLUE, COLOUR_ROWS("[0,2,0,1]"));
  export_of(&e, COLOURS_FIELD(8, true), RED_GREEN_BLUE, COLOUR_ROWS("[0,2,0,1]"));
  int8_t* indices = (int8_t*)e.file.batches[0].columns[0].buffers[1].bytes;
  indices[1] = 9;
  assert_export_differs(&colours, &e,
                        "column 'd': dictionary index at row 1 is 9, outside the dictionary's 3 values");
  indices[1] = -1;
  assert_export_differs(&colours, &e,
                        "column 'd': dictionary index at row 1 is -1, outside the dictionary's 3 values");
  indices[1] = 2;
  struct ArrowArray* dictionary = e.arrays[0].children[0]->dictionary;
  e.arrays[0].children[0]->dictionary = NULL;
  assert_export_differs(&colours, &e,
                        "exported batch 0: column 'd': dictionary is NULL, its schema is dictionary-encoded");
  e.arrays[0].children[0]->dictionary = dictionary;
  exported_free(&e);
  arrow_json_file_free(&colours);

  struct arrow_json_file lists = file_of(LIST_FIELD("list", "item"), "[]", LIST_ROWS("item"));
  export_of(&e, LIST_FIELD("list", "item"), "[]", LIST_ROWS("item"));
  int32_t* offsets = (int32_t*)e.file.batches[0].columns[0].buffers[1].bytes;
  offsets[4] = 5;
  assert_export_differs(&lists, &e, "column 'l': list at row 3 has 3 items, fixture has 1");
  /* Row 1 is null: its offsets are not read. */
  offsets[2] = 3;
  offsets[3] = 3;
  offsets[4] = 4;
  assert_export_differs(
      &lists, &e, "column 'l' > item 0: row 3 reaches past the end of an array of 3 rows (rows 3 to 3)");
  offsets[3] = 2;
  assert_export_differs(&lists, &e, "column 'l': row 2: its offsets decrease (3, then 2)");
  exported_free(&e);
  arrow_json_file_free(&lists);

  struct arrow_json_file runs = file_of(RUNS_FIELD(16), "[]", RUNS);
  export_of(&e, RUNS_FIELD(16), "[]", RUNS);
  int16_t* run_ends = (int16_t*)e.file.batches[0].columns[0].children[0].buffers[1].bytes;
  run_ends[2] = 4;
  assert_export_differs(&runs, &e, "column 'r': row 4 is past the last run end (3 runs)");
  exported_free(&e);
  arrow_json_file_free(&runs);
}
END_TEST

/* ---- representation changes ---- */

#define FIVE_FIELDS(s, d, r, l, a) s "," d "," r "," l "," a

START_TEST(changes_are_described_with_their_paths) {
  struct arrow_json_file fixture = file_of(
      FIVE_FIELDS(FIELD("s", JSON({"name" : "utf8"})), COLOURS_FIELD(8, true), RUNS_FIELD(16),
                  "{\"name\":\"l\",\"nullable\":true,\"type\":{\"name\":\"list\"},\"children\":[" FIELD(
                      "item", JSON({"name" : "utf8"})) "]}",
                  INT32_FIELD("a")),
      "[]", "[]");
  struct exported e;
  export_of(
      &e,
      FIVE_FIELDS(FIELD("s", JSON({"name" : "utf8view"})), COLOURS_FIELD(32, false), INT32_FIELD("r"),
                  "{\"name\":\"l\",\"nullable\":true,\"type\":{\"name\":\"largelist\"},\"children\":[" FIELD(
                      "element", JSON({"name" : "largeutf8"})) "]}",
                  INT32_FIELD("a")),
      "[]", "[]");
  char out[2048];
  ck_assert_int_eq(arrow_logical_describe_changes(&fixture, &e.schema, out, sizeof(out)), 5);
  ck_assert_str_eq(
      out,
      "column 's': utf8 (u) exported as utf8view (vu)\n"
      "column 'd': dictionary-encoded utf8 (u) with int8 (c) indices exported as dictionary-encoded "
      "utf8 (u) with uint32 (I) indices\n"
      "column 'r': run-end encoded int32 (i) with int16 (s) run ends exported plain\n"
      "column 'l': list (+l) exported as largelist (+L)\n"
      "column 'l' > item: utf8 (u) exported as largeutf8 (U)\n");
  exported_free(&e);

  export_of(&e,
            FIVE_FIELDS(
                FIELD("s", JSON({"name" : "utf8"})), FIELD("d", JSON({"name" : "utf8view"})), RUNS_FIELD(64),
                "{\"name\":\"l\",\"nullable\":true,\"type\":{\"name\":\"list\"},\"children\":[" FIELD(
                    "item", JSON({"name" : "utf8"})) "]}",
                "{\"name\":\"a\",\"nullable\":true,\"type\":" INT32
                ",\"children\":[],\"dictionary\":{\"id\":1,\"indexType\":{\"name\":\"int\",\"isSigned\":true,"
                "\"bitWidth\":16},\"isOrdered\":false}}"),
            "[]", "[]");
  ck_assert_int_eq(arrow_logical_describe_changes(&fixture, &e.schema, out, sizeof(out)), 3);
  ck_assert_str_eq(
      out,
      "column 'd': dictionary-encoded utf8 (u) with int8 (c) indices exported decoded as utf8view (vu)\n"
      "column 'r': run-end encoded int32 (i) with int16 (s) run ends exported as run-end encoded int32 "
      "(i) with int64 (l) run ends\n"
      "column 'a': int32 (i) exported as dictionary-encoded int32 (i) with int16 (s) indices\n");
  /* Cut where the text is full, still counted. */
  char small[40];
  ck_assert_int_eq(arrow_logical_describe_changes(&fixture, &e.schema, small, sizeof(small)), 3);
  ck_assert_int_eq(strlen(small), sizeof(small) - 1);
  exported_free(&e);

  struct exported same;
  same.file = file_of(
      FIVE_FIELDS(FIELD("s", JSON({"name" : "utf8"})), COLOURS_FIELD(8, true), RUNS_FIELD(16),
                  "{\"name\":\"l\",\"nullable\":true,\"type\":{\"name\":\"list\"},\"children\":[" FIELD(
                      "item", JSON({"name" : "utf8"})) "]}",
                  FIELD("a", JSON({"name" : "int", "isSigned" : true, "bitWidth" : 64}))),
      "[]", "[]");
  export_views(&same);
  ck_assert_int_eq(arrow_logical_describe_changes(&fixture, &same.schema, out, sizeof(out)), -1);
  ck_assert_str_eq(out, "column 'a': type is int64 (l), fixture has int32 (i)");
  exported_free(&same);

  struct exported itself;
  itself.file = fixture;
  export_views(&itself);
  ck_assert_int_eq(arrow_logical_describe_changes(&fixture, &itself.schema, out, sizeof(out)), 0);
  ck_assert_str_eq(out, "");
  itself.file = (struct arrow_json_file){0};
  exported_free(&itself);
  arrow_json_file_free(&fixture);
}
END_TEST

/* ---- every bundled fixture ---- */

struct tally {
  int fixtures;
  int altered; /* fixtures a changed value was seen in */
};

/* Batch `b` of `file` with one value changed (arrow_json_alter_one_value)
 * compares different; false where the batch has no value to change. */
static bool changed_value_is_seen(const char* path, const struct arrow_json_file* file,
                                  const struct ArrowSchema* schema, int64_t b) {
  struct arrow_json_file altered;
  char err[512] = "";
  ck_assert_int_eq(arrow_json_read_file(path, &altered, err, sizeof(err)), 0);
  bool changed = arrow_json_alter_one_value(&altered, altered.batches[b].columns, altered.dictionaries);
  if (changed) {
    struct ArrowArray array;
    ck_assert_ptr_null(ref_export_batch(&altered, b, &array));
    const struct ArrowArray* batches[] = {&array};
    ck_assert_msg(arrow_logical_compare_batches(file, b, schema, batches, 1, err, sizeof(err)) != 0,
                  "%s batch %ld: a changed value compares equal", path, (long)b);
    array.release(&array);
  }
  arrow_json_file_free(&altered);
  return changed;
}

static void assert_equals_itself(const char* path, void* context) {
  struct tally* tally = context;
  struct arrow_json_file file;
  char err[512] = "";
  ck_assert_msg(arrow_json_read_file(path, &file, err, sizeof(err)) == 0, "%s", err);
  struct ArrowSchema schema;
  ck_assert_ptr_null(ref_export_schema(&file, &schema));
  ck_assert_msg(arrow_logical_compare_schema(&file, &schema, err, sizeof(err)) == 0, "%s: %s", path, err);
  ck_assert_msg(arrow_logical_describe_changes(&file, &schema, err, sizeof(err)) == 0, "%s: %s", path, err);
  struct ArrowArray* arrays = calloc((size_t)file.n_batches + 1, sizeof(struct ArrowArray));
  const struct ArrowArray** batches = calloc((size_t)file.n_batches + 1, sizeof(struct ArrowArray*));
  for (int64_t b = 0; b < file.n_batches; b++) {
    ck_assert_ptr_null(ref_export_batch(&file, b, &arrays[b]));
    batches[b] = &arrays[b];
    ck_assert_msg(arrow_logical_compare_batches(&file, b, &schema, &batches[b], 1, err, sizeof(err)) == 0,
                  "%s batch %ld: %s", path, (long)b, err);
  }
  ck_assert_msg(
      arrow_logical_compare_batches(&file, -1, &schema, batches, file.n_batches, err, sizeof(err)) == 0,
      "%s, every batch: %s", path, err);
  bool altered = false;
  for (int64_t b = 0; b < file.n_batches && !altered; b++)
    altered = changed_value_is_seen(path, &file, &schema, b);
  tally->altered += altered;
  tally->fixtures++;
  for (int64_t b = 0; b < file.n_batches; b++) arrays[b].release(&arrays[b]);
  free(arrays);
  free(batches);
  schema.release(&schema);
  arrow_json_file_free(&file);
}

/* A fixed-size binary's values are bytes: a library without the type
 * (polars, DuckDB) exports them as binaries or binary views. */
START_TEST(fixed_size_binaries_equal_their_binaries) {
  const char* fixed = FIELD("f", JSON({"name" : "fixedsizebinary", "byteWidth" : 2}));
  const char* rows = ONE_BATCH(
      3, JSON({"name" : "f", "count" : 3, "VALIDITY" : [ 1, 0, 1 ], "DATA" : [ "00FF", "0000", "0102" ]}));
  assert_same_values(fixed, "[]", rows, FIELD("f", JSON({"name" : "binary"})), "[]",
                     ONE_BATCH(3, JSON({
                                 "name" : "f",
                                 "count" : 3,
                                 "VALIDITY" : [ 1, 0, 1 ],
                                 "OFFSET" : [ 0, 2, 2, 4 ],
                                 "DATA" : [ "00FF", "", "0102" ]
                               })));
  assert_same_values(
      fixed, "[]", rows, FIELD("f", JSON({"name" : "binaryview"})), "[]",
      ONE_BATCH(
          3, JSON({
            "name" : "f",
            "count" : 3,
            "VALIDITY" : [ 1, 0, 1 ],
            "VIEWS" : [
              {"SIZE" : 2, "INLINED" : "00FF"}, {"SIZE" : 0, "INLINED" : ""}, {"SIZE" : 2, "INLINED" : "0102"}
            ],
            "VARIADIC_DATA_BUFFERS" : []
          })));
  assert_values_differ(fixed, "[]", rows, FIELD("f", JSON({"name" : "binary"})),
                       ONE_BATCH(3, JSON({
                                   "name" : "f",
                                   "count" : 3,
                                   "VALIDITY" : [ 1, 0, 1 ],
                                   "OFFSET" : [ 0, 2, 2, 5 ],
                                   "DATA" : [ "00FF", "", "010203" ]
                                 })),
                       "column 'f': value at row 2 is \"\x01\x02\x03\" (3 bytes), fixture has \"\x01\x02\"");
  /* A wider fixed-size binary holds other values. */
  assert_values_differ(fixed, "[]", rows, FIELD("f", JSON({"name" : "fixedsizebinary", "byteWidth" : 3})),
                       ONE_BATCH(3, JSON({
                                   "name" : "f",
                                   "count" : 3,
                                   "VALIDITY" : [ 1, 0, 1 ],
                                   "DATA" : [ "00FF00", "000000", "010200" ]
                                 })),
                       "column 'f': value at row 0 is \"\" (3 bytes), fixture has \"\"");
}
END_TEST

/* A column moved out of its batch, a dictionary's values moved out of
 * their column, and two arrays of one schema: each by value, read by its
 * own schema. */
START_TEST(columns_dictionaries_and_arrays_compare_on_their_own) {
  struct arrow_json_file fixture = file_of(COLOURS_FIELD(8, true), RED_GREEN_BLUE, COLOUR_ROWS("[0,2,0,1]"));
  struct exported e;
  export_of(&e, COLOURS_FIELD(32, false), COLOURS(JSON([ "blue", "green", "red" ]), JSON([ 0, 4, 9, 12 ])),
            COLOUR_ROWS("[2,0,1,1]"));
  char err[512] = "";
  /* The column, re-encoded, is the fixture's column. */
  ck_assert_msg(arrow_logical_compare_column(&fixture, 0, 0, e.schema.children[0], e.arrays[0].children[0],
                                             err, sizeof(err)) == 0,
                "%s", err);
  /* Its dictionary is not the fixture's (another order)... */
  ck_assert_int_eq(arrow_logical_compare_dictionary(&fixture, 0, e.schema.children[0]->dictionary,
                                                    e.arrays[0].children[0]->dictionary, err, sizeof(err)),
                   ARROW_JSON_DIFFERENT_DATA);
  ck_assert_str_eq(err, "column 'd' > dictionary: value at row 0 is \"blue\" (4 bytes), fixture has \"red\"");
  /* ...but it is itself, as another export of the same library holds it. */
  struct exported again;
  export_of(&again, COLOURS_FIELD(32, false),
            COLOURS(JSON([ "blue", "green", "red" ]), JSON([ 0, 4, 9, 12 ])), COLOUR_ROWS("[2,0,1,1]"));
  ck_assert_msg(
      arrow_logical_compare_arrays(e.schema.children[0]->dictionary, e.arrays[0].children[0]->dictionary,
                                   again.arrays[0].children[0]->dictionary, err, sizeof(err)) == 0,
      "%s", err);
  exported_free(&again);
  /* A column of another batch's length, or whose buffers its own type
   * does not have, differs; the latter is a difference of counts. */
  e.arrays[0].children[0]->length = 3;
  ck_assert_int_eq(arrow_logical_compare_column(&fixture, 0, 0, e.schema.children[0], e.arrays[0].children[0],
                                                err, sizeof(err)),
                   ARROW_JSON_DIFFERENT_DATA);
  ck_assert_str_eq(err, "column 'd': length is 3, fixture has 4");
  e.arrays[0].children[0]->length = 4;
  e.arrays[0].children[0]->n_buffers = 3;
  ck_assert_int_eq(arrow_logical_compare_column(&fixture, 0, 0, e.schema.children[0], e.arrays[0].children[0],
                                                err, sizeof(err)),
                   ARROW_JSON_DIFFERENT_COUNTS);
  e.arrays[0].children[0]->n_buffers = 2;
  exported_free(&e);
  arrow_json_file_free(&fixture);
}
END_TEST

/* The flags, compared where asked: kept where the node keeps what they are
 * about; nullable widened only where asked. */
#define ALL_VALID_COLOURS \
  ONE_BATCH(4, "{\"name\":\"d\",\"count\":4,\"VALIDITY\":[1,1,1,1],\"DATA\":[0,2,0,1]}")
START_TEST(flags_are_compared_where_asked) {
  struct arrow_json_file fixture = file_of(
      "{\"name\":\"d\",\"nullable\":false,\"type\":{\"name\":\"utf8\"},\"children\":[],\"dictionary\":{"
      "\"id\":0,"
      "\"indexType\":{\"name\":\"int\",\"isSigned\":true,\"bitWidth\":8},\"isOrdered\":true}}",
      RED_GREEN_BLUE, ALL_VALID_COLOURS);
  struct exported e;
  e.file = file_of(
      "{\"name\":\"d\",\"nullable\":true,\"type\":{\"name\":\"utf8\"},\"children\":[],\"dictionary\":{\"id\":"
      "0,"
      "\"indexType\":{\"name\":\"int\",\"isSigned\":true,\"bitWidth\":8},\"isOrdered\":false}}",
      RED_GREEN_BLUE, ALL_VALID_COLOURS);
  export_views(&e);
  char err[512];
  ck_assert_int_eq(
      arrow_logical_compare_schema_aspects(&fixture, &e.schema, ARROW_LOGICAL_NAMES, err, sizeof(err)), 0);
  ck_assert_int_eq(
      arrow_logical_compare_schema_aspects(&fixture, &e.schema, ARROW_LOGICAL_FLAGS, err, sizeof(err)),
      ARROW_JSON_DIFFERENT_DATA);
  ck_assert_str_eq(err, "column 'd': ARROW_FLAG_NULLABLE is set, fixture says nullable=false");
  ck_assert_int_eq(
      arrow_logical_compare_schema_aspects(
          &fixture, &e.schema, ARROW_LOGICAL_FLAGS | ARROW_LOGICAL_NULLABLE_MAY_WIDEN, err, sizeof(err)),
      ARROW_JSON_DIFFERENT_DATA);
  ck_assert_str_eq(err, "column 'd': ARROW_FLAG_DICTIONARY_ORDERED is clear, fixture says isOrdered");
  exported_free(&e);
  /* Decoded, the column has no dictionary to be ordered: its values are
   * the fixture's, and only the widened nullable is left. */
  export_of(&e, FIELD("d", JSON({"name" : "utf8"})), "[]", DECODED_COLOUR_ROWS);
  ck_assert_msg(
      arrow_logical_compare_schema_aspects(
          &fixture, &e.schema, ARROW_LOGICAL_FLAGS | ARROW_LOGICAL_NULLABLE_MAY_WIDEN, err, sizeof(err)) == 0,
      "%s", err);
  /* Types that differ are the types' difference, whatever is asked. */
  exported_free(&e);
  export_of(&e, INT32_FIELD("d"), "[]",
            ONE_BATCH(1, JSON({"name" : "d", "count" : 1, "VALIDITY" : [1], "DATA" : [1]})));
  ck_assert_int_eq(
      arrow_logical_compare_schema_aspects(&fixture, &e.schema, ARROW_LOGICAL_FLAGS, err, sizeof(err)),
      ARROW_JSON_DIFFERENT_TYPES);
  exported_free(&e);
  arrow_json_file_free(&fixture);
}
END_TEST

/* ARROW_LOGICAL_DICTIONARY_ORDERED: of the flags, the ordered flag alone,
 * where both sides keep a dictionary (what a consumer must keep of what it
 * accepted: spec-tests/rules_consumer_values.c). */
START_TEST(ordered_flag_alone_is_compared_where_asked) {
  struct arrow_json_file fixture = file_of(
      "{\"name\":\"d\",\"nullable\":false,\"type\":{\"name\":\"utf8\"},\"children\":[],\"dictionary\":{"
      "\"id\":0,\"indexType\":{\"name\":\"int\",\"isSigned\":true,\"bitWidth\":8},\"isOrdered\":true}}",
      RED_GREEN_BLUE, ALL_VALID_COLOURS);
  struct exported e;
  /* Nullable where the fixture is not, and unordered. */
  e.file = file_of(
      "{\"name\":\"d\",\"nullable\":true,\"type\":{\"name\":\"utf8\"},\"children\":[],\"dictionary\":{"
      "\"id\":0,\"indexType\":{\"name\":\"int\",\"isSigned\":true,\"bitWidth\":8},\"isOrdered\":false}}",
      RED_GREEN_BLUE, ALL_VALID_COLOURS);
  export_views(&e);
  char err[512];
  ck_assert_int_eq(
      arrow_logical_compare_schema_aspects(
          &fixture, &e.schema, ARROW_LOGICAL_NAMES | ARROW_LOGICAL_DICTIONARY_ORDERED, err, sizeof(err)),
      ARROW_JSON_DIFFERENT_DATA);
  ck_assert_str_eq(err, "column 'd': ARROW_FLAG_DICTIONARY_ORDERED is clear, fixture says isOrdered");
  exported_free(&e);
  /* Ordered as the fixture, nullable otherwise: the nullable flag is not asked for. */
  e.file = file_of(
      "{\"name\":\"d\",\"nullable\":true,\"type\":{\"name\":\"utf8\"},\"children\":[],\"dictionary\":{"
      "\"id\":0,\"indexType\":{\"name\":\"int\",\"isSigned\":true,\"bitWidth\":8},\"isOrdered\":true}}",
      RED_GREEN_BLUE, ALL_VALID_COLOURS);
  export_views(&e);
  ck_assert_msg(
      arrow_logical_compare_schema_aspects(
          &fixture, &e.schema, ARROW_LOGICAL_NAMES | ARROW_LOGICAL_DICTIONARY_ORDERED, err, sizeof(err)) == 0,
      "%s", err);
  exported_free(&e);
  /* Decoded: no dictionary to be ordered. */
  export_of(&e, FIELD("d", JSON({"name" : "utf8"})), "[]", DECODED_COLOUR_ROWS);
  ck_assert_msg(
      arrow_logical_compare_schema_aspects(
          &fixture, &e.schema, ARROW_LOGICAL_NAMES | ARROW_LOGICAL_DICTIONARY_ORDERED, err, sizeof(err)) == 0,
      "%s", err);
  exported_free(&e);
  arrow_json_file_free(&fixture);
}
END_TEST

/* arrow_logical_check_batches: the structure of a library's batches by
 * its own schema alone, no fixture (rule_api/values_back.c tells a batch
 * the format forbids from other values with it). */
START_TEST(batches_are_checked_by_their_own_schema) {
  struct exported e;
  export_of(&e, TWO_FIELDS, "[]", SEVEN_ROWS);
  const struct ArrowArray* batches[] = {&e.arrays[0]};
  char err[512] = "";
  ck_assert_msg(arrow_logical_check_batches(&e.schema, batches, 1, err, sizeof(err)) == 0, "%s", err);
  struct ArrowArray* a = e.arrays[0].children[0];
  a->n_buffers = 3;
  ck_assert_int_ne(arrow_logical_check_batches(&e.schema, batches, 1, err, sizeof(err)), 0);
  ck_assert_str_eq(err, "exported batch 0: column 'a': n_buffers is 3, a fixed-width array (\"i\") has 2");
  a->n_buffers = 2;
  a->null_count = 5;
  ck_assert_int_ne(arrow_logical_check_batches(&e.schema, batches, 1, err, sizeof(err)), 0);
  ck_assert_str_eq(err, "exported batch 0: column 'a': null_count is 5 but the validity bitmap has 1 nulls");
  exported_free(&e);
}
END_TEST

START_TEST(every_fixture_equals_itself_and_not_a_changed_value) {
  struct tally tally = {0, 0};
  ck_assert_int_gt(each_bundled_fixture(assert_equals_itself, &tally), 20);
  ck_assert_msg(tally.altered > tally.fixtures / 2, "a changed value was seen in %d of %d fixtures",
                tally.altered, tally.fixtures);
}
END_TEST

int main(void) {
  Suite* suite = suite_create("logical_compare");
  TCase* tc = tcase_create("logical_compare");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, every_fixture_equals_itself_and_not_a_changed_value);
  tcase_add_test(tc, ordered_flag_alone_is_compared_where_asked);
  tcase_add_test(tc, batches_are_checked_by_their_own_schema);
  tcase_add_test(tc, strings_equal_their_string_views_and_large_strings);
  tcase_add_test(tc, binaries_equal_their_binary_views);
  tcase_add_test(tc, lists_equal_their_large_lists_and_list_views);
  tcase_add_test(tc, dictionaries_equal_their_values_whatever_the_indices);
  tcase_add_test(tc, plain_columns_equal_their_dictionary_encoding);
  tcase_add_test(tc, run_end_encoded_columns_equal_their_values);
  tcase_add_test(tc, map_entry_names_do_not_count);
  tcase_add_test(tc, batch_boundaries_do_not_matter);
  tcase_add_test(tc, offsets_are_honoured_at_every_level);
  tcase_add_test(tc, other_values_differ_naming_column_and_row);
  tcase_add_test(tc, values_under_nulls_do_not_count);
  tcase_add_test(tc, other_types_and_names_differ);
  tcase_add_test(tc, formats_are_read_with_their_parameters);
  tcase_add_test(tc, metadata_is_a_set_of_pairs);
  tcase_add_test(tc, string_views_without_variadic_buffers_are_read_as_views);
  tcase_add_test(tc, malformed_exports_are_differences_not_crashes);
  tcase_add_test(tc, malformed_views_indices_and_offsets_are_differences);
  tcase_add_test(tc, changes_are_described_with_their_paths);
  tcase_add_test(tc, fixed_size_binaries_equal_their_binaries);
  tcase_add_test(tc, columns_dictionaries_and_arrays_compare_on_their_own);
  tcase_add_test(tc, flags_are_compared_where_asked);
  suite_add_tcase(suite, tc);
  return run_suite(suite);
}
