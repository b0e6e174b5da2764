/* Random type trees from the type table (fuzz_type_tree.h). */
#include "fuzz_type_tree.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Fixed-size lists multiply their child's rows: the product along a path
 * stays at most this, so that a long batch stays a few thousand rows deep
 * down. */
#define MAX_ROWS_MULTIPLIER 16

struct drawing {
  struct fuzz_bytes* in;
  struct fuzz_tree* tree;
  int64_t multiplier; /* rows of a node per row of its field */
  int reserved;       /* nodes promised to children not drawn yet */
};

/* Nodes a new node may still take, its siblings' shares set aside. */
static int room(const struct drawing* d) {
  return FUZZ_TREE_MAX_NODES - d->tree->n_nodes - d->reserved;
}

static struct fuzz_node* new_node(struct drawing* d) {
  if (d->tree->n_nodes == FUZZ_TREE_MAX_NODES) abort(); /* the drawing checks room first */
  struct fuzz_node* node = &d->tree->nodes[d->tree->n_nodes++];
  memset(node, 0, sizeof(*node));
  return node;
}

/* Whether `row` has children: rows of a layout with none are leaves. */
static bool has_children(const struct arrow_type_row* row) {
  return arrow_layout_of(row->layout)->n_children != 0;
}

/* Nodes a row takes at least (itself, a map's entries, key and value, a
 * run-end encoded array's run ends and values, one child otherwise). */
static int nodes_needed(const struct arrow_type_row* row) {
  enum arrow_layout_id layout = row->layout;
  if (layout == ARROW_LAYOUT_MAP) return 4;
  if (layout == ARROW_LAYOUT_RUN_END_ENCODED) return 3;
  return has_children(row) ? 2 : 1;
}

/* A row drawn from the whole table, or the next leaf after it where the
 * depth or the room left allow no children. */
static const struct arrow_type_row* draw_row(struct drawing* d, int depth) {
  size_t index = (size_t)fuzz_range(d->in, 0, (int64_t)arrow_type_row_count - 1);
  bool leaf_only = depth >= FUZZ_TREE_MAX_DEPTH || room(d) < 8;
  for (size_t i = 0; i < arrow_type_row_count; i++) {
    const struct arrow_type_row* row = &arrow_type_rows[(index + i) % arrow_type_row_count];
    if (!(leaf_only && has_children(row)) && nodes_needed(row) <= room(d)) return row;
  }
  abort(); /* the table has leaves */
}

/* A row of `kind` matching `accept`, drawn among those. */
static const struct arrow_type_row* draw_row_where(struct drawing* d,
                                                   bool (*accept)(const struct arrow_type_row*)) {
  size_t n = 0;
  for (size_t i = 0; i < arrow_type_row_count; i++) n += accept(&arrow_type_rows[i]);
  if (n == 0) abort();
  size_t pick = (size_t)fuzz_range(d->in, 0, (int64_t)n - 1);
  for (size_t i = 0; i < arrow_type_row_count; i++) {
    if (accept(&arrow_type_rows[i]) && pick-- == 0) return &arrow_type_rows[i];
  }
  abort();
}

/* spec (Columnar.rst, "Dictionary-encoded Layout"): indices are integers. */
static bool index_row(const struct arrow_type_row* row) {
  return row->kind == ARROW_JSON_INT;
}

/* spec (Columnar.rst, "Run-End Encoded Layout"): run ends are int16,
 * int32 or int64. */
static bool run_end_row(const struct arrow_type_row* row) {
  return row->kind == ARROW_JSON_INT && row->is_signed && row->bit_width >= 16;
}

/* spec (Columnar.rst, "Map"): a map's child is a struct of the key and the value. */
static bool struct_row(const struct arrow_type_row* row) {
  return row->layout == ARROW_LAYOUT_STRUCT;
}

static void draw_name(struct drawing* d, struct fuzz_node* node, const char* fixed) {
  static const char* const odd[] = {"", "naïve \"quoted\"", "back\\slash", "日本", "a"};
  if (fixed != NULL) {
    snprintf(node->name, sizeof(node->name), "%s", fixed);
  } else if (fuzz_byte(d->in) % 8 == 0) {
    snprintf(node->name, sizeof(node->name), "%s", odd[fuzz_byte(d->in) % 5]);
  } else {
    snprintf(node->name, sizeof(node->name), "f%d", d->tree->n_nodes - 1);
  }
}

/* ---- parameters: one maker per name a format string can hold ---- */

/* The most decimal digits a decimal of `bits` holds whole: 10^p - 1 below
 * 2^(bits - 1) (9 for 32, 18, 38, 76). */
static int decimal_digits(int bits) {
  return (int)((bits - 1) * 0.30102999566398119521);
}

static void make_precision(struct drawing* d, struct fuzz_node* node, struct fuzz_parameter* out) {
  node->precision = (int)fuzz_range(d->in, 1, decimal_digits(node->row->bit_width));
  snprintf(out->json, sizeof(out->json), "%d", node->precision);
}

static void make_scale(struct drawing* d, struct fuzz_node* node, struct fuzz_parameter* out) {
  (void)node;
  snprintf(out->json, sizeof(out->json), "%d", (int)fuzz_range(d->in, -5, 40));
}

static void make_timezone(struct drawing* d, struct fuzz_node* node, struct fuzz_parameter* out) {
  static const char* const zones[] = {"", "\"UTC\"", "\"America/New_York\"", "\"+07:30\"",
                                      "\"Europe/Paris\""};
  (void)node;
  snprintf(out->json, sizeof(out->json), "%s", zones[fuzz_byte(d->in) % 5]);
}

static void make_byte_width(struct drawing* d, struct fuzz_node* node, struct fuzz_parameter* out) {
  node->value_bytes = (int)fuzz_range(d->in, 1, 24);
  snprintf(out->json, sizeof(out->json), "%d", node->value_bytes);
}

static void make_list_size(struct drawing* d, struct fuzz_node* node, struct fuzz_parameter* out) {
  node->list_size = (fuzz_byte(d->in) + 2) % 5; /* 0 to 4; an input that ran out reads 2 */
  while (node->list_size > 1 && d->multiplier * node->list_size > MAX_ROWS_MULTIPLIER) node->list_size--;
  snprintf(out->json, sizeof(out->json), "%" PRId64, node->list_size);
}

/* spec (Columnar.rst, "Union Layout"): type ids are distinct, 0 to 127. */
static void make_type_ids(struct drawing* d, struct fuzz_node* node, struct fuzz_parameter* out) {
  size_t used = (size_t)snprintf(out->json, sizeof(out->json), "[");
  for (int c = 0; c < node->n_children; c++) {
    int id = (int)fuzz_range(d->in, 0, 127);
    for (bool taken = true; taken;) {
      taken = false;
      for (int j = 0; j < c; j++) taken |= node->type_ids[j] == id;
      if (taken) id = (id + 1) % 128;
    }
    node->type_ids[c] = id;
    used += (size_t)snprintf(out->json + used, sizeof(out->json) - used, "%s%d", c ? ", " : "", id);
  }
  snprintf(out->json + used, sizeof(out->json) - used, "]");
}

static const struct {
  const char* name;
  void (*make)(struct drawing* d, struct fuzz_node* node, struct fuzz_parameter* out);
} makers[] = {
    {"precision", make_precision},  {"scale", make_scale},        {"timezone", make_timezone},
    {"byteWidth", make_byte_width}, {"listSize", make_list_size}, {"typeIds", make_type_ids},
};

/* The parameters the row's format names, in its order. */
static void make_parameters(struct drawing* d, struct fuzz_node* node) {
  for (const char* c = strchr(node->row->format, '{'); c != NULL; c = strchr(c + 1, '{')) {
    const char* end = strchr(c, '}');
    size_t length = (size_t)(end - c - 1);
    if (c[length] == '?') length--;
    bool made = false;
    for (size_t m = 0; m < sizeof(makers) / sizeof(makers[0]) && !made; m++) {
      if (strlen(makers[m].name) != length || strncmp(makers[m].name, c + 1, length) != 0) continue;
      if (node->n_parameters == FUZZ_TREE_MAX_PARAMETERS) abort();
      struct fuzz_parameter* parameter = &node->parameters[node->n_parameters++];
      parameter->name = makers[m].name;
      makers[m].make(d, node, parameter);
      made = true;
    }
    if (!made) {
      fprintf(stderr, "fuzz_type_tree: the type table's format \"%s\" names a parameter no maker makes\n",
              node->row->format);
      abort();
    }
  }
}

/* ---- nodes ---- */

enum place { ANY_PLACE, RUN_ENDS, MAP_ENTRIES, MAP_KEY };

static struct fuzz_node* draw_node(struct drawing* d, int depth, enum place place);

/* The node's children, each of the place its layout gives it; a node
 * for each is set aside first, so that the first child's subtree leaves
 * room for the others. */
static void draw_children(struct drawing* d, struct fuzz_node* node, enum place place, int depth) {
  enum arrow_layout_id layout = node->row->layout;
  enum place places[FUZZ_TREE_MAX_CHILDREN] = {ANY_PLACE, ANY_PLACE, ANY_PLACE, ANY_PLACE};
  if (place == MAP_ENTRIES) {
    node->n_children = 2;
    places[0] = MAP_KEY;
  } else if (layout == ARROW_LAYOUT_MAP) {
    node->n_children = 1;
    places[0] = MAP_ENTRIES;
  } else if (layout == ARROW_LAYOUT_RUN_END_ENCODED) {
    node->n_children = 2;
    places[0] = RUN_ENDS;
  }
  d->reserved += node->n_children;
  for (int c = 0; c < node->n_children; c++) {
    d->reserved--;
    node->children[c] = draw_node(d, depth + 1, places[c]);
  }
  if (place == MAP_ENTRIES) {
    snprintf(node->children[0]->name, sizeof(node->children[0]->name), "key");
    snprintf(node->children[1]->name, sizeof(node->children[1]->name), "value");
  }
}

/* How many children a node of `row` has: its layout's count, or for the
 * layouts that take any number (structs, unions) 1 to what the room
 * left allows (a struct sometimes none).  The node itself is drawn. */
static int children_count(struct drawing* d, const struct arrow_type_row* row) {
  int fixed = arrow_layout_of(row->layout)->n_children;
  if (fixed >= 0) return fixed;
  int share = room(d) / 3;
  int most = share < 1 ? 1 : share < FUZZ_TREE_MAX_CHILDREN ? share : FUZZ_TREE_MAX_CHILDREN;
  int low = row->layout == ARROW_LAYOUT_STRUCT && fuzz_byte(d->in) % 16 == 0 ? 0 : 1;
  return (int)fuzz_range(d->in, low, most);
}

static void draw_dictionary(struct drawing* d, struct fuzz_node* node) {
  node->index = draw_row_where(d, index_row);
  node->dictionary_id = fuzz_range(d->in, 0, 3) + 10 * (int64_t)d->tree->n_dictionaries;
  node->ordered = fuzz_byte(d->in) % 2;
  /* At least one value where a row may need one (a non-nullable column),
   * at most what the smallest index type reaches. */
  node->dictionary_length = fuzz_range(d->in, node->nullable ? 0 : 1, 40);
  d->tree->dictionaries[d->tree->n_dictionaries++] = node;
}

static struct fuzz_node* draw_node(struct drawing* d, int depth, enum place place) {
  const struct arrow_type_row* row = place == RUN_ENDS      ? draw_row_where(d, run_end_row)
                                     : place == MAP_ENTRIES ? draw_row_where(d, struct_row)
                                                            : draw_row(d, depth);
  struct fuzz_node* node = new_node(d);
  node->row = row;
  node->value_bytes = row->value_bytes;
  draw_name(d, node, place == RUN_ENDS ? "run_ends" : place == MAP_ENTRIES ? "entries" : NULL);
  /* spec: run ends, a map's entries and its keys are never null. */
  node->nullable = place == ANY_PLACE && fuzz_byte(d->in) % 4 != 0;
  for (int i = 0; i < 2; i++) node->spell_default[i] = fuzz_byte(d->in) % 2;
  node->n_children = children_count(d, row);
  int64_t multiplier = d->multiplier;
  make_parameters(d, node);
  if (row->layout == ARROW_LAYOUT_FIXED_SIZE_LIST && node->list_size > 0) d->multiplier *= node->list_size;
  draw_children(d, node, place, depth);
  d->multiplier = multiplier;
  if (place != RUN_ENDS && place != MAP_ENTRIES && fuzz_byte(d->in) % 6 == 0) draw_dictionary(d, node);
  node->has_metadata = fuzz_byte(d->in) % 10 == 0;
  return node;
}

void fuzz_tree_draw(struct fuzz_bytes* in, struct fuzz_tree* tree) {
  memset(tree, 0, sizeof(*tree));
  struct drawing d = {in, tree, 1, 0};
  tree->n_fields = (int)fuzz_range(in, 1, FUZZ_TREE_MAX_FIELDS);
  for (int i = 0; i < tree->n_fields; i++) {
    if (room(&d) < 8) {
      tree->n_fields = i;
      break;
    }
    tree->fields[i] = draw_node(&d, 1, ANY_PLACE);
  }
  tree->schema_metadata = fuzz_byte(in) % 8 == 0;
}
