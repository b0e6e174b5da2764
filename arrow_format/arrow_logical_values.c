/* The rows of two arrays of one logical type compared as values
 * (arrow_logical.h, clause 5), each array read by its own schema node.
 *
 * Spans of rows go down the tree whole where they can: a span whose rows
 * are valid on both sides is one memcmp for fixed-width values, one for
 * the bytes of binaries whose offsets are the other's moved by a constant,
 * one call per child for a struct.  A dictionary-encoded or run-end
 * encoded side is decoded row by row.  Any span that differs is then read
 * row by row, which finds and names the first difference.  The checks of
 * clause 6 that depend on the values (offsets, views, indices, run ends,
 * type ids, child ranges) are made here, before each read. */
#include <inttypes.h>
#include <string.h>

#include "arrow_format/arrow_binary_value.h"
#include "arrow_format/arrow_json.h"
#include "arrow_format/arrow_logical_tree.h"
#include "arrow_format/arrow_null_count.h"
#include "arrow_format/arrow_value_text.h"

typedef struct logical_side side;

static bool bit_is_set(const void* bitmap, int64_t i) {
  return (((const uint8_t*)bitmap)[i >> 3] >> (i & 7)) & 1;
}

static int64_t load_offset(const void* buffer, int width, int64_t index) {
  return arrow_json_load_int(buffer, width * 8, true, index);
}

static bool is_plain(const struct logical_node* node) {
  return node->dictionary == NULL && !logical_is_run_end_encoded(node);
}

/* Whether slot `p` (the offset added) of a plain array is valid. */
static bool slot_valid(const side* s, int64_t p) {
  enum arrow_layout_id layout = s->node->type.layout;
  if (layout == ARROW_LAYOUT_NULL) return false;
  if (!arrow_layout_has_validity(layout)) return true; /* unions: their children say */
  const void* validity = s->array->buffers[0];
  return validity == NULL || bit_is_set(validity, p);
}

/* Whether rows [row, row + n) of a plain array hold a null. */
static bool has_nulls(const side* s, int64_t row, int64_t n) {
  enum arrow_layout_id layout = s->node->type.layout;
  if (layout == ARROW_LAYOUT_NULL) return n > 0;
  const uint8_t* validity = arrow_layout_has_validity(layout) ? s->array->buffers[0] : NULL;
  /* A null_count of 0 was checked against the bitmap (arrow_logical_structure.c). */
  if (validity == NULL || s->array->null_count == 0) return false;
  return arrow_bitmap_count_nulls(validity, s->array->offset + row, n) > 0;
}

/* spec: a buffer "MAY be null only" when it is the validity bitmap of an
 * array without nulls or has 0 bytes: one a valid row reads must be there. */
static int need(struct logical_report* r, const side* s, int64_t index, const char* what) {
  if (s->array->buffers[index] != NULL) return 0;
  return logical_fail_row(r, "", ": the %s buffer (buffers[%" PRId64 "]) is NULL", what, index);
}

static int compare_span(struct logical_report* r, side a, side b, int64_t a_row, int64_t b_row, int64_t n,
                        int64_t* at);

/* ---- fixed width ---- */

static int compare_fixed(struct logical_report* r, const side* a, const side* b, int64_t pa, int64_t pb,
                         int64_t n, int64_t* at) {
  *at = 0;
  if (need(r, a, 1, "values") != 0 || need(r, b, 1, "values") != 0) return -1;
  const struct arrow_format_type* type = &a->node->type;
  int width = type->value_bytes;
  const uint8_t* got = (const uint8_t*)a->array->buffers[1] + pa * width;
  const uint8_t* want = (const uint8_t*)b->array->buffers[1] + pb * width;
  if (memcmp(got, want, (size_t)(n * width)) == 0) return 0;
  for (int64_t i = 0; i < n; i++, got += width, want += width) {
    if (memcmp(got, want, (size_t)width) == 0 ||
        (arrow_value_is_nan(type->row, width, got) && arrow_value_is_nan(type->row, width, want))) {
      continue;
    }
    char got_text[80], want_text[80];
    arrow_value_text(type->row, width, type->bit_width, type->is_signed, got, got_text, sizeof(got_text));
    arrow_value_text(type->row, width, type->bit_width, type->is_signed, want, want_text, sizeof(want_text));
    *at = i;
    return logical_fail_row(r, "value at ", " is %s, fixture has %s", got_text, want_text);
  }
  return 0;
}

static int compare_bools(struct logical_report* r, const side* a, const side* b, int64_t pa, int64_t pb,
                         int64_t n, int64_t* at) {
  *at = 0;
  if (need(r, a, 1, "values") != 0 || need(r, b, 1, "values") != 0) return -1;
  for (int64_t i = 0; i < n; i++) {
    bool got = bit_is_set(a->array->buffers[1], pa + i);
    bool want = bit_is_set(b->array->buffers[1], pb + i);
    if (got == want) continue;
    *at = i;
    return logical_fail_row(r, "value at ", " is %s, fixture has %s", got ? "true" : "false",
                            want ? "true" : "false");
  }
  return 0;
}

/* ---- binaries and strings ---- */

/* The bytes of slot `p` of a binary or binary view array, checked (clause
 * 6): a pointer and a size, or a difference. */
static int value_bytes(struct logical_report* r, const side* s, int64_t p, const uint8_t** bytes,
                       int64_t* size) {
  if (s->node->type.layout == ARROW_LAYOUT_FIXED_WIDTH) {
    /* A fixed-size binary: `value_bytes` bytes a slot. */
    *size = s->node->type.value_bytes;
    *bytes = (const uint8_t*)s->array->buffers[1] + p * *size;
    return 0;
  }
  struct arrow_binary_value value;
  switch (arrow_binary_value_at(s->node->type.layout, s->array, p, &value)) {
    case ARROW_BINARY_OK:
      *bytes = value.bytes;
      *size = value.size;
      return 0;
    case ARROW_BINARY_NEGATIVE_OFFSET:
      return logical_fail_row(r, "", ": its offset is negative (%" PRId64 ")", value.first);
    case ARROW_BINARY_DECREASING:
      return logical_fail_row(r, "", ": its offsets decrease (%" PRId64 ", then %" PRId64 ")", value.first,
                              value.last);
    case ARROW_BINARY_NO_DATA:
      return need(r, s, value.buffer, value.buffer == 2 ? "data" : "variadic data");
    case ARROW_BINARY_NEGATIVE_SIZE:
      return logical_fail_row(r, "view at ", " has a negative size (%" PRId64 ")", value.size);
    case ARROW_BINARY_NO_VARIADIC:
      return logical_fail_row(r, "view at ", " names variadic buffer %d of %" PRId64, (int)value.index,
                              value.n_variadic);
    case ARROW_BINARY_NO_SIZES:
      return logical_fail_row(r, "", ": the variadic buffer sizes buffer is NULL");
    case ARROW_BINARY_PAST_VARIADIC:
      return logical_fail_row(r, "view at ", " reaches past variadic buffer %d (%" PRId64 " bytes)",
                              (int)value.index, value.buffer_size);
    case ARROW_BINARY_PREFIX:
      break;
  }
  return logical_fail_row(r, "view at ", " has a prefix that differs from its value's first bytes");
}

/* Rows of two binary arrays of one layout (not views), valid on both
 * sides, whose offsets are the other's moved by one constant: the bytes
 * they span compared in one memcmp.  false for anything else, which goes
 * row by row (and names the difference).  `b` is the fixture's, whose
 * offsets its reader checked: each of `a`'s is checked here to be one of
 * them moved, so that `a`'s rows span its bytes as `b`'s span theirs. */
static bool same_binary_span(const side* a, const side* b, int64_t pa, int64_t pb, int64_t n) {
  enum arrow_layout_id layout = a->node->type.layout;
  /* Offsets on both sides (not views, nor fixed-size binaries of two widths). */
  if (layout != b->node->type.layout ||
      (layout != ARROW_LAYOUT_BINARY && layout != ARROW_LAYOUT_LARGE_BINARY))
    return false;
  int width = arrow_layout_of(layout)->offset_bytes;
  const uint8_t* got = (const uint8_t*)a->array->buffers[1] + pa * width;
  const uint8_t* want = (const uint8_t*)b->array->buffers[1] + pb * width;
  int64_t got_start = load_offset(got, width, 0), want_start = load_offset(want, width, 0);
  if (got_start < 0 || want_start < 0) return false;
  int64_t shift = got_start - want_start;
  if (shift == 0) {
    if (memcmp(got, want, (size_t)((n + 1) * width)) != 0) return false;
  } else {
    for (int64_t i = 1; i <= n; i++) {
      int64_t moved = load_offset(got, width, i);
      /* moved - shift, where it is no overflow, is the fixture's offset */
      if (moved < 0 || (shift < 0 && moved > INT64_MAX + shift) ||
          moved - shift != load_offset(want, width, i))
        return false;
    }
  }
  int64_t want_end = load_offset(want, width, n);
  if (want_end < want_start) return false;
  if (want_end == want_start) return true;
  if (a->array->buffers[2] == NULL || b->array->buffers[2] == NULL) return false;
  return memcmp((const uint8_t*)a->array->buffers[2] + want_start + shift,
                (const uint8_t*)b->array->buffers[2] + want_start, (size_t)(want_end - want_start)) == 0;
}

static int compare_binaries(struct logical_report* r, const side* a, const side* b, int64_t pa, int64_t pb,
                            int64_t n, int64_t* at) {
  *at = 0;
  if (need(r, a, 1, a->node->type.layout == ARROW_LAYOUT_BINARY_VIEW ? "views" : "offsets") != 0 ||
      need(r, b, 1, b->node->type.layout == ARROW_LAYOUT_BINARY_VIEW ? "views" : "offsets") != 0) {
    return -1;
  }
  if (same_binary_span(a, b, pa, pb, n)) return 0;
  for (int64_t i = 0; i < n; i++) {
    const uint8_t *got, *want;
    int64_t got_size, want_size;
    *at = i;
    if (value_bytes(r, a, pa + i, &got, &got_size) != 0 || value_bytes(r, b, pb + i, &want, &want_size) != 0)
      return -1;
    if (got_size == want_size && memcmp(got, want, (size_t)got_size) == 0) continue;
    /* Printed as text: a binary value shows its bytes no worse than a
     * reader needs to see they differ. */
    return logical_fail_row(r, "value at ", " is \"%.*s\" (%" PRId64 " bytes), fixture has \"%.*s\"",
                            (int)(got_size > 64 ? 64 : got_size), (const char*)got, got_size,
                            (int)(want_size > 64 ? 64 : want_size), (const char*)want);
  }
  return 0;
}

/* ---- nested ---- */

static side child_of(const side* s, int64_t index) {
  return (side){&s->node->children[index], s->array->children[index]};
}

/* The child rows of list slot `p`: a list's or map's offsets, or a list
 * view's offset and size (Columnar.rst, "ListView Layout"). */
static int list_range(struct logical_report* r, const side* s, int64_t p, int64_t* start, int64_t* size) {
  enum arrow_layout_id layout = s->node->type.layout;
  int width = arrow_layout_of(layout)->offset_bytes;
  const struct ArrowArray* array = s->array;
  *start = load_offset(array->buffers[1], width, p);
  if (*start < 0) return logical_fail_row(r, "", ": its offset is negative (%" PRId64 ")", *start);
  if (layout == ARROW_LAYOUT_LIST_VIEW || layout == ARROW_LAYOUT_LARGE_LIST_VIEW) {
    *size = load_offset(array->buffers[2], width, p);
    if (*size < 0) return logical_fail_row(r, "", ": its size is negative (%" PRId64 ")", *size);
    return 0;
  }
  int64_t end = load_offset(array->buffers[1], width, p + 1);
  if (end < *start)
    return logical_fail_row(r, "", ": its offsets decrease (%" PRId64 ", then %" PRId64 ")", *start, end);
  *size = end - *start;
  return 0;
}

static int need_list_buffers(struct logical_report* r, const side* s) {
  enum arrow_layout_id layout = s->node->type.layout;
  if (need(r, s, 1, "offsets") != 0) return -1;
  if (layout == ARROW_LAYOUT_LIST_VIEW || layout == ARROW_LAYOUT_LARGE_LIST_VIEW)
    return need(r, s, 2, "sizes");
  return 0;
}

/* Lists (of any of the list layouts on either side) and maps, a list of
 * their entries (Columnar.rst, "Map"). */
static int compare_lists(struct logical_report* r, const side* a, const side* b, int64_t pa, int64_t pb,
                         int64_t n, int64_t* at) {
  *at = 0;
  if (need_list_buffers(r, a) != 0 || need_list_buffers(r, b) != 0) return -1;
  const char* what = b->node->type.layout == ARROW_LAYOUT_MAP ? "entry" : "item";
  for (int64_t i = 0; i < n; i++) {
    int64_t got_start, got_size, want_start, want_size, item;
    *at = i;
    if (list_range(r, a, pa + i, &got_start, &got_size) != 0 ||
        list_range(r, b, pb + i, &want_start, &want_size) != 0) {
      return -1;
    }
    if (got_size != want_size) {
      return logical_fail_row(r, "list at ", " has %" PRId64 " items, fixture has %" PRId64, got_size,
                              want_size);
    }
    int mark = logical_push(r, what, NULL, -1);
    if (compare_span(r, child_of(a, 0), child_of(b, 0), got_start, want_start, got_size, &item) != 0) {
      logical_set_index(r, mark, item);
      return -1;
    }
    logical_pop(r, mark);
  }
  return 0;
}

/* spec (Columnar.rst, "Fixed-Size List Layout"): slot p's items are the
 * child's rows p * size to (p + 1) * size - 1. */
static int compare_fixed_size_lists(struct logical_report* r, const side* a, const side* b, int64_t pa,
                                    int64_t pb, int64_t n, int64_t* at) {
  int64_t size = b->node->type.list_size, item;
  int mark = logical_push(r, "item", NULL, -1);
  if (compare_span(r, child_of(a, 0), child_of(b, 0), pa * size, pb * size, n * size, &item) != 0) {
    logical_set_index(r, mark, size > 0 ? item % size : 0);
    *at = size > 0 ? item / size : 0;
    return -1;
  }
  logical_pop(r, mark);
  return 0;
}

/* A struct's slot p is row p of each child (its offset applies to them). */
static int compare_structs(struct logical_report* r, const side* a, const side* b, int64_t pa, int64_t pb,
                           int64_t n, int64_t* at) {
  for (int64_t i = 0; i < b->node->n_children; i++) {
    int mark = logical_push(r, "child", logical_name(&b->node->children[i]), -1);
    if (compare_span(r, child_of(a, i), child_of(b, i), pa, pb, n, at) != 0) return -1;
    logical_pop(r, mark);
  }
  return 0;
}

/* spec (Columnar.rst, "Union Layout"): the type id says the child; a
 * sparse union's slot p is the child's row p, a dense union's the row its
 * offset says. */
static int union_child_row(struct logical_report* r, const side* s, int64_t p, int8_t* type_id,
                           int64_t* child, int64_t* row) {
  const struct arrow_format_type* type = &s->node->type;
  *type_id = ((const int8_t*)s->array->buffers[0])[p];
  for (*child = 0; *child < type->n_type_ids && type->type_ids[*child] != *type_id; (*child)++) {
  }
  if (*child == type->n_type_ids)
    return logical_fail_row(r, "type id at ", " is %d, not one of the type's", (int)*type_id);
  if (type->layout == ARROW_LAYOUT_SPARSE_UNION) {
    *row = p;
    return 0;
  }
  *row = ((const int32_t*)s->array->buffers[1])[p];
  if (*row < 0) return logical_fail_row(r, "", ": its offset is negative (%" PRId64 ")", *row);
  return 0;
}

static int compare_unions(struct logical_report* r, const side* a, const side* b, int64_t pa, int64_t pb,
                          int64_t n, int64_t* at) {
  *at = 0;
  bool dense = a->node->type.layout == ARROW_LAYOUT_DENSE_UNION;
  if (need(r, a, 0, "type ids") != 0 || need(r, b, 0, "type ids") != 0 ||
      (dense && (need(r, a, 1, "offsets") != 0 || need(r, b, 1, "offsets") != 0))) {
    return -1;
  }
  for (int64_t i = 0; i < n; i++) {
    int8_t got_id, want_id;
    int64_t got_child, got_row, want_child, want_row, inner;
    *at = i;
    if (union_child_row(r, a, pa + i, &got_id, &got_child, &got_row) != 0 ||
        union_child_row(r, b, pb + i, &want_id, &want_child, &want_row) != 0) {
      return -1;
    }
    if (got_id != want_id)
      return logical_fail_row(r, "type id at ", " is %d, fixture has %d", (int)got_id, (int)want_id);
    int mark = logical_push(r, "child", logical_name(&b->node->children[want_child]), -1);
    if (compare_span(r, child_of(a, got_child), child_of(b, want_child), got_row, want_row, 1, &inner) != 0)
      return -1;
    logical_pop(r, mark);
  }
  return 0;
}

/* Slots [pa, pa + n) of `a` and [pb, pb + n) of `b`, plain and valid on
 * both sides. */
static int compare_valid(struct logical_report* r, const side* a, const side* b, int64_t pa, int64_t pb,
                         int64_t n, int64_t* at) {
  /* A fixed-size binary beside another binary (of another width, or
   * variable-size): value by value. */
  if (a->node->type.layout != b->node->type.layout ||
      a->node->type.value_bytes != b->node->type.value_bytes) {
    if (a->node->type.row->kind == ARROW_JSON_FIXED_SIZE_BINARY ||
        b->node->type.row->kind == ARROW_JSON_FIXED_SIZE_BINARY) {
      return compare_binaries(r, a, b, pa, pb, n, at);
    }
  }
  switch (a->node->type.layout) {
    case ARROW_LAYOUT_NULL:
      return 0;
    case ARROW_LAYOUT_BOOL:
      return compare_bools(r, a, b, pa, pb, n, at);
    case ARROW_LAYOUT_FIXED_WIDTH:
      return compare_fixed(r, a, b, pa, pb, n, at);
    case ARROW_LAYOUT_BINARY:
    case ARROW_LAYOUT_LARGE_BINARY:
    case ARROW_LAYOUT_BINARY_VIEW:
      return compare_binaries(r, a, b, pa, pb, n, at);
    case ARROW_LAYOUT_LIST:
    case ARROW_LAYOUT_LARGE_LIST:
    case ARROW_LAYOUT_LIST_VIEW:
    case ARROW_LAYOUT_LARGE_LIST_VIEW:
    case ARROW_LAYOUT_MAP:
      return compare_lists(r, a, b, pa, pb, n, at);
    case ARROW_LAYOUT_FIXED_SIZE_LIST:
      return compare_fixed_size_lists(r, a, b, pa, pb, n, at);
    case ARROW_LAYOUT_STRUCT:
      return compare_structs(r, a, b, pa, pb, n, at);
    case ARROW_LAYOUT_SPARSE_UNION:
    case ARROW_LAYOUT_DENSE_UNION:
      return compare_unions(r, a, b, pa, pb, n, at);
    case ARROW_LAYOUT_RUN_END_ENCODED:
    case ARROW_LAYOUT_COUNT:
      break;
  }
  *at = 0;
  return logical_fail_row(r, "", ": a layout the comparison does not read");
}

/* ---- rows ---- */

static int null_differs(struct logical_report* r, bool got_valid, int64_t i, int64_t* at) {
  *at = i;
  return logical_fail_row(r, "", " is %s, fixture has it %s", got_valid ? "valid" : "null",
                          got_valid ? "null" : "valid");
}

/* Whether bits [pa, pa + n) of `a` are bits [pb, pb + n) of `b`: bytes at
 * once where both start at the same bit of a byte, else bit by bit. */
static bool same_bits(const uint8_t* a, int64_t pa, const uint8_t* b, int64_t pb, int64_t n) {
  int64_t i = 0;
  if ((pa & 7) == (pb & 7)) {
    for (; i < n && ((pa + i) & 7) != 0; i++) {
      if (bit_is_set(a, pa + i) != bit_is_set(b, pb + i)) return false;
    }
    int64_t bytes = (n - i) / 8;
    if (memcmp(a + ((pa + i) >> 3), b + ((pb + i) >> 3), (size_t)bytes) != 0) return false;
    i += 8 * bytes;
  }
  for (; i < n; i++) {
    if (bit_is_set(a, pa + i) != bit_is_set(b, pb + i)) return false;
  }
  return true;
}

/* Fixed-width rows with nulls whose validity bits and values bytes are the
 * same on both sides, those under the nulls included: equal without a
 * look at each row (an export that keeps the fixture's bytes).  false for
 * anything else, which goes run by run. */
static bool same_fixed_bytes(const side* a, const side* b, int64_t pa, int64_t pb, int64_t n) {
  const struct ArrowArray *x = a->array, *y = b->array;
  if (a->node->type.layout != ARROW_LAYOUT_FIXED_WIDTH || b->node->type.layout != ARROW_LAYOUT_FIXED_WIDTH ||
      x->buffers[0] == NULL || y->buffers[0] == NULL || x->buffers[1] == NULL || y->buffers[1] == NULL) {
    return false;
  }
  /* Of one width: a fixed-size binary of 2 bytes against one of 3 holds
   * other values, and its buffer is shorter. */
  int width = a->node->type.value_bytes;
  if (b->node->type.value_bytes != width) return false;
  return same_bits(x->buffers[0], pa, y->buffers[0], pb, n) &&
         memcmp((const uint8_t*)x->buffers[1] + pa * width, (const uint8_t*)y->buffers[1] + pb * width,
                (size_t)(n * width)) == 0;
}

/* The bitmap a plain side's rows are valid by, NULL where all are (a
 * layout without one, or none given: null_count 0). */
static const uint8_t* validity_of(const side* s) {
  return arrow_layout_has_validity(s->node->type.layout) ? s->array->buffers[0] : NULL;
}

/* Both sides plain: the runs of rows valid on both compared as spans. */
static int compare_plain(struct logical_report* r, const side* a, const side* b, int64_t a_row, int64_t b_row,
                         int64_t n, int64_t* at) {
  int64_t pa = a->array->offset + a_row, pb = b->array->offset + b_row, inner;
  if (!has_nulls(a, a_row, n) && !has_nulls(b, b_row, n)) return compare_valid(r, a, b, pa, pb, n, at);
  /* A null-typed row is null on both sides (the types are one). */
  if (a->node->type.layout == ARROW_LAYOUT_NULL || same_fixed_bytes(a, b, pa, pb, n)) return 0;
  const uint8_t* got_validity = validity_of(a);
  const uint8_t* want_validity = validity_of(b);
  for (int64_t i = 0; i < n;) {
    int64_t run = i;
    while (run < n && (got_validity == NULL || bit_is_set(got_validity, pa + run)) &&
           (want_validity == NULL || bit_is_set(want_validity, pb + run))) {
      run++;
    }
    if (run > i && compare_valid(r, a, b, pa + i, pb + i, run - i, &inner) != 0) {
      *at = i + inner;
      return -1;
    }
    if (run == n) break;
    bool got = slot_valid(a, pa + run);
    if (got != slot_valid(b, pb + run)) return null_differs(r, got, run, at);
    i = run + 1; /* null on both sides */
  }
  return 0;
}

/* Row `*row` of `*s`, followed through dictionaries and run ends to the
 * plain array holding its value (clause 5): `*s` and `*row` become that
 * array and row, `*is_null` whether the row is null.  0, or -1 with the
 * difference. */
static int resolve(struct logical_report* r, side* s, int64_t* row, bool* is_null) {
  for (;;) {
    const struct logical_node* node = s->node;
    const struct ArrowArray* array = s->array;
    int64_t p = array->offset + *row;
    if (node->dictionary != NULL) {
      if (!slot_valid(s, p)) {
        *is_null = true;
        return 0;
      }
      if (need(r, s, 1, "indices") != 0) return -1;
      int64_t index = arrow_json_load_int(array->buffers[1], node->type.bit_width, node->type.is_signed, p);
      /* spec (Columnar.rst, "Dictionary-encoded Layout"): the indices are
       * non-negative integers, each a row of the dictionary. */
      if (index < 0 || index >= array->dictionary->length) {
        return logical_fail_row(r, "dictionary index at ",
                                " is %" PRId64 ", outside the dictionary's %" PRId64 " values", index,
                                array->dictionary->length);
      }
      *s = (side){node->dictionary, array->dictionary};
      *row = index;
    } else if (logical_is_run_end_encoded(node)) {
      const struct ArrowArray* ends = array->children[0];
      const struct ArrowArray* values = array->children[1];
      if (ends->length > 0 && ends->buffers[1] == NULL)
        return logical_fail_row(r, "", ": the run ends' values buffer is NULL");
      int64_t run = arrow_json_find_run(ends->buffers[1], node->children[0].type.bit_width, ends->offset,
                                        ends->length, p);
      if (run < 0)
        return logical_fail_row(r, "", " is past the last run end (%" PRId64 " runs)", ends->length);
      if (run >= values->length)
        return logical_fail_row(r, "", " is in run %" PRId64 ", past the %" PRId64 " values", run,
                                values->length);
      *s = (side){&node->children[1], values};
      *row = run;
    } else {
      *is_null = !slot_valid(s, p);
      return 0;
    }
  }
}

/* A side dictionary-encoded or run-end encoded: row by row, decoded. */
static int compare_decoded(struct logical_report* r, const side* a, const side* b, int64_t a_row,
                           int64_t b_row, int64_t n, int64_t* at) {
  for (int64_t i = 0; i < n; i++) {
    side got = *a, want = *b;
    int64_t got_row = a_row + i, want_row = b_row + i, inner;
    bool got_null, want_null;
    *at = i;
    if (resolve(r, &got, &got_row, &got_null) != 0 || resolve(r, &want, &want_row, &want_null) != 0)
      return -1;
    if (got_null != want_null) return null_differs(r, !got_null, i, at);
    if (got_null) continue;
    if (compare_valid(r, &got, &want, got.array->offset + got_row, want.array->offset + want_row, 1,
                      &inner) != 0)
      return -1;
  }
  return 0;
}

/* Rows [row, row + n) must be rows of the array (an empty range may
 * start at its end). */
static int check_range(struct logical_report* r, const side* s, int64_t row, int64_t n) {
  if (row >= 0 && n >= 0 && row <= s->array->length - n) return 0;
  if (n == 0) {
    return logical_fail_row(r, "",
                            " starts past the end of an array of %" PRId64 " rows (at row %" PRId64 ")",
                            s->array->length, row);
  }
  return logical_fail_row(
      r, "", " reaches past the end of an array of %" PRId64 " rows (rows %" PRId64 " to %" PRId64 ")",
      s->array->length, row, row + n - 1);
}

static int compare_span(struct logical_report* r, side a, side b, int64_t a_row, int64_t b_row, int64_t n,
                        int64_t* at) {
  *at = 0;
  if (check_range(r, &a, a_row, n) != 0 || check_range(r, &b, b_row, n) != 0) return -1;
  if (n == 0) return 0;
  if (is_plain(a.node) && is_plain(b.node)) return compare_plain(r, &a, &b, a_row, b_row, n, at);
  return compare_decoded(r, &a, &b, a_row, b_row, n, at);
}

int logical_compare_rows(struct logical_report* r, struct logical_side a, struct logical_side b,
                         int64_t a_row, int64_t b_row, int64_t n, int64_t* at) {
  return compare_span(r, a, b, a_row, b_row, n, at);
}
