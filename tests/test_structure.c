/* The structural checks and their breaks (arrow_format/arrow_structure.h):
 * every bundled fixture, as the reference exports it, is structurally
 * valid; each family's break is seen by that family alone while the values
 * still equal the fixture's; and each invariant, written into an exported
 * array by hand, is seen by its family with a message naming the place. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrow_format/arrow_structure.h"
#include "reference_core.h"
#include "unit_test_support.h"

static struct arrow_json_file load(const char* path) {
  struct arrow_json_file file;
  char error[512];
  ck_assert_msg(arrow_json_read_file(path, &file, error, sizeof(error)) == 0, "%s", error);
  return file;
}

static int check_export(const struct arrow_json_file* file, int64_t batch,
                        struct arrow_structure_findings* out) {
  struct ArrowArray array;
  ck_assert_ptr_null(ref_export_batch(file, batch, &array));
  int n = arrow_structure_check_batch(file, &array, out);
  array.release(&array);
  return n;
}

static void assert_valid(const char* path, void* context) {
  (void)context;
  struct arrow_json_file file = load(path);
  for (int64_t b = 0; b < file.n_batches; b++) {
    struct arrow_structure_findings findings;
    int n = check_export(&file, b, &findings);
    for (int f = 0; f < ARROW_STRUCTURE_FAMILY_COUNT; f++)
      ck_assert_msg(!findings.found[f], "%s batch %ld: %s", path, (long)b, findings.message[f]);
    ck_assert_msg(n == 0 && !findings.unreadable, "%s: %s", path, findings.unreadable_message);
  }
  arrow_json_file_free(&file);
}

START_TEST(every_fixture_is_structurally_valid) {
  ck_assert_int_gt(each_bundled_fixture(assert_valid, NULL), 20);
}
END_TEST

/* How often each family's break applied. */
struct break_tally {
  int broken[ARROW_STRUCTURE_FAMILY_COUNT];
};

static void assert_breaks_alone(const char* path, void* context) {
  struct break_tally* tally = context;
  struct arrow_json_file fixture = load(path);
  for (int f = 0; f < ARROW_STRUCTURE_FAMILY_COUNT; f++) {
    for (int64_t b = 0; b < fixture.n_batches; b++) {
      struct arrow_json_file broken = load(path);
      if (!arrow_structure_break(&broken, b, (enum arrow_structure_family)f)) {
        arrow_json_file_free(&broken);
        continue;
      }
      tally->broken[f]++;
      struct ArrowArray array;
      ck_assert_ptr_null(ref_export_batch(&broken, b, &array));
      char difference[512];
      ck_assert_msg(arrow_json_compare_batch(&fixture, b, &array, difference, sizeof(difference)) == 0,
                    "%s batch %ld, %s broken: the values changed: %s", path, (long)b,
                    arrow_structure_families[f].name, difference);
      struct arrow_structure_findings findings;
      arrow_structure_check_batch(&fixture, &array, &findings);
      ck_assert_msg(!findings.unreadable, "%s: %s", path, findings.unreadable_message);
      for (int g = 0; g < ARROW_STRUCTURE_FAMILY_COUNT; g++) {
        ck_assert_msg(findings.found[g] == (g == f), "%s batch %ld, %s broken: %s %s%s", path, (long)b,
                      arrow_structure_families[f].name, arrow_structure_families[g].name,
                      findings.found[g] ? "found: " : "not found", findings.message[g]);
      }
      array.release(&array);
      arrow_json_file_free(&broken);
    }
  }
  arrow_json_file_free(&fixture);
}

START_TEST(each_break_is_seen_by_its_family_alone) {
  struct break_tally tally = {{0}};
  each_bundled_fixture(assert_breaks_alone, &tally);
  for (int f = 0; f < ARROW_STRUCTURE_FAMILY_COUNT; f++)
    ck_assert_msg(tally.broken[f] > 0, "no bundled fixture takes the %s break",
                  arrow_structure_families[f].name);
}
END_TEST

/* ---- invariants written by hand into an exported array ---- */

/* One column of JSON type `type` (with `children`) and `count` rows. */
static struct arrow_json_file one_column(const char* type, const char* children, const char* column,
                                         int count) {
  char text[4096];
  snprintf(
      text, sizeof(text),
      "{\"schema\": {\"fields\": [{\"name\": \"c\", \"nullable\": true, \"type\": %s, \"children\": [%s]}]},"
      " \"batches\": [{\"count\": %d, \"columns\": [%s]}]}",
      type, children, count, column);
  struct arrow_json_file file;
  char error[512];
  ck_assert_msg(arrow_json_read_text("test", text, strlen(text), &file, error, sizeof(error)) == 0, "%s",
                error);
  return file;
}

/* The exported column's buffer `index`, writable. */
static void* buffer_of(struct ArrowArray* column, int64_t index) {
  return (void*)column->buffers[index];
}

/* Exports the file, lets `spoil` change column 0, and expects `family`
 * found alone with `words` in its message. */
static void expect(struct arrow_json_file* file, void (*spoil)(struct ArrowArray* column),
                   enum arrow_structure_family family, const char* words) {
  struct ArrowArray array;
  ck_assert_ptr_null(ref_export_batch(file, 0, &array));
  spoil(array.children[0]);
  struct arrow_structure_findings findings;
  int n = arrow_structure_check_batch(file, &array, &findings);
  ck_assert_msg(findings.found[family] && n == 1, "%s: %d families found, %s",
                arrow_structure_families[family].name, n, findings.message[family]);
  ck_assert_msg(
      strstr(findings.message[family], words) != NULL && strstr(findings.message[family], "column 'c'"),
      "\"%s\" lacks \"%s\" or the column", findings.message[family], words);
  array.release(&array);
  arrow_json_file_free(file);
}

#define UTF8 "{\"name\": \"utf8\"}"
#define INT32 "{\"name\": \"int\", \"bitWidth\": 32, \"isSigned\": true}"
#define INT32_FIELD(name) \
  "{\"name\": \"" name "\", \"nullable\": true, \"type\": " INT32 ", \"children\": []}"

static void offset_decreases(struct ArrowArray* c) {
  ((int32_t*)buffer_of(c, 1))[2] = 0;
}
static void list_end_past_child(struct ArrowArray* c) {
  ((int32_t*)buffer_of(c, 1))[2] = 3;
}
START_TEST(offsets_are_checked_on_every_slot) {
  const char* strings =
      "{\"name\": \"c\", \"count\": 2, \"VALIDITY\": [1, 0], \"OFFSET\": [0, 2, 2], \"DATA\": [\"ab\", "
      "\"\"]}";
  struct arrow_json_file file = one_column(UTF8, "", strings, 2);
  expect(&file, offset_decreases, ARROW_STRUCTURE_OFFSETS, "below the one before it");
  const char* list =
      "{\"name\": \"c\", \"count\": 2, \"VALIDITY\": [1, 0], \"OFFSET\": [0, 2, 2], \"children\": "
      "[{\"name\": \"i\", "
      "\"count\": 2, \"VALIDITY\": [1, 1], \"DATA\": [1, 2]}]}";
  file = one_column("{\"name\": \"list\"}", INT32_FIELD("i"), list, 2);
  expect(&file, list_end_past_child, ARROW_STRUCTURE_OFFSETS, "past the end of the child");
}
END_TEST

static void view_past_child(struct ArrowArray* c) {
  ((int32_t*)buffer_of(c, 2))[1] = 3;
}
START_TEST(list_view_ranges_are_checked_on_null_slots) {
  const char* view =
      "{\"name\": \"c\", \"count\": 2, \"VALIDITY\": [1, 0], \"OFFSET\": [0, 0], \"SIZE\": [2, 0], "
      "\"children\": "
      "[{\"name\": \"i\", \"count\": 2, \"VALIDITY\": [1, 1], \"DATA\": [1, 2]}]}";
  struct arrow_json_file file = one_column("{\"name\": \"listview\"}", INT32_FIELD("i"), view, 2);
  expect(&file, view_past_child, ARROW_STRUCTURE_LIST_VIEW_RANGES, "slot 1 has offset 0 and size 3");
}
END_TEST

static void first_child_short(struct ArrowArray* c) {
  c->children[0]->length = 1;
}
START_TEST(children_must_cover_their_parent) {
  const char* fixed =
      "{\"name\": \"c\", \"count\": 2, \"VALIDITY\": [1, 0], \"children\": [{\"name\": \"i\", \"count\": 4, "
      "\"VALIDITY\": [1, 1, 1, 1], \"DATA\": [1, 2, 3, 4]}]}";
  struct arrow_json_file file =
      one_column("{\"name\": \"fixedsizelist\", \"listSize\": 2}", INT32_FIELD("i"), fixed, 2);
  expect(&file, first_child_short, ARROW_STRUCTURE_CHILD_LENGTHS, "(offset + length) x list size needs 4");
  const char* structure =
      "{\"name\": \"c\", \"count\": 2, \"VALIDITY\": [1, 0], \"children\": [{\"name\": \"i\", \"count\": 2, "
      "\"VALIDITY\": [1, 1], \"DATA\": [1, 2]}]}";
  file = one_column("{\"name\": \"struct\"}", INT32_FIELD("i"), structure, 2);
  expect(&file, first_child_short, ARROW_STRUCTURE_CHILD_LENGTHS, "child 'i' has length 1");
}
END_TEST

#define REE_CHILDREN                                               \
  "{\"name\": \"run_ends\", \"nullable\": false, \"type\": " INT32 \
  ", \"children\": []}, {\"name\": "                               \
  "\"values\", \"nullable\": true, \"type\": " INT32 ", \"children\": []}"
#define REE_COLUMN                                                                                           \
  "{\"name\": \"c\", \"count\": 4, \"children\": [{\"name\": \"run_ends\", \"count\": 2, \"VALIDITY\": [1, " \
  "1], "                                                                                                     \
  "\"DATA\": [2, 4]}, {\"name\": \"values\", \"count\": 2, \"VALIDITY\": [1, 1], \"DATA\": [7, 8]}]}"

static void run_empty(struct ArrowArray* c) {
  ((int32_t*)buffer_of(c->children[0], 1))[1] = 2;
}
static void last_run_short(struct ArrowArray* c) {
  ((int32_t*)buffer_of(c->children[0], 1))[1] = 3;
}
static void values_short(struct ArrowArray* c) {
  c->children[1]->length = 1;
}
START_TEST(run_ends_are_positive_increasing_and_cover_the_array) {
  struct arrow_json_file file = one_column("{\"name\": \"runendencoded\"}", REE_CHILDREN, REE_COLUMN, 4);
  expect(&file, run_empty, ARROW_STRUCTURE_RUN_ENDS, "run end 1 is 2, not above 2");
  file = one_column("{\"name\": \"runendencoded\"}", REE_CHILDREN, REE_COLUMN, 4);
  expect(&file, last_run_short, ARROW_STRUCTURE_RUN_ENDS, "before the array's offset + length, 4");
  file = one_column("{\"name\": \"runendencoded\"}", REE_CHILDREN, REE_COLUMN, 4);
  expect(&file, values_short, ARROW_STRUCTURE_RUN_ENDS, "2 run ends but 1 values");
}
END_TEST

#define UNION_CHILDREN INT32_FIELD("a") ", " INT32_FIELD("b")
static void undeclared_type_id(struct ArrowArray* c) {
  ((int8_t*)buffer_of(c, 0))[1] = 4;
}
static void dense_offset_back(struct ArrowArray* c) {
  ((int32_t*)buffer_of(c, 1))[1] = 0;
}
static void dense_offset_outside(struct ArrowArray* c) {
  ((int32_t*)buffer_of(c, 1))[1] = 2;
}
START_TEST(union_type_ids_and_offsets_are_checked) {
  const char* sparse =
      "{\"name\": \"c\", \"count\": 2, \"TYPE_ID\": [5, 6], \"children\": [{\"name\": \"a\", \"count\": 2, "
      "\"VALIDITY\": [1, 1], \"DATA\": [1, 2]}, {\"name\": \"b\", \"count\": 2, \"VALIDITY\": [1, 1], "
      "\"DATA\": [3, "
      "4]}]}";
  const char* sparse_type = "{\"name\": \"union\", \"mode\": \"SPARSE\", \"typeIds\": [5, 6]}";
  struct arrow_json_file file = one_column(sparse_type, UNION_CHILDREN, sparse, 2);
  expect(&file, undeclared_type_id, ARROW_STRUCTURE_UNION_SLOTS,
         "type id 4, which the union does not declare");
  const char* dense =
      "{\"name\": \"c\", \"count\": 2, \"TYPE_ID\": [5, 5], \"OFFSET\": [0, 1], \"children\": [{\"name\": "
      "\"a\", "
      "\"count\": 2, \"VALIDITY\": [1, 1], \"DATA\": [1, 1]}, {\"name\": \"b\", \"count\": 0, \"VALIDITY\": "
      "[], "
      "\"DATA\": []}]}";
  const char* dense_type = "{\"name\": \"union\", \"mode\": \"DENSE\", \"typeIds\": [5, 6]}";
  file = one_column(dense_type, UNION_CHILDREN, dense, 2);
  expect(&file, dense_offset_outside, ARROW_STRUCTURE_UNION_SLOTS,
         "points at row 2 of child 0, which has 2 rows");
  /* Two slots on one row is allowed (Arrow C++ takes it); going back is not. */
  const char* dense_back =
      "{\"name\": \"c\", \"count\": 3, \"TYPE_ID\": [5, 5, 5], \"OFFSET\": [1, 1, 1], \"children\": "
      "[{\"name\": "
      "\"a\", \"count\": 2, \"VALIDITY\": [1, 1], \"DATA\": [1, 1]}, {\"name\": \"b\", \"count\": 0, "
      "\"VALIDITY\": "
      "[], \"DATA\": []}]}";
  file = one_column(dense_type, UNION_CHILDREN, dense_back, 3);
  expect(&file, dense_offset_back, ARROW_STRUCTURE_UNION_SLOTS, "before row 1 an earlier slot points at");
}
END_TEST

#define VIEW_COLUMN                                                                                         \
  "{\"name\": \"c\", \"count\": 2, \"VALIDITY\": [1, 1], \"VIEWS\": [{\"SIZE\": 3, \"INLINED\": \"abc\"}, " \
  "{\"SIZE\": 14, \"PREFIX_HEX\": \"61626364\", \"BUFFER_INDEX\": 0, \"OFFSET\": 0}], "                     \
  "\"VARIADIC_DATA_BUFFERS\": "                                                                             \
  "[\"6162636465666768696a6b6c6d6e\"]}"
static void inline_padding(struct ArrowArray* c) {
  ((uint8_t*)buffer_of(c, 1))[10] = 1;
}
static void wrong_prefix(struct ArrowArray* c) {
  ((uint8_t*)buffer_of(c, 1))[16 + 4] = 'z';
}
static void past_buffer(struct ArrowArray* c) {
  ((int32_t*)buffer_of(c, 1))[4 + 3] = 1;
}
static void unknown_buffer(struct ArrowArray* c) {
  ((int32_t*)buffer_of(c, 1))[4 + 2] = 1;
}
START_TEST(views_are_checked_on_valid_slots) {
  const char* view_type = "{\"name\": \"utf8view\"}";
  struct arrow_json_file file = one_column(view_type, "", VIEW_COLUMN, 2);
  expect(&file, inline_padding, ARROW_STRUCTURE_VIEWS, "slot 0 is inline with 3 bytes, and its byte 10");
  file = one_column(view_type, "", VIEW_COLUMN, 2);
  expect(&file, wrong_prefix, ARROW_STRUCTURE_VIEWS, "slot 1's prefix");
  file = one_column(view_type, "", VIEW_COLUMN, 2);
  expect(&file, past_buffer, ARROW_STRUCTURE_VIEWS, "reaches bytes 1 to 15 of variadic buffer 0");
  file = one_column(view_type, "", VIEW_COLUMN, 2);
  expect(&file, unknown_buffer, ARROW_STRUCTURE_VIEWS, "of variadic buffer 1, outside its 1 buffers");
}
END_TEST

static void index_outside(struct ArrowArray* c) {
  ((int32_t*)buffer_of(c, 1))[0] = 2;
}
START_TEST(dictionary_indexes_are_checked_on_valid_slots) {
  const char* text =
      "{\"schema\": {\"fields\": [{\"name\": \"c\", \"nullable\": true, \"type\": {\"name\": \"utf8\"}, "
      "\"children\": [], \"dictionary\": {\"id\": 0, \"indexType\": " INT32
      ", \"isOrdered\": false}}]}, "
      "\"dictionaries\": [{\"id\": 0, \"data\": {\"count\": 2, \"columns\": [{\"name\": \"DICT0\", "
      "\"count\": 2, "
      "\"VALIDITY\": [1, 1], \"OFFSET\": [0, 1, 2], \"DATA\": [\"a\", \"b\"]}]}}], \"batches\": [{\"count\": "
      "2, "
      "\"columns\": [{\"name\": \"c\", \"count\": 2, \"VALIDITY\": [1, 0], \"DATA\": [1, 9]}]}]}";
  struct arrow_json_file file;
  char error[512];
  ck_assert_msg(arrow_json_read_text("test", text, strlen(text), &file, error, sizeof(error)) == 0, "%s",
                error);
  /* A null slot's index outside the dictionary is no breach. */
  struct arrow_structure_findings findings;
  ck_assert_int_eq(check_export(&file, 0, &findings), 0);
  expect(&file, index_outside, ARROW_STRUCTURE_DICTIONARY_INDEXES,
         "slot 0 has index 2, outside the dictionary's 2");
}
END_TEST

static void buffers_dropped(struct ArrowArray* c) {
  c->n_buffers = 1;
}
START_TEST(a_node_not_of_its_type_is_unreadable_not_a_breach) {
  const char* strings =
      "{\"name\": \"c\", \"count\": 1, \"VALIDITY\": [1], \"OFFSET\": [0, 2], \"DATA\": [\"ab\"]}";
  struct arrow_json_file file = one_column(UTF8, "", strings, 1);
  struct ArrowArray array;
  ck_assert_ptr_null(ref_export_batch(&file, 0, &array));
  int64_t n_buffers = array.children[0]->n_buffers;
  buffers_dropped(array.children[0]);
  struct arrow_structure_findings findings;
  ck_assert_int_eq(arrow_structure_check_batch(&file, &array, &findings), 0);
  ck_assert(findings.unreadable);
  ck_assert_ptr_nonnull(strstr(findings.unreadable_message, "column 'c': buffers not those of its type"));
  array.children[0]->n_buffers = n_buffers;
  array.release(&array);
  arrow_json_file_free(&file);
}
END_TEST

/* Found by tests/fuzz/fuzz_round_trip: strings that are all empty have no
 * bytes, and the reference exports their data buffer as NULL (spec: a
 * buffer pointer "MAY be null ... if the size in bytes of the
 * corresponding buffer would be 0"); the check called such a column
 * unreadable. */
START_TEST(empty_strings_need_no_bytes) {
  const char* strings =
      "{\"name\": \"c\", \"count\": 3, \"VALIDITY\": [1, 0, 1], \"OFFSET\": [0, 0, 0, 0], "
      "\"DATA\": [\"\", \"\", \"\"]}";
  struct arrow_json_file file = one_column(UTF8, "", strings, 3);
  struct ArrowArray array;
  ck_assert_ptr_null(ref_export_batch(&file, 0, &array));
  ck_assert_ptr_null(array.children[0]->buffers[2]);
  struct arrow_structure_findings findings;
  ck_assert_int_eq(arrow_structure_check_batch(&file, &array, &findings), 0);
  ck_assert_msg(!findings.unreadable, "%s", findings.unreadable_message);
  array.release(&array);
  arrow_json_file_free(&file);
}
END_TEST

int main(void) {
  Suite* suite = suite_create("structure");
  TCase* tc = tcase_create("structure");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, every_fixture_is_structurally_valid);
  tcase_add_test(tc, each_break_is_seen_by_its_family_alone);
  tcase_add_test(tc, offsets_are_checked_on_every_slot);
  tcase_add_test(tc, list_view_ranges_are_checked_on_null_slots);
  tcase_add_test(tc, children_must_cover_their_parent);
  tcase_add_test(tc, run_ends_are_positive_increasing_and_cover_the_array);
  tcase_add_test(tc, union_type_ids_and_offsets_are_checked);
  tcase_add_test(tc, views_are_checked_on_valid_slots);
  tcase_add_test(tc, dictionary_indexes_are_checked_on_valid_slots);
  tcase_add_test(tc, a_node_not_of_its_type_is_unreadable_not_a_breach);
  tcase_add_test(tc, empty_strings_need_no_bytes);
  suite_add_tcase(suite, tc);
  SRunner* runner = srunner_create(suite);
  srunner_run_all(runner, CK_NORMAL);
  int failed = srunner_ntests_failed(runner);
  srunner_free(runner);
  return failed == 0 ? 0 : 1;
}
