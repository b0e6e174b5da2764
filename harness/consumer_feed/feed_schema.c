/* The feed's schema export: the fixture's fields as a "+s" struct schema.
 * Strings point into the fixture model and the format literals, which
 * outlive every export of a case; only the base structure carries a record,
 * since only its release is the consumer's to call. */
#include <stdlib.h>

#include "consumer_feed/feed_records.h"

struct schema_node {
  char* metadata; /* the fixture's pairs, encoded (spec: "ArrowSchema.metadata"); NULL for none */
  struct ArrowSchema* child_structs;
  struct ArrowSchema** children;
  struct ArrowSchema* dictionary;
};

static void free_node(struct ArrowSchema* schema, struct schema_node* node) {
  for (int64_t i = 0; i < schema->n_children; i++) {
    if (node->children[i]->release != NULL) node->children[i]->release(node->children[i]);
  }
  if (node->dictionary != NULL && node->dictionary->release != NULL)
    node->dictionary->release(node->dictionary);
  free(node->metadata);
  free(node->child_structs);
  free(node->children);
  free(node->dictionary);
  free(node);
}

static void release_inner(struct ArrowSchema* schema) {
  free_node(schema, schema->private_data);
  schema->release = NULL;
}

static void release_base(struct ArrowSchema* schema) {
  struct feed_record* record = schema->private_data;
  struct schema_node* node = feed_record_enter(record, schema);
  if (node != NULL) free_node(schema, node);
  feed_record_leave(record);
  schema->release = NULL;
}

static int fill(struct ArrowSchema* out, const char* format, const char* name,
                const struct arrow_json_metadata* metadata, int64_t flags, int64_t n_children) {
  struct schema_node* node = calloc(1, sizeof(*node));
  if (node == NULL) return -1;
  *out = (struct ArrowSchema){
      .format = format, .name = name, .flags = flags, .release = release_inner, .private_data = node};
  size_t metadata_size = metadata != NULL ? arrow_json_metadata_size(metadata) : 0;
  if (metadata_size > 0) {
    node->metadata = malloc(metadata_size);
    if (node->metadata == NULL) return -1;
    arrow_json_metadata_encode(metadata, node->metadata);
    out->metadata = node->metadata;
  }
  if (n_children == 0) return 0;
  node->child_structs = calloc((size_t)n_children, sizeof(*node->child_structs));
  node->children = calloc((size_t)n_children, sizeof(*node->children));
  if (node->child_structs == NULL || node->children == NULL) return -1;
  for (int64_t i = 0; i < n_children; i++) node->children[i] = &node->child_structs[i];
  out->n_children = n_children;
  out->children = node->children;
  return 0;
}

static int fill_field(struct ArrowSchema* out, const struct arrow_json_field* field);

static int fill_children(struct ArrowSchema* out, const struct arrow_json_field* field) {
  for (int64_t i = 0; i < field->n_children; i++) {
    if (fill_field(out->children[i], &field->children[i]) != 0) return -1;
  }
  return 0;
}

/* As the reference exports it (reference/export_schema.c): the index type's
 * format, the value type's children under the dictionary. */
static int fill_field(struct ArrowSchema* out, const struct arrow_json_field* field) {
  int64_t n_children = field->is_dictionary ? 0 : field->n_children;
  if (fill(out, arrow_json_format(arrow_json_storage_type(field)), field->name, &field->metadata,
           arrow_json_field_flags(field), n_children) != 0) {
    return -1;
  }
  if (!field->is_dictionary) return fill_children(out, field);
  struct schema_node* node = out->private_data;
  node->dictionary = calloc(1, sizeof(*node->dictionary));
  if (node->dictionary == NULL) return -1;
  out->dictionary = node->dictionary;
  if (fill(out->dictionary, arrow_json_format(&field->type), NULL, NULL, ARROW_FLAG_NULLABLE,
           field->n_children) != 0) {
    return -1;
  }
  return fill_children(out->dictionary, field);
}

int adc_feed_export_schema(struct adc_feed* feed, const struct arrow_json_file* file, struct ArrowSchema* out,
                           struct adc_error* error) {
  struct ArrowSchema schema = {0}; /* still released if the first allocation fails */
  int status = fill(&schema, "+s", "", &file->metadata, 0, file->n_fields);
  for (int64_t i = 0; status == 0 && i < file->n_fields; i++)
    status = fill_field(schema.children[i], &file->fields[i]);
  if (status != 0) {
    if (schema.release != NULL) schema.release(&schema);
    return adc_fail(error, "out of memory exporting the schema");
  }
  schema.private_data = feed_record_add(feed, schema.private_data, NULL, NULL);
  schema.release = release_base;
  *out = schema;
  return 0;
}
