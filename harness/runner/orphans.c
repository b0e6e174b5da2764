#include "runner/orphans.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "support/clock.h"

int adc_become_subreaper(struct adc_error* error) {
  if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0) {
    return adc_fail(error, "cannot become a child subreaper: %s", strerror(errno));
  }
  return 0;
}

/* The parent of `pid` from /proc/<pid>/stat, or -1.  The command name,
 * in parentheses, may itself hold spaces and parentheses: the fields after
 * it start after the last ')'. */
static pid_t parent_of(const char* pid) {
  char path[64];
  snprintf(path, sizeof(path), "/proc/%s/stat", pid);
  FILE* f = fopen(path, "r");
  if (f == NULL) return -1;
  char text[1024];
  size_t n = fread(text, 1, sizeof(text) - 1, f);
  fclose(f);
  text[n] = '\0';
  const char* after_name = strrchr(text, ')');
  int parent = -1;
  if (after_name == NULL || sscanf(after_name + 1, " %*c %d", &parent) != 1) return -1;
  return (pid_t)parent;
}

static int is_kept(pid_t pid, const pid_t* keep, size_t n_keep) {
  for (size_t i = 0; i < n_keep; i++) {
    if (keep[i] == pid) return 1;
  }
  return 0;
}

/* No faster way to list one's children exists where the kernel lacks
 * /proc/<pid>/task/<tid>/children: read every process's parent. */
size_t adc_kill_orphans(const pid_t* keep, size_t n_keep) {
  DIR* proc = opendir("/proc");
  if (proc == NULL) return 0;
  pid_t self = getpid();
  size_t found = 0;
  struct dirent* entry;
  while ((entry = readdir(proc)) != NULL) {
    if (entry->d_name[0] < '1' || entry->d_name[0] > '9') continue;
    if (parent_of(entry->d_name) != self) continue;
    pid_t pid = (pid_t)atoi(entry->d_name);
    if (is_kept(pid, keep, n_keep)) continue;
    kill(pid, SIGKILL);
    found++;
  }
  closedir(proc);
  return found;
}

void adc_kill_all_orphans(double seconds) {
  double deadline = adc_now_seconds() + seconds;
  for (;;) {
    size_t found = adc_kill_orphans(NULL, 0);
    while (waitpid(-1, NULL, WNOHANG) > 0) continue;
    if (found == 0 || adc_now_seconds() > deadline) return;
    /* Let the killed die and their children reach us. */
    struct timespec pause = {0, 1000000};
    nanosleep(&pause, NULL);
  }
}
