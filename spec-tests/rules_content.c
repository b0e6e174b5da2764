/* What the producer exports equals the fixture it was asked for
 * (spec: "The ArrowSchema structure", "The ArrowArray structure"). */
#include "arrow_format/arrow_logical.h"
#include "rule_api/fixture_compare.h"
#include "rule_api/producer_calls.h"

/* For a library that keeps its own model (rule_api/library.h): the same
 * aspect judged by value (arrow_logical.h): its types logically the
 * fixture's, names as the fixture has them; its flags as the fixture
 * has them where it keeps what they are about, ARROW_FLAG_NULLABLE set
 * where the fixture has it clear allowed (its model may have no
 * non-nullable columns), never the reverse; its metadata.  0, a
 * difference of the aspect (-1), or ARROW_JSON_DIFFERENT_TYPES where the
 * types differ while another aspect was asked. */
static int compare_own_model(struct adc_case_context* ctx, const struct ArrowSchema* schema, int aspects,
                             char* difference, size_t size) {
  int logical = aspects == ARROW_JSON_SCHEMA_TYPES   ? ARROW_LOGICAL_NAMES
                : aspects == ARROW_JSON_SCHEMA_FLAGS ? ARROW_LOGICAL_FLAGS | ARROW_LOGICAL_NULLABLE_MAY_WIDEN
                                                     : ARROW_LOGICAL_METADATA;
  int result = arrow_logical_compare_schema_aspects(ctx->fixture, schema, logical, difference, size);
  if (result == ARROW_JSON_DIFFERENT_TYPES && aspects == ARROW_JSON_SCHEMA_TYPES) return -1;
  return result;
}

/* The exported schema compared with the fixture's on some aspects
 * (enum arrow_json_schema_aspect); where its types differ while they were
 * not asked, the case names the rule on types and ends unresolved. */
static void judge_schema(struct adc_case_context* ctx, int aspects) {
  struct ArrowSchema* schema = adc_export_schema(ctx);
  if (schema == NULL) return;
  char difference[512];
  int result =
      ctx->library->keeps_own_model
          ? compare_own_model(ctx, schema, aspects, difference, sizeof(difference))
          : arrow_json_compare_schema_aspects(ctx->fixture, schema, aspects, difference, sizeof(difference));
  if (result == ARROW_JSON_DIFFERENT_TYPES) {
    adc_unresolved(ctx, "the schema's types differ from the fixture's (see %s): %s", ADC_RULE_SCHEMA_TYPES,
                   difference);
  } else if (result != 0) {
    adc_violation(ctx, "%s", difference);
  }
  schema->release(schema);
}

static void schema_matches_fixture(struct adc_case_context* ctx) {
  judge_schema(ctx, ARROW_JSON_SCHEMA_TYPES);
}

static void schema_flags_match(struct adc_case_context* ctx) {
  judge_schema(ctx, ARROW_JSON_SCHEMA_FLAGS);
}

static void schema_metadata_matches(struct adc_case_context* ctx) {
  judge_schema(ctx, ARROW_JSON_SCHEMA_METADATA);
}

/* Fixtures with custom metadata (on the schema or a field, at any depth). */
static bool field_has_metadata(const struct arrow_json_field* field) {
  if (field->metadata.n_pairs > 0) return true;
  for (int64_t i = 0; i < field->n_children; i++) {
    if (field_has_metadata(&field->children[i])) return true;
  }
  return false;
}

static bool has_metadata(const struct arrow_json_file* fixture) {
  if (fixture->metadata.n_pairs > 0) return true;
  for (int64_t i = 0; i < fixture->n_fields; i++) {
    if (field_has_metadata(&fixture->fields[i])) return true;
  }
  return false;
}
static const struct adc_fixture_filter with_metadata = {has_metadata, "custom metadata"};

/* Each batch compared with the fixture; `judged` says which kind of
 * difference is the rule's (enum arrow_json_difference: data, or one of
 * the layout differences); a difference of another kind is another
 * rule's, which the case names and ends unresolved. */
static void judge_batches(struct adc_case_context* ctx, int judged) {
  ADC_FOR_EACH_BATCH(ctx, batch) {
    struct ArrowArray* array = adc_export_batch(ctx, batch);
    if (array == NULL) return;
    char difference[512];
    int result = adc_compare_batch(ctx, batch, array, difference, sizeof(difference));
    const char* layout_rule = adc_layout_rule_of(result);
    if (result == judged) {
      adc_violation(ctx, "batch %d: %s", batch, difference);
    } else if (result != 0 && judged == ARROW_JSON_DIFFERENT_DATA && layout_rule != NULL) {
      adc_unresolved(ctx, "batch %d: its %s the fixture's, so its data cannot be read (see %s): %s", batch,
                     result == ARROW_JSON_DIFFERENT_TYPES ? "types are not" : "layout differs from",
                     layout_rule, difference);
    } else if (result == ARROW_JSON_DIFFERENT_TYPES && !ctx->has_verdict) {
      adc_unresolved(ctx, "batch %d: its types are not the fixture's (see %s): %s", batch,
                     ADC_RULE_SCHEMA_TYPES, difference);
    }
    array->release(array);
  }
}

static void array_matches_fixture(struct adc_case_context* ctx) {
  judge_batches(ctx, ARROW_JSON_DIFFERENT_DATA);
}

/* spec: n_buffers and n_children are "a function of the data type": the
 * layout table's (arrow_format/arrow_layout.c) for every node. */
static void layout_matches(struct adc_case_context* ctx) {
  judge_batches(ctx, ARROW_JSON_DIFFERENT_COUNTS);
}

static void dictionary_when_encoded(struct adc_case_context* ctx) {
  judge_batches(ctx, ARROW_JSON_DIFFERENT_DICTIONARY);
}

/* spec: "The data returned by ... must be released independently": the
 * schema's release must leave the array whole. */
static void schema_release_independent(struct adc_case_context* ctx) {
  ADC_FOR_EACH_BATCH(ctx, batch) {
    struct ArrowSchema* schema = adc_export_schema(ctx);
    if (schema == NULL) return;
    struct ArrowArray* array = adc_export_batch(ctx, batch);
    if (array == NULL) {
      schema->release(schema);
      return;
    }
    bool whole_before = adc_batch_matches_before(ctx, batch, array);
    schema->release(schema);
    char difference[512];
    if (whole_before && adc_compare_batch(ctx, batch, array, difference, sizeof(difference)) != 0) {
      adc_violation(ctx, "batch %d changed when its schema was released: %s", batch, difference);
    }
    array->release(array);
  }
}

static const struct adc_rule rules[] = {
    {
        .id = ADC_RULE_SCHEMA_TYPES,
        .clause = "The ArrowSchema structure",
        .sentence = "Mandatory. A null-terminated, UTF8-encoded string describing the data type.",
        .method = "Compares the exported schema's types with the fixture's at every depth: format strings "
                  "with their parameters (decimal precision and scale, timestamp unit and zone, fixed sizes, "
                  "union type ids), names, children and dictionaries (flags and metadata are the next "
                  "rules').",
        .role = ADC_ROLE_PRODUCER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ExportSchemaFromJson),
        .run = schema_matches_fixture,
    },
    {
        .id = "schema.flags.match_fixture",
        .clause = "The ArrowSchema structure",
        .sentence =
            "ARROW_FLAG_NULLABLE: whether this field is semantically nullable (regardless of whether it "
            "actually has null values).",
        .method = "Compares each field's flags with the fixture's: ARROW_FLAG_NULLABLE as nullable, "
                  "ARROW_FLAG_DICTIONARY_ORDERED as isOrdered, ARROW_FLAG_MAP_KEYS_SORTED as keysSorted.",
        .role = ADC_ROLE_PRODUCER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ExportSchemaFromJson),
        .run = schema_flags_match,
    },
    {
        .id = "schema.metadata.matches_fixture",
        .clause = "The ArrowSchema structure",
        .sentence = "This string is not null-terminated but follows a specific format: int32: number of "
                    "key/value pairs ... Integers are stored in native endianness.",
        .method = "Decodes the schema's and every field's metadata (pair count, then each key's and "
                  "value's int32 length and bytes) and compares the pairs with the fixture's as a set, in "
                  "any order, as Arrow compares metadata; no pairs: NULL (or a count of 0).",
        .role = ADC_ROLE_PRODUCER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ExportSchemaFromJson),
        .fixtures = &with_metadata,
        .run = schema_metadata_matches,
    },
    {
        .id = "array.data.matches_fixture",
        .clause = "The ArrowArray structure",
        .sentence = "The producer MUST ensure that each contiguous buffer is large enough to represent "
                    "length + offset values encoded according to the Columnar format specification.",
        .method = "Compares every exported batch with the fixture: lengths, validity, values (by value "
                  "where layouts may differ: views, dense unions, dictionaries), offsets at every level and "
                  "null_count; a batch whose layout differs is the layout rules' (unresolved here).",
        .role = ADC_ROLE_PRODUCER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ExportBatchFromJson),
        .run = array_matches_fixture,
    },
    {
        .id = ADC_RULE_ARRAY_LAYOUT,
        .clause = "The ArrowArray structure",
        .sentence = "The number of buffers is a function of the data type, as described in the Columnar "
                    "format specification, except for the binary or utf-8 view type, which has one "
                    "additional buffer compared to the Columnar format specification",
        .method = "Checks every node of every exported batch against the layout table "
                  "(arrow_format/arrow_layout.c) before reading any buffer: n_buffers of its "
                  "type (a union has no validity buffer, a null or run-end encoded array no buffer at "
                  "all, a view its variadic buffers and their sizes), n_children of its type, and the "
                  "buffers and children pointers there.",
        .role = ADC_ROLE_PRODUCER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ExportBatchFromJson),
        .run = layout_matches,
    },
    {
        .id = ADC_RULE_ARRAY_DICTIONARY,
        .clause = "The ArrowArray structure",
        .sentence = "MUST be present if the ArrowArray represents a dictionary-encoded array. MUST be NULL "
                    "otherwise.",
        .method = "Checks every node of every exported batch: a dictionary pointer exactly where the "
                  "fixture's field is dictionary-encoded (at any depth).",
        .role = ADC_ROLE_PRODUCER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ExportBatchFromJson),
        .run = dictionary_when_encoded,
    },
    {
        .id = "schema.release.independent_of_array",
        .clause = "Member allocation",
        .sentence = "any data pointed to by the struct MUST be allocated and maintained by the producer.",
        .method = "Exports schema and batch, releases the schema first and checks the batch still equals "
                  "the fixture.",
        .role = ADC_ROLE_PRODUCER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ExportSchemaFromJson) | ADC_NEED(ExportBatchFromJson),
        .run = schema_release_independent,
    },
};

const struct adc_rule_family adc_content_rules = ADC_RULE_FAMILY(rules);
