/* Two schema trees walked in pairs (arrow_logical_tree.h): the export's
 * and the fixture's, node by node through their decoded types, with the
 * names and metadata where they are asked and count (arrow_logical.h,
 * clauses 1 to 3). */
#include <inttypes.h>
#include <string.h>

#include "arrow_format/arrow_json.h"
#include "arrow_format/arrow_logical_tree.h"

struct walk {
  int aspects;
  logical_visit visit;
  void* context;
};

/* Where a child stands below its parent: what its step says and whether
 * its name is part of the type (clause 2). */
enum child_role {
  ROLE_FIELD,   /* a column, a struct's or a union's child: its name counts */
  ROLE_ITEM,    /* a list's or fixed-size list's child */
  ROLE_ENTRIES, /* a map's entries struct */
  ROLE_KEY_VALUE,
};

static int walk_pair(struct logical_report* r, const struct walk* w, const struct logical_node* a,
                     const struct logical_node* b, enum child_role role);

static int walk_children(struct logical_report* r, const struct walk* w, const struct logical_node* a,
                         const struct logical_node* b, enum child_role role) {
  if (a->n_children != b->n_children) {
    r->kind = ARROW_JSON_DIFFERENT_TYPES;
    return logical_fail(r, "type has %" PRId64 " children, fixture has %" PRId64, a->n_children,
                        b->n_children);
  }
  enum arrow_layout_id layout = b->type.layout;
  for (int64_t i = 0; i < b->n_children; i++) {
    const struct logical_node* child = &b->children[i];
    enum child_role child_role = ROLE_FIELD;
    int mark;
    if (role == ROLE_ENTRIES) {
      child_role = ROLE_KEY_VALUE;
      mark = logical_push(r, i == 0 ? "key" : "value", NULL, -1);
    } else if (layout == ARROW_LAYOUT_MAP) {
      child_role = ROLE_ENTRIES;
      mark = logical_push(r, "entries", NULL, -1);
    } else if (layout == ARROW_LAYOUT_STRUCT || layout == ARROW_LAYOUT_SPARSE_UNION ||
               layout == ARROW_LAYOUT_DENSE_UNION) {
      mark = logical_push(r, "child", logical_name(child), -1);
    } else {
      child_role = ROLE_ITEM;
      mark = logical_push(r, "item", NULL, -1);
    }
    if (walk_pair(r, w, &a->children[i], child, child_role) != 0) return -1;
    logical_pop(r, mark);
  }
  return 0;
}

static int walk_pair(struct logical_report* r, const struct walk* w, const struct logical_node* a,
                     const struct logical_node* b, enum child_role role) {
  if ((w->aspects & LOGICAL_NAMES) && role == ROLE_FIELD && strcmp(logical_name(a), logical_name(b)) != 0) {
    r->kind = ARROW_JSON_DIFFERENT_TYPES;
    return logical_fail(r, "name is \"%s\", fixture has \"%s\"", logical_name(a), logical_name(b));
  }
  if ((w->aspects & LOGICAL_METADATA) &&
      logical_compare_metadata(r, a->schema->metadata, b->schema->metadata) != 0)
    return -1;
  const struct logical_node* da = logical_decoded(a);
  const struct logical_node* db = logical_decoded(b);
  if (!logical_same_type(a, b)) {
    char got[160], want[160];
    arrow_format_describe(&da->type, got, sizeof(got));
    arrow_format_describe(&db->type, want, sizeof(want));
    r->kind = ARROW_JSON_DIFFERENT_TYPES;
    return logical_fail(r, "type is %s, fixture has %s", got, want);
  }
  if (w->visit != NULL && w->visit(r, a, b, w->context) != 0) return -1;
  return walk_children(r, w, da, db, role);
}

int logical_walk_node(struct logical_report* r, const struct logical_node* a, const struct logical_node* b,
                      int aspects, logical_visit visit, void* context) {
  struct walk w = {aspects, visit, context};
  return walk_pair(r, &w, a, b, ROLE_FIELD);
}

int logical_walk_columns(struct logical_report* r, const struct logical_node* a, const struct logical_node* b,
                         int aspects, logical_visit visit, void* context) {
  struct walk w = {aspects, visit, context};
  /* spec ("Record batches"): a record batch's schema is a struct of its
   * columns. */
  if (a->type.layout != ARROW_LAYOUT_STRUCT || a->dictionary != NULL) {
    r->kind = ARROW_JSON_DIFFERENT_TYPES;
    return logical_fail(r, "top-level format is \"%s\", a record batch is \"+s\"", a->type.format);
  }
  if (aspects & LOGICAL_METADATA) {
    int mark = logical_push(r, "schema", NULL, -1);
    if (logical_compare_metadata(r, a->schema->metadata, b->schema->metadata) != 0) return -1;
    logical_pop(r, mark);
  }
  if (a->n_children != b->n_children) {
    r->kind = ARROW_JSON_DIFFERENT_TYPES;
    return logical_fail(r, "the schema has %" PRId64 " columns, fixture has %" PRId64, a->n_children,
                        b->n_children);
  }
  for (int64_t i = 0; i < b->n_children; i++) {
    int mark = logical_push(r, "column", logical_name(&b->children[i]), -1);
    if (walk_pair(r, &w, &a->children[i], &b->children[i], ROLE_FIELD) != 0) return -1;
    logical_pop(r, mark);
  }
  return 0;
}
