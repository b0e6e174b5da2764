/* Random type trees drawn from the type table (arrow_type_rows): every
 * row can be drawn, at any depth up to FUZZ_TREE_MAX_DEPTH, as a field of
 * a schema, a child, a dictionary's values or its indices.  The tree
 * holds what the JSON writer needs to spell the type (the row, the
 * parameters its format string names) and to write values of it; every
 * per-type fact comes from the row (its layout, value encoding, widths),
 * so that a new row is drawn without new code where its layout is known
 * (arrow_layouts) and its parameters are ones the tree can make
 * (fuzz_type_tree.c, `makers`). */
#ifndef ADC_FUZZ_TYPE_TREE_H
#define ADC_FUZZ_TYPE_TREE_H

#include <stdbool.h>
#include <stdint.h>

#include "arrow_format/arrow_layout.h"
#include "fuzz_bytes.h"

#define FUZZ_TREE_MAX_DEPTH 4
#define FUZZ_TREE_MAX_NODES 48
#define FUZZ_TREE_MAX_CHILDREN 4
#define FUZZ_TREE_MAX_FIELDS 4
#define FUZZ_TREE_MAX_PARAMETERS 4

/* A parameter of the type's JSON object that its format string names
 * ("{precision}"), as JSON text; `json` empty for an optional one left
 * out. */
struct fuzz_parameter {
  const char* name;
  char json[96];
};

struct fuzz_node {
  const struct arrow_type_row* row;
  char name[24];
  bool nullable;
  /* Whether each `match` parameter whose value is its row's default is
   * written anyway (Integration.rst: a decimal's bitWidth may be left
   * out). */
  bool spell_default[2];
  int n_parameters;
  struct fuzz_parameter parameters[FUZZ_TREE_MAX_PARAMETERS];
  /* What the parameters say, for the values: */
  int value_bytes;   /* the row's, or its byteWidth */
  int precision;     /* decimals: the most digits a value has */
  int64_t list_size; /* fixed-size lists */
  int type_ids[FUZZ_TREE_MAX_CHILDREN];
  int n_children;
  struct fuzz_node* children[FUZZ_TREE_MAX_CHILDREN];
  /* Dictionary-encoded: indices of the row `index` into a dictionary of
   * `dictionary_length` values of this node's type. */
  const struct arrow_type_row* index;
  int64_t dictionary_id;
  bool ordered;
  int64_t dictionary_length;
  /* Some custom metadata (spec: "ArrowSchema.metadata"). */
  bool has_metadata;
};

struct fuzz_tree {
  int n_fields;
  struct fuzz_node* fields[FUZZ_TREE_MAX_FIELDS];
  int n_nodes;
  struct fuzz_node nodes[FUZZ_TREE_MAX_NODES];
  /* The dictionary-encoded nodes, in the order their ids were given. */
  int n_dictionaries;
  struct fuzz_node* dictionaries[FUZZ_TREE_MAX_NODES];
  bool schema_metadata;
};

/* Draws a tree: 1 to FUZZ_TREE_MAX_FIELDS fields. */
void fuzz_tree_draw(struct fuzz_bytes* in, struct fuzz_tree* tree);

#endif /* ADC_FUZZ_TYPE_TREE_H */
