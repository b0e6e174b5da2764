/* An exported schema parsed into typed nodes (arrow_logical_tree.h), each
 * checked as far as its own schema goes: a format the C Data Interface
 * defines, the children its layout takes, a dictionary whose format is an
 * integer.  Nothing is read of a node that failed. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "arrow_format/arrow_logical_tree.h"

/* Nodes one tree may hold: a schema whose children repeat one another
 * (a cycle, or pointers shared down many levels) is refused before it
 * costs more. */
#define LOGICAL_MAX_NODES 65536

struct build {
  struct logical_report* r;
  int64_t nodes_left;
};

static int build_node(struct build* b, const struct ArrowSchema* schema, int depth, struct logical_node* out);

/* The children a node's layout takes: the layout table's count, or as many
 * as the type says (a union's type ids) or the schema has (a struct). */
static int check_child_count(struct logical_report* r, const struct logical_node* node) {
  const struct arrow_format_type* type = &node->type;
  int64_t expected = arrow_layout_of(type->layout)->n_children;
  if (type->layout == ARROW_LAYOUT_SPARSE_UNION || type->layout == ARROW_LAYOUT_DENSE_UNION)
    expected = type->n_type_ids;
  if (node->dictionary != NULL) expected = 0;
  if (expected >= 0 && node->schema->n_children != expected) {
    return logical_fail(r, "n_children is %" PRId64 ", a %s schema (\"%s\") has %" PRId64,
                        node->schema->n_children,
                        node->dictionary ? "dictionary-encoded" : arrow_layout_of(type->layout)->name,
                        type->format, expected);
  }
  return 0;
}

/* What a map's and a run-end encoded node's children must be (Columnar.rst,
 * "Map": a list of a struct of two children, key and value; "Run-End
 * Encoded Layout": "The run ends child array must be a 16/32/64-bit
 * signed integer array"). */
static int check_children_types(struct logical_report* r, const struct logical_node* node) {
  if (node->type.layout == ARROW_LAYOUT_MAP) {
    const struct logical_node* entries = &node->children[0];
    if (entries->type.layout != ARROW_LAYOUT_STRUCT || entries->n_children != 2 || entries->dictionary) {
      return logical_fail(
          r, "a map's child is a struct of a key and a value, not \"%s\" of %" PRId64 " children",
          entries->type.format, entries->n_children);
    }
  }
  if (node->type.layout == ARROW_LAYOUT_RUN_END_ENCODED) {
    const struct logical_node* run_ends = &node->children[0];
    if (!arrow_format_is_integer(&run_ends->type) || !run_ends->type.is_signed ||
        run_ends->type.bit_width < 16 || run_ends->dictionary) {
      return logical_fail(r, "run ends are int16, int32 or int64, not \"%s\"", run_ends->type.format);
    }
  }
  return 0;
}

static int build_children(struct build* b, const struct ArrowSchema* schema, int depth,
                          struct logical_node* out) {
  int64_t n = schema->n_children;
  if (n == 0) return 0;
  if (schema->children == NULL) return logical_fail(b->r, "children is NULL");
  if (n > b->nodes_left) return logical_fail(b->r, "the schema has more than %d nodes", LOGICAL_MAX_NODES);
  out->children = calloc((size_t)n, sizeof(struct logical_node));
  if (out->children == NULL) return logical_fail(b->r, "out of memory for %" PRId64 " children", n);
  out->n_children = n;
  for (int64_t i = 0; i < n; i++) {
    const struct ArrowSchema* child = schema->children[i];
    if (child == NULL) return logical_fail(b->r, "children[%" PRId64 "] is NULL", i);
    int mark = logical_push(b->r, depth == 0 ? "column" : "child", child->name ? child->name : "", -1);
    if (build_node(b, child, depth + 1, &out->children[i]) != 0) return -1;
    logical_pop(b->r, mark);
  }
  return 0;
}

static int build_node(struct build* b, const struct ArrowSchema* schema, int depth,
                      struct logical_node* out) {
  struct logical_report* r = b->r;
  memset(out, 0, sizeof(*out));
  out->schema = schema;
  if (schema->release == NULL) return logical_fail(r, "schema is released (release is NULL)");
  if (depth > LOGICAL_MAX_DEPTH)
    return logical_fail(r, "the schema nests deeper than %d levels", LOGICAL_MAX_DEPTH);
  if (--b->nodes_left < 0) return logical_fail(r, "the schema has more than %d nodes", LOGICAL_MAX_NODES);
  if (arrow_format_parse(schema->format, &out->type) != 0) {
    return logical_fail(r, "format \"%s\" is not a format of the C Data Interface",
                        schema->format ? schema->format : "(null)");
  }
  if (schema->n_children < 0)
    return logical_fail(r, "n_children is negative (%" PRId64 ")", schema->n_children);
  if (schema->dictionary != NULL) {
    /* spec: "For dictionary-encoded arrays, the ArrowSchema.format string
     * encodes the index type"; Columnar.rst ("Dictionary-encoded Layout"):
     * the indices are integers. */
    if (!arrow_format_is_integer(&out->type))
      return logical_fail(r, "a dictionary-encoded node's format is its indices', an integer, not \"%s\"",
                          schema->format);
    out->dictionary = calloc(1, sizeof(struct logical_node));
    if (out->dictionary == NULL) return logical_fail(r, "out of memory");
    int mark = logical_push(r, "dictionary", NULL, -1);
    if (build_node(b, schema->dictionary, depth + 1, out->dictionary) != 0) return -1;
    logical_pop(r, mark);
  }
  if (check_child_count(r, out) != 0 || build_children(b, schema, depth, out) != 0) return -1;
  return check_children_types(r, out);
}

int logical_tree_build(struct logical_report* r, const struct ArrowSchema* schema, struct logical_node* out) {
  struct build b = {r, LOGICAL_MAX_NODES};
  memset(out, 0, sizeof(*out));
  int status = schema == NULL ? logical_fail(r, "schema is NULL") : build_node(&b, schema, 0, out);
  if (status != 0) logical_tree_free(out);
  return status;
}

void logical_tree_free(struct logical_node* node) {
  for (int64_t i = 0; node->children != NULL && i < node->n_children; i++)
    logical_tree_free(&node->children[i]);
  free(node->children);
  if (node->dictionary != NULL) {
    logical_tree_free(node->dictionary);
    free(node->dictionary);
  }
  memset(node, 0, sizeof(*node));
}

const char* logical_name(const struct logical_node* node) {
  return node->schema->name != NULL ? node->schema->name : "";
}

bool logical_is_run_end_encoded(const struct logical_node* node) {
  return node->dictionary == NULL && node->type.layout == ARROW_LAYOUT_RUN_END_ENCODED;
}

const struct logical_node* logical_decoded(const struct logical_node* node) {
  for (;;) {
    if (node->dictionary != NULL) {
      node = node->dictionary;
    } else if (logical_is_run_end_encoded(node)) {
      node = &node->children[1];
    } else {
      return node;
    }
  }
}

/* The physical types that are one logical type (arrow_logical.h, clause
 * 1); every other type is its own family. */
enum family { FAMILY_OWN, FAMILY_STRING, FAMILY_BINARY, FAMILY_LIST };

static enum family family_of(const struct arrow_format_type* type) {
  /* A fixed-size binary's values are bytes, as a binary's are: a library
   * without the type (polars, DuckDB) keeps them as binaries. */
  if (type->row != NULL && type->row->kind == ARROW_JSON_FIXED_SIZE_BINARY) return FAMILY_BINARY;
  switch (type->layout) {
    case ARROW_LAYOUT_BINARY:
    case ARROW_LAYOUT_LARGE_BINARY:
    case ARROW_LAYOUT_BINARY_VIEW:
      return type->row->values == ARROW_VALUES_STRING ? FAMILY_STRING : FAMILY_BINARY;
    case ARROW_LAYOUT_LIST:
    case ARROW_LAYOUT_LARGE_LIST:
    case ARROW_LAYOUT_LIST_VIEW:
    case ARROW_LAYOUT_LARGE_LIST_VIEW:
      return FAMILY_LIST;
    default:
      return FAMILY_OWN;
  }
}

bool logical_same_type(const struct logical_node* a, const struct logical_node* b) {
  const struct arrow_format_type* x = &logical_decoded(a)->type;
  const struct arrow_format_type* y = &logical_decoded(b)->type;
  enum family family = family_of(x);
  if (family != family_of(y)) return false;
  return family != FAMILY_OWN || arrow_format_same_type(x, y);
}
