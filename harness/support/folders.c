#include "support/folders.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

void adc_remove_folder(const char* dir) {
  DIR* folder = opendir(dir);
  if (folder != NULL) {
    struct dirent* entry;
    while ((entry = readdir(folder)) != NULL) {
      if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0) continue;
      char path[PATH_MAX + NAME_MAX + 2];
      snprintf(path, sizeof(path), "%.*s/%.*s", PATH_MAX, dir, NAME_MAX, entry->d_name);
      unlink(path);
    }
    closedir(folder);
  }
  rmdir(dir);
}
