/* Runs a fuzz target once over files and folders of inputs, without
 * libFuzzer: the builds compiled with gcc replay the committed corpora
 * this way.  A folder's files run in name order, so that a failure is
 * reproducible; the input running when a crash happens is named first. */
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_target.h"

static int run_file(const char* path) {
  FILE* f = fopen(path, "rb");
  if (f == NULL) {
    perror(path);
    return -1;
  }
  size_t cap = 4096, size = 0;
  uint8_t* data = malloc(cap);
  size_t got;
  while (data != NULL && (got = fread(data + size, 1, cap - size, f)) > 0) {
    size += got;
    if (size == cap) {
      uint8_t* grown = realloc(data, cap *= 2);
      if (grown == NULL) free(data);
      data = grown;
    }
  }
  fclose(f);
  if (data == NULL) {
    fprintf(stderr, "%s: out of memory\n", path);
    return -1;
  }
  fprintf(stderr, "replaying %s (%zu bytes)\n", path, size);
  LLVMFuzzerTestOneInput(data, size);
  free(data);
  return 0;
}

static int by_name(const void* a, const void* b) {
  return strcmp(*(char* const*)a, *(char* const*)b);
}

/* The regular files of `folder`, in name order; returns the count run or -1. */
static int run_folder(const char* folder) {
  DIR* dir = opendir(folder);
  if (dir == NULL) {
    perror(folder);
    return -1;
  }
  char** names = NULL;
  size_t n = 0;
  for (struct dirent* entry; (entry = readdir(dir)) != NULL;) {
    if (entry->d_name[0] == '.') continue;
    char** grown = realloc(names, (n + 1) * sizeof(*names));
    if (grown == NULL) break;
    names = grown;
    names[n++] = strdup(entry->d_name);
  }
  closedir(dir);
  qsort(names, n, sizeof(*names), by_name);
  int ran = 0;
  bool failed = false;
  for (size_t i = 0; i < n; i++) {
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", folder, names[i]);
    struct stat st;
    if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
      failed |= run_file(path) != 0;
      ran++;
    }
    free(names[i]);
  }
  free(names);
  return failed ? -1 : ran;
}

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s FILE_OR_FOLDER...\n", argv[0]);
    return 2;
  }
  LLVMFuzzerInitialize(&argc, &argv);
  int total = 0;
  for (int i = 1; i < argc; i++) {
    struct stat st;
    if (stat(argv[i], &st) != 0) {
      perror(argv[i]);
      return 1;
    }
    int ran = S_ISDIR(st.st_mode) ? run_folder(argv[i]) : run_file(argv[i]) == 0 ? 1 : -1;
    if (ran < 0) return 1;
    total += ran;
  }
  if (total == 0) {
    fprintf(stderr, "no input to replay\n");
    return 1;
  }
  printf("replayed %d input(s) without a failure\n", total);
  return 0;
}
