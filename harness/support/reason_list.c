#include "support/reason_list.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void append(struct adc_reason_list* list, char* line) {
  if (list->count == list->capacity) {
    size_t capacity = list->capacity == 0 ? 16 : 2 * list->capacity;
    char** lines = realloc(list->lines, capacity * sizeof(*lines));
    if (lines == NULL) {
      free(line);
      return;
    }
    list->lines = lines;
    list->capacity = capacity;
  }
  list->lines[list->count++] = line;
}

void adc_reason_add(struct adc_reason_list* list, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int length = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char* line = length < 0 ? NULL : malloc((size_t)length + 1);
  if (line == NULL) {
    /* Never lose the fact that a check failed, even without its words. */
    line = strdup("out of memory");
    if (line != NULL) append(list, line);
    return;
  }
  va_start(ap, fmt);
  vsnprintf(line, (size_t)length + 1, fmt, ap);
  va_end(ap);
  append(list, line);
}

void adc_reason_list_free(struct adc_reason_list* list) {
  for (size_t i = 0; i < list->count; i++) free(list->lines[i]);
  free(list->lines);
  memset(list, 0, sizeof(*list));
}
