/* One column of a type tree's node as integration JSON (FieldData,
 * Integration.rst), by the node's layout (arrow_layouts): what each
 * buffer holds is the format's to say, the values the input's. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_json_values.h"
#include "fuzz_json_writer.h"

#define MAX_VARIADIC 40
#define MAX_LONG_VIEWS 64

static void* allocate(size_t count, size_t size) {
  void* block = calloc(count + 1, size);
  if (block == NULL) abort();
  return block;
}

static bool has_offsets_as_strings(enum arrow_layout_id layout) {
  return arrow_layout_of(layout)->offset_bytes == 8;
}

/* "KEY": [values], integers of the layout's offset width. */
static void write_integers(struct fuzz_writer* w, const char* key, const int64_t* values, int64_t n,
                           int bit_width) {
  fuzz_text_printf(w->text, ", \"%s\": [", key);
  for (int64_t i = 0; i < n; i++) {
    if (i > 0) fuzz_text_printf(w->text, ", ");
    fuzz_json_int(w->in, w->text, (uint64_t)values[i], bit_width, true);
  }
  fuzz_text_printf(w->text, "]");
}

static int offset_bits(const struct fuzz_node* node) {
  return has_offsets_as_strings(node->row->layout) ? 64 : 32;
}

/* Which rows are valid: none null in a column that is not nullable, else
 * none, all or about a quarter (an input that ran out reads none). */
static bool* draw_validity(struct fuzz_writer* w, const struct fuzz_node* node, int64_t length,
                           bool nullable) {
  bool* valid = allocate((size_t)length, sizeof(bool));
  uint8_t mode = nullable ? fuzz_byte(w->in) % 4 : 0;
  for (int64_t i = 0; i < length; i++) valid[i] = mode == 0 || (mode != 1 && fuzz_byte(w->in) % 4 != 0);
  /* Indices into an empty dictionary: every row null. */
  if (node->index != NULL && node->dictionary_length == 0) memset(valid, 0, (size_t)length);
  return valid;
}

static void write_validity(struct fuzz_writer* w, const bool* valid, int64_t length) {
  fuzz_text_printf(w->text, ", \"VALIDITY\": [");
  for (int64_t i = 0; i < length; i++) fuzz_text_printf(w->text, "%s%d", i ? ", " : "", valid[i] ? 1 : 0);
  fuzz_text_printf(w->text, "]");
}

static void write_children(struct fuzz_writer* w, const struct fuzz_node* node, const int64_t* lengths) {
  fuzz_text_printf(w->text, ", \"children\": [");
  for (int c = 0; c < node->n_children; c++) {
    if (c > 0) fuzz_text_printf(w->text, ", ");
    fuzz_json_column(w, node->children[c], lengths[c], false);
  }
  fuzz_text_printf(w->text, "]");
}

/* ---- leaves ---- */

static void write_fixed(struct fuzz_writer* w, const struct fuzz_node* node, const bool* valid,
                        int64_t length) {
  fuzz_text_printf(w->text, ", \"DATA\": [");
  for (int64_t i = 0; i < length; i++) {
    if (i > 0) fuzz_text_printf(w->text, ", ");
    fuzz_json_fixed_value(w->in, w->text, node, !valid[i]);
  }
  fuzz_text_printf(w->text, "]");
}

/* Indices into the dictionary where valid; any integer of the index type
 * in a null row. */
static void write_indices(struct fuzz_writer* w, const struct fuzz_node* node, const bool* valid,
                          int64_t length) {
  const struct arrow_type_row* index = node->index;
  fuzz_text_printf(w->text, ", \"DATA\": [");
  for (int64_t i = 0; i < length; i++) {
    uint64_t value = valid[i] ? (uint64_t)fuzz_range(w->in, 0, node->dictionary_length - 1)
                              : fuzz_json_draw_int(w->in, index->bit_width, index->is_signed);
    fuzz_text_printf(w->text, "%s", i ? ", " : "");
    fuzz_json_int(w->in, w->text, value, index->bit_width, index->is_signed);
  }
  fuzz_text_printf(w->text, "]");
}

/* Variable-size binary: DATA and the running OFFSET from 0; a null row
 * empty, or holding bytes (the format leaves them to the producer). */
static void write_binary(struct fuzz_writer* w, const struct fuzz_node* node, const bool* valid,
                         int64_t length) {
  int64_t* offsets = allocate((size_t)length + 1, sizeof(int64_t));
  fuzz_text_printf(w->text, ", \"DATA\": [");
  for (int64_t i = 0; i < length; i++) {
    uint8_t bytes[256];
    size_t size = 0;
    if (valid[i] || fuzz_byte(w->in) % 4 == 0) {
      size = fuzz_json_draw_bytes(w->in, node->row->values, 0, fuzz_byte(w->in) % 16 == 0 ? 200 : 12, bytes);
    }
    fuzz_text_printf(w->text, "%s", i ? ", " : "");
    fuzz_json_bytes(w->in, w->text, node->row->values, bytes, size);
    offsets[i + 1] = offsets[i] + (int64_t)size;
  }
  fuzz_text_printf(w->text, "]");
  write_integers(w, "OFFSET", offsets, length + 1, offset_bits(node));
  free(offsets);
}

struct variadic_buffer {
  uint8_t* bytes;
  size_t size;
};

struct long_view {
  int64_t buffer, offset, size;
};

static void append(struct variadic_buffer* buffer, const uint8_t* bytes, size_t size) {
  uint8_t* grown = realloc(buffer->bytes, buffer->size + size + 1);
  if (grown == NULL) abort();
  memcpy(grown + buffer->size, bytes, size);
  buffer->bytes = grown;
  buffer->size += size;
}

/* spec (Columnar.rst, "Variable-size Binary View Layout"): values of 12
 * bytes or fewer inline, longer ones in a variadic buffer, here any of
 * up to MAX_VARIADIC (some never used, some starting with bytes no view
 * reaches), a later view sometimes sharing an earlier one's bytes. */
static void write_views(struct fuzz_writer* w, const struct fuzz_node* node, int64_t length) {
  enum arrow_value_encoding encoding = node->row->values;
  int64_t n_variadic =
      fuzz_byte(w->in) % 4 == 3 ? fuzz_range(w->in, 20, MAX_VARIADIC) : fuzz_range(w->in, 0, 3);
  struct variadic_buffer buffers[MAX_VARIADIC] = {{0}};
  for (int64_t b = 0; b < n_variadic; b++) {
    uint8_t junk[4];
    size_t size = (size_t)fuzz_range(w->in, 0, 4) % 5;
    fuzz_fill(w->in, junk, size);
    append(&buffers[b], junk, size);
  }
  struct long_view earlier[MAX_LONG_VIEWS];
  int n_earlier = 0;
  fuzz_text_printf(w->text, ", \"VIEWS\": [");
  for (int64_t i = 0; i < length; i++) {
    uint8_t bytes[512];
    fuzz_text_printf(w->text, "%s{\"SIZE\": ", i ? ", " : "");
    if (n_variadic == 0 || fuzz_byte(w->in) % 2 == 0) {
      size_t size = fuzz_json_draw_bytes(w->in, encoding, 0, 12, bytes);
      fuzz_text_printf(w->text, "%zu, \"INLINED\": ", size);
      fuzz_json_bytes(w->in, w->text, encoding, bytes, size);
      fuzz_text_printf(w->text, "}");
      continue;
    }
    struct long_view view;
    if (n_earlier > 0 && fuzz_byte(w->in) % 4 == 0) {
      view = earlier[fuzz_range(w->in, 0, n_earlier - 1)];
    } else {
      size_t size = fuzz_json_draw_bytes(w->in, encoding, 13, fuzz_byte(w->in) % 8 == 0 ? 300 : 40, bytes);
      view.buffer = fuzz_range(w->in, 0, n_variadic - 1);
      view.offset = (int64_t)buffers[view.buffer].size;
      view.size = (int64_t)size;
      append(&buffers[view.buffer], bytes, size);
      if (n_earlier < MAX_LONG_VIEWS) earlier[n_earlier++] = view;
    }
    fuzz_text_printf(w->text, "%" PRId64 ", \"PREFIX_HEX\": ", view.size);
    fuzz_text_hex(w->text, buffers[view.buffer].bytes + view.offset, 4, 0);
    fuzz_text_printf(w->text, ", \"BUFFER_INDEX\": %" PRId64 ", \"OFFSET\": %" PRId64 "}", view.buffer,
                     view.offset);
  }
  fuzz_text_printf(w->text, "], \"VARIADIC_DATA_BUFFERS\": [");
  for (int64_t b = 0; b < n_variadic; b++) {
    fuzz_text_printf(w->text, "%s", b ? ", " : "");
    fuzz_text_hex(w->text, buffers[b].bytes, buffers[b].size, 0);
    free(buffers[b].bytes);
  }
  fuzz_text_printf(w->text, "]");
}

/* ---- nested ---- */

/* A list's size: up to 4 items (sometimes 20), none once the budget is
 * spent; a null row mostly empty (the format lets it hold items). */
static int64_t draw_list_size(struct fuzz_writer* w, bool valid) {
  if (w->budget <= 0) return 0;
  if (!valid) return fuzz_byte(w->in) % 4 == 0 ? fuzz_range(w->in, 1, 2) : 0;
  return fuzz_range(w->in, 0, fuzz_byte(w->in) % 16 == 0 ? 20 : 4);
}

/* Lists and maps: OFFSET from a first offset that may be past 0, and a
 * child with rows past the last offset sometimes. */
static void write_list(struct fuzz_writer* w, const struct fuzz_node* node, const bool* valid,
                       int64_t length) {
  int64_t* offsets = allocate((size_t)length + 1, sizeof(int64_t));
  offsets[0] = fuzz_byte(w->in) % 4 == 3 ? fuzz_range(w->in, 1, 3) : 0;
  for (int64_t i = 0; i < length; i++) offsets[i + 1] = offsets[i] + draw_list_size(w, valid[i]);
  write_integers(w, "OFFSET", offsets, length + 1, offset_bits(node));
  int64_t child_length = offsets[length] + (fuzz_byte(w->in) % 4 == 3 ? fuzz_range(w->in, 1, 2) : 0);
  write_children(w, node, &child_length);
  free(offsets);
}

/* spec (Columnar.rst, "ListView Layout"): any offset and size within the
 * child, rows overlapping and out of order. */
static void write_list_view(struct fuzz_writer* w, const struct fuzz_node* node, const bool* valid,
                            int64_t length) {
  int64_t most = w->budget > 0 ? (2 * length + 4 < 60000 ? 2 * length + 4 : 60000) : 0;
  int64_t child_length = fuzz_range(w->in, 0, most);
  int64_t* offsets = allocate((size_t)length, sizeof(int64_t));
  int64_t* sizes = allocate((size_t)length, sizeof(int64_t));
  for (int64_t i = 0; i < length; i++) {
    offsets[i] = fuzz_range(w->in, 0, child_length);
    int64_t room = child_length - offsets[i];
    sizes[i] = valid[i] || fuzz_byte(w->in) % 4 == 0 ? fuzz_range(w->in, 0, room < 6 ? room : 6) : 0;
  }
  write_integers(w, "OFFSET", offsets, length, offset_bits(node));
  write_integers(w, "SIZE", sizes, length, offset_bits(node));
  write_children(w, node, &child_length);
  free(offsets);
  free(sizes);
}

/* Unions: TYPE_ID of any child; a sparse union's children as long as it,
 * a dense union's OFFSET per child never decreasing (Columnar.rst: "in
 * order / increasing"), sharing a row or skipping one now and then. */
static void write_union(struct fuzz_writer* w, const struct fuzz_node* node, int64_t length) {
  bool dense = node->row->layout == ARROW_LAYOUT_DENSE_UNION;
  int64_t* offsets = allocate((size_t)length, sizeof(int64_t));
  int64_t lengths[FUZZ_TREE_MAX_CHILDREN] = {0};
  int64_t next[FUZZ_TREE_MAX_CHILDREN] = {0};
  fuzz_text_printf(w->text, ", \"TYPE_ID\": [");
  for (int64_t i = 0; i < length; i++) {
    int64_t c = fuzz_range(w->in, 0, node->n_children - 1);
    fuzz_text_printf(w->text, "%s%d", i ? ", " : "", node->type_ids[c]);
    uint8_t step = fuzz_byte(w->in) % 8;
    if (step == 6 && next[c] > 0) next[c]--; /* the row before again */
    if (step == 7) next[c]++;                /* a row no slot reaches */
    offsets[i] = next[c]++;
    lengths[c] = next[c];
  }
  fuzz_text_printf(w->text, "]");
  for (int c = 0; c < node->n_children; c++) {
    lengths[c] = dense ? lengths[c] + (fuzz_byte(w->in) % 4 == 3) : length;
  }
  if (dense) write_integers(w, "OFFSET", offsets, length, 32);
  write_children(w, node, lengths);
  free(offsets);
}

/* spec (Columnar.rst, "Run-End Encoded Layout"): runs of 1 or more rows
 * covering the array, the last sometimes ending past it; an empty array
 * sometimes has runs too. */
static void write_run_end_encoded(struct fuzz_writer* w, const struct fuzz_node* node, int64_t length) {
  const struct arrow_type_row* run_end = node->children[0]->row;
  int64_t largest = run_end->bit_width >= 64 ? INT64_MAX : (INT64_C(1) << (run_end->bit_width - 1)) - 1;
  int64_t capacity = length + 4;
  int64_t* ends = allocate((size_t)capacity, sizeof(int64_t));
  int64_t n = 0;
  int64_t end = 0;
  int64_t past = fuzz_byte(w->in) % 4 == 3 ? fuzz_range(w->in, 1, 3) : 0;
  while (end < length + past && n < capacity) {
    int64_t run = fuzz_byte(w->in) % 8 == 0 ? fuzz_range(w->in, 1, 64) : fuzz_range(w->in, 1, 4);
    if (run > largest - end) run = largest - end;
    if (run <= 0) break;
    end += run;
    ends[n++] = end;
  }
  if (end < length) abort(); /* no run-end type too narrow for the lengths drawn */
  fuzz_text_printf(w->text, ", \"children\": [{\"name\": ");
  fuzz_text_string(w->text, (const uint8_t*)node->children[0]->name, strlen(node->children[0]->name));
  fuzz_text_printf(w->text, ", \"count\": %" PRId64 ", \"VALIDITY\": [", n);
  for (int64_t i = 0; i < n; i++) fuzz_text_printf(w->text, "%s1", i ? ", " : "");
  fuzz_text_printf(w->text, "]");
  write_integers(w, "DATA", ends, n, run_end->bit_width);
  fuzz_text_printf(w->text, "}, ");
  fuzz_json_column(w, node->children[1], n, false);
  fuzz_text_printf(w->text, "]");
  free(ends);
}

void fuzz_json_column(struct fuzz_writer* w, const struct fuzz_node* node, int64_t length,
                      bool dictionary_values) {
  bool as_indices = node->index != NULL && !dictionary_values;
  enum arrow_layout_id layout = as_indices ? node->index->layout : node->row->layout;
  w->budget -= length;
  fuzz_text_printf(w->text, "{\"name\": ");
  fuzz_text_string(w->text, (const uint8_t*)node->name, strlen(node->name));
  fuzz_text_printf(w->text, ", \"count\": %" PRId64, length);
  /* A dictionary's values may be null whatever the field says. */
  bool* valid = draw_validity(w, node, length, node->nullable || dictionary_values);
  if (arrow_layout_has_validity(layout)) write_validity(w, valid, length);
  if (as_indices) {
    write_indices(w, node, valid, length);
  } else {
    switch (layout) {
      case ARROW_LAYOUT_NULL:
        break;
      case ARROW_LAYOUT_BOOL:
      case ARROW_LAYOUT_FIXED_WIDTH:
        write_fixed(w, node, valid, length);
        break;
      case ARROW_LAYOUT_BINARY:
      case ARROW_LAYOUT_LARGE_BINARY:
        write_binary(w, node, valid, length);
        break;
      case ARROW_LAYOUT_BINARY_VIEW:
        write_views(w, node, length);
        break;
      case ARROW_LAYOUT_LIST:
      case ARROW_LAYOUT_LARGE_LIST:
      case ARROW_LAYOUT_MAP:
        write_list(w, node, valid, length);
        break;
      case ARROW_LAYOUT_LIST_VIEW:
      case ARROW_LAYOUT_LARGE_LIST_VIEW:
        write_list_view(w, node, valid, length);
        break;
      case ARROW_LAYOUT_FIXED_SIZE_LIST: {
        int64_t child_length = length * node->list_size;
        write_children(w, node, &child_length);
        break;
      }
      case ARROW_LAYOUT_STRUCT: {
        int64_t lengths[FUZZ_TREE_MAX_CHILDREN] = {length, length, length, length};
        write_children(w, node, lengths);
        break;
      }
      case ARROW_LAYOUT_SPARSE_UNION:
      case ARROW_LAYOUT_DENSE_UNION:
        write_union(w, node, length);
        break;
      case ARROW_LAYOUT_RUN_END_ENCODED:
        write_run_end_encoded(w, node, length);
        break;
      case ARROW_LAYOUT_COUNT:
        abort();
    }
  }
  free(valid);
  fuzz_text_printf(w->text, "}");
}
