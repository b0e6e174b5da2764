#include "runner/orphans.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
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

/* The parent of `pid` from /proc/<pid>/stat, or -1 when it has none or is
 * a zombie (nothing left to kill).  The command name, in parentheses, may
 * itself hold spaces and parentheses: the fields after it start after the
 * last ')'. */
static pid_t living_parent_of(const char* pid) {
  char path[64];
  snprintf(path, sizeof(path), "/proc/%s/stat", pid);
  FILE* f = fopen(path, "r");
  if (f == NULL) return -1;
  char text[1024];
  size_t n = fread(text, 1, sizeof(text) - 1, f);
  fclose(f);
  text[n] = '\0';
  const char* after_name = strrchr(text, ')');
  char state = 0;
  int parent = -1;
  if (after_name == NULL || sscanf(after_name + 1, " %c %d", &state, &parent) != 2 || state == 'Z') return -1;
  return (pid_t)parent;
}

/* No faster way to list one's children exists where the kernel lacks
 * /proc/<pid>/task/<tid>/children: read every process's parent. */
size_t adc_list_children(pid_t* pids, size_t capacity) {
  DIR* proc = opendir("/proc");
  if (proc == NULL) return 0;
  pid_t self = getpid();
  size_t found = 0;
  struct dirent* entry;
  while ((entry = readdir(proc)) != NULL) {
    if (entry->d_name[0] < '1' || entry->d_name[0] > '9') continue;
    if (living_parent_of(entry->d_name) != self) continue;
    if (found < capacity) pids[found] = (pid_t)atoi(entry->d_name);
    found++;
  }
  closedir(proc);
  return found;
}

static bool is_kept(pid_t pid, const pid_t* keep, size_t n_keep) {
  for (size_t i = 0; i < n_keep; i++) {
    if (keep[i] == pid) return true;
  }
  return false;
}

size_t adc_kill_orphans(const pid_t* keep, size_t n_keep) {
  pid_t children[256];
  size_t n = adc_list_children(children, 256);
  size_t found = 0;
  for (size_t i = 0; i < n && i < 256; i++) {
    if (is_kept(children[i], keep, n_keep)) continue;
    kill(children[i], SIGKILL);
    found++;
  }
  /* More than fit: the next sweep takes the rest. */
  return found + (n > 256 ? n - 256 : 0);
}

/* Whether this process has any child at all, living or not, without
 * reading /proc: waitid says ECHILD when it has none. */
static bool has_children(void) {
  siginfo_t info;
  memset(&info, 0, sizeof(info));
  return waitid(P_ALL, 0, &info, WEXITED | WSTOPPED | WNOHANG | WNOWAIT) == 0 || errno != ECHILD;
}

void adc_kill_all_orphans(double seconds) {
  double deadline = adc_now_seconds() + seconds;
  while (has_children()) {
    size_t found = adc_kill_orphans(NULL, 0);
    while (waitpid(-1, NULL, WNOHANG) > 0) continue;
    if (found == 0 || adc_now_seconds() > deadline) return;
    /* Let the killed die and their children reach us. */
    struct timespec pause = {0, 1000000};
    nanosleep(&pause, NULL);
  }
}
