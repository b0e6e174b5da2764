/* arrow_structure_break (arrow_structure.h): one edit per family of the
 * structural invariants, made where no valid row reads, so that the values
 * a consumer reads stay the fixture's and only the family's rule can tell.
 * The deliberately broken producers export the edited model (their
 * spoil_model hook), and the consumer feed hands it to consumers.
 *
 * The model holds each column from row 0 (arrow_json.h), with a byte of
 * validity per row; every edit below keeps the column's own buffers
 * consistent with its length and null count. */
#include <stdlib.h>
#include <string.h>

#include "arrow_format/arrow_structure.h"

static int offset_bytes(const struct arrow_json_type* type) {
  return arrow_layout_of(type->layout)->offset_bytes;
}

/* A null slot whose offsets can move without moving a valid slot's: its
 * end when the next slot is null too (or it is the last), brought below
 * its start; else its start, when the slot before is null (or it is the
 * first), made negative. */
static bool break_offsets(const struct arrow_json_type* type, struct arrow_json_column* column) {
  int width = offset_bytes(type);
  for (int64_t j = 0; j < column->length; j++) {
    if (arrow_json_row_valid(column, j)) continue;
    int64_t start = arrow_json_column_offset(column, 1, width, j);
    if (start >= 1 && (j + 1 == column->length || !arrow_json_row_valid(column, j + 1))) {
      arrow_json_store_int(column->buffers[1].bytes, width * 8, j + 1, start - 1);
      return true;
    }
    if (j == 0 || !arrow_json_row_valid(column, j - 1)) {
      arrow_json_store_int(column->buffers[1].bytes, width * 8, j, -1);
      return true;
    }
  }
  return false;
}

/* A null list view reaching past its child. */
static bool break_list_view(const struct arrow_json_type* type, struct arrow_json_column* column) {
  int width = offset_bytes(type);
  for (int64_t j = 0; j < column->length; j++) {
    if (arrow_json_row_valid(column, j)) continue;
    arrow_json_store_int(column->buffers[2].bytes, width * 8, j, column->children[0].length + 1);
    return true;
  }
  return false;
}

/* A column cut to `length` rows: its null count follows; its buffers,
 * longer than needed, stay. */
static void shorten(const struct arrow_json_type* type, struct arrow_json_column* column, int64_t length) {
  column->length = length;
  if (type->layout == ARROW_LAYOUT_NULL) {
    column->null_count = length;
  } else if (column->validity != NULL) {
    column->null_count = 0;
    for (int64_t i = 0; i < length; i++) column->null_count += !column->validity[i];
  }
}

/* A child that ends before the parent's last row, where that row does not
 * read it: a struct's or fixed-size list's null last row, a sparse union's
 * last row of another type. */
static bool break_child_lengths(const struct arrow_json_field* field, const struct arrow_json_type* type,
                                struct arrow_json_column* column) {
  int64_t last = column->length - 1;
  if (last < 0 || column->n_children == 0) return false;
  switch (type->layout) {
    case ARROW_LAYOUT_STRUCT:
      if (arrow_json_row_valid(column, last)) return false;
      shorten(arrow_json_storage_type(&field->children[0]), &column->children[0], last);
      return true;
    case ARROW_LAYOUT_FIXED_SIZE_LIST:
      if (arrow_json_row_valid(column, last) || type->list_size == 0) return false;
      shorten(arrow_json_storage_type(&field->children[0]), &column->children[0], last * type->list_size);
      return true;
    case ARROW_LAYOUT_SPARSE_UNION: {
      int8_t id = (int8_t)column->buffers[0].bytes[last];
      for (int64_t i = 0; i < column->n_children; i++) {
        if (type->type_ids[i] == id) continue;
        shorten(arrow_json_storage_type(&field->children[i]), &column->children[i], last);
        return true;
      }
      return false;
    }
    default:
      return false;
  }
}

static void set_bit(uint8_t* bitmap, int64_t i, bool value) {
  if (value) {
    bitmap[i / 8] |= (uint8_t)(1u << (i % 8));
  } else {
    bitmap[i / 8] &= (uint8_t) ~(1u << (i % 8));
  }
}

/* Grows a buffer to `size` bytes, the new ones zero. */
static bool grow(struct arrow_json_buffer* buffer, int64_t size) {
  if (buffer->size >= size) return true;
  uint8_t* bytes = realloc(buffer->bytes, (size_t)size);
  if (bytes == NULL) return false;
  memset(bytes + buffer->size, 0, (size_t)(size - buffer->size));
  buffer->bytes = bytes;
  buffer->size = size;
  return true;
}

/* The last run end once more: an empty run past the last row, whose value
 * nobody reads (and which the values lack). */
static bool break_run_ends(const struct arrow_json_field* field, struct arrow_json_column* column) {
  struct arrow_json_column* ends = &column->children[0];
  if (ends->length == 0 || ends->null_count != 0) return false;
  int width = arrow_json_storage_type(&field->children[0])->bit_width;
  int64_t length = ends->length + 1;
  if (!grow(&ends->buffers[1], length * width / 8)) return false;
  if (ends->buffers[0].bytes != NULL && !grow(&ends->buffers[0], (length + 7) / 8)) return false;
  if (ends->buffers[0].bytes != NULL) set_bit(ends->buffers[0].bytes, length - 1, true);
  if (ends->validity != NULL) {
    uint8_t* validity = realloc(ends->validity, (size_t)length);
    if (validity == NULL) return false;
    validity[length - 1] = 1;
    ends->validity = validity;
  }
  int64_t last = arrow_json_load_int(ends->buffers[1].bytes, width, true, ends->length - 1);
  arrow_json_store_int(ends->buffers[1].bytes, width, ends->length, last);
  ends->length = length;
  return true;
}

static void swap_bytes(uint8_t* a, uint8_t* b, int64_t n) {
  for (int64_t i = 0; i < n; i++) {
    uint8_t t = a[i];
    a[i] = b[i];
    b[i] = t;
  }
}

/* Rows a and b of a fixed-width column, exchanged with their validity. */
static void swap_rows(const struct arrow_json_type* type, struct arrow_json_column* child, int64_t a,
                      int64_t b) {
  int64_t width = type->value_bytes;
  swap_bytes(child->buffers[1].bytes + a * width, child->buffers[1].bytes + b * width, width);
  if (child->validity == NULL) return;
  uint8_t valid_a = child->validity[a];
  child->validity[a] = child->validity[b];
  child->validity[b] = valid_a;
  if (child->buffers[0].bytes != NULL) {
    set_bit(child->buffers[0].bytes, a, child->validity[a]);
    set_bit(child->buffers[0].bytes, b, child->validity[b]);
  }
}

/* Whether only slots `s1` and `s2` of a dense union point at rows a and b
 * of child `child`. */
static bool rows_private(const struct arrow_json_type* type, const struct arrow_json_column* column,
                         int64_t child, int64_t s1, int64_t s2, int32_t a, int32_t b) {
  const int32_t* offsets = (const int32_t*)column->buffers[1].bytes;
  for (int64_t s = 0; s < column->length; s++) {
    if (s == s1 || s == s2 || type->type_ids[child] != (int8_t)column->buffers[0].bytes[s]) continue;
    if (offsets[s] == a || offsets[s] == b) return false;
  }
  return true;
}

/* A dense union whose offsets into one fixed-width child go back: two of
 * its rows exchanged, and the two slots pointing at them too. */
static bool break_dense_union(const struct arrow_json_field* field, const struct arrow_json_type* type,
                              struct arrow_json_column* column) {
  if (type->layout != ARROW_LAYOUT_DENSE_UNION) return false;
  int32_t* offsets = (int32_t*)column->buffers[1].bytes;
  const int8_t* ids = (const int8_t*)column->buffers[0].bytes;
  for (int64_t child = 0; child < column->n_children; child++) {
    const struct arrow_json_type* child_type = arrow_json_storage_type(&field->children[child]);
    if (child_type->layout != ARROW_LAYOUT_FIXED_WIDTH || field->children[child].is_dictionary) continue;
    for (int64_t s1 = 0; s1 < column->length; s1++) {
      if (ids[s1] != type->type_ids[child]) continue;
      for (int64_t s2 = s1 + 1; s2 < column->length; s2++) {
        if (ids[s2] != type->type_ids[child] || offsets[s2] <= offsets[s1]) continue;
        if (!rows_private(type, column, child, s1, s2, offsets[s1], offsets[s2])) continue;
        swap_rows(child_type, &column->children[child], offsets[s1], offsets[s2]);
        int32_t a = offsets[s1];
        offsets[s1] = offsets[s2];
        offsets[s2] = a;
        return true;
      }
    }
  }
  return false;
}

/* A valid inline view with a byte after its data that is not zero. */
static bool break_views(struct arrow_json_column* column) {
  for (int64_t j = 0; j < column->length; j++) {
    uint8_t* view = column->buffers[1].bytes + j * 16;
    int32_t length;
    memcpy(&length, view, 4);
    if (!arrow_json_row_valid(column, j) || length >= 12) continue;
    view[15] = 0x5a;
    return true;
  }
  return false;
}

/* An index outside the dictionary in a row no valid parent row reads,
 * made valid there: a consumer reading the child on its own (as the
 * format lets it: spec "Struct Validity") meets it.  A null slot's index
 * is never read, so it breaks nothing. */
static bool break_dictionary_index(const struct arrow_json_file* file, const struct arrow_json_field* field,
                                   struct arrow_json_column* column, const uint8_t* hidden) {
  const struct arrow_json_column* values = arrow_json_dictionary_values(file, field);
  const struct arrow_json_type* index_type = &field->index_type;
  if (values == NULL || hidden == NULL) return false;
  int64_t outside = index_type->is_signed ? -1 : values->length;
  if (index_type->bit_width < 64 && outside >= ((int64_t)1 << index_type->bit_width)) return false;
  for (int64_t j = 0; j < column->length; j++) {
    if (!hidden[j]) continue;
    if (!arrow_json_row_valid(column, j)) {
      column->validity[j] = 1;
      set_bit(column->buffers[0].bytes, j, true);
      column->null_count--;
    }
    arrow_json_store_int(column->buffers[1].bytes, index_type->bit_width, j, outside);
    return true;
  }
  return false;
}

static bool break_here(const struct arrow_json_file* file, const struct arrow_json_field* field,
                       struct arrow_json_column* column, const uint8_t* hidden,
                       enum arrow_structure_family family) {
  const struct arrow_json_type* type = arrow_json_storage_type(field);
  if (field->is_dictionary)
    return family == ARROW_STRUCTURE_DICTIONARY_INDEXES &&
           break_dictionary_index(file, field, column, hidden);
  switch (family) {
    case ARROW_STRUCTURE_OFFSETS:
      return (type->layout == ARROW_LAYOUT_BINARY || type->layout == ARROW_LAYOUT_LARGE_BINARY ||
              type->layout == ARROW_LAYOUT_LIST || type->layout == ARROW_LAYOUT_LARGE_LIST ||
              type->layout == ARROW_LAYOUT_MAP) &&
             break_offsets(type, column);
    case ARROW_STRUCTURE_LIST_VIEW_RANGES:
      return (type->layout == ARROW_LAYOUT_LIST_VIEW || type->layout == ARROW_LAYOUT_LARGE_LIST_VIEW) &&
             break_list_view(type, column);
    case ARROW_STRUCTURE_CHILD_LENGTHS:
      return break_child_lengths(field, type, column);
    case ARROW_STRUCTURE_RUN_ENDS:
      return type->layout == ARROW_LAYOUT_RUN_END_ENCODED && break_run_ends(field, column);
    case ARROW_STRUCTURE_UNION_SLOTS:
      return break_dense_union(field, type, column);
    case ARROW_STRUCTURE_VIEWS:
      return type->layout == ARROW_LAYOUT_BINARY_VIEW && break_views(column);
    case ARROW_STRUCTURE_DICTIONARY_INDEXES:
    case ARROW_STRUCTURE_FAMILY_COUNT:
      break;
  }
  return false;
}

/* The column, else the first of its descendants, that the family's edit
 * applies to.  `hidden` marks the rows no valid row of an ancestor reads
 * (NULL: none known): below a struct, its null rows; other parents are
 * not followed that far. */
static bool break_in(const struct arrow_json_file* file, const struct arrow_json_field* field,
                     struct arrow_json_column* column, const uint8_t* hidden,
                     enum arrow_structure_family family) {
  if (break_here(file, field, column, hidden, family)) return true;
  if (field->is_dictionary) return false; /* its children are the dictionary's */
  uint8_t* below = NULL;
  if (arrow_json_storage_type(field)->layout == ARROW_LAYOUT_STRUCT && column->length > 0) {
    below = malloc((size_t)column->length);
    if (below == NULL) return false;
    for (int64_t j = 0; j < column->length; j++)
      below[j] = (hidden != NULL && hidden[j]) || !arrow_json_row_valid(column, j);
  }
  bool broken = false;
  for (int64_t i = 0; !broken && i < column->n_children && i < field->n_children; i++)
    broken = break_in(file, &field->children[i], &column->children[i], below, family);
  free(below);
  return broken;
}

bool arrow_structure_break(struct arrow_json_file* file, int64_t batch, enum arrow_structure_family family) {
  if (batch < 0 || batch >= file->n_batches) return false;
  for (int64_t i = 0; i < file->n_fields; i++) {
    if (break_in(file, &file->fields[i], &file->batches[batch].columns[i], NULL, family)) return true;
  }
  return false;
}
