/* An exported array checked against its own schema node before any value
 * is read (arrow_logical.h, clause 6): what the array declares must be
 * what its format has, so that reading it by that format reads only what
 * it declares.  The checks of what the values reach (offsets, views,
 * indices, run ends, type ids) are made as the values are read
 * (arrow_logical_values.c). */
#include <inttypes.h>

#include "arrow_format/arrow_json.h"
#include "arrow_format/arrow_logical_tree.h"
#include "arrow_format/arrow_null_count.h"

static int check_array(struct logical_report* r, const struct logical_node* node,
                       const struct ArrowArray* array, int depth);

static int check_null_count(struct logical_report* r, const struct logical_node* node,
                            const struct ArrowArray* array) {
  char why[200];
  if (arrow_null_count_check(node->type.layout, array, why, sizeof(why)) != 0)
    return logical_fail(r, "%s", why);
  return 0;
}

/* A difference of counts (the layout rules'): its kind, then the report. */
#define COUNTS(r) ((r)->kind = ARROW_JSON_DIFFERENT_COUNTS, (r))
#define DICTIONARY(r) ((r)->kind = ARROW_JSON_DIFFERENT_DICTIONARY, (r))

/* spec ("Record batches"): a record batch is a struct array without nulls
 * of its own: its null_count 0 (or -1, not computed), its validity bitmap,
 * where it has one, all set. */
static int check_record_batch_nulls(struct logical_report* r, const struct ArrowArray* array) {
  if (array->null_count != 0 && array->null_count != -1)
    return logical_fail(r, "a record batch has no nulls, null_count is %" PRId64, array->null_count);
  const uint8_t* validity = array->buffers[0];
  if (validity != NULL && arrow_bitmap_count_nulls(validity, array->offset, array->length) > 0)
    return logical_fail(r, "a record batch has no nulls, its validity bitmap has some");
  return 0;
}

static int check_counts(struct logical_report* r, const struct logical_node* node,
                        const struct ArrowArray* array) {
  const struct arrow_format_type* type = &node->type;
  int64_t n_variadic = 0;
  if (type->layout == ARROW_LAYOUT_BINARY_VIEW) {
    /* spec (CDataInterface.rst, "Binary view arrays"): the validity and
     * views buffers, the variadic data buffers, then their sizes. */
    if (array->n_buffers < 3) {
      return logical_fail(COUNTS(r), "n_buffers is %" PRId64 ", a binary view array (\"%s\") has at least 3",
                          array->n_buffers, type->format);
    }
    n_variadic = array->n_buffers - 3;
  }
  int64_t n_buffers = arrow_layout_buffer_count(type->layout, n_variadic);
  if (array->n_buffers != n_buffers) {
    return logical_fail(COUNTS(r), "n_buffers is %" PRId64 ", a %s array (\"%s\") has %" PRId64,
                        array->n_buffers, arrow_layout_of(type->layout)->name, type->format, n_buffers);
  }
  if (n_buffers > 0 && array->buffers == NULL) return logical_fail(COUNTS(r), "buffers is NULL");
  if (array->n_children != node->n_children) {
    return logical_fail(COUNTS(r), "n_children is %" PRId64 ", its schema has %" PRId64, array->n_children,
                        node->n_children);
  }
  if (node->n_children > 0 && array->children == NULL) return logical_fail(COUNTS(r), "children is NULL");
  return 0;
}

/* spec ("ArrowArray.dictionary"): "MUST be present if the ArrowArray
 * represents a dictionary-encoded type", "MUST be NULL otherwise". */
static int check_dictionary(struct logical_report* r, const struct logical_node* node,
                            const struct ArrowArray* array) {
  if (node->dictionary == NULL) {
    if (array->dictionary != NULL)
      return logical_fail(DICTIONARY(r), "dictionary is set, its schema has none");
    return 0;
  }
  if (array->dictionary == NULL)
    return logical_fail(DICTIONARY(r), "dictionary is NULL, its schema is dictionary-encoded");
  /* Read as the values' type, the indices' own buffers would be read past
   * their end. */
  if (array->dictionary == array) return logical_fail(DICTIONARY(r), "dictionary is the array itself");
  int mark = logical_push(r, "dictionary", NULL, -1);
  if (check_array(r, node->dictionary, array->dictionary, 1) != 0) return -1;
  logical_pop(r, mark);
  return 0;
}

/* The bytes (or child rows) one slot takes: a slot past INT64_MAX / this
 * has no address, and reading it would overflow. */
static int64_t slot_scale(const struct arrow_format_type* type) {
  switch (type->layout) {
    case ARROW_LAYOUT_FIXED_WIDTH:
      return type->value_bytes;
    case ARROW_LAYOUT_BINARY_VIEW:
      return 16;
    case ARROW_LAYOUT_FIXED_SIZE_LIST:
      return type->list_size;
    default:
      return arrow_layout_of(type->layout)->offset_bytes;
  }
}

/* `depth` 0: a record batch, whose children are columns. */
static int check_array(struct logical_report* r, const struct logical_node* node,
                       const struct ArrowArray* array, int depth) {
  if (array->release == NULL) return logical_fail(r, "array is released (release is NULL)");
  if (array->offset < 0) return logical_fail(r, "offset is negative (%" PRId64 ")", array->offset);
  if (array->length < 0) return logical_fail(r, "length is negative (%" PRId64 ")", array->length);
  if (array->offset > INT64_MAX - array->length) return logical_fail(r, "offset + length is past INT64_MAX");
  int64_t scale = slot_scale(&node->type);
  if (scale > 1 && array->offset + array->length >= INT64_MAX / scale)
    return logical_fail(r, "offset + length (%" PRId64 ") is past what a buffer can address",
                        array->offset + array->length);
  if (check_counts(r, node, array) != 0) return -1;
  if ((depth == 0 ? check_record_batch_nulls(r, array) : check_null_count(r, node, array)) != 0) return -1;
  if (check_dictionary(r, node, array) != 0) return -1;
  for (int64_t i = 0; i < node->n_children; i++) {
    const struct ArrowArray* child = array->children[i];
    if (child == NULL) return logical_fail(COUNTS(r), "children[%" PRId64 "] is NULL", i);
    int mark = logical_push(r, depth == 0 ? "column" : "child", logical_name(&node->children[i]), -1);
    if (check_array(r, &node->children[i], child, depth + 1) != 0) return -1;
    logical_pop(r, mark);
  }
  return 0;
}

int logical_check_structure(struct logical_report* r, const struct logical_node* node,
                            const struct ArrowArray* array) {
  if (array == NULL) return logical_fail(r, "array is NULL");
  return check_array(r, node, array, 0);
}

int logical_check_node_structure(struct logical_report* r, const struct logical_node* node,
                                 const struct ArrowArray* array) {
  if (array == NULL) return logical_fail(r, "array is NULL");
  return check_array(r, node, array, 1);
}
