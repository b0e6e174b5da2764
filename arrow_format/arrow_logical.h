/* Logical equality: whether what a library exports holds the fixture's
 * values, whatever representation the library keeps them in.
 *
 * The exact comparison (arrow_json.h: arrow_json_compare_schema,
 * arrow_json_compare_batch) asks for the fixture's own types and batches.
 * Libraries with a model of their own export the same values otherwise:
 * strings as string views, dictionaries with other index types or decoded,
 * batches merged or cut elsewhere, metadata pairs in another order.  This
 * module judges those values, and reads every exported array by the
 * ArrowSchema the library exported for it, never by the fixture's type: a
 * string view read as a string would read its 16-byte views as offsets.
 *
 * The definition, written once here:
 *
 * 1. Types.  A node's logical type is its own once decoded: a
 *    dictionary-encoded node is its dictionary's value type, whatever its
 *    index type (spec, CDataInterface.rst: "For dictionary-encoded arrays,
 *    the ArrowSchema.format string encodes the index type.  The dictionary
 *    *value* type can be read from the ArrowSchema.dictionary structure"),
 *    and a run-end encoded node ("+r") is its values child's type,
 *    whatever its run ends' width (Columnar.rst, "Run-End Encoded Layout":
 *    the run ends and the values are its two children).  Either side may be
 *    encoded.  Then these physical types are one logical type, their values
 *    compared as values:
 *      - string, large string, string view: "u", "U", "vu";
 *      - binary, large binary, binary view, and fixed-size binary of any
 *        width: "z", "Z", "vz", "w:N" (its values are bytes too: a
 *        library without the type keeps them as binaries);
 *      - list, large list, list view, large list view: "+l", "+L", "+vl",
 *        "+vL", their elements compared recursively.
 *    Every other type must have the same format on both sides, parameters
 *    included (decimal precision, scale and width, timestamp unit and
 *    zone, fixed sizes, union mode and type ids), the format read into its
 *    row of the type table (arrow_format_string.h); "d:P,S,128" is
 *    "d:P,S".  An unknown or unparsable format is a difference.  Nested
 *    types have the same number of children, each logically equal.
 *
 * 2. Names.  The top-level fields and the children of structs and unions
 *    have the fixture's names.  A list's child field's name is not part of
 *    the type (Schema.fbs, Field: "Name is not required, in i.e. a List"),
 *    nor are a map's entries, key and value names (Schema.fbs, Map: "The
 *    names of the child fields may be respectively "entries", "key", and
 *    "value", but this is not enforced"), nor the children of a run-end
 *    encoded node.
 *
 * 3. Metadata.  The custom metadata of the schema and of every field is
 *    compared as a set of key/value pairs: the same number of pairs, each
 *    pair of one side matched by an equal pair of the other, in any order,
 *    as Arrow C++'s KeyValueMetadata::Equals (which compares the pairs
 *    sorted by key) and pyarrow's Schema.equals(check_metadata=True) do.
 *    The metadata of a dictionary's value schema and of a run-end encoded
 *    node's children is its encoding's, not the field's, and is not read.
 *
 * 4. Flags (nullable, dictionary ordered, map keys sorted) are not part of
 *    logical equality: other rules judge them exactly.
 *
 * 5. Values.  The rows of a side are the rows of its batches concatenated:
 *    where the batches end does not matter.  Row by row, logically:
 *      - nulls equal nulls whatever bytes are under them; a null of a
 *        dictionary-encoded row is a null index or a null dictionary value,
 *        of a run-end encoded row a null value of its run;
 *      - floats are equal when their bits are, or when both are NaN;
 *        booleans by bit; other fixed-width values by their bytes;
 *      - strings and binaries by their bytes, wherever they are stored;
 *      - lists by their element count, then each element;
 *      - a fixed-size list by its elements, a struct by its children in
 *        order, a map as the list of its entries;
 *      - a union row by its type id, then the value of the child it
 *        selects (a dense union's offset points to it);
 *      - a null-typed row is null.
 *    ArrowArray.offset is honoured at every level, the record batch's own
 *    included (a struct's offset applies to its children's rows: spec,
 *    "ArrowArray.offset").  A null_count of -1 is accepted ("MAY be -1 if
 *    not yet computed"); another must be the validity bitmap's count.  The
 *    validity buffer may be NULL only when null_count is 0 (spec: "The
 *    buffer pointers MAY be null only in two situations").
 *
 * 6. Structure.  Before any value is read, every array is checked against
 *    ITS OWN schema node: not released, length and offset not negative,
 *    n_buffers as the layout table says for its format (a binary view's
 *    variadic buffers counted: CDataInterface.rst, "Binary view arrays"),
 *    n_children as its schema's, children non-NULL, a dictionary exactly
 *    when its schema has one.  While values are read: the buffers a valid
 *    row reads are non-NULL, offsets are not negative and do not decrease,
 *    list ranges and run ends are within their child, a view's buffer
 *    index and range within its variadic buffers and their sizes buffer,
 *    dictionary indices within the dictionary, union type ids among the
 *    type's.  A malformed export is a reported difference, never a read
 *    outside what it declares.
 *
 * The fixture is read through the same code as the export: read-only views
 * of the model as ArrowSchema and ArrowArray (arrow_json_view.h).
 *
 * Differences are written with their path, as the exact comparison writes
 * them: "column 'b' > child 'c': value at row 3 is 7, fixture has 9", rows
 * counted over the whole concatenation of the batches; below a list the
 * path names the item ("column 'l' > item 2"), below a map the entry. */
#ifndef ADC_ARROW_LOGICAL_H
#define ADC_ARROW_LOGICAL_H

#include <stddef.h>
#include <stdint.h>

#include "arrow_format/arrow_json.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Compares the rows of exported record batches with the fixture's rows,
 * logically.  `schema` is the library's own schema of the batches (a "+s"
 * struct); every array of `arrays` is a struct array (a record batch) of
 * that schema, on the CPU.  The export's rows are the arrays' rows
 * concatenated, compared with the rows of the fixture's batch
 * `fixture_batch`, or of all its batches concatenated when it is -1.
 *
 * The types are compared first (clause 1: a library whose types are not
 * logically the fixture's has no rows to compare), then the structure of
 * every array (clause 6), then the rows (clause 5).  Names, metadata and
 * flags are the schema's business (arrow_logical_compare_schema), not
 * read here.
 *
 * Reads everything it is given and changes nothing; the caller keeps
 * ownership of `file`, `schema` and `arrays`.  Returns 0 when equal, else
 * the kind of the first difference (enum arrow_json_difference: of types
 * ARROW_JSON_DIFFERENT_TYPES, of buffer or child counts
 * ARROW_JSON_DIFFERENT_COUNTS, of a dictionary's presence
 * ARROW_JSON_DIFFERENT_DICTIONARY, else ARROW_JSON_DIFFERENT_DATA, which
 * is -1) with it, with its path, written to `err` ("column 'b' > child
 * 'c': value at row 3 is 7, fixture has 9"; "exported batch 2: column 'a':
 * n_buffers is 2, a binary view array (\"vu\") has at least 3"). */
int arrow_logical_compare_batches(const struct arrow_json_file* file, int64_t fixture_batch,
                                  const struct ArrowSchema* schema, const struct ArrowArray* const* arrays,
                                  int64_t n_arrays, char* err, size_t err_size);

/* The structure of each of `arrays` against `schema` alone (clause 6, as
 * arrow_logical_compare_batches checks it before the rows): the columnar
 * format's invariants, no fixture.  0, or the kind of the first breach
 * with it in `err`. */
int arrow_logical_check_batches(const struct ArrowSchema* schema, const struct ArrowArray* const* arrays,
                                int64_t n_arrays, char* err, size_t err_size);

/* Compares the library's schema with the fixture's logically: a "+s" of
 * the same number of top-level fields with the fixture's names, the
 * children's names where they count (clause 2), each type logically equal
 * (clause 1), the custom metadata of the schema and of every field equal
 * as a set of pairs (clause 3).  Flags are not compared (clause 4).  The
 * caller keeps ownership of both.  0, or -1 with the first difference in
 * `err` ("column 's' > child 'a': name is \"b\", fixture has \"a\"";
 * "column 'a': type is int64 (l), fixture has int32 (i)"). */
int arrow_logical_compare_schema(const struct arrow_json_file* file, const struct ArrowSchema* schema,
                                 char* err, size_t err_size);

/* What arrow_logical_compare_schema_aspects compares besides the types
 * (clause 1), which it always walks. */
enum arrow_logical_aspect {
  ARROW_LOGICAL_TYPES = 0,
  ARROW_LOGICAL_NAMES = 1 << 0,    /* clause 2 */
  ARROW_LOGICAL_METADATA = 1 << 1, /* clause 3 */
  /* The flags of every node (outside logical equality: clause 4), kept
   * as the fixture has them where the node keeps what a flag is about:
   * ARROW_FLAG_DICTIONARY_ORDERED where both sides are dictionary-encoded
   * (spec: it "is ignored if the field is not dictionary-encoded"),
   * ARROW_FLAG_MAP_KEYS_SORTED on a map, ARROW_FLAG_NULLABLE everywhere. */
  ARROW_LOGICAL_FLAGS = 1 << 2,
  /* With ARROW_LOGICAL_FLAGS: ARROW_FLAG_NULLABLE may be set where the
   * fixture has it clear (a library whose model has no non-nullable
   * columns widens them), never cleared where it is set. */
  ARROW_LOGICAL_NULLABLE_MAY_WIDEN = 1 << 3,
  /* Of the flags, ARROW_FLAG_DICTIONARY_ORDERED alone, where both sides
   * are dictionary-encoded: part of a dictionary's type, which a consumer
   * keeping the dictionary keeps (a decoded column has no place for it). */
  ARROW_LOGICAL_DICTIONARY_ORDERED = 1 << 4,
};

/* The schema compared on the types and the aspects asked (enum
 * arrow_logical_aspect).  0; ARROW_JSON_DIFFERENT_TYPES where the types
 * (or, asked, the names) differ; ARROW_JSON_DIFFERENT_DATA where an
 * aspect asked besides them differs; the difference in `err`. */
int arrow_logical_compare_schema_aspects(const struct arrow_json_file* file, const struct ArrowSchema* schema,
                                         int aspects, char* err, size_t err_size);

/* One column moved out of its batch (spec: "Moving child arrays"), read
 * by `schema`, its own schema as the library exported it (its column's
 * child of the batch's schema), compared with column `column` of the
 * fixture's batch `fixture_batch`: its name and logical type, the
 * structure of both, their rows.  Returns as
 * arrow_logical_compare_batches. */
int arrow_logical_compare_column(const struct arrow_json_file* file, int64_t fixture_batch, int64_t column,
                                 const struct ArrowSchema* schema, const struct ArrowArray* array, char* err,
                                 size_t err_size);

/* Two arrays of one schema node (`schema`), compared by value as the
 * export is compared with a fixture (clauses 5 and 6): `array` and what
 * it should still hold, `expected` (an array of the same library made
 * apart, such as a fresh export of the same data).  Returns as
 * arrow_logical_compare_batches, the differences of `expected` itself
 * marked "fixture: ". */
int arrow_logical_compare_arrays(const struct ArrowSchema* schema, const struct ArrowArray* array,
                                 const struct ArrowArray* expected, char* err, size_t err_size);

/* A dictionary's values moved out of dictionary-encoded column `column`,
 * read by `schema` (the column schema's `dictionary`), compared with the
 * fixture's dictionary of that column.  Returns as
 * arrow_logical_compare_batches. */
int arrow_logical_compare_dictionary(const struct arrow_json_file* file, int64_t column,
                                     const struct ArrowSchema* schema, const struct ArrowArray* array,
                                     char* err, size_t err_size);

/* The representation changes of a schema logically equal to the fixture's
 * (clause 1: its names and metadata are not read): one line per node whose
 * own representation differs from the fixture's, nested nodes included,
 * each naming its path, in the fixture's order:
 *   column 's': utf8 (u) exported as utf8view (vu)
 *   column 'd': dictionary-encoded utf8 (u) with int8 (c) indices exported
 *     as dictionary-encoded utf8 (u) with uint32 (I) indices
 *   column 'd': dictionary-encoded utf8 (u) with int8 (c) indices exported
 *     decoded
 *   column 'r': run-end encoded int32 (i) with int16 (s) run ends exported
 *     plain
 *   column 'l' > item: utf8 (u) exported as largeutf8 (U)
 * ("exported decoded as ..." where the decoded type is itself another
 * representation).  Written to `out` (`size` bytes, NUL-terminated, lines
 * cut where it is full), each line ended by '\n'.  Returns how many
 * changes there are (0: the export keeps the fixture's representation), or
 * -1 when the schema's types are not logically the fixture's, with that
 * difference written to `out` as arrow_logical_compare_schema writes it. */
int arrow_logical_describe_changes(const struct arrow_json_file* file, const struct ArrowSchema* schema,
                                   char* out, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* ADC_ARROW_LOGICAL_H */
