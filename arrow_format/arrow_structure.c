/* The structural checks (arrow_structure.h): one walk over every node of an
 * array, its children and its dictionary, typed by the fixture's fields;
 * what each layout constrains comes from its row of the layout table
 * (arrow_layout.h) and the checks below, one function per family. */
#include "arrow_format/arrow_structure.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "arrow_format/arrow_json_comparison.h"

#define ARROW_STRUCTURE_INFO(id, key, name, checks, clause, sentence) \
  [ARROW_STRUCTURE_##id] = {key, name, checks, clause, sentence},
const struct arrow_structure_family_info arrow_structure_families[ARROW_STRUCTURE_FAMILY_COUNT] = {
    ARROW_STRUCTURE_FAMILIES(ARROW_STRUCTURE_INFO)};
#undef ARROW_STRUCTURE_INFO

/* Whether the family constrains arrays of `layout`. */
static bool constrains(enum arrow_structure_family family, enum arrow_layout_id layout) {
  switch (family) {
    case ARROW_STRUCTURE_OFFSETS:
      return layout == ARROW_LAYOUT_BINARY || layout == ARROW_LAYOUT_LARGE_BINARY ||
             layout == ARROW_LAYOUT_LIST || layout == ARROW_LAYOUT_LARGE_LIST || layout == ARROW_LAYOUT_MAP;
    case ARROW_STRUCTURE_LIST_VIEW_RANGES:
      return layout == ARROW_LAYOUT_LIST_VIEW || layout == ARROW_LAYOUT_LARGE_LIST_VIEW;
    case ARROW_STRUCTURE_CHILD_LENGTHS:
      return layout == ARROW_LAYOUT_STRUCT || layout == ARROW_LAYOUT_SPARSE_UNION ||
             layout == ARROW_LAYOUT_FIXED_SIZE_LIST;
    case ARROW_STRUCTURE_RUN_ENDS:
      return layout == ARROW_LAYOUT_RUN_END_ENCODED;
    case ARROW_STRUCTURE_UNION_SLOTS:
      return layout == ARROW_LAYOUT_SPARSE_UNION || layout == ARROW_LAYOUT_DENSE_UNION;
    case ARROW_STRUCTURE_VIEWS:
      return layout == ARROW_LAYOUT_BINARY_VIEW;
    case ARROW_STRUCTURE_DICTIONARY_INDEXES:
    case ARROW_STRUCTURE_FAMILY_COUNT:
      break;
  }
  return false;
}

static bool field_applies(const struct arrow_json_field* field, enum arrow_structure_family family) {
  if (field->is_dictionary && family == ARROW_STRUCTURE_DICTIONARY_INDEXES) return true;
  if (constrains(family, field->type.layout)) return true;
  for (int64_t i = 0; i < field->n_children; i++) {
    if (field_applies(&field->children[i], family)) return true;
  }
  return false;
}

bool arrow_structure_applies(const struct arrow_json_file* file, enum arrow_structure_family family) {
  for (int64_t i = 0; i < file->n_fields; i++) {
    if (field_applies(&file->fields[i], family)) return true;
  }
  return false;
}

/* One walk: where it is (the comparison's path), what it found. */
struct walk {
  struct comparison at;
  struct arrow_structure_findings* findings;
};

static void breach(struct walk* w, enum arrow_structure_family family, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* The first breach of each family is kept: "<path>: <what>". */
static void breach(struct walk* w, enum arrow_structure_family family, const char* fmt, ...) {
  if (w->findings->found[family]) return;
  w->findings->found[family] = true;
  char* out = w->findings->message[family];
  size_t size = sizeof(w->findings->message[family]);
  int n = snprintf(out, size, "%s%s", w->at.path, w->at.path[0] ? ": " : "");
  if (n < 0 || (size_t)n >= size) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(out + n, size - (size_t)n, fmt, ap);
  va_end(ap);
}

/* A node that cannot be read as its type (the layout and data rules'
 * business): nothing at or below it is read. */
static int unreadable(struct walk* w, const char* what) {
  if (!w->findings->unreadable) {
    w->findings->unreadable = true;
    snprintf(w->findings->unreadable_message, sizeof(w->findings->unreadable_message), "%s%s%s", w->at.path,
             w->at.path[0] ? ": " : "", what);
  }
  return -1;
}

/* Slot `slot` of an array of a layout with a validity buffer. */
static bool slot_is_valid(const struct ArrowArray* array, int64_t slot) {
  if (array->buffers[0] == NULL) return true;
  int64_t i = array->offset + slot;
  return (((const uint8_t*)array->buffers[0])[i >> 3] >> (i & 7)) & 1;
}

static int64_t offset_at(const struct ArrowArray* array, int buffer, int width, int64_t slot) {
  return arrow_json_load_int(array->buffers[buffer], width * 8, true, array->offset + slot);
}

/* Binaries, lists and maps: offsets[offset .. offset + length] never
 * negative and never decreasing (null slots too); a list's last offset
 * within its child. */
static void check_offsets(struct walk* w, const struct ArrowArray* array, int width, int64_t limit) {
  if (array->length == 0 && array->buffers[1] == NULL) return; /* nothing to read */
  int64_t previous = offset_at(array, 1, width, 0);
  if (previous < 0) {
    breach(w, ARROW_STRUCTURE_OFFSETS, "slot 0 starts at offset %" PRId64 ", below 0", previous);
    return;
  }
  for (int64_t slot = 1; slot <= array->length; slot++) {
    int64_t current = offset_at(array, 1, width, slot);
    if (current < previous) {
      breach(w, ARROW_STRUCTURE_OFFSETS,
             "offset %" PRId64 " (end of slot %" PRId64 ") is below the one before it, %" PRId64
             ": offsets must never decrease",
             current, slot - 1, previous);
      return;
    }
    previous = current;
  }
  if (limit >= 0 && previous > limit) {
    breach(w, ARROW_STRUCTURE_OFFSETS,
           "the last offset, %" PRId64 ", is past the end of the child (length %" PRId64 ")", previous,
           limit);
  }
}

/* List views: every slot, null ones included. */
static void check_list_view(struct walk* w, const struct ArrowArray* array, int width, int64_t child_length) {
  for (int64_t slot = 0; slot < array->length; slot++) {
    int64_t start = offset_at(array, 1, width, slot);
    int64_t size = offset_at(array, 2, width, slot);
    if (start < 0 || size < 0 || start > child_length || size > child_length - start) {
      breach(w, ARROW_STRUCTURE_LIST_VIEW_RANGES,
             "slot %" PRId64 " has offset %" PRId64 " and size %" PRId64
             ", outside its child of length %" PRId64,
             slot, start, size, child_length);
      return;
    }
  }
}

static void check_child_length(struct walk* w, const struct ArrowArray* child, const char* name,
                               int64_t needed, const char* why) {
  if (child->length < needed) {
    breach(w, ARROW_STRUCTURE_CHILD_LENGTHS, "child '%s' has length %" PRId64 ", %s needs %" PRId64, name,
           child->length, why, needed);
  }
}

/* The child of `type` with type id `id`, or -1. */
static int64_t union_child(const struct arrow_json_type* type, int id) {
  for (int64_t i = 0; i < type->n_type_ids; i++) {
    if (type->type_ids[i] == id) return i;
  }
  return -1;
}

/* Unions: every slot's type id a declared one; a dense union's offsets
 * within their child and, per child, never decreasing. */
static void check_union(struct walk* w, const struct arrow_json_type* type, const struct ArrowArray* array) {
  int64_t last_offset[128];
  for (int i = 0; i < 128; i++) last_offset[i] = 0;
  bool dense = type->layout == ARROW_LAYOUT_DENSE_UNION;
  for (int64_t slot = 0; slot < array->length; slot++) {
    int8_t id = ((const int8_t*)array->buffers[0])[array->offset + slot];
    int64_t child = union_child(type, id);
    if (child < 0) {
      breach(w, ARROW_STRUCTURE_UNION_SLOTS,
             "slot %" PRId64 " has type id %d, which the union does not declare", slot, id);
      return;
    }
    if (!dense) continue;
    int64_t offset = ((const int32_t*)array->buffers[1])[array->offset + slot];
    int64_t length = array->children[child]->length;
    if (offset < 0 || offset >= length) {
      breach(w, ARROW_STRUCTURE_UNION_SLOTS,
             "slot %" PRId64 " points at row %" PRId64 " of child %" PRId64 ", which has %" PRId64 " rows",
             slot, offset, child, length);
      return;
    }
    if (offset < last_offset[child]) {
      breach(w, ARROW_STRUCTURE_UNION_SLOTS,
             "slot %" PRId64 " points at row %" PRId64 " of child %" PRId64 ", before row %" PRId64
             " an earlier slot points at: a child's offsets must not decrease",
             slot, offset, child, last_offset[child]);
      return;
    }
    last_offset[child] = offset;
  }
}

/* Run-end encoded: the run ends child non-null, positive and strictly
 * increasing, the last covering the parent's offset + length; the values
 * at least as long as the run ends. */
static void check_run_ends(struct walk* w, const struct arrow_json_field* field,
                           const struct ArrowArray* array) {
  const struct ArrowArray* ends = array->children[0];
  const struct ArrowArray* values = array->children[1];
  int width = arrow_json_storage_type(&field->children[0])->bit_width;
  /* Read only as an integer array with its two buffers; otherwise its own
   * walk reports it unreadable. */
  if (ends->n_buffers != 2 || ends->buffers == NULL || ends->offset < 0 || ends->length < 0) return;
  if (ends->null_count > 0 || ends->buffers[0] != NULL) {
    for (int64_t i = 0; i < ends->length; i++) {
      if (!slot_is_valid(ends, i)) {
        breach(w, ARROW_STRUCTURE_RUN_ENDS, "run end %" PRId64 " is null", i);
        return;
      }
    }
  }
  if (ends->length > 0 && ends->buffers[1] == NULL) return; /* the data rule's */
  int64_t previous = 0;
  for (int64_t i = 0; i < ends->length; i++) {
    int64_t end = arrow_json_load_int(ends->buffers[1], width, true, ends->offset + i);
    if (end <= previous) {
      breach(w, ARROW_STRUCTURE_RUN_ENDS,
             "run end %" PRId64 " is %" PRId64 ", not above %" PRId64 " (%s): a run is never empty", i, end,
             previous, i == 0 ? "the start" : "the run end before it");
      return;
    }
    previous = end;
  }
  if (array->length > 0 && previous < array->offset + array->length) {
    breach(w, ARROW_STRUCTURE_RUN_ENDS,
           "the last run ends at %" PRId64 ", before the array's offset + length, %" PRId64, previous,
           array->offset + array->length);
    return;
  }
  if (values->length < ends->length) {
    breach(w, ARROW_STRUCTURE_RUN_ENDS, "%" PRId64 " run ends but %" PRId64 " values", ends->length,
           values->length);
  }
}

/* Binary views, valid slots (a null slot's view is not read). */
static void check_views(struct walk* w, const struct ArrowArray* array) {
  int64_t n_variadic = array->n_buffers - 3;
  const int64_t* sizes = array->buffers[array->n_buffers - 1];
  for (int64_t slot = 0; slot < array->length; slot++) {
    if (!slot_is_valid(array, slot)) continue;
    const uint8_t* view = (const uint8_t*)array->buffers[1] + (array->offset + slot) * 16;
    int32_t length, index, offset;
    memcpy(&length, view, 4);
    if (length < 0) {
      breach(w, ARROW_STRUCTURE_VIEWS, "slot %" PRId64 " has length %" PRId32, slot, length);
      return;
    }
    if (length <= 12) {
      for (int i = 4 + length; i < 16; i++) {
        if (view[i] != 0) {
          breach(w, ARROW_STRUCTURE_VIEWS,
                 "slot %" PRId64 " is inline with %" PRId32
                 " bytes, and its byte %d after them is 0x%02x, not 0",
                 slot, length, i, view[i]);
          return;
        }
      }
      continue;
    }
    memcpy(&index, view + 8, 4);
    memcpy(&offset, view + 12, 4);
    if (index < 0 || index >= n_variadic || sizes == NULL || offset < 0 ||
        (int64_t)offset + length > sizes[index]) {
      breach(w, ARROW_STRUCTURE_VIEWS,
             "slot %" PRId64 " reaches bytes %" PRId32 " to %" PRId64 " of variadic buffer %" PRId32
             ", outside its %" PRId64 " buffers%s",
             slot, offset, (int64_t)offset + length, index, n_variadic,
             index >= 0 && index < n_variadic && sizes != NULL ? " and their sizes" : "");
      return;
    }
    const uint8_t* data = array->buffers[2 + index];
    if (data != NULL && memcmp(view + 4, data + offset, 4) != 0) {
      breach(w, ARROW_STRUCTURE_VIEWS, "slot %" PRId64 "'s prefix is not the first 4 bytes of its data",
             slot);
      return;
    }
  }
}

static void check_dictionary_indexes(struct walk* w, const struct arrow_json_type* index_type,
                                     const struct ArrowArray* array) {
  int64_t n_values = array->dictionary->length;
  for (int64_t slot = 0; slot < array->length; slot++) {
    if (!slot_is_valid(array, slot)) continue;
    int64_t index = arrow_json_load_int(array->buffers[1], index_type->bit_width, index_type->is_signed,
                                        array->offset + slot);
    if (index < 0 || index >= n_values) {
      breach(w, ARROW_STRUCTURE_DICTIONARY_INDEXES,
             "slot %" PRId64 " has index %" PRId64 ", outside the dictionary's %" PRId64 " values", slot,
             index, n_values);
      return;
    }
  }
}

static int check_node(struct walk* w, const struct arrow_json_field* field,
                      const struct arrow_json_type* type, const struct ArrowArray* array);

/* The members a node's type says it has, before any buffer is read. */
static int readable(struct walk* w, const struct arrow_json_field* field, const struct arrow_json_type* type,
                    const struct ArrowArray* array) {
  if (array->offset < 0 || array->length < 0 || array->offset > INT64_MAX - array->length)
    return unreadable(w, "offset or length negative or too large");
  int64_t n_variadic = 0;
  if (type->layout == ARROW_LAYOUT_BINARY_VIEW) {
    if (array->n_buffers < 3) return unreadable(w, "a binary view with fewer than 3 buffers");
    n_variadic = array->n_buffers - 3;
  }
  int64_t n_buffers = arrow_layout_buffer_count(type->layout, n_variadic);
  if (array->n_buffers != n_buffers || (n_buffers > 0 && array->buffers == NULL))
    return unreadable(w, "buffers not those of its type");
  bool indices = field->is_dictionary && type == &field->index_type;
  int64_t n_children = arrow_layout_of(type->layout)->n_children;
  if (n_children < 0) n_children = field->n_children;
  if (indices) n_children = 0;
  if (array->n_children != n_children || (n_children > 0 && array->children == NULL))
    return unreadable(w, "children not those of its type");
  for (int64_t i = 0; i < n_children; i++) {
    if (array->children[i] == NULL) return unreadable(w, "a child is NULL");
  }
  if (indices && (array->dictionary == NULL || array->dictionary == array))
    return unreadable(w, "a dictionary-encoded array without a dictionary of its own");
  /* Every buffer but the validity one is read below when there are rows
   * (a view's variadic ones, as its views point), but a binary's bytes,
   * which no check reads: rows that are all empty have none, and spec
   * (CDataInterface.rst, "buffers"): a buffer pointer "MAY be null ... if
   * the size in bytes of the corresponding buffer would be 0". */
  if (array->length > 0) {
    for (int64_t i = 0; i < n_buffers; i++) {
      enum arrow_buffer_role role = arrow_layout_buffer_role(type->layout, i, n_buffers);
      bool read = role != ARROW_BUFFER_VALIDITY && role != ARROW_BUFFER_VARIADIC && role != ARROW_BUFFER_DATA;
      if (read && array->buffers[i] == NULL) return unreadable(w, "a buffer it needs is NULL");
    }
  }
  return 0;
}

static int check_child(struct walk* w, const struct arrow_json_field* child, const struct ArrowArray* array) {
  size_t mark = comparison_push(&w->at, "child", child->name);
  int result = check_node(w, child, arrow_json_storage_type(child), array);
  comparison_pop(&w->at, mark);
  return result;
}

static int check_node(struct walk* w, const struct arrow_json_field* field,
                      const struct arrow_json_type* type, const struct ArrowArray* array) {
  if (readable(w, field, type, array) != 0) return -1;
  int64_t rows = array->offset + array->length;
  int width = arrow_layout_of(type->layout)->offset_bytes;
  switch (type->layout) {
    case ARROW_LAYOUT_BINARY:
    case ARROW_LAYOUT_LARGE_BINARY:
      check_offsets(w, array, width, -1);
      break;
    case ARROW_LAYOUT_LIST:
    case ARROW_LAYOUT_LARGE_LIST:
    case ARROW_LAYOUT_MAP:
      check_offsets(w, array, width, array->children[0]->length);
      break;
    case ARROW_LAYOUT_LIST_VIEW:
    case ARROW_LAYOUT_LARGE_LIST_VIEW:
      check_list_view(w, array, width, array->children[0]->length);
      break;
    case ARROW_LAYOUT_FIXED_SIZE_LIST:
      check_child_length(w, array->children[0], field->children[0].name, rows * type->list_size,
                         "(offset + length) x list size");
      break;
    case ARROW_LAYOUT_STRUCT:
    case ARROW_LAYOUT_SPARSE_UNION:
      for (int64_t i = 0; i < array->n_children; i++)
        check_child_length(w, array->children[i], field->children[i].name, rows,
                           "the parent's offset + length");
      if (type->layout == ARROW_LAYOUT_SPARSE_UNION) check_union(w, type, array);
      break;
    case ARROW_LAYOUT_DENSE_UNION:
      check_union(w, type, array);
      break;
    case ARROW_LAYOUT_RUN_END_ENCODED:
      check_run_ends(w, field, array);
      break;
    case ARROW_LAYOUT_BINARY_VIEW:
      check_views(w, array);
      break;
    case ARROW_LAYOUT_NULL:
    case ARROW_LAYOUT_BOOL:
    case ARROW_LAYOUT_FIXED_WIDTH:
    case ARROW_LAYOUT_COUNT:
      break;
  }
  bool indices = field->is_dictionary && type == &field->index_type;
  if (indices) {
    check_dictionary_indexes(w, type, array);
    struct arrow_json_field values = *field;
    values.is_dictionary = false;
    size_t mark = comparison_push(&w->at, "dictionary", NULL);
    check_node(w, &values, &field->type, array->dictionary);
    comparison_pop(&w->at, mark);
    return 0;
  }
  for (int64_t i = 0; i < array->n_children; i++) check_child(w, &field->children[i], array->children[i]);
  return 0;
}

static int families_found(const struct arrow_structure_findings* findings) {
  int n = 0;
  for (int f = 0; f < ARROW_STRUCTURE_FAMILY_COUNT; f++) n += findings->found[f];
  return n;
}

int arrow_structure_check_column(const struct arrow_json_field* field, const struct ArrowArray* column,
                                 struct arrow_structure_findings* findings) {
  memset(findings, 0, sizeof(*findings));
  struct walk w = {.findings = findings};
  comparison_push(&w.at, "column", field->name);
  check_node(&w, field, arrow_json_storage_type(field), column);
  return families_found(findings);
}

/* spec: "Record batches": a struct array of the columns. */
int arrow_structure_check_batch(const struct arrow_json_file* file, const struct ArrowArray* batch,
                                struct arrow_structure_findings* findings) {
  memset(findings, 0, sizeof(*findings));
  struct walk w = {.findings = findings};
  struct arrow_json_field record_batch = {.n_children = file->n_fields, .children = file->fields};
  static const struct arrow_type_row struct_row = {.kind = ARROW_JSON_STRUCT, .layout = ARROW_LAYOUT_STRUCT};
  record_batch.type =
      (struct arrow_json_type){.row = &struct_row, .kind = ARROW_JSON_STRUCT, .layout = ARROW_LAYOUT_STRUCT};
  if (readable(&w, &record_batch, &record_batch.type, batch) == 0) {
    for (int64_t i = 0; i < file->n_fields; i++) {
      check_child_length(&w, batch->children[i], file->fields[i].name, batch->offset + batch->length,
                         "the batch's offset + length");
      size_t mark = comparison_push(&w.at, "column", file->fields[i].name);
      check_node(&w, &file->fields[i], arrow_json_storage_type(&file->fields[i]), batch->children[i]);
      comparison_pop(&w.at, mark);
    }
  }
  return families_found(findings);
}

bool arrow_structure_refusal(const struct arrow_structure_findings* findings,
                             enum arrow_structure_family trusted, char* out, size_t size) {
  for (int f = 0; f < ARROW_STRUCTURE_FAMILY_COUNT; f++) {
    if (f == (int)trusted || !findings->found[f]) continue;
    snprintf(out, size, "the batch is not valid Arrow (%s): %s", arrow_structure_families[f].name,
             findings->message[f]);
    return true;
  }
  return false;
}
