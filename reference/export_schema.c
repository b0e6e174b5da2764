/* Exporting a fixture's schema as an ArrowSchema: a "+s" struct whose
 * children are the fields (spec: "Record batches ... an equivalent struct
 * array").  Every string and array the schema points to is allocated here and
 * freed by its release callback (spec: "Member allocation"). */
#include <stdlib.h>
#include <string.h>

#include "reference_core.h"

struct schema_private {
  char* format;
  char* name;
  struct ArrowSchema* child_structs;
  struct ArrowSchema** child_pointers;
  struct ArrowSchema* dictionary_struct;
};

static void release_schema(struct ArrowSchema* schema) {
  struct schema_private* payload = schema->private_data;
  /* spec: "The release callback MUST walk all children structures
   * (including the optional dictionary) and call their own release
   * callbacks." */
  for (int64_t i = 0; i < schema->n_children; i++) {
    struct ArrowSchema* child = schema->children[i];
    if (child->release != NULL) child->release(child);
  }
  if (schema->dictionary != NULL && schema->dictionary->release != NULL) {
    schema->dictionary->release(schema->dictionary);
  }
  ref_free(payload->format);
  ref_free(payload->name);
  ref_free(payload->child_structs);
  ref_free(payload->child_pointers);
  ref_free(payload->dictionary_struct);
  ref_free(payload);
  /* spec: "The release callback MUST mark the structure as released" */
  schema->release = NULL;
}

static int fill_schema(struct ArrowSchema* out, const char* format, const char* name, int64_t flags,
                       int64_t n_children) {
  struct schema_private* payload = ref_calloc(1, sizeof(*payload));
  if (payload == NULL) return -1;
  payload->format = ref_strdup(format);
  payload->name = name ? ref_strdup(name) : NULL;
  if (n_children > 0) {
    payload->child_structs = ref_calloc((size_t)n_children, sizeof(struct ArrowSchema));
    payload->child_pointers = ref_calloc((size_t)n_children, sizeof(struct ArrowSchema*));
    for (int64_t i = 0; i < n_children; i++) payload->child_pointers[i] = &payload->child_structs[i];
  }
  *out = (struct ArrowSchema){
      .format = payload->format,
      .name = payload->name,
      .metadata = NULL, /* spec: "If omitted, this field MUST be NULL" */
      .flags = flags,
      .n_children = n_children,
      .children = payload->child_pointers,
      .dictionary = NULL,
      .release = release_schema,
      .private_data = payload,
  };
  return 0;
}

static int fill_field(struct ArrowSchema* out, const struct arrow_json_field* field) {
  int64_t flags = field->nullable ? ARROW_FLAG_NULLABLE : 0;
  /* spec: "For dictionary-encoded arrays, the ArrowSchema.format string
   * encodes the index type." */
  const struct arrow_json_type* storage = field->is_dictionary ? &field->index_type : &field->type;
  if (field->is_dictionary && field->dictionary_ordered) flags |= ARROW_FLAG_DICTIONARY_ORDERED;
  if (fill_schema(out, arrow_json_format(storage), field->name, flags, field->n_children) != 0) {
    return -1;
  }
  for (int64_t i = 0; i < field->n_children; i++) {
    if (fill_field(out->children[i], &field->children[i]) != 0) return -1;
  }
  if (field->is_dictionary) {
    struct schema_private* payload = out->private_data;
    payload->dictionary_struct = ref_calloc(1, sizeof(struct ArrowSchema));
    out->dictionary = payload->dictionary_struct;
    if (fill_schema(out->dictionary, arrow_json_format(&field->type), NULL, ARROW_FLAG_NULLABLE, 0) != 0) {
      return -1;
    }
  }
  return 0;
}

const char* ref_export_schema(const struct arrow_json_file* file, struct ArrowSchema* out) {
  struct ArrowSchema schema;
  if (fill_schema(&schema, "+s", "", 0, file->n_fields) != 0) return "out of memory";
  for (int64_t i = 0; i < file->n_fields; i++) {
    if (fill_field(schema.children[i], &file->fields[i]) != 0) {
      schema.release(&schema);
      return "out of memory";
    }
  }
  *out = schema;
  return NULL;
}
