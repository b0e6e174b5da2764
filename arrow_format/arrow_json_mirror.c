/* The host mirror (arrow_json_mirror.h): each buffer's size comes from the
 * layout table's role for it and the array's own offset and length (and,
 * for the bytes behind offsets or views, from the offsets and sizes copied
 * before them), never from the fixture, so that a wrong array is mirrored
 * as it is and the comparison reports it. */
#include "arrow_format/arrow_json_mirror.h"

#include <stdlib.h>
#include <string.h>

/* A buffer size no sane fixture array reaches: a larger one read from the
 * array is not copied (the comparison then reports a NULL buffer). */
#define MIRROR_MAX_BUFFER ((int64_t)1 << 32)

/* What every step of one copy shares. */
struct copier {
  struct arrow_json_mirror* mirror;
};

/* A zeroed block owned by the mirror. */
static void* take(struct copier* c, size_t size) {
  struct arrow_json_mirror* m = c->mirror;
  if (m->n_blocks == m->capacity) {
    size_t bigger = m->capacity ? m->capacity * 2 : 16;
    void** grown = realloc(m->blocks, bigger * sizeof(*grown));
    if (grown == NULL) return NULL;
    m->blocks = grown;
    m->capacity = bigger;
  }
  void* block = calloc(1, size ? size : 1);
  if (block != NULL) m->blocks[m->n_blocks++] = block;
  return block;
}

static int out_of_memory(struct copier* c) {
  c->mirror->out_of_memory = true;
  return -1;
}

/* Copies `size` bytes of device memory at `source` into a new host block. */
static int copy_buffer(struct copier* c, const void* source, int64_t size, const void** host) {
  *host = NULL;
  if (source == NULL || size < 0 || size > MIRROR_MAX_BUFFER) return 0;
  void* block = take(c, (size_t)size);
  if (block == NULL) return out_of_memory(c);
  if (size > 0 && c->mirror->copy(c->mirror->context, block, source, (size_t)size) != 0) return -1;
  *host = block;
  return 0;
}

/* Rows a buffer must cover: the array's offset plus its length, when both
 * are sane; otherwise the comparison reports them and no buffer is read. */
static int64_t rows_covered(const struct ArrowArray* source) {
  if (source->offset < 0 || source->length < 0 || source->offset > INT32_MAX || source->length > INT32_MAX)
    return -1;
  return source->offset + source->length;
}

/* The largest of the first `count` offsets of `width` bytes (the bytes
 * behind them reach that far). */
static int64_t largest_offset(const void* offsets, int width, int64_t count) {
  int64_t largest = 0;
  for (int64_t i = 0; offsets != NULL && i < count; i++) {
    int64_t value = arrow_json_load_int(offsets, width * 8, true, i);
    if (value > largest) largest = value;
  }
  return largest;
}

/* The bytes each of a view array's views reach into its variadic buffers
 * are at most the buffers' sizes, which the last buffer holds. */
static int copy_variadic(struct copier* c, const struct ArrowArray* source, const void** buffers) {
  int64_t n_variadic = source->n_buffers - 3;
  int64_t last = source->n_buffers - 1;
  if (copy_buffer(c, source->buffers[last], n_variadic * 8, &buffers[last]) != 0) return -1;
  const int64_t* sizes = buffers[last];
  for (int64_t i = 0; sizes != NULL && i < n_variadic; i++) {
    if (copy_buffer(c, source->buffers[2 + i], sizes[i], &buffers[2 + i]) != 0) return -1;
  }
  return 0;
}

static int copy_buffers(struct copier* c, const struct arrow_json_type* type, const struct ArrowArray* source,
                        struct ArrowArray* host) {
  int64_t n_variadic =
      type->layout == ARROW_LAYOUT_BINARY_VIEW && source->n_buffers >= 3 ? source->n_buffers - 3 : 0;
  int64_t expected = arrow_layout_buffer_count(type->layout, n_variadic);
  host->buffers = NULL;
  if (source->buffers == NULL || source->n_buffers != expected) return 0;
  const void** buffers = take(c, (size_t)(expected > 0 ? expected : 1) * sizeof(*buffers));
  if (buffers == NULL) return out_of_memory(c);
  host->buffers = buffers;
  int64_t rows = rows_covered(source);
  if (rows < 0) return 0;
  int width = arrow_layout_of(type->layout)->offset_bytes;
  bool list_view = type->layout == ARROW_LAYOUT_LIST_VIEW || type->layout == ARROW_LAYOUT_LARGE_LIST_VIEW;
  for (int64_t i = 0; i < expected; i++) {
    int64_t size = 0;
    switch (arrow_layout_buffer_role(type->layout, i, expected)) {
      case ARROW_BUFFER_VALIDITY:
      case ARROW_BUFFER_BITS:
        size = (rows + 7) / 8;
        break;
      case ARROW_BUFFER_VALUES:
        size = rows * type->value_bytes;
        break;
      case ARROW_BUFFER_OFFSETS:
        /* Lists and binaries: one more than the rows; list views and dense
         * unions (4 bytes): one per row. */
        size = type->layout == ARROW_LAYOUT_DENSE_UNION ? rows * 4 : (list_view ? rows : rows + 1) * width;
        break;
      case ARROW_BUFFER_SIZES:
        size = rows * width;
        break;
      case ARROW_BUFFER_DATA:
        size = largest_offset(buffers[1], width, rows + 1);
        break;
      case ARROW_BUFFER_VIEWS:
        size = rows * 16;
        break;
      case ARROW_BUFFER_VARIADIC:
        return copy_variadic(c, source, buffers);
      case ARROW_BUFFER_TYPE_IDS:
        size = rows;
        break;
    }
    if (copy_buffer(c, source->buffers[i], size, &buffers[i]) != 0) return -1;
  }
  return 0;
}

static int copy_field(struct copier* c, const struct arrow_json_field* field,
                      const struct arrow_json_type* type, const struct ArrowArray* source,
                      struct ArrowArray* host);

/* The children the fixture says the array has, each laid out as its field. */
static int copy_children(struct copier* c, const struct arrow_json_field* fields, int64_t n_fields,
                         const struct ArrowArray* source, struct ArrowArray* host) {
  host->children = NULL;
  if (source->children == NULL || source->n_children != n_fields || n_fields == 0) return 0;
  struct ArrowArray** children = take(c, (size_t)n_fields * sizeof(*children));
  if (children == NULL) return out_of_memory(c);
  host->children = children;
  for (int64_t i = 0; i < n_fields; i++) {
    if (source->children[i] == NULL) continue;
    children[i] = take(c, sizeof(struct ArrowArray));
    if (children[i] == NULL) return out_of_memory(c);
    const struct arrow_json_field* child = &fields[i];
    if (copy_field(c, child, arrow_json_storage_type(child), source->children[i], children[i]) != 0)
      return -1;
  }
  return 0;
}

static int copy_field(struct copier* c, const struct arrow_json_field* field,
                      const struct arrow_json_type* type, const struct ArrowArray* source,
                      struct ArrowArray* host) {
  *host = *source; /* the members as they are; pointers replaced below */
  host->private_data = NULL;
  host->children = NULL;
  host->dictionary = NULL;
  if (copy_buffers(c, type, source, host) != 0) return -1;
  bool indices = field->is_dictionary && type == &field->index_type;
  if (!indices && copy_children(c, field->children, field->n_children, source, host) != 0) return -1;
  if (source->dictionary == NULL) return 0;
  if (!indices) {
    /* Only its presence matters: the comparison reports it. */
    host->dictionary = source->dictionary;
    return 0;
  }
  /* An array that is its own dictionary stays so, for the comparison to
   * refuse; copied as the values' type it would be read past its end. */
  if (source->dictionary == source) {
    host->dictionary = host;
    return 0;
  }
  host->dictionary = take(c, sizeof(struct ArrowArray));
  if (host->dictionary == NULL) return out_of_memory(c);
  struct arrow_json_field values = *field;
  values.is_dictionary = false;
  return copy_field(c, &values, &field->type, source->dictionary, host->dictionary);
}

int arrow_json_mirror_batch(struct arrow_json_mirror* mirror, const struct arrow_json_file* file,
                            const struct ArrowArray* source, struct ArrowArray* host) {
  struct copier c = {mirror};
  static const struct arrow_type_row struct_row = {.kind = ARROW_JSON_STRUCT, .layout = ARROW_LAYOUT_STRUCT};
  struct arrow_json_field record_batch = {.n_children = file->n_fields, .children = file->fields};
  record_batch.type =
      (struct arrow_json_type){.row = &struct_row, .kind = ARROW_JSON_STRUCT, .layout = ARROW_LAYOUT_STRUCT};
  return copy_field(&c, &record_batch, &record_batch.type, source, host);
}

int arrow_json_mirror_column(struct arrow_json_mirror* mirror, const struct arrow_json_field* field,
                             const struct ArrowArray* source, struct ArrowArray* host) {
  struct copier c = {mirror};
  return copy_field(&c, field, arrow_json_storage_type(field), source, host);
}

int arrow_json_mirror_values(struct arrow_json_mirror* mirror, const struct arrow_json_field* field,
                             const struct ArrowArray* source, struct ArrowArray* host) {
  struct copier c = {mirror};
  struct arrow_json_field values = *field;
  values.is_dictionary = false;
  return copy_field(&c, &values, &field->type, source, host);
}

void arrow_json_mirror_free(struct arrow_json_mirror* mirror) {
  for (size_t i = 0; i < mirror->n_blocks; i++) free(mirror->blocks[i]);
  free(mirror->blocks);
  mirror->blocks = NULL;
  mirror->n_blocks = 0;
  mirror->capacity = 0;
}
