/* Comparing an exported ArrowSchema with a fixture's schema: format
 * strings (with their parameters), names, flags, custom metadata and
 * dictionaries, each difference reported with its path ("field 'b' >
 * field 'c': format is ..."). */
#include <inttypes.h>
#include <string.h>

#include "arrow_format/arrow_json_comparison.h"

/* One schema comparison: the shared state and the aspects asked. */
struct schema_comparison {
  struct comparison c;
  int aspects;
};

/* A difference of the types while they were not asked: the walk stops and
 * says so (ARROW_JSON_DIFFERENT_TYPES). */
static int types_differ(struct schema_comparison* s) {
  if (!(s->aspects & ARROW_JSON_SCHEMA_TYPES)) s->c.difference = ARROW_JSON_DIFFERENT_TYPES;
  return -1;
}

/* spec: "ArrowSchema.metadata": int32 pair count, then int32 length and
 * bytes of each key and value.  Compared with the fixture's pairs as a
 * set, as Arrow compares metadata (KeyValueMetadata::Equals): the C Data
 * Interface encodes the pairs in a sequence, but no implementation gives
 * their order a meaning (arrow-rs keeps them in a hash map). */
static int compare_metadata(struct comparison* c, const char* encoded,
                            const struct arrow_json_metadata* expected) {
  char difference[512];
  if (arrow_json_compare_metadata_pairs(encoded, expected, difference, sizeof(difference)) == 0) return 0;
  return comparison_differ(c, "%s", difference);
}

static int expect_format(struct comparison* c, const char* what, const char* format, const char* expected) {
  if (format == NULL || strcmp(format, expected) != 0) {
    return comparison_differ(c, "%sformat is \"%s\", fixture has \"%s\"", what, format ? format : "(null)",
                             expected);
  }
  return 0;
}

static int expect_flag(struct comparison* c, const struct ArrowSchema* schema, int64_t flag, const char* name,
                       bool expected, const char* fixture_says) {
  if (((schema->flags & flag) != 0) == expected) return 0;
  return comparison_differ(c, "%s is %s, fixture says %s", name, (schema->flags & flag) ? "set" : "clear",
                           fixture_says);
}

static int compare_schema_node(struct schema_comparison* s, const struct arrow_json_field* field,
                               const struct ArrowSchema* schema, bool names_matter);

/* `names_matter` is false below a map: Schema.fbs says of a map's entries,
 * key and value that their names "may be respectively "entries", "key",
 * and "value", but this is not enforced", so an implementation that names
 * them its own way exports the same type. */
static int compare_schema_children(struct schema_comparison* s, const struct arrow_json_field* fields,
                                   int64_t n_fields, const struct ArrowSchema* schema, bool names_matter) {
  struct comparison* c = &s->c;
  if (schema->n_children != n_fields) {
    comparison_differ(c, "n_children is %" PRId64 ", fixture has %" PRId64, schema->n_children, n_fields);
    return types_differ(s);
  }
  if (n_fields > 0 && schema->children == NULL)
    return comparison_differ(c, "children is NULL"), types_differ(s);
  for (int64_t i = 0; i < n_fields; i++) {
    const struct ArrowSchema* child = schema->children[i];
    if (child == NULL) return comparison_differ(c, "children[%" PRId64 "] is NULL", i), types_differ(s);
    size_t mark = comparison_push(c, "field", fields[i].name);
    if (compare_schema_node(s, &fields[i], child, names_matter) != 0) return -1;
    comparison_pop(c, mark);
  }
  return 0;
}

/* The format and name of one node (and that it is not released). */
static int compare_type(struct schema_comparison* s, const struct arrow_json_field* field,
                        const struct ArrowSchema* schema, bool names_matter) {
  struct comparison* c = &s->c;
  if (schema->release == NULL)
    return comparison_differ(c, "schema is released (release is NULL)"), types_differ(s);
  /* spec: "For dictionary-encoded arrays, the ArrowSchema.format string
   * encodes the index type." */
  if (expect_format(c, "", schema->format, arrow_json_format(arrow_json_storage_type(field))) != 0) {
    return types_differ(s);
  }
  if (names_matter && (schema->name == NULL || strcmp(schema->name, field->name) != 0)) {
    comparison_differ(c, "name is \"%s\", fixture has \"%s\"", schema->name ? schema->name : "(null)",
                      field->name);
    return types_differ(s);
  }
  return 0;
}

static int compare_flags(struct comparison* c, const struct arrow_json_field* field,
                         const struct ArrowSchema* schema) {
  int64_t flags = arrow_json_field_flags(field);
  if (expect_flag(c, schema, ARROW_FLAG_NULLABLE, "ARROW_FLAG_NULLABLE", flags & ARROW_FLAG_NULLABLE,
                  field->nullable ? "nullable=true" : "nullable=false") != 0 ||
      expect_flag(c, schema, ARROW_FLAG_DICTIONARY_ORDERED, "ARROW_FLAG_DICTIONARY_ORDERED",
                  flags & ARROW_FLAG_DICTIONARY_ORDERED,
                  field->dictionary_ordered ? "isOrdered" : "not isOrdered") != 0 ||
      expect_flag(c, schema, ARROW_FLAG_MAP_KEYS_SORTED, "ARROW_FLAG_MAP_KEYS_SORTED",
                  flags & ARROW_FLAG_MAP_KEYS_SORTED,
                  field->type.map_keys_sorted ? "keysSorted" : "not keysSorted") != 0) {
    return -1;
  }
  return 0;
}

static int compare_schema_node(struct schema_comparison* s, const struct arrow_json_field* field,
                               const struct ArrowSchema* schema, bool names_matter) {
  struct comparison* c = &s->c;
  /* The types are walked whatever is asked: the other aspects hang on them. */
  if (compare_type(s, field, schema, names_matter) != 0) return -1;
  bool children_names_matter = names_matter && field->type.kind != ARROW_JSON_MAP;
  if ((s->aspects & ARROW_JSON_SCHEMA_FLAGS) && compare_flags(c, field, schema) != 0) return -1;
  if ((s->aspects & ARROW_JSON_SCHEMA_METADATA) &&
      compare_metadata(c, schema->metadata, &field->metadata) != 0) {
    return -1;
  }
  if (!field->is_dictionary) {
    if (schema->dictionary != NULL) {
      comparison_differ(c, "dictionary schema is set, fixture is not dictionary-encoded");
      return types_differ(s);
    }
    return compare_schema_children(s, field->children, field->n_children, schema, children_names_matter);
  }
  if (schema->dictionary == NULL) {
    comparison_differ(c, "dictionary schema is NULL, fixture is dictionary-encoded");
    return types_differ(s);
  }
  if (schema->n_children != 0) {
    comparison_differ(c, "a dictionary-encoded field's schema has children");
    return types_differ(s);
  }
  /* spec: "The dictionary *value* type can be read from the
   * ArrowSchema.dictionary structure"; its children are the value type's. */
  const struct ArrowSchema* dictionary = schema->dictionary;
  size_t mark = comparison_push(c, "dictionary", NULL);
  if (dictionary->release == NULL) {
    comparison_differ(c, "schema is released (release is NULL)");
    return types_differ(s);
  }
  if (expect_format(c, "", dictionary->format, arrow_json_format(&field->type)) != 0) return types_differ(s);
  if (compare_schema_children(s, field->children, field->n_children, dictionary, children_names_matter) !=
      0) {
    return -1;
  }
  comparison_pop(c, mark);
  return 0;
}

static int compare_record_batch_schema(struct schema_comparison* s, const struct arrow_json_file* file,
                                       const struct ArrowSchema* schema) {
  struct comparison* c = &s->c;
  if (schema->release == NULL)
    return comparison_differ(c, "schema is released (release is NULL)"), types_differ(s);
  if (schema->format == NULL || strcmp(schema->format, "+s") != 0) {
    comparison_differ(c, "top-level format is \"%s\", a record batch is \"+s\"",
                      schema->format ? schema->format : "(null)");
    return types_differ(s);
  }
  if ((s->aspects & ARROW_JSON_SCHEMA_METADATA) &&
      compare_metadata(c, schema->metadata, &file->metadata) != 0) {
    return -1;
  }
  return compare_schema_children(s, file->fields, file->n_fields, schema, true);
}

int arrow_json_compare_schema_aspects(const struct arrow_json_file* file, const struct ArrowSchema* schema,
                                      int aspects, char* err, size_t err_size) {
  struct schema_comparison s = {{file, err, err_size, "", ARROW_JSON_DIFFERENT_DATA}, aspects};
  return comparison_result(&s.c, compare_record_batch_schema(&s, file, schema));
}

int arrow_json_compare_schema(const struct arrow_json_file* file, const struct ArrowSchema* schema, char* err,
                              size_t err_size) {
  return arrow_json_compare_schema_aspects(file, schema, ARROW_JSON_SCHEMA_ALL, err, err_size);
}
