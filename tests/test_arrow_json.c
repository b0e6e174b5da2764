/* The fixture reader and the comparison every verdict rests on. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arrow_format/arrow_structure.h"
#include "consumer_feed/consumer_feed.h"
#include "reference_core.h"
#include "unit_test_support.h"

#define FIXTURE(name) ADC_SOURCE_DIR "/fixtures/data/" name ".json"

static struct arrow_json_file load(const char* path) {
  struct arrow_json_file file;
  char error[512];
  int status = arrow_json_read_file(path, &file, error, sizeof(error));
  ck_assert_msg(status == 0, "%s", error);
  return file;
}

START_TEST(reads_nested_struct) {
  struct arrow_json_file file = load(FIXTURE("nested_struct"));
  ck_assert_int_eq(file.n_fields, 1);
  ck_assert_int_eq(file.fields[0].n_children, 2);
  ck_assert_str_eq(file.fields[0].children[1].children[0].name, "c");
  ck_assert_int_eq(((const int32_t*)file.batches[0].columns[0].children[1].children[0].buffers[1].bytes)[3],
                   400);
  arrow_json_file_free(&file);
}
END_TEST

START_TEST(reads_dictionaries) {
  struct arrow_json_file file = load(FIXTURE("dictionary"));
  ck_assert(arrow_json_has_dictionary(&file));
  const struct arrow_json_column* values = arrow_json_dictionary_values(&file, &file.fields[0]);
  ck_assert_ptr_nonnull(values);
  ck_assert_int_eq(values->length, 3);
  ck_assert_str_eq(arrow_json_format(&file.fields[0].index_type), "c");
  arrow_json_file_free(&file);
}
END_TEST

/* A file whose size fstat does not tell (a pipe, as /dev/stdin can be) is
 * read to its end all the same, however long. */
START_TEST(reads_files_of_unknown_size) {
  FILE* fixture = fopen(FIXTURE("nested_struct"), "rb");
  ck_assert_ptr_nonnull(fixture);
  static char text[60000];
  char object[20000];
  size_t size = fread(object, 1, sizeof(object), fixture);
  fclose(fixture);
  ck_assert_int_gt(size, 0);
  ck_assert_int_lt(size, sizeof(object));
  /* Spaces first, the object last: well past the reader's first guesses. */
  memset(text, ' ', sizeof(text) - size);
  memcpy(text + sizeof(text) - size, object, size);
  int ends[2];
  ck_assert_int_eq(pipe(ends), 0);
  ck_assert_int_eq(write(ends[1], text, sizeof(text)), (ssize_t)sizeof(text));
  close(ends[1]);
  char path[64];
  snprintf(path, sizeof(path), "/proc/self/fd/%d", ends[0]);
  struct arrow_json_file file = load(path);
  ck_assert_int_eq(((const int32_t*)file.batches[0].columns[0].children[1].children[0].buffers[1].bytes)[3],
                   400);
  arrow_json_file_free(&file);
  close(ends[0]);
}
END_TEST

START_TEST(rejects_malformed_files_with_a_reason) {
  struct arrow_json_file file;
  char error[512];
  ck_assert_int_eq(arrow_json_read_file(ADC_SOURCE_DIR "/fixtures/malformed/validity_too_short.json", &file,
                                        error, sizeof(error)),
                   -1);
  ck_assert_ptr_nonnull(strstr(error, "VALIDITY"));
  ck_assert_int_eq(arrow_json_read_file("/nonexistent.json", &file, error, sizeof(error)), -1);
  ck_assert_ptr_nonnull(strstr(error, "cannot open"));
}
END_TEST

/* The error reading `text` from memory. */
static const char* read_error(const char* text, char* error, size_t size) {
  struct arrow_json_file file;
  ck_assert_int_eq(arrow_json_read_text("t", text, strlen(text), &file, error, size), -1);
  return error;
}

/* Found by tests/fuzz/fuzz_fixture_reader: the text quoted near a JSON
 * syntax error kept its line breaks (an error is one line), and could start
 * or end inside a UTF-8 character (the reference producer hands these
 * errors back as its messages, which must be UTF-8). */
START_TEST(reader_errors_are_one_line_of_whole_characters) {
  char error[512];
  ck_assert_str_eq(read_error("{\"schema\": @\n\n}", error, sizeof(error)),
                   "t: not valid JSON (near \"@  }\")");
  ck_assert_str_eq(read_error("{\"a\": 1,\n \xde\x93ype\": 2}", error, sizeof(error)),
                   "t: not valid JSON (near \"ype\": 2}\")");
  /* The 20th byte is the first of a two-byte character. */
  ck_assert_str_eq(read_error("{\"a\": @234567890123456789\xc3\xa9}", error, sizeof(error)),
                   "t: not valid JSON (near \"@234567890123456789\")");
  /* A field name cut by the error's size ends with whole characters. */
  char name[600] = "{\"schema\": {\"fields\": [{\"name\": \"";
  for (int i = 0; i < 200; i++) strcat(name, "\xc3\xa9");
  strcat(name, "\"}]}}");
  read_error(name, error, 64);
  ck_assert_uint_le(strlen(error), 63);
  ck_assert_int_ne(((unsigned char)error[strlen(error) - 1]), 0xc3);
}
END_TEST

/* Found by tests/fuzz/fuzz_fixture_reader: a number beyond int64's range
 * was converted to int64, which is undefined behaviour. */
START_TEST(reader_refuses_numbers_beyond_int64) {
  char error[512];
  ck_assert_str_eq(
      read_error("{\"schema\": {\"fields\": []}, \"batches\": [{\"count\": 1e30, \"columns\": []}]}", error,
                 sizeof(error)),
      "t: batch 0: 1e+30 is outside the 64-bit integer range");
  ck_assert_str_eq(
      read_error("{\"schema\": {\"fields\": []}, \"batches\": [{\"count\": -1e300, \"columns\": []}]}", error,
                 sizeof(error)),
      "t: batch 0: -1e+300 is outside the 64-bit integer range");
  ck_assert_str_eq(
      read_error("{\"schema\": {\"fields\": []}, \"batches\": [{\"count\": 1.5, \"columns\": []}]}", error,
                 sizeof(error)),
      "t: batch 0: 1.5 is not an integer");
}
END_TEST

/* Found by tests/fuzz/fuzz_fixture_reader: a negative batch count turned
 * off the check of its columns' counts, so a batch of -5 rows with a
 * column of 5 was read without an error. */
START_TEST(reader_refuses_negative_batch_counts) {
  char error[512];
  ck_assert_str_eq(
      read_error("{\"schema\": {\"fields\": [{\"name\": \"v\", \"nullable\": true, \"type\": "
                 "{\"name\": \"int\", \"isSigned\": true, \"bitWidth\": 32}, \"children\": []}]}, "
                 "\"batches\": [{\"count\": -1, \"columns\": [{\"name\": \"v\", \"count\": 1, "
                 "\"VALIDITY\": [1], \"DATA\": [7]}]}]}",
                 error, sizeof(error)),
      "t: batch 0: count -1 is negative");
}
END_TEST

/* Exports batch `b` of `file` through a consumer feed on the CPU. */
static struct ArrowArray feed_export(struct adc_feed* feed, const struct arrow_json_file* file, int64_t b,
                                     const struct adc_feed_layout* layout) {
  struct ArrowDeviceArray array;
  struct adc_error error;
  ck_assert_msg(adc_feed_export_batch(feed, file, b, layout, &array, &error) == 0, "%s", error.message);
  return array.array;
}

/* The comparison must honour offset and null_count -1, and must see a
 * single changed value. */
START_TEST(comparison_reads_layouts_and_sees_changes) {
  const char* names[] = {FIXTURE("int32_nulls"), FIXTURE("nested_struct"), FIXTURE("dictionary"),
                         FIXTURE("multi_batch")};
  struct adc_feed* feed = adc_feed_new(live_device("cpu"));
  for (size_t f = 0; f < sizeof(names) / sizeof(names[0]); f++) {
    struct arrow_json_file file = load(names[f]);
    for (int64_t b = 0; b < file.n_batches; b++) {
      struct adc_feed_layout layouts[] = {{0}, {.offset_padding = 5}, {.unknown_null_count = true}};
      for (size_t l = 0; l < 3; l++) {
        struct ArrowArray array = feed_export(feed, &file, b, &layouts[l]);
        char difference[512];
        int differs = arrow_json_compare_batch(&file, b, &array, difference, sizeof(difference));
        ck_assert_msg(differs == 0, "%s batch %ld layout %zu: %s", names[f], (long)b, l, difference);
        array.release(&array);
      }
      struct adc_feed_layout altered = {.alter_one_value = true};
      struct ArrowArray array = feed_export(feed, &file, b, &altered);
      char difference[512];
      if (file.batches[b].length > 0) {
        ck_assert_int_eq(arrow_json_compare_batch(&file, b, &array, difference, sizeof(difference)), -1);
      }
      array.release(&array);
    }
    arrow_json_file_free(&file);
  }
  adc_feed_free(feed);
}
END_TEST

START_TEST(exports_give_back_every_byte) {
  struct arrow_json_file file = load(FIXTURE("dictionary"));
  int64_t before = ref_bytes_allocated();
  struct ArrowSchema schema;
  struct ArrowArray array;
  ck_assert_ptr_null(ref_export_schema(&file, &schema));
  ck_assert_ptr_null(ref_export_batch(&file, 0, &array));
  ck_assert_int_gt(ref_bytes_allocated(), before);
  array.release(&array);
  schema.release(&schema);
  ck_assert_int_eq(ref_bytes_allocated(), before);
  arrow_json_file_free(&file);
}
END_TEST

START_TEST(feed_records_count_without_undefined_behaviour) {
  struct arrow_json_file file = load(FIXTURE("nested_struct"));
  struct adc_feed* feed = adc_feed_new(live_device("cpu"));
  struct ArrowArray array = feed_export(feed, &file, 0, NULL);
  struct ArrowArray copy = array;
  array.release(&array);
  copy.release(&copy); /* a second release through a stale copy */
  ck_assert_int_eq(adc_feed_base_release_calls(feed), 2);
  ck_assert_int_eq(adc_feed_children_released_in_place(feed), 0);
  adc_feed_free(feed);
  arrow_json_file_free(&file);
}
END_TEST

/* Two utf8 rows as the fixture model holds them (read from JSON), and an
 * exported array of them with its own offsets and bytes. */
static void release_nothing(struct ArrowArray* array) {
  array->release = NULL;
}

struct utf8_case {
  struct arrow_json_file file;
  const void* buffers[3];
  struct ArrowArray array;
};

static void utf8_case_init(struct utf8_case* t, const char* first, const char* second, int32_t* offsets,
                           const char* bytes) {
  char text[1024];
  snprintf(text, sizeof(text),
           "{\"schema\": {\"fields\": [{\"name\": \"s\", \"nullable\": true, \"type\": {\"name\": \"utf8\"}, "
           "\"children\": []}]}, \"batches\": [{\"count\": 2, \"columns\": [{\"name\": \"s\", \"count\": 2, "
           "\"VALIDITY\": [1, 1], \"OFFSET\": [0, %zu, %zu], \"DATA\": [\"%s\", \"%s\"]}]}]}",
           strlen(first), strlen(first) + strlen(second), first, second);
  char error[512];
  ck_assert_msg(arrow_json_read_text("utf8", text, strlen(text), &t->file, error, sizeof(error)) == 0, "%s",
                error);
  t->buffers[0] = NULL;
  t->buffers[1] = offsets;
  t->buffers[2] = bytes;
  t->array =
      (struct ArrowArray){.length = 2, .n_buffers = 3, .buffers = t->buffers, .release = release_nothing};
}

static int compare_utf8(struct utf8_case* t, char* difference, size_t size) {
  return arrow_json_compare_column(&t->file, &t->file.fields[0], &t->file.batches[0].columns[0], &t->array,
                                   difference, size);
}

/* Found by tests/fuzz/fuzz_array_compare: a negative utf8 offset made the
 * comparison read (and print) the bytes before the producer's buffer. */
START_TEST(comparison_refuses_negative_utf8_offsets) {
  int32_t offsets[] = {INT32_MIN, 2, 4};
  struct utf8_case t;
  utf8_case_init(&t, "ab", "cd", offsets, "abcd");
  char difference[512];
  ck_assert_int_eq(compare_utf8(&t, difference, sizeof(difference)), -1);
  ck_assert_str_eq(difference, "column 's': offset of row 0 is negative (-2147483648)");
  offsets[0] = -1;
  ck_assert_int_eq(compare_utf8(&t, difference, sizeof(difference)), -1);
  ck_assert_str_eq(difference, "column 's': offset of row 0 is negative (-1)");
  arrow_json_file_free(&t.file);
}
END_TEST

/* Empty strings need no bytes: a NULL bytes buffer (spec: a buffer of size
 * 0 may be NULL) is equal, and is never handed to memcmp. */
START_TEST(comparison_accepts_no_bytes_for_empty_strings) {
  int32_t offsets[] = {0, 0, 0};
  struct utf8_case t;
  utf8_case_init(&t, "", "", offsets, NULL);
  char difference[512];
  ck_assert_int_eq(compare_utf8(&t, difference, sizeof(difference)), 0);
  struct utf8_case other;
  utf8_case_init(&other, "ab", "cd", offsets, NULL);
  ck_assert_int_eq(compare_utf8(&other, difference, sizeof(difference)), -1);
  ck_assert_str_eq(difference, "column 's': value at row 0 is \"\" (0 bytes), fixture has \"ab\"");
  arrow_json_file_free(&t.file);
  arrow_json_file_free(&other.file);
}
END_TEST

/* Found by tests/fuzz/fuzz_array_compare: a column is read through its
 * batch's rows, so one shorter than the batch's offset + length was read
 * past its end (the check existed for struct children only), and a
 * column's offset near INT64_MAX overflowed when the batch's was added. */
START_TEST(comparison_checks_columns_against_their_batch) {
  struct arrow_json_file file = load(FIXTURE("int32_nulls"));
  struct adc_feed* feed = adc_feed_new(live_device("cpu"));
  struct ArrowArray batch = feed_export(feed, &file, 0, NULL);
  struct ArrowArray column = *batch.children[0];
  struct ArrowArray* columns[] = {&column};
  struct ArrowArray altered = batch;
  altered.children = columns;
  char difference[512];
  ck_assert_int_eq(arrow_json_compare_batch(&file, 0, &altered, difference, sizeof(difference)), 0);

  column.length = batch.length - 1;
  ck_assert_int_eq(arrow_json_compare_batch(&file, 0, &altered, difference, sizeof(difference)), -1);
  ck_assert_str_eq(difference, "column 'values': length 8 is shorter than the parent's offset + length");

  column.length = batch.length;
  column.offset = INT64_MAX - 1;
  altered.offset = 2;
  ck_assert_int_eq(arrow_json_compare_batch(&file, 0, &altered, difference, sizeof(difference)), -1);
  ck_assert_str_eq(difference, "column 'values': offset + length is past INT64_MAX");

  column.offset = -1;
  ck_assert_int_eq(arrow_json_compare_batch(&file, 0, &altered, difference, sizeof(difference)), -1);
  ck_assert_str_eq(difference, "column 'values': offset is negative (-1)");

  batch.release(&batch);
  adc_feed_free(feed);
  arrow_json_file_free(&file);
}
END_TEST

/* A one-column file of `type` (a JSON type object) and `column` (its
 * FieldData without name and count), `count` rows. */
static int read_one_column(const char* type, const char* children, const char* column, int count,
                           struct arrow_json_file* file, char* error, size_t size) {
  char text[4096];
  snprintf(text, sizeof(text),
           "{\"schema\": {\"fields\": [{\"name\": \"c\", \"nullable\": true, \"type\": %s, \"children\": "
           "[%s]}]}, \"batches\": [{\"count\": %d, \"columns\": [{\"name\": \"c\", \"count\": %d, %s}]}]}",
           type, children, count, count, column);
  return arrow_json_read_text("t", text, strlen(text), file, error, size);
}

/* Values become the bytes the C Data Interface exports. */
START_TEST(reader_lays_values_out_as_exported) {
  struct arrow_json_file file;
  char error[512];
  ck_assert_msg(read_one_column("{\"name\": \"decimal\", \"precision\": 5, \"scale\": 2}", "",
                                "\"VALIDITY\": [1, 1], \"DATA\": [\"-1\", \"258\"]", 2, &file, error,
                                sizeof(error)) == 0,
                "%s", error);
  const uint8_t* decimal = file.batches[0].columns[0].buffers[1].bytes;
  for (int i = 0; i < 16; i++) ck_assert_int_eq(decimal[i], 0xFF); /* -1, 128-bit two's complement */
  ck_assert_int_eq(decimal[16], 2);
  ck_assert_int_eq(decimal[17], 1);
  ck_assert_str_eq(arrow_json_format(&file.fields[0].type), "d:5,2");
  arrow_json_file_free(&file);

  ck_assert_msg(
      read_one_column("{\"name\": \"floatingpoint\", \"precision\": \"HALF\"}", "",
                      "\"VALIDITY\": [1, 1], \"DATA\": [1.5, -65504]", 2, &file, error, sizeof(error)) == 0,
      "%s", error);
  const uint16_t* half = (const uint16_t*)file.batches[0].columns[0].buffers[1].bytes;
  ck_assert_uint_eq(half[0], 0x3E00);
  ck_assert_uint_eq(half[1], 0xFBFF);
  arrow_json_file_free(&file);

  ck_assert_msg(
      read_one_column("{\"name\": \"utf8view\"}", "",
                      "\"VALIDITY\": [1, 1], \"VIEWS\": [{\"SIZE\": 2, \"INLINED\": \"hi\"}, {\"SIZE\": 13, "
                      "\"PREFIX_HEX\": \"61626364\", \"BUFFER_INDEX\": 0, \"OFFSET\": 1}], "
                      "\"VARIADIC_DATA_BUFFERS\": [\"5A6162636465666768696A6B6C6D\"]",
                      2, &file, error, sizeof(error)) == 0,
      "%s", error);
  const struct arrow_json_column* views = &file.batches[0].columns[0];
  ck_assert_int_eq(views->n_buffers, 4); /* validity, views, one variadic buffer, their sizes */
  ck_assert_int_eq(memcmp(views->buffers[1].bytes + 4, "hi", 2), 0);
  ck_assert_int_eq(((const int32_t*)views->buffers[1].bytes)[7], 1); /* the second view's offset */
  ck_assert_int_eq(((const int64_t*)views->buffers[3].bytes)[0], 14);
  arrow_json_file_free(&file);
}
END_TEST

/* The 64-bit value at row `row` of the fixed-width column `c` of batch 0,
 * `at` bytes into its value of `width` bytes. */
static int64_t value_at(const struct arrow_json_file* file, int c, int row, int width, int at) {
  int64_t value;
  memcpy(&value, file->batches[0].columns[c].buffers[1].bytes + row * width + at, sizeof(value));
  return value;
}

/* Found with the files of Arrow's own generator (archery's datagen.py):
 * it writes MONTH_DAY_NANO's nanoseconds as JSON numbers, which cJSON
 * keeps as doubles only, so the reader took -8744964599312334926 for
 * -8744964599312334848, and refused values near INT64_MAX.  Integers as
 * numbers are now read exactly, whatever the column, and digits in strings
 * (a key with an escaped quote before them) are no numbers. */
START_TEST(reader_reads_long_integer_numbers_exactly) {
  const char* text =
      "{\"schema\": {\"metadata\": [{\"key\": \"k\\\"12345678901234567890\", \"value\": "
      "\"-98765432109876543210\"}], \"fields\": ["
      "{\"name\": \"i\", \"nullable\": true, \"type\": {\"name\": \"interval\", \"unit\": "
      "\"MONTH_DAY_NANO\"}, \"children\": []}, "
      "{\"name\": \"s\", \"nullable\": true, \"type\": {\"name\": \"int\", \"isSigned\": true, "
      "\"bitWidth\": 64}, \"children\": []}, "
      "{\"name\": \"u\", \"nullable\": true, \"type\": {\"name\": \"int\", \"isSigned\": false, "
      "\"bitWidth\": 64}, \"children\": []}, "
      "{\"name\": \"d\", \"nullable\": true, \"type\": {\"name\": \"decimal\", \"precision\": 38, "
      "\"scale\": 0}, \"children\": []}]}, "
      "\"batches\": [{\"count\": 3, \"columns\": ["
      "{\"name\": \"i\", \"count\": 3, \"VALIDITY\": [1, 1, 1], \"DATA\": ["
      "{\"months\": 1, \"days\": -2, \"nanoseconds\": -8744964599312334926}, "
      "{\"months\": 0, \"days\": 0, \"nanoseconds\": 9223372036854775807}, "
      "{\"months\": 0, \"days\": 0, \"nanoseconds\": -9223372036854775808}]}, "
      "{\"name\": \"s\", \"count\": 3, \"VALIDITY\": [1, 1, 1], \"DATA\": [9007199254740993, "
      "-9007199254740993, 1.5e3]}, "
      "{\"name\": \"u\", \"count\": 3, \"VALIDITY\": [1, 1, 1], \"DATA\": [18446744073709551615, 0, "
      "\"12345678901234567\"]}, "
      "{\"name\": \"d\", \"count\": 3, \"VALIDITY\": [1, 1, 1], \"DATA\": [12345678901234567890123, 7, "
      "\"-1\"]}]}]}";
  struct arrow_json_file file;
  char error[512];
  ck_assert_msg(arrow_json_read_text("t", text, strlen(text), &file, error, sizeof(error)) == 0, "%s", error);
  ck_assert_int_eq(value_at(&file, 0, 0, 16, 8), INT64_C(-8744964599312334926));
  ck_assert_int_eq(value_at(&file, 0, 1, 16, 8), INT64_MAX);
  ck_assert_int_eq(value_at(&file, 0, 2, 16, 8), INT64_MIN);
  ck_assert_int_eq(value_at(&file, 1, 0, 8, 0), INT64_C(9007199254740993));
  ck_assert_int_eq(value_at(&file, 1, 1, 8, 0), INT64_C(-9007199254740993));
  ck_assert_int_eq(value_at(&file, 1, 2, 8, 0), 1500);
  ck_assert_uint_eq((uint64_t)value_at(&file, 2, 0, 8, 0), UINT64_MAX);
  ck_assert_int_eq(value_at(&file, 2, 2, 8, 0), INT64_C(12345678901234567));
  /* 12345678901234567890123 = 0x29D_42B64E76_714244CB */
  ck_assert_int_eq(value_at(&file, 3, 0, 16, 0), INT64_C(0x42B64E76714244CB));
  ck_assert_int_eq(value_at(&file, 3, 0, 16, 8), 0x29D);
  arrow_json_file_free(&file);

  /* Found by fuzz_fixture_reader: a long literal past the end of the
   * document (where cJSON stops reading) left no table to sort. */
  const char* past_the_end = "{\"schema\": {\"fields\": []}, \"batches\": []} 12345678901234567890";
  ck_assert_msg(
      arrow_json_read_text("t", past_the_end, strlen(past_the_end), &file, error, sizeof(error)) == 0, "%s",
      error);
  arrow_json_file_free(&file);

  ck_assert_str_eq(
      read_error("{\"schema\": {\"fields\": []}, \"batches\": [{\"count\": 99999999999999999999, "
                 "\"columns\": []}]}",
                 error, sizeof(error)),
      "t: batch 0: 99999999999999999999 is outside the 64-bit integer range");
  ck_assert_str_eq(
      read_error("{\"schema\": {\"fields\": []}, \"batches\": [{\"count\": -9223372036854775809, "
                 "\"columns\": []}]}",
                 error, sizeof(error)),
      "t: batch 0: -9223372036854775809 is outside the 64-bit integer range");
}
END_TEST

/* The one-column file is refused, and the reason names `reason`. */
static void assert_refused(const char* type, const char* children, const char* column, int count,
                           const char* reason) {
  struct arrow_json_file file;
  char error[512];
  ck_assert_int_eq(read_one_column(type, children, column, count, &file, error, sizeof(error)), -1);
  ck_assert_msg(strstr(error, reason) != NULL, "expected \"%s\" in: %s", reason, error);
}

/* Arrow C++'s JSON writer (json_internal.cc) gives a null interval as {}
 * and its reader reads no value of a null row; the reader refused such a
 * file ("missing \"months\""). A valid row's members are still required. */
START_TEST(reader_takes_empty_objects_for_null_intervals) {
  struct arrow_json_file file;
  char error[512];
  ck_assert_msg(read_one_column("{\"name\": \"interval\", \"unit\": \"MONTH_DAY_NANO\"}", "",
                                "\"VALIDITY\": [1, 0], \"DATA\": [{\"months\": 1, \"days\": 2, "
                                "\"nanoseconds\": 3}, {}]",
                                2, &file, error, sizeof(error)) == 0,
                "%s", error);
  ck_assert_int_eq(value_at(&file, 0, 0, 16, 8), 3);
  ck_assert_int_eq(value_at(&file, 0, 1, 16, 0), 0);
  ck_assert_int_eq(value_at(&file, 0, 1, 16, 8), 0);
  arrow_json_file_free(&file);
  ck_assert_msg(read_one_column("{\"name\": \"interval\", \"unit\": \"DAY_TIME\"}", "",
                                "\"VALIDITY\": [0, 1], \"DATA\": [{}, {\"days\": -1, \"milliseconds\": 5}]",
                                2, &file, error, sizeof(error)) == 0,
                "%s", error);
  ck_assert_int_eq(value_at(&file, 0, 0, 8, 0), 0);
  arrow_json_file_free(&file);
  assert_refused("{\"name\": \"interval\", \"unit\": \"DAY_TIME\"}", "",
                 "\"VALIDITY\": [1], \"DATA\": [{\"days\": 1}]", 1, "missing \"milliseconds\"");
}
END_TEST

/* What a correct producer could not export is refused, with the place. */
START_TEST(reader_refuses_inconsistent_layouts) {
  assert_refused("{\"name\": \"utf8view\"}", "",
                 "\"VALIDITY\": [1], \"VIEWS\": [{\"SIZE\": 13, \"PREFIX_HEX\": \"00000000\", "
                 "\"BUFFER_INDEX\": 0, \"OFFSET\": 0}], \"VARIADIC_DATA_BUFFERS\": "
                 "[\"61626364656667686970717273\"]",
                 1, "PREFIX_HEX differs");
  const char* ints =
      "{\"name\": \"a\", \"nullable\": true, \"type\": {\"name\": \"int\", \"bitWidth\": 8, "
      "\"isSigned\": true}, \"children\": []}";
  assert_refused("{\"name\": \"union\", \"mode\": \"DENSE\", \"typeIds\": [3]}", ints,
                 "\"TYPE_ID\": [3, 3], \"OFFSET\": [1, 0], \"children\": [{\"name\": \"a\", "
                 "\"count\": 2, \"VALIDITY\": [1, 1], \"DATA\": [1, 2]}]",
                 2, "goes back in its child");
  assert_refused("{\"name\": \"union\", \"mode\": \"SPARSE\", \"typeIds\": [3]}", ints,
                 "\"TYPE_ID\": [4], \"children\": [{\"name\": \"a\", \"count\": 1, "
                 "\"VALIDITY\": [1], \"DATA\": [1]}]",
                 1, "not one of the union's typeIds");
  const char* run_ends =
      "{\"name\": \"run_ends\", \"nullable\": false, \"type\": {\"name\": \"int\", "
      "\"bitWidth\": 16, \"isSigned\": true}, \"children\": []}, "
      "{\"name\": \"values\", \"nullable\": true, \"type\": {\"name\": \"bool\"}, \"children\": []}";
  assert_refused("{\"name\": \"runendencoded\"}", run_ends,
                 "\"children\": [{\"name\": \"run_ends\", \"count\": 1, \"VALIDITY\": [1], "
                 "\"DATA\": [2]}, {\"name\": \"values\", \"count\": 1, \"VALIDITY\": [1], "
                 "\"DATA\": [true]}]",
                 3, "the runs end at 2, before the column's 3 rows");
  assert_refused("{\"name\": \"int\", \"bitWidth\": 24, \"isSigned\": true}", "",
                 "\"VALIDITY\": [], \"DATA\": []", 0, "has parameters this suite does not know");
}
END_TEST

/* Found by tests/fuzz/fuzz_round_trip: a struct padded under an offset
 * pads its null child too, which is exported from its row 0, so the
 * padding rows count among its nulls (a null array's null_count is its
 * length); the padded child kept the null_count of its own rows. */
START_TEST(padding_counts_a_null_childs_padding_rows) {
  const char* null_child =
      "{\"name\": \"n\", \"nullable\": true, \"type\": {\"name\": \"null\"}, \"children\": []}";
  const char* rows[] = {"\"VALIDITY\": [], \"children\": [{\"name\": \"n\", \"count\": 0}]",
                        "\"VALIDITY\": [1, 0], \"children\": [{\"name\": \"n\", \"count\": 2}]"};
  struct adc_feed* feed = adc_feed_new(live_device("cpu"));
  for (int count = 0; count <= 2; count += 2) {
    struct arrow_json_file file;
    char error[512];
    ck_assert_msg(read_one_column("{\"name\": \"struct\"}", null_child, rows[count / 2], count, &file, error,
                                  sizeof(error)) == 0,
                  "%s", error);
    struct adc_feed_layout padded = {.offset_padding = 3};
    struct ArrowArray array = feed_export(feed, &file, 0, &padded);
    ck_assert_int_eq(array.children[0]->offset, 3);
    ck_assert_int_eq(array.children[0]->children[0]->null_count, count + 3);
    char difference[512];
    ck_assert_msg(arrow_json_compare_batch(&file, 0, &array, difference, sizeof(difference)) == 0, "%s",
                  difference);
    array.release(&array);
    arrow_json_file_free(&file);
  }
  adc_feed_free(feed);
}
END_TEST

/* A batch of `text` (its column a struct) exported padded under an
 * offset: the struct takes no padding, and the export is structurally
 * valid (`family` names what broke when it was not) and equals the
 * fixture. */
static void assert_padding_declined(const char* text, enum arrow_structure_family family) {
  struct arrow_json_file file;
  char error[512];
  ck_assert_msg(arrow_json_read_text("t", text, strlen(text), &file, error, sizeof(error)) == 0, "%s", error);
  struct adc_feed* feed = adc_feed_new(live_device("cpu"));
  struct adc_feed_layout padded = {.offset_padding = 3};
  struct ArrowArray array = feed_export(feed, &file, 0, &padded);
  ck_assert_int_eq(array.children[0]->offset, 0);
  struct arrow_structure_findings findings;
  ck_assert_msg(arrow_structure_check_batch(&file, &array, &findings) == 0 && !findings.unreadable, "%s",
                findings.message[family]);
  ck_assert_msg(arrow_json_compare_batch(&file, 0, &array, error, sizeof(error)) == 0, "%s", error);
  array.release(&array);
  adc_feed_free(feed);
  arrow_json_file_free(&file);
}

/* Found by tests/fuzz/fuzz_round_trip: a struct padded under an offset
 * padded its dictionary-encoded child with index 0, valid rows exported
 * from the child's row 0, so that an empty dictionary (every row null) had
 * an index outside it; such a column now takes no padding. */
START_TEST(padding_keeps_indices_inside_an_empty_dictionary) {
  const char* text =
      "{\"schema\": {\"fields\": [{\"name\": \"s\", \"nullable\": true, \"type\": {\"name\": \"struct\"}, "
      "\"children\": [{\"name\": \"d\", \"nullable\": true, \"type\": {\"name\": \"utf8\"}, \"children\": "
      "[], "
      "\"dictionary\": {\"id\": 4, \"indexType\": {\"name\": \"int\", \"bitWidth\": 8, \"isSigned\": "
      "true}}}]}]}, "
      "\"dictionaries\": [{\"id\": 4, \"data\": {\"count\": 0, \"columns\": [{\"name\": \"d\", \"count\": 0, "
      "\"VALIDITY\": [], \"OFFSET\": [0], \"DATA\": []}]}}], \"batches\": [{\"count\": 2, \"columns\": "
      "[{\"name\": "
      "\"s\", \"count\": 2, \"VALIDITY\": [1, 1], \"children\": [{\"name\": \"d\", \"count\": 2, "
      "\"VALIDITY\": "
      "[0, 0], \"DATA\": [5, 0]}]}]}]}";
  assert_padding_declined(text, ARROW_STRUCTURE_DICTIONARY_INDEXES);
}
END_TEST

/* Found by tests/fuzz/fuzz_round_trip: a struct padded under an offset
 * padded its run-end encoded child by moving its run ends up, and an empty
 * child has none, so that the padding rows, exported from the child's row
 * 0, were in no run; such a column now takes no padding. */
START_TEST(padding_needs_a_run_to_extend) {
  const char* text =
      "{\"schema\": {\"fields\": [{\"name\": \"s\", \"nullable\": true, \"type\": {\"name\": \"struct\"}, "
      "\"children\": [{\"name\": \"r\", \"nullable\": true, \"type\": {\"name\": \"runendencoded\"}, "
      "\"children\": [{\"name\": \"run_ends\", \"nullable\": false, \"type\": {\"name\": \"int\", "
      "\"bitWidth\": "
      "32, \"isSigned\": true}, \"children\": []}, {\"name\": \"values\", \"nullable\": true, \"type\": "
      "{\"name\": "
      "\"bool\"}, \"children\": []}]}]}]}, \"batches\": [{\"count\": 0, \"columns\": [{\"name\": \"s\", "
      "\"count\": "
      "0, \"VALIDITY\": [], \"children\": [{\"name\": \"r\", \"count\": 0, \"children\": [{\"name\": "
      "\"run_ends\", "
      "\"count\": 0, \"VALIDITY\": [], \"DATA\": []}, {\"name\": \"values\", \"count\": 0, \"VALIDITY\": [], "
      "\"DATA\": []}]}]}]}]}";
  assert_padding_declined(text, ARROW_STRUCTURE_RUN_ENDS);
}
END_TEST

int main(void) {
  Suite* suite = suite_create("arrow_json");
  TCase* tc = tcase_create("model");
  tcase_add_test(tc, reads_nested_struct);
  tcase_add_test(tc, reads_dictionaries);
  tcase_add_test(tc, reads_files_of_unknown_size);
  tcase_add_test(tc, rejects_malformed_files_with_a_reason);
  tcase_add_test(tc, reader_errors_are_one_line_of_whole_characters);
  tcase_add_test(tc, reader_refuses_numbers_beyond_int64);
  tcase_add_test(tc, reader_refuses_negative_batch_counts);
  tcase_add_test(tc, reader_reads_long_integer_numbers_exactly);
  tcase_add_test(tc, reader_takes_empty_objects_for_null_intervals);
  tcase_add_test(tc, comparison_reads_layouts_and_sees_changes);
  tcase_add_test(tc, exports_give_back_every_byte);
  tcase_add_test(tc, feed_records_count_without_undefined_behaviour);
  tcase_add_test(tc, comparison_refuses_negative_utf8_offsets);
  tcase_add_test(tc, comparison_accepts_no_bytes_for_empty_strings);
  tcase_add_test(tc, comparison_checks_columns_against_their_batch);
  tcase_add_test(tc, reader_lays_values_out_as_exported);
  tcase_add_test(tc, reader_refuses_inconsistent_layouts);
  tcase_add_test(tc, padding_counts_a_null_childs_padding_rows);
  tcase_add_test(tc, padding_keeps_indices_inside_an_empty_dictionary);
  tcase_add_test(tc, padding_needs_a_run_to_extend);
  suite_add_tcase(suite, tc);
  return run_suite(suite);
}
