/* Views of the fixture model as ArrowSchema and ArrowArray
 * (arrow_json_view.h).  Every structure, pointer array and metadata
 * encoding of one view is a block of the view's arena, which the root's
 * release frees at once: a view is read and dropped whole. */
#include "arrow_format/arrow_json_view.h"

#include <stdlib.h>
#include <string.h>

/* The blocks of one view. */
struct view_arena {
  size_t n_blocks;
  size_t capacity;
  void** blocks;
  bool failed; /* an allocation failed: the view is dropped */
};

/* A zeroed block of `count` items of `size` bytes owned by the arena; NULL
 * (and the arena marked failed) when out of memory. */
static void* arena_calloc(struct view_arena* arena, size_t count, size_t size) {
  if (arena->failed) return NULL;
  if (arena->n_blocks == arena->capacity) {
    size_t capacity = arena->capacity ? 2 * arena->capacity : 16;
    void** blocks = realloc(arena->blocks, capacity * sizeof(void*));
    if (blocks == NULL) {
      arena->failed = true;
      return NULL;
    }
    arena->blocks = blocks;
    arena->capacity = capacity;
  }
  void* block = calloc(count > 0 ? count : 1, size);
  if (block == NULL) {
    arena->failed = true;
    return NULL;
  }
  arena->blocks[arena->n_blocks++] = block;
  return block;
}

static void arena_free(struct view_arena* arena) {
  for (size_t i = 0; i < arena->n_blocks; i++) free(arena->blocks[i]);
  free(arena->blocks);
  free(arena);
}

/* The children and dictionaries are parts of the root's arena. */
static void release_schema_part(struct ArrowSchema* schema) {
  schema->release = NULL;
}

static void release_schema_view(struct ArrowSchema* schema) {
  arena_free(schema->private_data);
  schema->release = NULL;
}

static void release_array_part(struct ArrowArray* array) {
  array->release = NULL;
}

static void release_array_view(struct ArrowArray* array) {
  arena_free(array->private_data);
  array->release = NULL;
}

/* ---- schema ---- */

/* Fills `out` with `n_children` zeroed children to fill; false when out of
 * memory. */
static bool view_schema_node(struct view_arena* arena, struct ArrowSchema* out, const char* format,
                             const char* name, const struct arrow_json_metadata* metadata, int64_t flags,
                             int64_t n_children) {
  size_t metadata_size = metadata != NULL ? arrow_json_metadata_size(metadata) : 0;
  char* encoded = metadata_size > 0 ? arena_calloc(arena, metadata_size, 1) : NULL;
  if (encoded != NULL) arrow_json_metadata_encode(metadata, encoded);
  struct ArrowSchema* children = arena_calloc(arena, (size_t)n_children, sizeof(struct ArrowSchema));
  struct ArrowSchema** pointers = arena_calloc(arena, (size_t)n_children, sizeof(struct ArrowSchema*));
  if (arena->failed) return false;
  for (int64_t i = 0; i < n_children; i++) pointers[i] = &children[i];
  *out = (struct ArrowSchema){.format = format,
                              .name = name,
                              .metadata = encoded,
                              .flags = flags,
                              .n_children = n_children,
                              .children = n_children > 0 ? pointers : NULL,
                              .release = release_schema_part};
  return true;
}

static bool view_field(struct view_arena* arena, const struct arrow_json_field* field,
                       struct ArrowSchema* out);

static bool view_children(struct view_arena* arena, const struct arrow_json_field* field,
                          struct ArrowSchema* out) {
  for (int64_t i = 0; i < field->n_children; i++) {
    if (!view_field(arena, &field->children[i], out->children[i])) return false;
  }
  return true;
}

/* spec: "For dictionary-encoded arrays, the ArrowSchema.format string
 * encodes the index type.  The dictionary *value* type can be read from
 * the ArrowSchema.dictionary structure." */
static bool view_field(struct view_arena* arena, const struct arrow_json_field* field,
                       struct ArrowSchema* out) {
  int64_t n_children = field->is_dictionary ? 0 : field->n_children;
  if (!view_schema_node(arena, out, arrow_json_format(arrow_json_storage_type(field)), field->name,
                        &field->metadata, arrow_json_field_flags(field), n_children)) {
    return false;
  }
  if (!field->is_dictionary) return view_children(arena, field, out);
  out->dictionary = arena_calloc(arena, 1, sizeof(struct ArrowSchema));
  return out->dictionary != NULL &&
         view_schema_node(arena, out->dictionary, arrow_json_format(&field->type), NULL, NULL,
                          ARROW_FLAG_NULLABLE, field->n_children) &&
         view_children(arena, field, out->dictionary);
}

int arrow_json_view_schema(const struct arrow_json_file* file, struct ArrowSchema* out) {
  struct view_arena* arena = calloc(1, sizeof(*arena));
  if (arena == NULL) return -1;
  struct ArrowSchema root;
  /* spec ("Record batches"): a struct of the fields. */
  bool built = view_schema_node(arena, &root, "+s", "", &file->metadata, 0, file->n_fields);
  for (int64_t i = 0; built && i < file->n_fields; i++)
    built = view_field(arena, &file->fields[i], root.children[i]);
  if (!built) {
    arena_free(arena);
    return -1;
  }
  root.release = release_schema_view;
  root.private_data = arena;
  *out = root;
  return 0;
}

/* ---- arrays ---- */

static bool view_column(struct view_arena* arena, const struct arrow_json_file* file,
                        const struct arrow_json_field* field, const struct arrow_json_type* type,
                        const struct arrow_json_column* column, struct ArrowArray* out);

/* Fills `out` with the buffers of `column` and `n_children` zeroed
 * children to fill; false when out of memory. */
static bool view_array_node(struct view_arena* arena, const struct arrow_json_column* column, int64_t length,
                            int64_t null_count, int64_t n_children, struct ArrowArray* out) {
  int64_t n_buffers = column != NULL ? column->n_buffers : 1;
  const void** buffers = arena_calloc(arena, (size_t)n_buffers, sizeof(void*));
  struct ArrowArray* children = arena_calloc(arena, (size_t)n_children, sizeof(struct ArrowArray));
  struct ArrowArray** pointers = arena_calloc(arena, (size_t)n_children, sizeof(struct ArrowArray*));
  if (arena->failed) return false;
  for (int64_t i = 0; column != NULL && i < n_buffers; i++) buffers[i] = column->buffers[i].bytes;
  for (int64_t i = 0; i < n_children; i++) pointers[i] = &children[i];
  *out = (struct ArrowArray){.length = length,
                             .null_count = null_count,
                             .n_buffers = n_buffers,
                             .n_children = n_children,
                             .buffers = buffers,
                             .children = n_children > 0 ? pointers : NULL,
                             .release = release_array_part};
  return true;
}

static bool view_columns(struct view_arena* arena, const struct arrow_json_file* file,
                         const struct arrow_json_field* fields, const struct arrow_json_column* columns,
                         struct ArrowArray* out) {
  for (int64_t i = 0; i < out->n_children; i++) {
    if (!view_column(arena, file, &fields[i], arrow_json_storage_type(&fields[i]), &columns[i],
                     out->children[i])) {
      return false;
    }
  }
  return true;
}

/* One column, or (with `type` a dictionary-encoded field's value type) its
 * dictionary's values. */
static bool view_column(struct view_arena* arena, const struct arrow_json_file* file,
                        const struct arrow_json_field* field, const struct arrow_json_type* type,
                        const struct arrow_json_column* column, struct ArrowArray* out) {
  bool indices = field->is_dictionary && type == &field->index_type;
  if (!view_array_node(arena, column, column->length, column->null_count, indices ? 0 : column->n_children,
                       out) ||
      !view_columns(arena, file, field->children, column->children, out)) {
    return false;
  }
  if (!indices) return true;
  const struct arrow_json_column* values = arrow_json_dictionary_values(file, field);
  out->dictionary = arena_calloc(arena, 1, sizeof(struct ArrowArray));
  return values != NULL && out->dictionary != NULL &&
         view_column(arena, file, field, &field->type, values, out->dictionary);
}

int arrow_json_view_batch(const struct arrow_json_file* file, int64_t batch, struct ArrowArray* out) {
  if (batch < 0 || batch >= file->n_batches) return -1;
  struct view_arena* arena = calloc(1, sizeof(*arena));
  if (arena == NULL) return -1;
  const struct arrow_json_batch* rows = &file->batches[batch];
  struct ArrowArray root;
  /* spec ("Record batches"): a struct array with no validity buffer (its
   * one buffer NULL) and one child per column. */
  bool built = view_array_node(arena, NULL, rows->length, 0, file->n_fields, &root) &&
               view_columns(arena, file, file->fields, rows->columns, &root);
  if (!built) {
    arena_free(arena);
    return -1;
  }
  root.release = release_array_view;
  root.private_data = arena;
  *out = root;
  return 0;
}
