/* Exporting a fixture's schema as an ArrowSchema: a "+s" struct whose
 * children are the fields (spec: "Record batches": "A record batch can be
 * trivially considered as an equivalent struct array").  Every string and
 * array the schema points to is allocated here and freed by its release
 * callback (spec: "Member allocation": "any data pointed to by the struct
 * MUST be allocated and maintained by the producer.  This includes the
 * format and metadata strings, the arrays of buffer and children pointers,
 * etc.").  No pointer in a structure points into the structure itself, so
 * a consumer may move it (spec: "Memory management": "The ArrowSchema and
 * ArrowArray structures follow the same conventions for memory
 * management", "Moving an array" among them). */
#include <stdbool.h>
#include <string.h>

#include "reference_core.h"

/* What one structure owns, through its private_data. */
struct schema_private {
  char* format;                          /* `format` points here */
  char* name;                            /* `name` points here, or NULL */
  char* metadata;                        /* `metadata` points here, or NULL */
  struct ArrowSchema* child_structs;     /* the children themselves */
  struct ArrowSchema** child_pointers;   /* `children` points here, each to one of child_structs */
  struct ArrowSchema* dictionary_struct; /* `dictionary` points here */
};

/* Frees `payload` and everything it holds. */
static void free_payload(struct schema_private* payload) {
  ref_free(payload->format);
  ref_free(payload->name);
  ref_free(payload->metadata);
  ref_free(payload->child_structs);
  ref_free(payload->child_pointers);
  ref_free(payload->dictionary_struct);
  ref_free(payload);
}

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
  /* spec: "The release callback MUST free any data area directly owned by
   * the structure (such as the buffers and children members)." */
  free_payload(payload);
  /* spec: "The release callback MUST mark the structure as released" */
  schema->release = NULL;
}

/* The private data of a structure with `n_children` zeroed children; NULL
 * when out of memory, nothing left allocated. */
static struct schema_private* new_payload(const char* format, const char* name,
                                          const struct arrow_json_metadata* metadata, int64_t n_children) {
  struct schema_private* payload = ref_calloc(1, sizeof(*payload));
  if (payload == NULL) return NULL;
  payload->format = ref_strdup(format);
  payload->name = name != NULL ? ref_strdup(name) : NULL;
  size_t metadata_size = metadata != NULL ? arrow_json_metadata_size(metadata) : 0;
  if (metadata_size > 0) {
    payload->metadata = ref_calloc(1, metadata_size);
    if (payload->metadata != NULL) arrow_json_metadata_encode(metadata, payload->metadata);
  }
  bool failed = payload->format == NULL || (name != NULL && payload->name == NULL) ||
                (metadata_size > 0 && payload->metadata == NULL);
  if (n_children > 0 && !failed) {
    payload->child_structs = ref_calloc((size_t)n_children, sizeof(struct ArrowSchema));
    payload->child_pointers = ref_calloc((size_t)n_children, sizeof(struct ArrowSchema*));
    failed = payload->child_structs == NULL || payload->child_pointers == NULL;
  }
  if (failed) {
    free_payload(payload);
    return NULL;
  }
  /* Every child pointer is set before any child is filled: should one fail,
   * release_schema walks zeroed children (release NULL), never NULL. */
  for (int64_t i = 0; i < n_children; i++) payload->child_pointers[i] = &payload->child_structs[i];
  return payload;
}

/* Fills `out` as a structure with `n_children` children still to fill
 * (zeroed); 0, or -1 when out of memory with `out` untouched. */
static int fill_schema(struct ArrowSchema* out, const char* format, const char* name,
                       const struct arrow_json_metadata* metadata, int64_t flags, int64_t n_children) {
  struct schema_private* payload = new_payload(format, name, metadata, n_children);
  if (payload == NULL) return -1;
  *out = (struct ArrowSchema){
      /* spec: format is "Mandatory. A null-terminated, UTF8-encoded string
       * describing the data type." */
      .format = payload->format,
      /* spec: name is "Optional.  A null-terminated, UTF8-encoded string of
       * the field or array name ... If omitted, MAY be NULL or an empty
       * string." */
      .name = payload->name,
      /* spec: "This string is not null-terminated but follows a specific
       * format": the pairs' binary encoding; "If omitted, this field MUST
       * be NULL" (arrow_json_metadata_size is 0 for no pairs). */
      .metadata = payload->metadata,
      .flags = flags,
      .n_children = n_children,
      .children = payload->child_pointers,
      .dictionary = NULL,
      .release = release_schema,
      .private_data = payload,
  };
  return 0;
}

/* Fills `out` with `field` and, below it, its children and dictionary; 0, or
 * -1 when out of memory, with whatever was filled left for the parent's
 * release. */
static int fill_field(struct ArrowSchema* out, const struct arrow_json_field* field);

/* The children of a field (of its value type, when dictionary-encoded). */
static int fill_children(struct ArrowSchema* out, const struct arrow_json_field* field) {
  for (int64_t i = 0; i < field->n_children; i++) {
    if (fill_field(out->children[i], &field->children[i]) != 0) return -1;
  }
  return 0;
}

/* Fills `out` with `field` and, below it, its children and dictionary; 0, or
 * -1 when out of memory, with whatever was filled left for the parent's
 * release.  The flags (nullable, dictionary ordered, map keys sorted) are
 * the fixture model's (arrow_json_field_flags). */
static int fill_field(struct ArrowSchema* out, const struct arrow_json_field* field) {
  /* spec: "For dictionary-encoded arrays, the ArrowSchema.format string
   * encodes the index type." */
  const char* format = arrow_json_format(arrow_json_storage_type(field));
  int64_t n_children = field->is_dictionary ? 0 : field->n_children;
  if (fill_schema(out, format, field->name, &field->metadata, arrow_json_field_flags(field), n_children) !=
      0) {
    return -1;
  }
  if (!field->is_dictionary) return fill_children(out, field);
  /* spec: "The dictionary *value* type can be read from the
   * ArrowSchema.dictionary structure." */
  struct schema_private* payload = out->private_data;
  payload->dictionary_struct = ref_calloc(1, sizeof(struct ArrowSchema));
  if (payload->dictionary_struct == NULL) return -1;
  out->dictionary = payload->dictionary_struct;
  if (fill_schema(out->dictionary, arrow_json_format(&field->type), NULL, NULL, ARROW_FLAG_NULLABLE,
                  field->n_children) != 0) {
    return -1;
  }
  return fill_children(out->dictionary, field);
}

const char* ref_export_schema(const struct arrow_json_file* file, struct ArrowSchema* out) {
  struct ArrowSchema schema;
  /* The batch's schema: a struct of the fields, with an empty name (spec:
   * name "If omitted, MAY be NULL or an empty string"). */
  if (fill_schema(&schema, "+s", "", &file->metadata, 0, file->n_fields) != 0) return "out of memory";
  for (int64_t i = 0; i < file->n_fields; i++) {
    if (fill_field(schema.children[i], &file->fields[i]) != 0) {
      schema.release(&schema); /* frees whatever part was built */
      return "out of memory";
    }
  }
  *out = schema;
  return NULL;
}
