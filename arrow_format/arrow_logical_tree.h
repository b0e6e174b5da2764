/* What the files of the logical comparison (arrow_logical.h) share: an
 * exported schema parsed into a tree of typed nodes, the pairing of two
 * such trees by logical type, and the report of a difference with its
 * path. */
#ifndef ADC_ARROW_LOGICAL_TREE_H
#define ADC_ARROW_LOGICAL_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "adc/arrow_c_abi.h"
#include "arrow_format/arrow_format_string.h"

/* How deep a schema may nest: deeper (or a schema whose children lead back
 * to itself) is reported rather than followed. */
#define LOGICAL_MAX_DEPTH 32
/* Steps a path keeps: a column, then one per level, and a batch before. */
#define LOGICAL_MAX_STEPS (LOGICAL_MAX_DEPTH + 8)

/* One node of a schema, parsed.  For a dictionary-encoded node, `type`
 * is its indices' and `dictionary` its values' node. */
struct logical_node {
  const struct ArrowSchema* schema; /* its names and metadata */
  struct arrow_format_type type;
  int64_t n_children;
  struct logical_node* children;
  struct logical_node* dictionary; /* NULL: not dictionary-encoded */
};

/* ---- the report of a difference (arrow_logical_report.c) ---- */

/* One step of a path: "column 'a'", "child 'b'", "item 3", "exported
 * batch 2" (`name` NULL: none; `index` -1: none). */
struct logical_step {
  const char* what;
  const char* name;
  int64_t index;
  bool prefix; /* followed by ": " rather than " > " ("exported batch 2: column 'a'") */
};

/* Where a comparison is, and the first difference it found.  Steps are
 * pushed on the way down and popped on the way back up, except after a
 * difference: the path then stays as it was where the difference was
 * found, and the callers fill in the item indices as they return. */
struct logical_report {
  int depth; /* steps pushed; those past LOGICAL_MAX_STEPS are counted, not kept */
  struct logical_step steps[LOGICAL_MAX_STEPS];
  bool has_row;        /* the difference is at a row (`row`), not in a node's structure */
  const char* subject; /* written before "row R" ("value at "), with has_row */
  int64_t row;         /* the row of the whole concatenation, set by the top of the comparison */
  /* What the difference is (enum arrow_json_difference): 0 for one of
   * data, set by the checks that find a difference of counts, of a
   * dictionary's presence or of types before they fail. */
  int kind;
  char detail[480];
};

/* Pushes a step; returns the mark logical_pop takes back to. */
int logical_push(struct logical_report* r, const char* what, const char* name, int64_t index);
/* The same for a step that says which whole the path is in ("exported
 * batch 2", "fixture"), written before the path with a colon. */
int logical_push_prefix(struct logical_report* r, const char* what, int64_t index);
void logical_pop(struct logical_report* r, int mark);
/* Sets the index of the step at `mark` (a list's item, found as the
 * comparison returns). */
void logical_set_index(struct logical_report* r, int mark, int64_t index);
/* A difference in a node's structure or type: "<path>: <detail>".
 * Returns -1. */
int logical_fail(struct logical_report* r, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* A difference at a row: "<path>: <subject>row R<detail>", R set later
 * by the top of the comparison (logical_at_row).  Returns -1. */
int logical_fail_row(struct logical_report* r, const char* subject, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Sets the row of a row difference: the top's row of the concatenation. */
void logical_at_row(struct logical_report* r, int64_t row);
/* Writes the difference to `out` (`size` bytes, NUL-terminated). */
void logical_write(const struct logical_report* r, char* out, size_t size);
/* Writes the path alone ("column 'a' > item"), for messages of their own. */
int logical_write_path(const struct logical_report* r, char* out, size_t size);

/* ---- the tree (arrow_logical_tree.c) ---- */

/* Parses `schema` and everything below it into `out`.  0, or -1 with the
 * difference in `r` (a NULL or released node, an unknown format, children
 * that its layout does not take, a dictionary whose index is no integer);
 * `out` is then freed.  The schema must outlive the tree. */
int logical_tree_build(struct logical_report* r, const struct ArrowSchema* schema, struct logical_node* out);
void logical_tree_free(struct logical_node* node);

/* The node's field name ("" where the schema has none). */
const char* logical_name(const struct logical_node* node);
/* The node whose values `node`'s rows are: through its dictionary and
 * run-end encoding (arrow_logical.h, clause 1). */
const struct logical_node* logical_decoded(const struct logical_node* node);
/* Whether the node is run-end encoded ("+r"). */
bool logical_is_run_end_encoded(const struct logical_node* node);
/* Whether the nodes' own types (decoded) are one logical type (clause 1),
 * their children aside. */
bool logical_same_type(const struct logical_node* a, const struct logical_node* b);

/* ---- pairing two trees (arrow_logical_types.c) ---- */

/* What a walk of two trees compares besides types. */
enum logical_aspect {
  LOGICAL_TYPES = 0,
  LOGICAL_NAMES = 1 << 0,
  LOGICAL_METADATA = 1 << 1,
};

/* Called for each pair of nodes of the walk, the step of `b` (the
 * fixture's) pushed; a non-zero return stops the walk with it. */
typedef int (*logical_visit)(struct logical_report* r, const struct logical_node* a,
                             const struct logical_node* b, void* context);

/* Walks the columns of two "+s" trees in pairs, `a` the export's and `b`
 * the fixture's: the same number of columns, each pair logically the same
 * type, its children paired likewise, and the `aspects` asked.  Calls
 * `visit` (may be NULL) on every pair, before its children.  0, or -1 with
 * the first difference in `r`. */
int logical_walk_columns(struct logical_report* r, const struct logical_node* a, const struct logical_node* b,
                         int aspects, logical_visit visit, void* context);
/* The same for one pair of nodes, `a` the export's and `b` the fixture's,
 * as a column is walked (its own name compared where NAMES is asked). */
int logical_walk_node(struct logical_report* r, const struct logical_node* a, const struct logical_node* b,
                      int aspects, logical_visit visit, void* context);

/* ---- metadata (arrow_logical_metadata.c) ---- */

/* Compares `exported` with `expected` (each an "ArrowSchema.metadata"
 * encoding, or NULL) as sets of pairs (clause 3).  `expected` is the
 * fixture's, trusted; `exported` is read no further than its pairs could
 * match `expected`'s.  0, or -1 with the difference in `r`. */
int logical_compare_metadata(struct logical_report* r, const char* exported, const char* expected);

/* ---- arrays (arrow_logical_structure.c, arrow_logical_values.c) ---- */

/* One side of a comparison at one node: its type and its array. */
struct logical_side {
  const struct logical_node* node;
  const struct ArrowArray* array;
};

/* Checks `array` and everything below it against its own schema node
 * (clause 6, the part read before any value); `node` is a record batch's
 * (its children named columns, no nulls of its own).  0, or -1 with the
 * difference in `r`. */
int logical_check_structure(struct logical_report* r, const struct logical_node* node,
                            const struct ArrowArray* array);
/* The same for an array that is no record batch (a column moved out of
 * its batch, a dictionary's values). */
int logical_check_node_structure(struct logical_report* r, const struct logical_node* node,
                                 const struct ArrowArray* array);

/* Compares rows `a_row` of `a` and `b_row` of `b` onward, `n` of each
 * (logical rows of each array: its offset is added), of two nodes of one
 * logical type whose structure was checked.  0, or -1 with the difference
 * in `r` and the span's row it is at in `*at`. */
int logical_compare_rows(struct logical_report* r, struct logical_side a, struct logical_side b,
                         int64_t a_row, int64_t b_row, int64_t n, int64_t* at);

#endif /* ADC_ARROW_LOGICAL_TREE_H */
