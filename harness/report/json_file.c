#include "report/json_file.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The whole of the file at `path`, NUL-terminated (the caller frees it);
 * NULL with the reason. */
static char* read_whole_file(const char* path, struct adc_error* error) {
  FILE* f = fopen(path, "rb");
  if (f == NULL) {
    adc_fail(error, "cannot read '%s': %s", path, strerror(errno));
    return NULL;
  }
  size_t capacity = 1 << 16, length = 0;
  char* text = malloc(capacity);
  while (text != NULL) {
    length += fread(text + length, 1, capacity - length - 1, f);
    if (length < capacity - 1) break;
    char* bigger = realloc(text, capacity * 2);
    if (bigger == NULL) free(text);
    text = bigger;
    capacity *= 2;
  }
  bool failed = ferror(f) != 0;
  fclose(f);
  if (text == NULL || failed) {
    free(text);
    adc_fail(error, text == NULL ? "out of memory reading '%s'" : "cannot read '%s'", path);
    return NULL;
  }
  text[length] = '\0';
  return text;
}

cJSON* adc_read_json_file(const char* path, struct adc_error* error) {
  char* text = read_whole_file(path, error);
  if (text == NULL) return NULL;
  const char* parse_end = NULL;
  cJSON* json = cJSON_ParseWithOpts(text, &parse_end, true);
  if (json == NULL) {
    size_t offset = parse_end != NULL && parse_end >= text ? (size_t)(parse_end - text) : 0;
    adc_fail(error, "'%s' is not JSON (malformed or truncated near byte %zu)", path, offset);
  }
  free(text);
  return json;
}

int adc_write_json_file(const char* path, const cJSON* json, struct adc_error* error) {
  char* text = cJSON_Print(json);
  if (text == NULL) return adc_fail(error, "out of memory writing '%s'", path);
  FILE* f = fopen(path, "w");
  if (f == NULL) {
    free(text);
    return adc_fail(error, "cannot write '%s': %s", path, strerror(errno));
  }
  fputs(text, f);
  fputc('\n', f);
  free(text);
  if (fclose(f) != 0) return adc_fail(error, "cannot write '%s'", path);
  return 0;
}
