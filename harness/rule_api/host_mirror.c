#include "rule_api/host_mirror.h"

#include <stdlib.h>
#include <string.h>

struct copier {
  struct adc_host_mirror* mirror;
  const struct adc_device* device;
  struct adc_error* error;
};

/* A zeroed block owned by the mirror. */
static void* take(struct copier* c, size_t size) {
  struct adc_host_mirror* m = c->mirror;
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
  return adc_fail(c->error, "out of host memory for a mirror");
}

/* Copies `size` bytes of device memory at `source` into a new host block. */
static int copy_buffer(struct copier* c, const void* source, size_t size, const void** host) {
  *host = NULL;
  if (source == NULL) return 0;
  void* block = take(c, size);
  if (block == NULL) return out_of_memory(c);
  if (size > 0 && c->device->copy_to_host(c->device, block, source, size, c->error) != 0) return -1;
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

static int copy_buffers(struct copier* c, const struct arrow_json_type* type, const struct ArrowArray* source,
                        struct ArrowArray* host) {
  int64_t expected = type->kind == ARROW_JSON_UTF8 ? 3 : type->kind == ARROW_JSON_STRUCT ? 1 : 2;
  host->buffers = NULL;
  if (source->buffers == NULL || source->n_buffers != expected) return 0;
  const void** buffers = take(c, (size_t)expected * sizeof(*buffers));
  if (buffers == NULL) return out_of_memory(c);
  host->buffers = buffers;
  int64_t rows = rows_covered(source);
  if (rows < 0) return 0;
  if (copy_buffer(c, source->buffers[0], (size_t)(rows + 7) / 8, &buffers[0]) != 0) return -1;
  if (type->kind == ARROW_JSON_INT) {
    return copy_buffer(c, source->buffers[1], (size_t)rows * (size_t)(type->bit_width / 8), &buffers[1]);
  }
  if (type->kind == ARROW_JSON_UTF8) {
    if (copy_buffer(c, source->buffers[1], (size_t)(rows + 1) * sizeof(int32_t), &buffers[1]) != 0) return -1;
    /* The characters reach as far as the largest offset. */
    int32_t end = 0;
    const int32_t* offsets = buffers[1];
    for (int64_t i = 0; offsets != NULL && i <= rows; i++) end = offsets[i] > end ? offsets[i] : end;
    return copy_buffer(c, source->buffers[2], (size_t)end, &buffers[2]);
  }
  return 0;
}

static int copy_field(struct copier* c, const struct arrow_json_field* field, const struct ArrowArray* source,
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
    if (copy_field(c, &fields[i], source->children[i], children[i]) != 0) return -1;
  }
  return 0;
}

static int copy_values(struct copier* c, const struct arrow_json_type* type, const struct ArrowArray* source,
                       struct ArrowArray* host) {
  *host = *source; /* the members as they are; pointers replaced below */
  host->private_data = NULL;
  host->children = NULL;
  host->dictionary = NULL;
  return copy_buffers(c, type, source, host);
}

static int copy_field(struct copier* c, const struct arrow_json_field* field, const struct ArrowArray* source,
                      struct ArrowArray* host) {
  if (copy_values(c, field->is_dictionary ? &field->index_type : &field->type, source, host) != 0) return -1;
  if (field->type.kind == ARROW_JSON_STRUCT && !field->is_dictionary) {
    if (copy_children(c, field->children, field->n_children, source, host) != 0) return -1;
  }
  if (source->dictionary == NULL) return 0;
  if (!field->is_dictionary) {
    /* Only its presence matters: the comparison reports it. */
    host->dictionary = source->dictionary;
    return 0;
  }
  host->dictionary = take(c, sizeof(struct ArrowArray));
  if (host->dictionary == NULL) return out_of_memory(c);
  return copy_values(c, &field->type, source->dictionary, host->dictionary);
}

int adc_host_mirror_batch(struct adc_host_mirror* mirror, const struct adc_device* device,
                          const struct arrow_json_file* file, const struct ArrowArray* source,
                          struct ArrowArray* host, struct adc_error* error) {
  struct copier c = {mirror, device, error};
  static const struct arrow_json_type record_batch = {.kind = ARROW_JSON_STRUCT};
  if (copy_values(&c, &record_batch, source, host) != 0) return -1;
  return copy_children(&c, file->fields, file->n_fields, source, host);
}

int adc_host_mirror_column(struct adc_host_mirror* mirror, const struct adc_device* device,
                           const struct arrow_json_field* field, const struct ArrowArray* source,
                           struct ArrowArray* host, struct adc_error* error) {
  struct copier c = {mirror, device, error};
  return copy_field(&c, field, source, host);
}

int adc_host_mirror_values(struct adc_host_mirror* mirror, const struct adc_device* device,
                           const struct arrow_json_type* type, const struct ArrowArray* source,
                           struct ArrowArray* host, struct adc_error* error) {
  struct copier c = {mirror, device, error};
  return copy_values(&c, type, source, host);
}

void adc_host_mirror_free(struct adc_host_mirror* mirror) {
  for (size_t i = 0; i < mirror->n_blocks; i++) free(mirror->blocks[i]);
  free(mirror->blocks);
  memset(mirror, 0, sizeof(*mirror));
}
