#include "fuzz_layout_array.h"

#include <stdlib.h>
#include <string.h>

/* Nodes a tree may have changed: more than any fixture's tree has. */
#define MAX_NODES 512
/* Room for buffer pointers beyond a node's own, all NULL: a buffer count
 * the changes raise still counts pointers that exist (the C Data Interface
 * says there are n_buffers of them; a tree that lied about that would be
 * unsafe for any reader, not a finding about one). */
#define SPARE_BUFFER_SLOTS 4

/* One node of the built tree, with what it was built from. */
struct node {
  struct ArrowArray* array;
  const struct arrow_json_type* type;
  const struct arrow_json_column* column; /* its buffers' sizes */
};

struct builder {
  struct fuzz_layout* layout;
  const struct arrow_json_file* file;
  struct node nodes[MAX_NODES];
  int n_nodes;
};

static void release_nothing(struct ArrowArray* array) {
  array->release = NULL; /* the arena and fuzz_layout_free free the rest */
}

/* A copy the tree points into, kept until fuzz_layout_free; NULL when the
 * list is full or memory ran out. */
static struct arrow_json_column* keep(struct fuzz_layout* layout) {
  if (layout->n_copies == (int)(sizeof(layout->copies) / sizeof(layout->copies[0]))) return NULL;
  struct arrow_json_column* copy = calloc(1, sizeof(*copy));
  if (copy != NULL) layout->copies[layout->n_copies++] = copy;
  return copy;
}

static struct ArrowArray* build(struct builder* b, const struct arrow_json_field* field,
                                const struct arrow_json_type* type, const struct arrow_json_column* column,
                                int64_t padding);

/* The dictionary of a dictionary-encoded field, from a copy of its values. */
static struct ArrowArray* build_dictionary(struct builder* b, const struct arrow_json_field* field) {
  const struct arrow_json_column* values = arrow_json_dictionary_values(b->file, field);
  struct arrow_json_column* copy = keep(b->layout);
  if (values == NULL || copy == NULL || arrow_json_column_copy(values, copy) != 0) return NULL;
  struct arrow_json_field* as_values = fuzz_zalloc(b->layout->arena, sizeof(*as_values));
  *as_values = *field;
  as_values->is_dictionary = false;
  return build(b, as_values, &as_values->type, copy, 0);
}

/* The array of `column` (a copy of the model's, which the changes may
 * write), its first `padding` rows left out through `offset`. */
static struct ArrowArray* build(struct builder* b, const struct arrow_json_field* field,
                                const struct arrow_json_type* type, const struct arrow_json_column* column,
                                int64_t padding) {
  struct fuzz_arena* arena = b->layout->arena;
  struct ArrowArray* array = fuzz_zalloc(arena, sizeof(*array));
  *array = (struct ArrowArray){.length = column->length - padding,
                               .offset = padding,
                               .null_count = column->null_count,
                               .n_buffers = column->n_buffers,
                               .release = release_nothing};
  const void** buffers =
      fuzz_zalloc(arena, (size_t)(column->n_buffers + SPARE_BUFFER_SLOTS) * sizeof(*buffers));
  for (int64_t i = 0; i < column->n_buffers; i++) buffers[i] = column->buffers[i].bytes;
  array->buffers = buffers;
  if (b->n_nodes < MAX_NODES) b->nodes[b->n_nodes++] = (struct node){array, type, column};
  if (field->is_dictionary && type == &field->index_type) {
    array->dictionary = build_dictionary(b, field);
    return array;
  }
  struct ArrowArray** children = fuzz_zalloc(arena, (size_t)(column->n_children + 1) * sizeof(*children));
  for (int64_t i = 0; i < column->n_children; i++) {
    const struct arrow_json_field* child = &field->children[i];
    children[i] = build(b, child, arrow_json_storage_type(child), &column->children[i], 0);
  }
  array->n_children = column->n_children;
  array->children = children;
  return array;
}

/* A column of the batch, padded by 0 to 3 rows where its layout takes them. */
static struct ArrowArray* build_column(struct fuzz_bytes* in, struct builder* b, int64_t batch, int64_t c) {
  const struct arrow_json_field* field = &b->file->fields[c];
  struct arrow_json_column* copy = keep(b->layout);
  if (copy == NULL) return NULL;
  int64_t padding =
      arrow_json_column_pad(b->file, field, &b->file->batches[batch].columns[c], fuzz_range(in, 0, 3), copy);
  if (padding < 0) return NULL;
  return build(b, field, arrow_json_storage_type(field), copy, padding);
}

/* Whether flipping bits of a buffer of this role keeps every read in
 * bounds (offsets, sizes and variadic sizes say how far others reach). */
static bool flippable(enum arrow_buffer_role role) {
  return role == ARROW_BUFFER_VALIDITY || role == ARROW_BUFFER_BITS || role == ARROW_BUFFER_VALUES ||
         role == ARROW_BUFFER_DATA || role == ARROW_BUFFER_VIEWS || role == ARROW_BUFFER_TYPE_IDS;
}

static void flip_a_bit(struct fuzz_bytes* in, const struct node* node) {
  int64_t n = node->column->n_buffers;
  if (n == 0) return;
  int64_t index = fuzz_range(in, 0, n - 1);
  const struct arrow_json_buffer* buffer = &node->column->buffers[index];
  /* A dictionary's indices are values too: an index outside the
   * dictionary is the comparison's to refuse. */
  enum arrow_buffer_role role = arrow_layout_buffer_role(node->type->layout, index, n);
  if (!flippable(role) || buffer->bytes == NULL || buffer->size == 0) return;
  int64_t byte = fuzz_range(in, 0, buffer->size - 1);
  buffer->bytes[byte] ^= (uint8_t)(1u << (fuzz_byte(in) % 8));
}

/* One change to one node, as the bytes say. */
static void change(struct fuzz_bytes* in, struct builder* b) {
  if (b->n_nodes == 0) return;
  const struct node* node = &b->nodes[fuzz_range(in, 0, b->n_nodes - 1)];
  struct ArrowArray* array = node->array;
  switch (fuzz_byte(in) % 9) {
    case 0:
      flip_a_bit(in, node);
      break;
    case 1:
      array->null_count = fuzz_range(in, -1, 3);
      break;
    case 2:
      /* Not a view's: its last buffer holds the sizes of the others, so
       * its count says where they are, and a wrong one sends any reader
       * past them. */
      if (node->type->layout == ARROW_LAYOUT_BINARY_VIEW) break;
      if (fuzz_byte(in) % 2) {
        if (array->n_buffers < node->column->n_buffers + SPARE_BUFFER_SLOTS) array->n_buffers++;
      } else if (array->n_buffers > 0) {
        array->n_buffers--;
      }
      break;
    case 3:
      if (array->n_children > 0) array->n_children--;
      break;
    case 4:
      if (array->n_buffers > 0)
        ((const void**)array->buffers)[fuzz_range(in, 0, array->n_buffers - 1)] = NULL;
      break;
    case 5:
      if (array->n_children > 0) array->children[fuzz_range(in, 0, array->n_children - 1)] = NULL;
      break;
    case 6:
      /* A dictionary dropped, or one where none belongs (the node itself:
       * whatever it holds, it must be refused as a dictionary). */
      array->dictionary = array->dictionary != NULL ? NULL : array;
      break;
    case 7:
      array->release = NULL;
      break;
    default:
      if (array->length > 0) array->length--;
      break;
  }
}

static void change_some(struct fuzz_bytes* in, struct builder* b) {
  for (int i = fuzz_byte(in) % 4; i > 0; i--) change(in, b);
}

struct ArrowArray* fuzz_layout_batch(struct fuzz_bytes* in, struct fuzz_layout* layout,
                                     const struct arrow_json_file* file, int64_t batch) {
  static struct builder b; /* large: kept off the stack */
  b = (struct builder){.layout = layout, .file = file};
  struct fuzz_arena* arena = layout->arena;
  struct ArrowArray* array = fuzz_zalloc(arena, sizeof(*array));
  const void** buffers = fuzz_zalloc(arena, sizeof(*buffers));
  struct ArrowArray** children = fuzz_zalloc(arena, (size_t)(file->n_fields + 1) * sizeof(*children));
  *array = (struct ArrowArray){.length = file->batches[batch].length,
                               .n_buffers = 1,
                               .n_children = file->n_fields,
                               .buffers = buffers,
                               .children = children,
                               .release = release_nothing};
  for (int64_t c = 0; c < file->n_fields; c++) {
    children[c] = build_column(in, &b, batch, c);
    if (children[c] == NULL) return array; /* the comparison refuses the NULL child */
  }
  change_some(in, &b);
  return array;
}

struct ArrowArray* fuzz_layout_column(struct fuzz_bytes* in, struct fuzz_layout* layout,
                                      const struct arrow_json_file* file, int64_t batch, int64_t column) {
  static struct builder b;
  b = (struct builder){.layout = layout, .file = file};
  struct ArrowArray* array = build_column(in, &b, batch, column);
  if (array == NULL) {
    array = fuzz_zalloc(layout->arena, sizeof(*array)); /* released: refused at once */
    return array;
  }
  change_some(in, &b);
  return array;
}

void fuzz_layout_free(struct fuzz_layout* layout) {
  for (int i = 0; i < layout->n_copies; i++) {
    arrow_json_column_free(layout->copies[i]);
    free(layout->copies[i]);
  }
  layout->n_copies = 0;
}
