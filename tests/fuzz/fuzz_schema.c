#include "fuzz_schema.h"

#include <string.h>

/* How deep a tree may go: deeper than any fixture, shallow enough to stay fast. */
#define MAX_DEPTH 5

/* What the fixture has at a node's place; everything NULL/0 where it has
 * nothing (a child the fixture does not have). */
struct expected {
  const char* format;
  const char* name;
  int64_t flags;
  const struct arrow_json_field* children;
  int64_t n_children;
  const struct arrow_json_type* dictionary; /* the values' type, for a dictionary-encoded field */
};

struct builder {
  struct fuzz_bytes* in;
  struct fuzz_arena* arena;
};

static void release_nothing(struct ArrowSchema* schema) {
  /* The arena frees the blocks; a release still marks the schema released. */
  schema->release = NULL;
}

static char* copy_text(struct builder* b, const char* text) {
  size_t size = strlen(text) + 1;
  char* copy = fuzz_alloc(b->arena, size);
  memcpy(copy, text, size);
  return copy;
}

/* 0 to 8 arbitrary bytes, NUL-terminated (a NUL inside ends it early). */
static char* garbage_text(struct builder* b) {
  size_t length = (size_t)fuzz_range(b->in, 0, 8);
  char* text = fuzz_alloc(b->arena, length + 1);
  fuzz_fill(b->in, text, length);
  text[length] = '\0';
  return text;
}

static const char* const formats[] = {
    /* the fixtures' types */
    "i", "u", "l", "c", "s", "+s", "C", "S", "I", "L",
    /* others, valid and not */
    "U", "z", "+l", "+w:3", "d:10,2", "tss:UTC", "n", "", "+", "+s+s", "ii", "\xff"};

static const char* pick_format(struct builder* b, const char* expected) {
  size_t n = sizeof(formats) / sizeof(formats[0]);
  size_t choice = fuzz_byte(b->in) % (n + 3);
  if (choice < n) return copy_text(b, formats[choice]);
  if (choice == n) return NULL;
  if (choice == n + 1 && expected != NULL) return copy_text(b, expected);
  return garbage_text(b);
}

static const char* pick_name(struct builder* b) {
  switch (fuzz_byte(b->in) % 4) {
    case 0:
      return NULL;
    case 1:
      return copy_text(b, "");
    case 2:
      return copy_text(b, "a");
    default:
      return garbage_text(b);
  }
}

/* A well-formed metadata map (spec: "Metadata"): int32 pair count, then
 * each key and value as an int32 length and its bytes. */
static const char* metadata_map(struct builder* b) {
  int32_t pairs = (int32_t)fuzz_range(b->in, 0, 2);
  int32_t lengths[4];
  size_t size = sizeof(int32_t);
  for (int32_t i = 0; i < 2 * pairs; i++) {
    lengths[i] = (int32_t)fuzz_range(b->in, 0, 6);
    size += sizeof(int32_t) + (size_t)lengths[i];
  }
  char* map = fuzz_alloc(b->arena, size);
  char* at = map;
  memcpy(at, &pairs, sizeof(pairs));
  at += sizeof(pairs);
  for (int32_t i = 0; i < 2 * pairs; i++) {
    memcpy(at, &lengths[i], sizeof(int32_t));
    at += sizeof(int32_t);
    fuzz_fill(b->in, at, (size_t)lengths[i]);
    at += lengths[i];
  }
  return map;
}

static struct expected expect_field(const struct arrow_json_field* field) {
  struct expected e = {0};
  if (field == NULL) return e;
  e.format = arrow_json_format(field->is_dictionary ? &field->index_type : &field->type);
  e.name = field->name;
  e.flags = (field->nullable ? ARROW_FLAG_NULLABLE : 0) |
            (field->dictionary_ordered ? ARROW_FLAG_DICTIONARY_ORDERED : 0);
  e.children = field->children;
  e.n_children = field->n_children;
  e.dictionary = field->is_dictionary ? &field->type : NULL;
  return e;
}

static struct ArrowSchema* build_node(struct builder* b, const struct expected* e, int depth) {
  struct ArrowSchema* schema = fuzz_zalloc(b->arena, sizeof(*schema));
  /* One byte says which members depart from the fixture; a 0 byte (or
   * the end of the input) imitates it in every member. */
  uint8_t departs = fuzz_byte(b->in);
  bool known = e->format != NULL;

  schema->format = known && !(departs & 1) ? e->format : pick_format(b, e->format);
  schema->name = known && !(departs & 2) ? e->name : pick_name(b);
  if (known && !(departs & 4)) {
    schema->flags = e->flags;
  } else {
    static const int64_t odd_flags[] = {0,
                                        ARROW_FLAG_NULLABLE,
                                        ARROW_FLAG_DICTIONARY_ORDERED,
                                        ARROW_FLAG_MAP_KEYS_SORTED,
                                        7,
                                        -1,
                                        INT64_MIN,
                                        1 << 20};
    schema->flags = fuzz_pick(b->in, odd_flags, sizeof(odd_flags) / sizeof(odd_flags[0]));
  }
  if (departs & 8) schema->metadata = metadata_map(b);

  schema->n_children = known && !(departs & 16) ? e->n_children : fuzz_range(b->in, 0, 3);
  if (depth >= MAX_DEPTH) schema->n_children = 0;
  if (schema->n_children > 0 && !(departs & 32 && fuzz_byte(b->in) % 4 == 0)) {
    schema->children = fuzz_zalloc(b->arena, (size_t)schema->n_children * sizeof(*schema->children));
    for (int64_t i = 0; i < schema->n_children; i++) {
      struct expected child = expect_field(i < e->n_children ? &e->children[i] : NULL);
      /* A NULL child now and then, where the byte says so. */
      if (departs & 32 && fuzz_byte(b->in) % 8 == 0) continue;
      schema->children[i] = build_node(b, &child, depth + 1);
    }
  }

  bool with_dictionary = (e->dictionary != NULL) != ((departs & 64) != 0);
  if (with_dictionary && depth < MAX_DEPTH) {
    struct expected values = {0};
    if (e->dictionary != NULL) {
      values.format = arrow_json_format(e->dictionary);
      values.name = "";
    }
    schema->dictionary = build_node(b, &values, depth + 1);
  }
  schema->release = departs & 128 && fuzz_byte(b->in) % 8 == 0 ? NULL : release_nothing;
  return schema;
}

struct ArrowSchema* fuzz_schema_for_file(struct fuzz_bytes* in, struct fuzz_arena* arena,
                                         const struct arrow_json_file* file) {
  struct builder b = {in, arena};
  struct expected batch = {
      .format = "+s", .name = "", .children = file->fields, .n_children = file->n_fields};
  return build_node(&b, &batch, 0);
}
