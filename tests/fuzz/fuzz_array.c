#include "fuzz_array.h"

#include <string.h>

/* How deep a tree may go: deeper than any fixture, shallow enough to stay fast. */
#define MAX_DEPTH 5
/* Rows a node may have beyond those the fixture reads: few, to stay fast. */
#define MAX_EXTRA_ROWS 64

/* What the comparison will read at a node's place. */
struct expected {
  const struct arrow_json_type* type;     /* the layout it reads; NULL: it reads nothing here */
  const struct arrow_json_column* column; /* the fixture's rows, or NULL (a record batch, nothing) */
  int64_t rows;                           /* how many rows it reads */
  const struct arrow_json_field* children;
  const struct arrow_json_column* child_columns; /* NULL where the fixture has no rows */
  int64_t n_children;
  const struct arrow_json_type* dictionary; /* the values' type, for a dictionary-encoded field */
  const struct arrow_json_column* dictionary_values;
};

struct builder {
  struct fuzz_bytes* in;
  struct fuzz_arena* arena;
  const struct arrow_json_file* file;
};

/* Which members of a node depart from the fixture's shape, one bit each. */
enum departure {
  OTHER_LAYOUT = 1 << 0,
  WILD_NUMBERS = 1 << 1,
  WITH_OFFSET = 1 << 2,
  OTHER_LENGTH = 1 << 3,
  OTHER_BUFFER_COUNT = 1 << 4,
  NULL_BUFFER = 1 << 5,
  CORRUPT_BUFFER = 1 << 6,
  OTHER_CHILD_COUNT = 1 << 7,
  NULL_CHILD = 1 << 8,
  OTHER_DICTIONARY = 1 << 9,
  ARBITRARY_CONTENTS = 1 << 10,
  NULL_RELEASE = 1 << 11,
};

static void release_nothing(struct ArrowArray* array) {
  /* The arena frees the blocks; a release still marks the array released. */
  array->release = NULL;
}

static const struct arrow_json_type struct_type = {.kind = ARROW_JSON_STRUCT};

static struct expected expect_field(const struct builder* b, const struct arrow_json_field* field,
                                    const struct arrow_json_column* column) {
  struct expected e = {0};
  e.type = field->is_dictionary ? &field->index_type : &field->type;
  e.column = column;
  e.rows = column != NULL ? column->length : 0;
  if (field->type.kind == ARROW_JSON_STRUCT && !field->is_dictionary) {
    e.children = field->children;
    e.child_columns = column != NULL ? column->children : NULL;
    e.n_children = field->n_children;
  }
  if (field->is_dictionary) {
    e.dictionary = &field->type;
    e.dictionary_values = arrow_json_dictionary_values(b->file, field);
  }
  return e;
}

/* The fixture's integer at row `i` of the column `e` reads. */
static int64_t fixture_int(const struct expected* e, int64_t i) {
  return arrow_json_load_int(e->column->buffers[1].bytes, e->type->bit_width, e->type->is_signed, i);
}

/* The fixture's utf8 offsets and characters, or NULL for another type. */
static const int32_t* fixture_offsets(const struct expected* e) {
  if (e->column == NULL || e->type == NULL || e->type->kind != ARROW_JSON_UTF8) return NULL;
  return (const int32_t*)e->column->buffers[1].bytes;
}

static const char* fixture_characters(const struct expected* e) {
  return (const char*)e->column->buffers[2].bytes;
}

static int64_t buffer_count(const struct arrow_json_type* layout) {
  return layout->kind == ARROW_JSON_UTF8 ? 3 : layout->kind == ARROW_JSON_STRUCT ? 1 : 2;
}

/* The layout of a node: the fixture's, or another kind (whose buffer count
 * differs, so the comparison refuses it before reading a buffer). */
static struct arrow_json_type pick_layout(struct builder* b, const struct expected* e, unsigned departs) {
  if (e->type != NULL && !(departs & OTHER_LAYOUT)) return *e->type;
  static const int widths[] = {8, 16, 32, 64};
  static const enum arrow_json_kind kinds[] = {ARROW_JSON_INT, ARROW_JSON_UTF8, ARROW_JSON_STRUCT};
  struct arrow_json_type layout = {.kind = kinds[fuzz_byte(b->in) % 3]};
  layout.bit_width = widths[fuzz_byte(b->in) % 4];
  layout.is_signed = true;
  if (e->type != NULL && layout.kind == e->type->kind) layout = *e->type;
  return layout;
}

/* Row `row` of the fixture's column sits at `first + row` in the buffers,
 * when the node has that many rows. */
struct placement {
  int64_t first; /* offset + the shift the comparison adds */
  int64_t rows;  /* offset + length: the rows the buffers hold */
};

static bool placed(const struct placement* p, int64_t row) {
  return p->first + row < p->rows;
}

static uint8_t* validity_bitmap(struct builder* b, const struct expected* e, const struct placement* p,
                                bool fixture_contents) {
  size_t size = (size_t)(p->rows + 7) / 8;
  uint8_t* bitmap = fuzz_alloc(b->arena, size);
  fuzz_fill(b->in, bitmap, size);
  if (!fixture_contents || e->column == NULL) return bitmap;
  for (int64_t i = 0; i < e->column->length && placed(p, i); i++) {
    int64_t bit = p->first + i;
    if (e->column->validity[i]) {
      bitmap[bit / 8] |= (uint8_t)(1u << (bit % 8));
    } else {
      bitmap[bit / 8] &= (uint8_t) ~(1u << (bit % 8));
    }
  }
  return bitmap;
}

static void* int_values(struct builder* b, const struct expected* e, const struct arrow_json_type* layout,
                        const struct placement* p, bool fixture_contents) {
  size_t size = (size_t)p->rows * (size_t)(layout->bit_width / 8);
  void* data = fuzz_alloc(b->arena, size);
  fuzz_fill(b->in, data, size);
  if (!fixture_contents || e->column == NULL || e->type->kind != ARROW_JSON_INT) return data;
  for (int64_t i = 0; i < e->column->length && placed(p, i); i++) {
    arrow_json_store_int(data, layout->bit_width, p->first + i, fixture_int(e, i));
  }
  return data;
}

/* The fixture's string at buffer row `row`, or -1 when it has none there. */
static int64_t fixture_row(const struct expected* e, const struct placement* p, int64_t row) {
  int64_t i = row - p->first;
  return fixture_offsets(e) != NULL && i >= 0 && i < e->column->length ? i : -1;
}

static int32_t* utf8_offsets(struct builder* b, const struct expected* e, const struct placement* p,
                             bool fixture_contents) {
  int32_t* offsets = fuzz_alloc(b->arena, (size_t)(p->rows + 1) * sizeof(int32_t));
  if (!fixture_contents) {
    /* Anything a 16-bit value holds: negative, decreasing, up to 32 KiB. */
    for (int64_t j = 0; j <= p->rows; j++) offsets[j] = (int16_t)fuzz_range(b->in, 0, UINT16_MAX);
    return offsets;
  }
  int32_t position = (int32_t)fuzz_range(b->in, 0, 3);
  for (int64_t j = 0; j <= p->rows; j++) {
    offsets[j] = position;
    int64_t i = fixture_row(e, p, j);
    position += i >= 0 ? fixture_offsets(e)[i + 1] - fixture_offsets(e)[i] : (int32_t)fuzz_range(b->in, 0, 3);
  }
  return offsets;
}

static char* utf8_bytes(struct builder* b, const struct expected* e, const struct placement* p,
                        const int32_t* offsets, bool fixture_contents) {
  /* The bytes reach exactly as far as the largest offset. */
  int32_t size = 0;
  for (int64_t j = 0; j <= p->rows; j++) size = offsets[j] > size ? offsets[j] : size;
  if (size == 0 && fuzz_byte(b->in) % 2) return NULL; /* spec: a buffer of size 0 may be NULL */
  char* bytes = fuzz_alloc(b->arena, (size_t)size);
  fuzz_fill(b->in, bytes, (size_t)size);
  if (!fixture_contents) return bytes;
  for (int64_t j = 0; j < p->rows; j++) {
    int64_t i = fixture_row(e, p, j);
    if (i < 0) continue;
    const int32_t* fixture = fixture_offsets(e);
    int32_t length = fixture[i + 1] - fixture[i];
    if (offsets[j] >= 0 && offsets[j] <= size - length) {
      memcpy(bytes + offsets[j], fixture_characters(e) + fixture[i], (size_t)length);
    }
  }
  return bytes;
}

/* Changes one byte of `buffer` (of `size` bytes), or one utf8 offset to a
 * value a producer might get wrong (a later utf8_bytes sizes the bytes to it). */
static void corrupt(struct builder* b, void* buffer, size_t size) {
  if (buffer == NULL || size == 0) return;
  ((uint8_t*)buffer)[fuzz_range(b->in, 0, (int64_t)size - 1)] ^= (uint8_t)(fuzz_byte(b->in) | 1);
}

static void corrupt_offset(struct builder* b, int32_t* offsets, int64_t rows) {
  static const int64_t odd[] = {-1, INT32_MIN, 0, 1, 100, 40000, INT16_MIN};
  offsets[fuzz_range(b->in, 0, rows)] = (int32_t)fuzz_pick(b->in, odd, sizeof(odd) / sizeof(odd[0]));
}

static void fill_buffers(struct builder* b, const struct expected* e, const struct arrow_json_type* layout,
                         const struct placement* p, unsigned departs, const void** buffers) {
  bool fixture_contents = !(departs & ARBITRARY_CONTENTS);
  /* A validity bitmap where the fixture has rows (a record batch has
   * none), and the other way round now and then. */
  bool odd_validity = fuzz_byte(b->in) % 4 == 3;
  bool with_validity = (e->column != NULL) != odd_validity;
  uint8_t* validity = with_validity ? validity_bitmap(b, e, p, fixture_contents) : NULL;
  buffers[0] = validity;
  if (departs & CORRUPT_BUFFER && fuzz_byte(b->in) % 3 == 0) corrupt(b, validity, (size_t)(p->rows + 7) / 8);
  if (layout->kind == ARROW_JSON_INT) {
    void* data = int_values(b, e, layout, p, fixture_contents);
    if (departs & CORRUPT_BUFFER) corrupt(b, data, (size_t)p->rows * (size_t)(layout->bit_width / 8));
    buffers[1] = data;
  } else if (layout->kind == ARROW_JSON_UTF8) {
    int32_t* offsets = utf8_offsets(b, e, p, fixture_contents);
    if (departs & CORRUPT_BUFFER && fuzz_byte(b->in) % 2) corrupt_offset(b, offsets, p->rows);
    buffers[1] = offsets;
    buffers[2] = utf8_bytes(b, e, p, offsets, fixture_contents);
  }
}

static int64_t null_count(struct builder* b, const uint8_t* validity, int64_t offset, int64_t length) {
  static const int64_t odd[] = {-1, -2, 1, 3, INT64_MIN, INT64_MAX};
  if (fuzz_byte(b->in) % 4 == 3) return fuzz_pick(b->in, odd, sizeof(odd) / sizeof(odd[0]));
  int64_t nulls = 0;
  for (int64_t i = offset; validity != NULL && i < offset + length; i++)
    nulls += !((validity[i / 8] >> (i % 8)) & 1);
  return nulls;
}

static struct ArrowArray* build_node(struct builder* b, const struct expected* e, int64_t shift, int depth);

static void build_children(struct builder* b, const struct expected* e, const struct arrow_json_type* layout,
                           unsigned departs, int64_t child_shift, int depth, struct ArrowArray* array) {
  /* Where the fixture has children they are shaped after them, whatever
   * the node's own layout: the mirror copies the children of a node whose
   * buffers it refused, as the fixture's types say. */
  bool as_fixture = e->type != NULL && e->type->kind == ARROW_JSON_STRUCT;
  if (departs & OTHER_CHILD_COUNT) {
    array->n_children = fuzz_range(b->in, 0, 3);
  } else {
    array->n_children = as_fixture                          ? e->n_children
                        : layout->kind == ARROW_JSON_STRUCT ? fuzz_range(b->in, 0, 2)
                                                            : 0;
  }
  if (depth >= MAX_DEPTH) array->n_children = 0;
  if (array->n_children == 0 || (departs & NULL_CHILD && fuzz_byte(b->in) % 4 == 0)) return;
  struct ArrowArray** children = fuzz_zalloc(b->arena, (size_t)array->n_children * sizeof(*children));
  array->children = children;
  for (int64_t i = 0; i < array->n_children; i++) {
    if (departs & NULL_CHILD && fuzz_byte(b->in) % 8 == 0) continue;
    struct expected child = {0};
    if (as_fixture && i < e->n_children) {
      child = expect_field(b, &e->children[i], e->child_columns != NULL ? &e->child_columns[i] : NULL);
    }
    children[i] = build_node(b, &child, child_shift, depth + 1);
  }
}

static void build_dictionary(struct builder* b, const struct expected* e, unsigned departs, int depth,
                             struct ArrowArray* array) {
  bool with_dictionary = (e->dictionary != NULL) != ((departs & OTHER_DICTIONARY) != 0);
  if (!with_dictionary || depth >= MAX_DEPTH) return;
  struct expected values = {0};
  if (e->dictionary != NULL) {
    values.type = e->dictionary;
    values.column = e->dictionary_values;
    values.rows = e->dictionary_values != NULL ? e->dictionary_values->length : 0;
  }
  array->dictionary = build_node(b, &values, 0, depth + 1);
}

/* `shift` is what the comparison adds to the node's offset: the offset of
 * the parent it reads the node through (its child view). */
static struct ArrowArray* build_node(struct builder* b, const struct expected* e, int64_t shift, int depth) {
  struct ArrowArray* array = fuzz_zalloc(b->arena, sizeof(*array));
  /* Two bytes say which members depart from the fixture's shape; 0 bytes
   * (or the end of the input) give the fixture's shape throughout. */
  unsigned departs = fuzz_byte(b->in);
  departs |= (unsigned)fuzz_byte(b->in) << 8;
  struct arrow_json_type layout = pick_layout(b, e, departs);
  int64_t layout_buffers = buffer_count(&layout);

  bool wild = departs & WILD_NUMBERS && fuzz_byte(b->in) % 4 == 0;
  if (wild) {
    static const int64_t numbers[] = {
        INT64_MIN,     INT64_MIN + 1,   -1, 0, 1, INT32_MAX, (int64_t)INT32_MAX + 1, INT64_MAX,
        INT64_MAX - 1, INT64_C(1) << 40};
    array->offset = fuzz_pick(b->in, numbers, sizeof(numbers) / sizeof(numbers[0]));
    array->length = fuzz_pick(b->in, numbers, sizeof(numbers) / sizeof(numbers[0]));
  } else {
    array->offset = departs & WITH_OFFSET ? fuzz_range(b->in, 0, 7) : 0;
    int64_t wanted = e->type != NULL ? shift + e->rows : fuzz_range(b->in, 0, 16);
    array->length = departs & OTHER_LENGTH ? fuzz_range(b->in, 0, wanted + MAX_EXTRA_ROWS) : wanted;
  }

  array->n_buffers = departs & OTHER_BUFFER_COUNT ? fuzz_range(b->in, 0, 4) : layout_buffers;
  if (array->n_buffers > 0 && !(departs & NULL_BUFFER && fuzz_byte(b->in) % 4 == 0)) {
    const void** buffers = fuzz_zalloc(b->arena, (size_t)array->n_buffers * sizeof(*buffers));
    /* Buffers only where the node's numbers say how large they are and its
     * count says what they are; NULL everywhere else. */
    if (!wild && array->n_buffers == layout_buffers) {
      struct placement p = {array->offset + shift, array->offset + array->length};
      fill_buffers(b, e, &layout, &p, departs, buffers);
      if (departs & NULL_BUFFER) buffers[fuzz_range(b->in, 0, layout_buffers - 1)] = NULL;
    }
    array->buffers = buffers;
  }
  array->null_count = wild || array->buffers == NULL
                          ? fuzz_range(b->in, -1, 1)
                          : null_count(b, array->buffers[0], array->offset, array->length);

  /* Children are read through the parent's offset; a shift no allocation
   * of a child could cover is not aimed for. */
  int64_t child_shift = !wild && array->offset + shift <= MAX_EXTRA_ROWS ? array->offset + shift : 0;
  build_children(b, e, &layout, departs, child_shift, depth, array);
  build_dictionary(b, e, departs, depth, array);
  array->release = departs & NULL_RELEASE && fuzz_byte(b->in) % 8 == 0 ? NULL : release_nothing;
  return array;
}

struct ArrowArray* fuzz_array_for_batch(struct fuzz_bytes* in, struct fuzz_arena* arena,
                                        const struct arrow_json_file* file, int64_t batch) {
  struct builder b = {in, arena, file};
  /* Shaped after the fields even for a batch the fixture lacks: the mirror
   * copies a batch's children as the fields say, whatever its number. */
  struct expected e = {.type = &struct_type, .children = file->fields, .n_children = file->n_fields};
  if (batch >= 0 && batch < file->n_batches) {
    e.rows = file->batches[batch].length;
    e.child_columns = file->batches[batch].columns;
  }
  return build_node(&b, &e, 0, 0);
}

struct ArrowArray* fuzz_array_for_column(struct fuzz_bytes* in, struct fuzz_arena* arena,
                                         const struct arrow_json_file* file,
                                         const struct arrow_json_field* field,
                                         const struct arrow_json_column* column) {
  struct builder b = {in, arena, file};
  struct expected e = expect_field(&b, field, column);
  return build_node(&b, &e, 0, 0);
}

struct ArrowArray* fuzz_array_for_values(struct fuzz_bytes* in, struct fuzz_arena* arena,
                                         const struct arrow_json_type* type,
                                         const struct arrow_json_column* values) {
  struct builder b = {in, arena, NULL};
  struct expected e = {.type = type, .column = values, .rows = values != NULL ? values->length : 0};
  return build_node(&b, &e, 0, 0);
}
