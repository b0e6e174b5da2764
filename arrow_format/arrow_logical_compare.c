/* The entry points of the logical comparison (arrow_logical.h): the
 * fixture read as views (arrow_json_view.h), both schemas parsed into
 * trees, then the types, the structure and the rows compared, in that
 * order. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrow_format/arrow_json_view.h"
#include "arrow_format/arrow_logical.h"
#include "arrow_format/arrow_logical_tree.h"

/* One comparison: the report, and what it built to compare. */
struct comparison {
  struct logical_report r;
  struct ArrowSchema fixture_schema; /* a view; release NULL until built */
  struct logical_node exported;      /* the export's tree */
  struct logical_node fixture;       /* the fixture's tree */
  int64_t n_fixture_batches;
  struct ArrowArray* fixture_batches; /* views */
};

static void comparison_free(struct comparison* c) {
  logical_tree_free(&c->exported);
  logical_tree_free(&c->fixture);
  if (c->fixture_schema.release != NULL) c->fixture_schema.release(&c->fixture_schema);
  for (int64_t i = 0; i < c->n_fixture_batches; i++) {
    if (c->fixture_batches[i].release != NULL) c->fixture_batches[i].release(&c->fixture_batches[i]);
  }
  free(c->fixture_batches);
}

/* The result of a comparison: 0, or the kind of its difference (enum
 * arrow_json_difference: data unless a check said otherwise) with it in
 * `err`. */
static int finish(struct comparison* c, int status, char* err, size_t err_size) {
  if (status != 0) logical_write(&c->r, err, err_size);
  comparison_free(c);
  if (status == 0) return ARROW_JSON_SAME;
  return c->r.kind != 0 ? c->r.kind : ARROW_JSON_DIFFERENT_DATA;
}

/* Both schemas as trees: the export's, then the fixture's view. */
static int open_trees(struct comparison* c, const struct arrow_json_file* file,
                      const struct ArrowSchema* schema) {
  if (logical_tree_build(&c->r, schema, &c->exported) != 0) return -1;
  if (arrow_json_view_schema(file, &c->fixture_schema) != 0) return logical_fail(&c->r, "out of memory");
  int mark = logical_push_prefix(&c->r, "fixture", -1);
  if (logical_tree_build(&c->r, &c->fixture_schema, &c->fixture) != 0) return -1;
  logical_pop(&c->r, mark);
  return 0;
}

/* ---- batches ---- */

/* The structure of each record batch of one side (clause 6), `what` its
 * step ("exported batch"), the first numbered `first`. */
static int check_batches(struct logical_report* r, const struct logical_node* tree,
                         const struct ArrowArray* const* arrays, int64_t n, const char* what, int64_t first) {
  for (int64_t k = 0; k < n; k++) {
    int mark = logical_push_prefix(r, what, first + k);
    if (logical_check_structure(r, tree, arrays[k]) != 0) return -1;
    logical_pop(r, mark);
  }
  return 0;
}

/* Where one side is in its batches' rows. */
struct cursor {
  const struct ArrowArray* const* arrays;
  int64_t n;
  int64_t k;   /* the batch */
  int64_t row; /* its row */
};

/* Moves past the batches whose rows are all compared (and empty ones). */
static void skip_done(struct cursor* at) {
  while (at->k < at->n && at->row == at->arrays[at->k]->length) {
    at->k++;
    at->row = 0;
  }
}

/* The rows of the batches together; -1 past INT64_MAX. */
static int64_t total_rows(const struct ArrowArray* const* arrays, int64_t n) {
  int64_t total = 0;
  for (int64_t k = 0; k < n; k++) {
    if (arrays[k]->length > INT64_MAX - total) return -1;
    total += arrays[k]->length;
  }
  return total;
}

/* Column `column`'s first `n` rows on both sides, the batches' rows
 * concatenated, compared span by span: each span as long as both sides'
 * current batches allow.  A batch's offset applies to its columns' rows. */
static int compare_column(struct comparison* c, int64_t column, struct cursor a, struct cursor b, int64_t n) {
  for (int64_t done = 0; done < n;) {
    skip_done(&a);
    skip_done(&b);
    const struct ArrowArray* got = a.arrays[a.k];
    const struct ArrowArray* want = b.arrays[b.k];
    int64_t span = got->length - a.row < want->length - b.row ? got->length - a.row : want->length - b.row;
    struct logical_side got_side = {&c->exported.children[column], got->children[column]};
    struct logical_side want_side = {&c->fixture.children[column], want->children[column]};
    int64_t at;
    if (logical_compare_rows(&c->r, got_side, want_side, got->offset + a.row, want->offset + b.row, span,
                             &at) != 0) {
      logical_at_row(&c->r, done + at);
      return -1;
    }
    a.row += span;
    b.row += span;
    done += span;
  }
  return 0;
}

static int compare_rows(struct comparison* c, const struct ArrowArray* const* arrays, int64_t n_arrays,
                        const struct ArrowArray* const* fixture, int64_t n_fixture) {
  int64_t got = total_rows(arrays, n_arrays), want = total_rows(fixture, n_fixture);
  if (got < 0) return logical_fail(&c->r, "the exported batches hold more than INT64_MAX rows together");
  int64_t common = got < want ? got : want;
  for (int64_t j = 0; j < c->fixture.n_children; j++) {
    int mark = logical_push(&c->r, "column", logical_name(&c->fixture.children[j]), -1);
    struct cursor a = {arrays, n_arrays, 0, 0}, b = {fixture, n_fixture, 0, 0};
    if (compare_column(c, j, a, b, common) != 0) return -1;
    logical_pop(&c->r, mark);
  }
  if (got == want) return 0;
  if (c->fixture.n_children > 0) logical_push(&c->r, "column", logical_name(&c->fixture.children[0]), -1);
  logical_fail_row(&c->r, "", " is %s: the export has %" PRId64 " rows, fixture has %" PRId64,
                   got < want ? "missing" : "extra", got, want);
  logical_at_row(&c->r, common);
  return -1;
}

static int compare_batches(struct comparison* c, const struct arrow_json_file* file, int64_t fixture_batch,
                           const struct ArrowSchema* schema, const struct ArrowArray* const* arrays,
                           int64_t n_arrays) {
  struct logical_report* r = &c->r;
  if (fixture_batch < -1 || fixture_batch >= file->n_batches)
    return logical_fail(r, "the fixture has no batch %" PRId64, fixture_batch);
  if (n_arrays < 0 || (n_arrays > 0 && arrays == NULL))
    return logical_fail(r, "no arrays to compare (%" PRId64 ")", n_arrays);
  if (open_trees(c, file, schema) != 0) return -1;
  if (logical_walk_columns(r, &c->exported, &c->fixture, LOGICAL_TYPES, NULL, NULL) != 0) return -1;
  int64_t first = fixture_batch < 0 ? 0 : fixture_batch;
  int64_t count = fixture_batch < 0 ? file->n_batches : 1;
  c->fixture_batches = calloc((size_t)count + 1, sizeof(struct ArrowArray));
  const struct ArrowArray** fixture = calloc((size_t)count + 1, sizeof(struct ArrowArray*));
  int status = c->fixture_batches == NULL || fixture == NULL ? logical_fail(r, "out of memory") : 0;
  for (int64_t k = 0; status == 0 && k < count; k++) {
    if (arrow_json_view_batch(file, first + k, &c->fixture_batches[k]) != 0) {
      status = logical_fail(r, "out of memory");
      break;
    }
    c->n_fixture_batches = k + 1;
    fixture[k] = &c->fixture_batches[k];
  }
  if (status == 0) status = check_batches(r, &c->exported, arrays, n_arrays, "exported batch", 0);
  if (status == 0) status = check_batches(r, &c->fixture, fixture, count, "fixture batch", first);
  if (status == 0) status = compare_rows(c, arrays, n_arrays, fixture, count);
  free(fixture);
  return status;
}

int arrow_logical_compare_batches(const struct arrow_json_file* file, int64_t fixture_batch,
                                  const struct ArrowSchema* schema, const struct ArrowArray* const* arrays,
                                  int64_t n_arrays, char* err, size_t err_size) {
  struct comparison c;
  memset(&c, 0, sizeof(c));
  return finish(&c, compare_batches(&c, file, fixture_batch, schema, arrays, n_arrays), err, err_size);
}

int arrow_logical_check_batches(const struct ArrowSchema* schema, const struct ArrowArray* const* arrays,
                                int64_t n_arrays, char* err, size_t err_size) {
  struct comparison c;
  memset(&c, 0, sizeof(c));
  int status = logical_tree_build(&c.r, schema, &c.exported);
  if (status == 0) status = check_batches(&c.r, &c.exported, arrays, n_arrays, "exported batch", 0);
  return finish(&c, status, err, err_size);
}

/* ---- a column, a dictionary's values, on their own ---- */

/* Builds the trees of `schema` and of the fixture's node `fixture_node`
 * (a node of the schema view), compares their types (the node's name
 * too, where `named`), the structure of `array` and of the fixture's
 * `fixture_array`, then their rows. */
static int compare_node(struct comparison* c, const struct ArrowSchema* schema,
                        const struct ArrowArray* array, const struct ArrowSchema* fixture_node,
                        const struct ArrowArray* fixture_array, bool named) {
  struct logical_report* r = &c->r;
  if (logical_tree_build(r, schema, &c->exported) != 0) return -1;
  if (logical_tree_build(r, fixture_node, &c->fixture) != 0) return -1;
  if (logical_walk_node(r, &c->exported, &c->fixture, named ? LOGICAL_NAMES : LOGICAL_TYPES, NULL, NULL) != 0)
    return -1;
  if (logical_check_node_structure(r, &c->exported, array) != 0) return -1;
  int mark = logical_push_prefix(r, "fixture", -1);
  if (logical_check_node_structure(r, &c->fixture, fixture_array) != 0) return -1;
  logical_pop(r, mark);
  if (array->length != fixture_array->length) {
    return logical_fail(r, "length is %" PRId64 ", fixture has %" PRId64, array->length,
                        fixture_array->length);
  }
  struct logical_side got = {&c->exported, array}, want = {&c->fixture, fixture_array};
  int64_t at;
  if (logical_compare_rows(r, got, want, 0, 0, array->length, &at) != 0) {
    logical_at_row(r, at);
    return -1;
  }
  return 0;
}

/* The views of the fixture's schema and of batch `batch`, for a node of
 * them; -1 with the difference in the report. */
static int open_fixture_views(struct comparison* c, const struct arrow_json_file* file, int64_t batch) {
  if (batch < 0 || batch >= file->n_batches)
    return logical_fail(&c->r, "the fixture has no batch %" PRId64, batch);
  c->fixture_batches = calloc(1, sizeof(struct ArrowArray));
  if (c->fixture_batches == NULL || arrow_json_view_schema(file, &c->fixture_schema) != 0 ||
      arrow_json_view_batch(file, batch, &c->fixture_batches[0]) != 0) {
    return logical_fail(&c->r, "out of memory");
  }
  c->n_fixture_batches = 1;
  return 0;
}

int arrow_logical_compare_column(const struct arrow_json_file* file, int64_t fixture_batch, int64_t column,
                                 const struct ArrowSchema* schema, const struct ArrowArray* array, char* err,
                                 size_t err_size) {
  struct comparison c;
  memset(&c, 0, sizeof(c));
  int status = 0;
  if (column < 0 || column >= file->n_fields) {
    status = logical_fail(&c.r, "the fixture has no column %" PRId64, column);
  } else {
    logical_push(&c.r, "column", file->fields[column].name, -1);
    status = open_fixture_views(&c, file, fixture_batch);
  }
  if (status == 0) {
    status = compare_node(&c, schema, array, c.fixture_schema.children[column],
                          c.fixture_batches[0].children[column], true);
  }
  return finish(&c, status, err, err_size);
}

int arrow_logical_compare_dictionary(const struct arrow_json_file* file, int64_t column,
                                     const struct ArrowSchema* schema, const struct ArrowArray* array,
                                     char* err, size_t err_size) {
  struct comparison c;
  memset(&c, 0, sizeof(c));
  int status = 0;
  if (column < 0 || column >= file->n_fields || !file->fields[column].is_dictionary) {
    status = logical_fail(&c.r, "the fixture's column %" PRId64 " is not dictionary-encoded", column);
  } else {
    logical_push(&c.r, "column", file->fields[column].name, -1);
    logical_push(&c.r, "dictionary", NULL, -1);
    /* Every batch shares the dictionary (the integration format's
     * dictionaries are the file's): the first batch's view holds it. */
    status = open_fixture_views(&c, file, 0);
  }
  if (status == 0) {
    status = compare_node(&c, schema, array, c.fixture_schema.children[column]->dictionary,
                          c.fixture_batches[0].children[column]->dictionary, false);
  }
  return finish(&c, status, err, err_size);
}

int arrow_logical_compare_arrays(const struct ArrowSchema* schema, const struct ArrowArray* array,
                                 const struct ArrowArray* expected, char* err, size_t err_size) {
  struct comparison c;
  memset(&c, 0, sizeof(c));
  return finish(&c, compare_node(&c, schema, array, schema, expected, false), err, err_size);
}

/* ---- schemas ---- */

/* The flags of a pair of nodes (ARROW_FLAG_*): kept as the fixture has
 * them, where the node keeps the encoding a flag belongs to. */
struct flags_walk {
  bool nullable_may_widen;
  bool ordered_only; /* ARROW_LOGICAL_DICTIONARY_ORDERED without ARROW_LOGICAL_FLAGS */
};

static int compare_flags(struct logical_report* r, const struct logical_node* a, const struct logical_node* b,
                         void* context) {
  const struct flags_walk* walk = context;
  int64_t got = a->schema->flags, want = b->schema->flags;
  bool got_nullable = (got & ARROW_FLAG_NULLABLE) != 0, want_nullable = (want & ARROW_FLAG_NULLABLE) != 0;
  if (!walk->ordered_only && got_nullable != want_nullable && !(walk->nullable_may_widen && got_nullable)) {
    return logical_fail(r, "ARROW_FLAG_NULLABLE is %s, fixture says nullable=%s",
                        got_nullable ? "set" : "clear", want_nullable ? "true" : "false");
  }
  /* spec ("ArrowSchema.flags"): ARROW_FLAG_DICTIONARY_ORDERED "is ignored
   * if the field is not dictionary-encoded": a node exported decoded has
   * no place for it. */
  bool got_ordered = (got & ARROW_FLAG_DICTIONARY_ORDERED) != 0;
  bool want_ordered = (want & ARROW_FLAG_DICTIONARY_ORDERED) != 0;
  if (a->dictionary != NULL && b->dictionary != NULL && got_ordered != want_ordered) {
    return logical_fail(r, "ARROW_FLAG_DICTIONARY_ORDERED is %s, fixture says %s",
                        got_ordered ? "set" : "clear", want_ordered ? "isOrdered" : "not isOrdered");
  }
  bool got_sorted = (got & ARROW_FLAG_MAP_KEYS_SORTED) != 0,
       want_sorted = (want & ARROW_FLAG_MAP_KEYS_SORTED) != 0;
  if (!walk->ordered_only && b->type.layout == ARROW_LAYOUT_MAP && got_sorted != want_sorted) {
    return logical_fail(r, "ARROW_FLAG_MAP_KEYS_SORTED is %s, fixture says %s", got_sorted ? "set" : "clear",
                        want_sorted ? "keysSorted" : "not keysSorted");
  }
  return 0;
}

int arrow_logical_compare_schema_aspects(const struct arrow_json_file* file, const struct ArrowSchema* schema,
                                         int aspects, char* err, size_t err_size) {
  struct comparison c;
  memset(&c, 0, sizeof(c));
  int status = open_trees(&c, file, schema);
  int walked = LOGICAL_TYPES;
  if (aspects & ARROW_LOGICAL_NAMES) walked |= LOGICAL_NAMES;
  if (aspects & ARROW_LOGICAL_METADATA) walked |= LOGICAL_METADATA;
  bool with_flags = (aspects & ARROW_LOGICAL_FLAGS) != 0;
  struct flags_walk flags = {(aspects & ARROW_LOGICAL_NULLABLE_MAY_WIDEN) != 0,
                             !with_flags && (aspects & ARROW_LOGICAL_DICTIONARY_ORDERED) != 0};
  with_flags |= flags.ordered_only;
  if (status == 0) {
    status = logical_walk_columns(&c.r, &c.exported, &c.fixture, walked, with_flags ? compare_flags : NULL,
                                  &flags);
  }
  return finish(&c, status, err, err_size);
}

int arrow_logical_compare_schema(const struct arrow_json_file* file, const struct ArrowSchema* schema,
                                 char* err, size_t err_size) {
  return arrow_logical_compare_schema_aspects(file, schema, ARROW_LOGICAL_NAMES | ARROW_LOGICAL_METADATA, err,
                                              err_size) == 0
             ? 0
             : -1;
}

/* ---- representation changes ---- */

/* A node's own representation: "utf8 (u)", "dictionary-encoded utf8 (u)
 * with int8 (c) indices", "run-end encoded int32 (i) with int16 (s) run
 * ends". */
static void representation(const struct logical_node* node, char* out, size_t size) {
  char inner[256], encoding[64];
  if (node->dictionary != NULL) {
    representation(node->dictionary, inner, sizeof(inner));
    arrow_format_describe(&node->type, encoding, sizeof(encoding));
    snprintf(out, size, "dictionary-encoded %s with %s indices", inner, encoding);
  } else if (logical_is_run_end_encoded(node)) {
    representation(&node->children[1], inner, sizeof(inner));
    arrow_format_describe(&node->children[0].type, encoding, sizeof(encoding));
    snprintf(out, size, "run-end encoded %s with %s run ends", inner, encoding);
  } else {
    arrow_format_describe(&node->type, out, size);
  }
}

struct changes {
  char* out;
  size_t size;
  size_t used;
  int count;
};

/* Appends to the changes' text, cut where it is full. */
static void append(struct changes* changes, const char* text) {
  if (changes->used + 1 >= changes->size) return;
  int n = snprintf(changes->out + changes->used, changes->size - changes->used, "%s", text);
  if (n > 0)
    changes->used +=
        (size_t)n < changes->size - changes->used ? (size_t)n : changes->size - changes->used - 1;
}

static int describe_pair(struct logical_report* r, const struct logical_node* a, const struct logical_node* b,
                         void* context) {
  struct changes* changes = context;
  char got[400], want[400], plain[400], line[1400], path[512];
  representation(a, got, sizeof(got));
  representation(b, want, sizeof(want));
  if (strcmp(got, want) == 0) return 0;
  logical_write_path(r, path, sizeof(path));
  bool decoded = b->dictionary != NULL && a->dictionary == NULL;
  bool unrun = logical_is_run_end_encoded(b) && a->dictionary == NULL && !logical_is_run_end_encoded(a);
  if (decoded || unrun) {
    /* The fixture's encoding dropped: said so, and the type it was
     * decoded to where that is itself another representation. */
    representation(decoded ? b->dictionary : &b->children[1], plain, sizeof(plain));
    snprintf(line, sizeof(line), "%s: %s exported %s%s%s\n", path, want, decoded ? "decoded" : "plain",
             strcmp(got, plain) == 0 ? "" : " as ", strcmp(got, plain) == 0 ? "" : got);
  } else {
    snprintf(line, sizeof(line), "%s: %s exported as %s\n", path, want, got);
  }
  append(changes, line);
  changes->count++;
  return 0;
}

int arrow_logical_describe_changes(const struct arrow_json_file* file, const struct ArrowSchema* schema,
                                   char* out, size_t size) {
  struct comparison c;
  memset(&c, 0, sizeof(c));
  struct changes changes = {out, size, 0, 0};
  if (size > 0) out[0] = '\0';
  int status = open_trees(&c, file, schema);
  if (status == 0)
    status = logical_walk_columns(&c.r, &c.exported, &c.fixture, LOGICAL_TYPES, describe_pair, &changes);
  if (finish(&c, status, out, size) != 0) return -1;
  return changes.count;
}
