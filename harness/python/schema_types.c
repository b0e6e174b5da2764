#include "schema_types.h"

#include <stdio.h>
#include <string.h>

static bool same_node(const struct ArrowSchema* a, const struct ArrowSchema* b, const char* path, int depth,
                      char* difference, size_t size) {
  if (depth > 64) {
    snprintf(difference, size, "%s: nested more than 64 deep", path);
    return false;
  }
  const char* fa = a->format != NULL ? a->format : "(null)";
  const char* fb = b->format != NULL ? b->format : "(null)";
  if (strcmp(fa, fb) != 0 || a->n_children != b->n_children ||
      (a->dictionary == NULL) != (b->dictionary == NULL)) {
    snprintf(difference, size, "%s: '%s'%s with %lld children where the schema has '%s'%s with %lld", path,
             fa, a->dictionary != NULL ? " (dictionary-encoded)" : "", (long long)a->n_children, fb,
             b->dictionary != NULL ? " (dictionary-encoded)" : "", (long long)b->n_children);
    return false;
  }
  char below[512];
  for (int64_t i = 0; i < a->n_children; i++) {
    if (a->children == NULL || b->children == NULL || a->children[i] == NULL || b->children[i] == NULL) {
      snprintf(difference, size, "%s: a child is NULL", path);
      return false;
    }
    const char* name = b->children[i]->name != NULL ? b->children[i]->name : "";
    if (depth == 0) {
      snprintf(below, sizeof(below), "column '%s'", name);
    } else {
      snprintf(below, sizeof(below), "%s > child '%s'", path, name);
    }
    if (!same_node(a->children[i], b->children[i], below, depth + 1, difference, size)) return false;
  }
  if (a->dictionary != NULL) {
    snprintf(below, sizeof(below), "%s > dictionary", path);
    return same_node(a->dictionary, b->dictionary, below, depth + 1, difference, size);
  }
  return true;
}

bool adc_same_schema_types(const struct ArrowSchema* batch, const struct ArrowSchema* schema,
                           char* difference, size_t size) {
  return same_node(batch, schema, "the batch", 0, difference, size);
}
