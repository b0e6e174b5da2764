#include "support/manifest.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int adc_manifest_write(const char* dir, const char* const* names, size_t n, struct adc_error* error) {
  char path[PATH_MAX];
  snprintf(path, sizeof(path), "%s/%s", dir, ADC_MANIFEST_NAME);
  /* Every digest first, so that a file that cannot be read leaves no
   * manifest that looks whole. */
  char(*digests)[ADC_SHA256_HEX_SIZE] = calloc(n == 0 ? 1 : n, sizeof(*digests));
  if (digests == NULL) return adc_fail(error, "out of memory");
  for (size_t i = 0; i < n; i++) {
    char file[PATH_MAX];
    snprintf(file, sizeof(file), "%s/%s", dir, names[i]);
    if (adc_sha256_file_hex(file, digests[i], error) != 0) {
      free(digests);
      return -1;
    }
  }
  FILE* f = fopen(path, "w");
  if (f == NULL) {
    free(digests);
    return adc_fail(error, "cannot write '%s': %s", path, strerror(errno));
  }
  for (size_t i = 0; i < n; i++) fprintf(f, "%s  %s\n", digests[i], names[i]);
  free(digests);
  if (fclose(f) != 0) return adc_fail(error, "cannot write '%s'", path);
  return 0;
}

/* A plain name of the bundle's folder: sha256sum would read a '/' as a
 * path and a leading '\' as an escaped name, neither of which a bundle
 * writes. */
static bool plain_name(const char* name) {
  return name[0] != '\0' && name[0] != '\\' && strchr(name, '/') == NULL && strcmp(name, ".") != 0 &&
         strcmp(name, "..") != 0;
}

/* One line without its newline into `entry`; false when malformed. */
static bool parse_line(const char* text, struct adc_manifest_entry* entry) {
  for (int i = 0; i < 2 * ADC_SHA256_DIGEST_BYTES; i++) {
    if (!isxdigit((unsigned char)text[i])) return false;
  }
  const char* rest = text + 2 * ADC_SHA256_DIGEST_BYTES;
  if (rest[0] != ' ' || (rest[1] != ' ' && rest[1] != '*')) return false;
  const char* name = rest + 2;
  if (!plain_name(name) || strlen(name) >= sizeof(entry->name)) return false;
  memcpy(entry->hex, text, 2 * ADC_SHA256_DIGEST_BYTES);
  entry->hex[2 * ADC_SHA256_DIGEST_BYTES] = '\0';
  snprintf(entry->name, sizeof(entry->name), "%s", name);
  return true;
}

static int add_entry(struct adc_manifest* manifest, size_t* capacity, const struct adc_manifest_entry* entry,
                     struct adc_error* error) {
  if (manifest->count == *capacity) {
    size_t bigger = *capacity == 0 ? 8 : 2 * *capacity;
    struct adc_manifest_entry* entries = realloc(manifest->entries, bigger * sizeof(*entries));
    if (entries == NULL) return adc_fail(error, "out of memory");
    manifest->entries = entries;
    *capacity = bigger;
  }
  manifest->entries[manifest->count++] = *entry;
  return 0;
}

int adc_manifest_read(const char* path, struct adc_manifest* out, struct adc_error* error) {
  memset(out, 0, sizeof(*out));
  FILE* f = fopen(path, "r");
  if (f == NULL) return adc_fail(error, "cannot read manifest '%s': %s", path, strerror(errno));
  size_t capacity = 0;
  char line[ADC_SHA256_HEX_SIZE + ADC_MANIFEST_NAME_SIZE + 4];
  int number = 0;
  int result = 0;
  while (result == 0 && fgets(line, sizeof(line), f) != NULL) {
    number++;
    size_t length = strlen(line);
    bool whole = length > 0 && line[length - 1] == '\n';
    if (whole) line[--length] = '\0';
    struct adc_manifest_entry entry = {.line = number};
    /* A line longer than the buffer is malformed: no name is that long. */
    if ((!whole && !feof(f)) || !parse_line(line, &entry)) {
      result = adc_fail(error, "%s:%d: malformed manifest line (want '<64 hex digits>  <file name>')", path,
                        number);
    } else {
      result = add_entry(out, &capacity, &entry, error);
    }
  }
  if (result == 0 && ferror(f)) result = adc_fail(error, "cannot read manifest '%s'", path);
  if (result == 0 && out->count == 0) result = adc_fail(error, "%s: empty manifest", path);
  fclose(f);
  if (result != 0) adc_manifest_free(out);
  return result;
}

void adc_manifest_free(struct adc_manifest* manifest) {
  free(manifest->entries);
  memset(manifest, 0, sizeof(*manifest));
}
