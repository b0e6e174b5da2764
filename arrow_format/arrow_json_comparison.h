/* What the schema and array comparisons share: where they are in the tree,
 * and how a difference is written. */
#ifndef ARROW_JSON_COMPARISON_H
#define ARROW_JSON_COMPARISON_H

#include <stddef.h>

#include "arrow_format/arrow_json.h"

struct comparison {
  const struct arrow_json_file* file;
  char* err;
  size_t err_size;
  char path[256];
  enum arrow_json_difference difference; /* what the first difference was */
};

/* Writes "<path>: <message>" as the difference; returns -1. */
int comparison_differ(struct comparison* c, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Appends " > <what> '<name>'" (or " > <what>" for a NULL name) to the path
 * and returns the mark comparison_pop takes back to. */
/* The same for a difference of layout (`what`: counts or dictionary). */
int comparison_layout_differ(struct comparison* c, enum arrow_json_difference what, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* What a comparison returns: 0, or the kind of its first difference. */
int comparison_result(const struct comparison* c, int status);
size_t comparison_push(struct comparison* c, const char* what, const char* name);
void comparison_pop(struct comparison* c, size_t mark);

#endif /* ARROW_JSON_COMPARISON_H */
