/* Changed copies of a fixture's columns, for those who export data that
 * must differ from the plain export in one known way: the consumer feed
 * (offsets, one altered value) and the deliberately broken producers. */
#include <stdlib.h>
#include <string.h>

#include "arrow_format/arrow_json.h"

/* Status of a padding step: done, the layout cannot take it, out of memory. */
enum { PADDED = 0, CANNOT_PAD = 1, PAD_OUT_OF_MEMORY = -1 };

/* The padding rows' fixed-width values: a byte no fixture value is made of
 * throughout. */
#define PADDING_BYTE 0x5A

static uint8_t* copy_bytes(const uint8_t* bytes, int64_t size) {
  uint8_t* copy = malloc((size_t)(size > 0 ? size : 1));
  if (copy != NULL && size > 0) memcpy(copy, bytes, (size_t)size);
  return copy;
}

/* A buffer of `padding_size` bytes of `fill`, then `source`. */
static int prepend(struct arrow_json_buffer* buffer, const struct arrow_json_buffer* source,
                   int64_t padding_size, uint8_t fill) {
  buffer->size = padding_size + source->size;
  buffer->bytes = malloc((size_t)(buffer->size > 0 ? buffer->size : 1));
  if (buffer->bytes == NULL) return PAD_OUT_OF_MEMORY;
  memset(buffer->bytes, fill, (size_t)padding_size);
  if (source->size > 0) memcpy(buffer->bytes + padding_size, source->bytes, (size_t)source->size);
  return PADDED;
}

/* A bitmap of `padding` bits of `fill_bit` then the `length` bits of
 * `source` (all set when `source` is NULL). */
static uint8_t* shifted_bitmap(const uint8_t* source, int64_t length, int64_t padding, bool alternate) {
  uint8_t* bitmap = calloc((size_t)((padding + length + 7) / 8 + 1), 1);
  if (bitmap == NULL) return NULL;
  for (int64_t i = 0; i < padding + length; i++) {
    bool set = i < padding ? (!alternate || i % 2 == 0)
                           : (source == NULL || ((source[(i - padding) / 8] >> ((i - padding) % 8)) & 1));
    if (set) bitmap[i / 8] |= (uint8_t)(1u << (i % 8));
  }
  return bitmap;
}

/* Offsets (of `width` bytes) with `padding` entries first: each padding
 * row `step` long from 0, the rest moved up by padding * step. */
static int pad_offsets(struct arrow_json_buffer* out, const struct arrow_json_buffer* source, int width,
                       int64_t padding, int64_t step, bool shift_rest) {
  int64_t count = source->size / width;
  out->size = (count + padding) * width;
  out->bytes = malloc((size_t)(out->size > 0 ? out->size : 1));
  if (out->bytes == NULL) return PAD_OUT_OF_MEMORY;
  int64_t first = count > 0 ? arrow_json_load_int(source->bytes, width * 8, true, 0) : 0;
  for (int64_t i = 0; i < padding; i++)
    arrow_json_store_int(out->bytes, width * 8, i, shift_rest ? i * step : first);
  for (int64_t i = 0; i < count; i++) {
    int64_t value = arrow_json_load_int(source->bytes, width * 8, true, i);
    arrow_json_store_int(out->bytes, width * 8, padding + i, shift_rest ? value + padding * step : value);
  }
  return PADDED;
}

static int pad_node(const struct arrow_json_file* file, const struct arrow_json_field* field,
                    const struct arrow_json_type* type, const struct arrow_json_column* column,
                    int64_t padding, struct arrow_json_column* out);

static int pad_children(const struct arrow_json_file* file, const struct arrow_json_field* field,
                        const struct arrow_json_column* column, int64_t child_padding,
                        struct arrow_json_column* out) {
  out->n_children = column->n_children;
  out->children = calloc((size_t)column->n_children + 1, sizeof(*out->children));
  if (out->children == NULL) return PAD_OUT_OF_MEMORY;
  for (int64_t i = 0; i < column->n_children; i++) {
    const struct arrow_json_field* child = &field->children[i];
    int status = pad_node(file, child, arrow_json_storage_type(child), &column->children[i], child_padding,
                          &out->children[i]);
    if (status != PADDED) return status;
    /* A child is exported from its row 0, its padding rows among its own:
     * a null array's are nulls, which its null_count counts (a null
     * array's null_count is its length; other layouts pad with valid
     * rows). */
    if (arrow_json_storage_type(child)->layout == ARROW_LAYOUT_NULL)
      out->children[i].null_count += child_padding;
  }
  return PADDED;
}

/* The run ends moved up by `padding` (the first run then covers the
 * padding rows too), where they still fit their width. */
static int pad_run_ends(const struct arrow_json_file* file, const struct arrow_json_field* field,
                        const struct arrow_json_column* column, int64_t padding,
                        struct arrow_json_column* out) {
  if (pad_children(file, field, column, 0, out) != PADDED) return PAD_OUT_OF_MEMORY;
  int width = field->children[0].type.bit_width;
  struct arrow_json_column* run_ends = &out->children[0];
  /* No run to cover the padding rows with (an empty array may have none),
   * and a child padded with its parent is exported from its row 0: the
   * runs must reach them (Columnar.rst, "Run-End Encoded Layout"). */
  if (padding > 0 && run_ends->length == 0) return CANNOT_PAD;
  int64_t limit = width == 64 ? INT64_MAX - padding : (INT64_C(1) << (width - 1)) - 1 - padding;
  for (int64_t i = 0; i < run_ends->length; i++) {
    int64_t end = arrow_json_load_int(run_ends->buffers[1].bytes, width, true, i);
    if (end > limit) return CANNOT_PAD;
    arrow_json_store_int(run_ends->buffers[1].bytes, width, i, end + padding);
  }
  return PADDED;
}

/* Buffer `index` of `out` as `column`'s, with `padding` rows of the
 * buffer's role put first. */
static int pad_buffer(const struct arrow_json_type* type, const struct arrow_json_column* column,
                      int64_t index, int64_t padding, struct arrow_json_column* out) {
  const struct arrow_json_buffer* source = &column->buffers[index];
  struct arrow_json_buffer* buffer = &out->buffers[index];
  int offset_bytes = arrow_layout_of(type->layout)->offset_bytes;
  switch (arrow_layout_buffer_role(type->layout, index, column->n_buffers)) {
    case ARROW_BUFFER_VALIDITY:
      if (source->bytes == NULL) return PADDED; /* no nulls: none either way */
      buffer->bytes = shifted_bitmap(source->bytes, column->length, padding, false);
      buffer->size = (padding + column->length + 7) / 8;
      return buffer->bytes != NULL ? PADDED : PAD_OUT_OF_MEMORY;
    case ARROW_BUFFER_BITS:
      buffer->bytes = shifted_bitmap(source->bytes, column->length, padding, true);
      buffer->size = (padding + column->length + 7) / 8;
      return buffer->bytes != NULL ? PADDED : PAD_OUT_OF_MEMORY;
    case ARROW_BUFFER_VALUES:
      return prepend(buffer, source, padding * type->value_bytes, PADDING_BYTE);
    case ARROW_BUFFER_OFFSETS:
      /* A dense union's padding rows are row 0 of its first child. */
      if (type->layout == ARROW_LAYOUT_DENSE_UNION) return prepend(buffer, source, padding * 4, 0);
      if (type->layout == ARROW_LAYOUT_BINARY || type->layout == ARROW_LAYOUT_LARGE_BINARY) {
        /* Each padding row a value of one byte (DATA gets them). */
        return pad_offsets(buffer, source, offset_bytes, padding, 1, true);
      }
      /* Lists: empty padding rows; list views: size 0 at the first offset. */
      return pad_offsets(buffer, source, offset_bytes, padding, 0, false);
    case ARROW_BUFFER_SIZES:
      return prepend(buffer, source, padding * offset_bytes, 0);
    case ARROW_BUFFER_DATA:
      return prepend(buffer, source, padding, PADDING_BYTE);
    case ARROW_BUFFER_VIEWS: {
      /* Inline views of one padding byte each. */
      if (prepend(buffer, source, padding * 16, 0) != PADDED) return PAD_OUT_OF_MEMORY;
      int32_t one = 1;
      for (int64_t i = 0; i < padding; i++) {
        memcpy(buffer->bytes + 16 * i, &one, 4);
        buffer->bytes[16 * i + 4] = PADDING_BYTE;
      }
      return PADDED;
    }
    case ARROW_BUFFER_VARIADIC:
      buffer->size = source->size;
      buffer->bytes = copy_bytes(source->bytes, source->size);
      return buffer->bytes != NULL ? PADDED : PAD_OUT_OF_MEMORY;
    case ARROW_BUFFER_TYPE_IDS:
      /* The first declared type: a sparse union's children are padded
       * alike; a dense union's padding rows point at that child's row 0,
       * which must exist. */
      if (type->n_type_ids == 0) return padding == 0 ? prepend(buffer, source, 0, 0) : CANNOT_PAD;
      return prepend(buffer, source, padding, (uint8_t)type->type_ids[0]);
  }
  return CANNOT_PAD;
}

static int pad_node(const struct arrow_json_file* file, const struct arrow_json_field* field,
                    const struct arrow_json_type* type, const struct arrow_json_column* column,
                    int64_t padding, struct arrow_json_column* out) {
  memset(out, 0, sizeof(*out));
  out->length = column->length + padding;
  /* The null count of the rows after the padding, which are those exported. */
  out->null_count = column->null_count;
  if (column->validity != NULL) {
    out->validity = malloc((size_t)out->length + 1);
    if (out->validity == NULL) return PAD_OUT_OF_MEMORY;
    memset(out->validity, 1, (size_t)padding);
    memcpy(out->validity + padding, column->validity, (size_t)column->length);
  }
  out->n_buffers = column->n_buffers;
  out->buffers = calloc((size_t)column->n_buffers + 1, sizeof(*out->buffers));
  if (out->buffers == NULL) return PAD_OUT_OF_MEMORY;
  /* A dictionary's indices pad with index 0 (any fixed byte could point
   * outside the dictionary), when it has one.  An empty dictionary takes
   * no padding rows: they are valid, and a child padded with its parent
   * is exported from its row 0, so that index 0 would be read outside the
   * dictionary (Columnar.rst, "Dictionary-encoded Layout"). */
  bool indices = field->is_dictionary && type == &field->index_type;
  if (padding > 0 && indices) {
    const struct arrow_json_column* values = arrow_json_dictionary_values(file, field);
    if (values == NULL || values->length == 0) return CANNOT_PAD;
    struct arrow_json_buffer zeros = {NULL, 0};
    if (pad_buffer(type, column, 0, padding, out) != PADDED) return PAD_OUT_OF_MEMORY;
    return prepend(&out->buffers[1], column->buffers[1].bytes ? &column->buffers[1] : &zeros,
                   padding * type->value_bytes, 0);
  }
  if (padding > 0 && type->layout == ARROW_LAYOUT_DENSE_UNION && column->children[0].length == 0) {
    return CANNOT_PAD;
  }
  for (int64_t i = 0; i < column->n_buffers; i++) {
    int status = padding == 0 ? prepend(&out->buffers[i], &column->buffers[i], 0, 0)
                              : pad_buffer(type, column, i, padding, out);
    if (status != PADDED) return status;
    if (column->buffers[i].bytes == NULL && padding == 0) {
      free(out->buffers[i].bytes);
      out->buffers[i] = (struct arrow_json_buffer){NULL, 0};
    }
  }
  switch (type->layout) {
    case ARROW_LAYOUT_STRUCT:
    case ARROW_LAYOUT_SPARSE_UNION:
      return pad_children(file, field, column, padding, out);
    case ARROW_LAYOUT_FIXED_SIZE_LIST:
      return pad_children(file, field, column, padding * type->list_size, out);
    case ARROW_LAYOUT_RUN_END_ENCODED:
      return pad_run_ends(file, field, column, padding, out);
    default:
      return pad_children(file, field, column, 0, out);
  }
}

int64_t arrow_json_column_pad(const struct arrow_json_file* file, const struct arrow_json_field* field,
                              const struct arrow_json_column* column, int64_t padding,
                              struct arrow_json_column* out) {
  int status = pad_node(file, field, arrow_json_storage_type(field), column, padding, out);
  if (status == PADDED) return padding;
  arrow_json_column_free(out);
  if (status == PAD_OUT_OF_MEMORY) return -1;
  return pad_node(file, field, arrow_json_storage_type(field), column, 0, out) == PADDED ? 0 : -1;
}

int arrow_json_column_copy(const struct arrow_json_column* column, struct arrow_json_column* out) {
  memset(out, 0, sizeof(*out));
  *out = *column;
  out->validity = NULL;
  out->buffers = NULL;
  out->children = NULL;
  out->n_buffers = 0;
  out->n_children = 0;
  if (column->validity != NULL) {
    out->validity = copy_bytes(column->validity, column->length);
    if (out->validity == NULL) return -1;
  }
  out->buffers = calloc((size_t)column->n_buffers + 1, sizeof(*out->buffers));
  if (out->buffers == NULL) return -1;
  out->n_buffers = column->n_buffers;
  for (int64_t i = 0; i < column->n_buffers; i++) {
    if (column->buffers[i].bytes == NULL) continue;
    out->buffers[i].bytes = copy_bytes(column->buffers[i].bytes, column->buffers[i].size);
    out->buffers[i].size = column->buffers[i].size;
    if (out->buffers[i].bytes == NULL) return -1;
  }
  out->children = calloc((size_t)column->n_children + 1, sizeof(*out->children));
  if (out->children == NULL) return -1;
  out->n_children = column->n_children;
  for (int64_t i = 0; i < column->n_children; i++) {
    if (arrow_json_column_copy(&column->children[i], &out->children[i]) != 0) return -1;
  }
  return 0;
}

/* ---- one altered value ---- */

struct alteration {
  const struct arrow_json_file* file;
  struct arrow_json_dictionary* dictionaries;
};

static bool alter_rows(struct alteration* a, const struct arrow_json_field* field,
                       const struct arrow_json_type* type, struct arrow_json_column* column, int64_t first,
                       int64_t end);

/* Flips bit 0 of the first byte below 0x80 of `bytes` (an ASCII character
 * stays one, so a UTF-8 string stays valid). */
static bool flip_ascii(uint8_t* bytes, int64_t size) {
  for (int64_t i = 0; i < size; i++) {
    if (bytes[i] < 0x80) {
      bytes[i] ^= 0x01;
      return true;
    }
  }
  return false;
}

static bool alter_view(struct arrow_json_column* column, int64_t row) {
  uint8_t* view = column->buffers[1].bytes + 16 * row;
  int32_t size, buffer, offset;
  memcpy(&size, view, 4);
  if (size <= 12) return flip_ascii(view + 4, size);
  memcpy(&buffer, view + 8, 4);
  memcpy(&offset, view + 12, 4);
  /* Past the prefix, which the view repeats. */
  return flip_ascii(column->buffers[2 + buffer].bytes + offset + 4, size - 4);
}

/* The run holding logical row `row` of a run-end encoded column. */
static int64_t run_of(const struct arrow_json_field* field, const struct arrow_json_column* column,
                      int64_t row) {
  const struct arrow_json_column* run_ends = &column->children[0];
  int width = field->children[0].type.bit_width;
  for (int64_t k = 0; k < run_ends->length; k++) {
    if (arrow_json_load_int(run_ends->buffers[1].bytes, width, true, k) > row) return k;
  }
  return -1;
}

static bool alter_dictionary_value(struct alteration* a, const struct arrow_json_field* field,
                                   struct arrow_json_column* column, int64_t row) {
  for (int64_t d = 0; d < a->file->n_dictionaries; d++) {
    if (a->dictionaries[d].id != field->dictionary_id) continue;
    struct arrow_json_field values = *field;
    values.is_dictionary = false;
    int64_t index = arrow_json_load_int(column->buffers[1].bytes, field->index_type.bit_width,
                                        field->index_type.is_signed, row);
    return alter_rows(a, &values, &values.type, &a->dictionaries[d].values, index, index + 1);
  }
  return false;
}

static bool alter_row(struct alteration* a, const struct arrow_json_field* field,
                      const struct arrow_json_type* type, struct arrow_json_column* column, int64_t row) {
  if (field->is_dictionary && type == &field->index_type)
    return alter_dictionary_value(a, field, column, row);
  int width = arrow_layout_of(type->layout)->offset_bytes;
  switch (type->layout) {
    case ARROW_LAYOUT_NULL:
      return false;
    case ARROW_LAYOUT_BOOL:
      column->buffers[1].bytes[row / 8] ^= (uint8_t)(1u << (row % 8));
      return true;
    case ARROW_LAYOUT_FIXED_WIDTH:
      column->buffers[1].bytes[row * type->value_bytes] ^= 0x01;
      return true;
    case ARROW_LAYOUT_BINARY:
    case ARROW_LAYOUT_LARGE_BINARY: {
      int64_t start = arrow_json_column_offset(column, 1, width, row);
      return flip_ascii(column->buffers[2].bytes + start,
                        arrow_json_column_offset(column, 1, width, row + 1) - start);
    }
    case ARROW_LAYOUT_BINARY_VIEW:
      return alter_view(column, row);
    case ARROW_LAYOUT_LIST:
    case ARROW_LAYOUT_LARGE_LIST:
    case ARROW_LAYOUT_MAP:
      return alter_rows(a, &field->children[0], arrow_json_storage_type(&field->children[0]),
                        &column->children[0], arrow_json_column_offset(column, 1, width, row),
                        arrow_json_column_offset(column, 1, width, row + 1));
    case ARROW_LAYOUT_LIST_VIEW:
    case ARROW_LAYOUT_LARGE_LIST_VIEW: {
      int64_t start = arrow_json_column_offset(column, 1, width, row);
      return alter_rows(a, &field->children[0], arrow_json_storage_type(&field->children[0]),
                        &column->children[0], start, start + arrow_json_column_offset(column, 2, width, row));
    }
    case ARROW_LAYOUT_FIXED_SIZE_LIST:
      return alter_rows(a, &field->children[0], arrow_json_storage_type(&field->children[0]),
                        &column->children[0], row * type->list_size, (row + 1) * type->list_size);
    case ARROW_LAYOUT_STRUCT:
      for (int64_t c = 0; c < field->n_children; c++) {
        if (alter_rows(a, &field->children[c], arrow_json_storage_type(&field->children[c]),
                       &column->children[c], row, row + 1)) {
          return true;
        }
      }
      return false;
    case ARROW_LAYOUT_SPARSE_UNION:
    case ARROW_LAYOUT_DENSE_UNION: {
      int8_t id = (int8_t)column->buffers[0].bytes[row];
      int64_t child = 0;
      while (child < type->n_type_ids && type->type_ids[child] != id) child++;
      int64_t child_row =
          type->layout == ARROW_LAYOUT_DENSE_UNION ? arrow_json_column_offset(column, 1, 4, row) : row;
      const struct arrow_json_field* child_field = &field->children[child];
      return alter_rows(a, child_field, arrow_json_storage_type(child_field), &column->children[child],
                        child_row, child_row + 1);
    }
    case ARROW_LAYOUT_RUN_END_ENCODED: {
      int64_t run = run_of(field, column, row);
      const struct arrow_json_field* values = &field->children[1];
      return run >= 0 &&
             alter_rows(a, values, arrow_json_storage_type(values), &column->children[1], run, run + 1);
    }
    case ARROW_LAYOUT_COUNT:
      break;
  }
  return false;
}

static bool alter_rows(struct alteration* a, const struct arrow_json_field* field,
                       const struct arrow_json_type* type, struct arrow_json_column* column, int64_t first,
                       int64_t end) {
  for (int64_t row = first; row < end && row < column->length; row++) {
    if (arrow_json_row_valid(column, row) && alter_row(a, field, type, column, row)) return true;
  }
  return false;
}

bool arrow_json_alter_one_value(const struct arrow_json_file* file, struct arrow_json_column* columns,
                                struct arrow_json_dictionary* dictionaries) {
  struct alteration a = {file, dictionaries};
  for (int64_t c = 0; c < file->n_fields; c++) {
    const struct arrow_json_field* field = &file->fields[c];
    if (alter_rows(&a, field, arrow_json_storage_type(field), &columns[c], 0, columns[c].length)) return true;
  }
  return false;
}
