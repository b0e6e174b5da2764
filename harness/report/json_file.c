#include "report/json_file.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

cJSON* adc_read_json_file(const char* path, struct adc_error* error) {
  FILE* f = fopen(path, "rb");
  if (f == NULL) {
    adc_fail(error, "cannot read '%s': %s", path, strerror(errno));
    return NULL;
  }
  size_t size = 0;
  size_t capacity = 65536;
  char* text = malloc(capacity);
  size_t n;
  while (text != NULL && (n = fread(text + size, 1, capacity - size - 1, f)) > 0) {
    size += n;
    if (capacity - size < 2) {
      char* bigger = realloc(text, capacity *= 2);
      if (bigger == NULL) free(text);
      text = bigger;
    }
  }
  bool failed = ferror(f) != 0;
  fclose(f);
  if (text == NULL) {
    adc_fail(error, "out of memory reading '%s'", path);
    return NULL;
  }
  if (failed) {
    free(text);
    adc_fail(error, "cannot read '%s'", path);
    return NULL;
  }
  text[size] = '\0';
  cJSON* json = cJSON_ParseWithLength(text, size);
  free(text);
  if (json == NULL) adc_fail(error, "'%s' is not JSON", path);
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
