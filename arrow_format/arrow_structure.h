/* Structural validity: the invariants of the Arrow columnar format
 * (Columnar.rst) that an array must keep whatever its values, checked on
 * every node of an exported array, and the edits that break one family of
 * them while the values every valid row reads stay the fixture's.
 *
 * A comparison with the fixture (arrow_json.h) reads only the rows that are
 * valid and reachable; an array can read back right through them and still
 * break the format where nobody reads (the offsets of a null slot, a
 * struct's child shorter than the struct where its last rows are null, an
 * empty run), and a consumer that trusts the format then reads out of
 * bounds.  These checks read every slot the format constrains.
 *
 * Each invariant belongs to one family; the rules (spec-tests/
 * rules_structure.c) judge a family each, and the deliberately broken
 * producers and the consumer feed break one family each with
 * arrow_structure_break.  The families and the sentences they enforce are
 * written once, in ARROW_STRUCTURE_FAMILIES. */
#ifndef ADC_ARROW_STRUCTURE_H
#define ADC_ARROW_STRUCTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arrow_format/arrow_json.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The families, written once: X(ENUM, key, name, checks, clause,
 * sentence).  `key` names the family in rule IDs
 * ("array.structure.offsets"), `name` in messages, `checks` says what is
 * checked; `clause` is the section of Columnar.rst whose `sentence` the
 * family enforces.  The enum, arrow_structure_families and the rule
 * tables (spec-tests/) derive from it. */
#define ARROW_STRUCTURE_FAMILIES(X)                                                                          \
  X(OFFSETS, "offsets", "offsets",                                                                           \
    "binaries, lists and maps: every offset from the array's offset to offset + length not negative and "    \
    "not "                                                                                                   \
    "below the one before it, null slots included; a list's or map's last offset within its child",          \
    "Variable-size Binary Layout",                                                                           \
    "Offsets must be monotonically increasing, that is offsets[j+1] >= offsets[j] for 0 <= j < length, "     \
    "even for "                                                                                              \
    "null slots.")                                                                                           \
  X(LIST_VIEW_RANGES, "list_view_ranges", "list-view ranges",                                                \
    "list views: every slot's offset, size and offset + size between 0 and the child's length, null slots "  \
    "included",                                                                                              \
    "ListView Layout",                                                                                       \
    "Every list-view value, including null values, has to guarantee the following invariants: 0 <= "         \
    "offsets[i] "                                                                                            \
    "<= length of the child array; 0 <= offsets[i] + size[i] <= length of the child array")                  \
  X(CHILD_LENGTHS, "child_lengths", "child lengths",                                                         \
    "struct and sparse union children at least as long as the parent's offset + length, a fixed-size "       \
    "list's "                                                                                                \
    "child (offset + length) x list size",                                                                   \
    "Sparse Union", "In this case, the child arrays are each equal in length to the length of the union.")   \
  X(RUN_ENDS, "run_ends", "run ends",                                                                        \
    "run-end encoded arrays: run ends non-null, positive and strictly increasing, the last at least the "    \
    "parent's offset + length, and at least as many values as run ends",                                     \
    "Run-End Encoded Layout",                                                                                \
    "A run must have a length of at least 1. This means the values in the run ends array all are positive "  \
    "and "                                                                                                   \
    "in strictly ascending order. A run end cannot be null.")                                                \
  X(UNION_SLOTS, "union_slots", "union type ids and offsets",                                                \
    "unions: every slot's type id one the type declares; a dense union's offsets within their child and, "   \
    "per "                                                                                                   \
    "child, never decreasing",                                                                               \
    "Dense Union",                                                                                           \
    "Each type in the union has a corresponding type id whose values are found in this buffer. ... The "     \
    "respective offsets for each child value array must be in order / increasing.")                          \
  X(VIEWS, "views", "views",                                                                                 \
    "binary and string views, valid slots: length not negative, an inline view's bytes after its data "      \
    "zero, an "                                                                                              \
    "out-of-line view's buffer index and offset + length within its variadic buffer and its prefix the "     \
    "first 4 "                                                                                               \
    "bytes of its data",                                                                                     \
    "Variable-size Binary View Layout",                                                                      \
    "Any remaining bytes after the string itself are padded with 0. ... The half-open range [offset, "       \
    "offset + "                                                                                              \
    "length) must be entirely contained within the indicated buffer. A copy of the first four bytes of the " \
    "string is stored inline in the prefix")                                                                 \
  X(DICTIONARY_INDEXES, "dictionary_indexes", "dictionary indexes",                                          \
    "dictionary-encoded arrays, valid slots: every index at least 0 and below the dictionary's length",      \
    "Dictionary-encoded Layout",                                                                             \
    "When a field is dictionary encoded, the values are represented by an array of non-negative integers "   \
    "representing the index of the value in the dictionary.")

#define ARROW_STRUCTURE_ENUM(id, key, name, checks, clause, sentence) ARROW_STRUCTURE_##id,
enum arrow_structure_family { ARROW_STRUCTURE_FAMILIES(ARROW_STRUCTURE_ENUM) ARROW_STRUCTURE_FAMILY_COUNT };
#undef ARROW_STRUCTURE_ENUM

struct arrow_structure_family_info {
  const char* key;      /* "offsets" */
  const char* name;     /* "offsets" */
  const char* checks;   /* what is checked, for messages and methods */
  const char* clause;   /* the section of Columnar.rst */
  const char* sentence; /* the sentence of the format it enforces */
};

extern const struct arrow_structure_family_info arrow_structure_families[ARROW_STRUCTURE_FAMILY_COUNT];

/* Whether `file` has a node (at any depth, dictionaries included) of a
 * layout the family constrains. */
bool arrow_structure_applies(const struct arrow_json_file* file, enum arrow_structure_family family);

/* What a check found: per family, whether a breach was found and the first
 * one, naming the column (its path), the slot and the invariant.  When a
 * node's buffers or children do not match its type (the layout rule's
 * business), that node and what is below it are not read: `unreadable`
 * says where. */
struct arrow_structure_findings {
  bool found[ARROW_STRUCTURE_FAMILY_COUNT];
  char message[ARROW_STRUCTURE_FAMILY_COUNT][400];
  bool unreadable;
  char unreadable_message[400];
};

/* Checks every node of `batch`, a record batch of `file`'s fields (a
 * struct array of its columns, with their dictionaries), whose buffers the
 * CPU can read (in place, or a host mirror: arrow_json_mirror.h).  Fills
 * `findings` (zeroed first); returns the number of families breached. */
int arrow_structure_check_batch(const struct arrow_json_file* file, const struct ArrowArray* batch,
                                struct arrow_structure_findings* findings);
/* The same for one column of `field` (its dictionary included). */
int arrow_structure_check_column(const struct arrow_json_field* field, const struct ArrowArray* column,
                                 struct arrow_structure_findings* findings);

/* What a consumer that checks structure says of `findings`: "the batch is
 * not valid Arrow (<family>): <where and what>", for the first family
 * found, `trusted` left out (ARROW_STRUCTURE_FAMILY_COUNT: none), written
 * to `out`; false, `out` untouched, when no other family is breached. */
bool arrow_structure_refusal(const struct arrow_structure_findings* findings,
                             enum arrow_structure_family trusted, char* out, size_t size);

/* Changes batch `batch` of `file` in place so that its arrays break
 * `family` where no valid row reads (a null slot's offsets, a child's tail
 * past the last valid row, an empty run, ...): the values every valid row
 * reads stay the fixture's, so only that family's rule can see it.
 * Returns whether the batch had a column the family applies to and was
 * changed. */
bool arrow_structure_break(struct arrow_json_file* file, int64_t batch, enum arrow_structure_family family);

#ifdef __cplusplus
}
#endif

#endif /* ADC_ARROW_STRUCTURE_H */
