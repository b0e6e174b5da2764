#include "support/thread_look.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* A directory entry as getdents64 writes it (glibc declares none). */
struct linux_dirent64 {
  uint64_t d_ino;
  int64_t d_off;
  unsigned short d_reclen;
  unsigned char d_type;
  char d_name[];
};

int adc_list_threads(pid_t* tids, int max) {
  int fd = open("/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return -1;
  /* On the stack, aligned for the entries, and small (a library's thread
   * may be the one looking): about 64 threads a read, and more reads
   * follow for more. */
  _Alignas(struct linux_dirent64) char entries[2048];
  int n = 0;
  for (;;) {
    long length = syscall(SYS_getdents64, fd, entries, sizeof(entries));
    if (length < 0) n = -1;
    if (length <= 0) break;
    for (long at = 0; at < length;) {
      const struct linux_dirent64* entry = (const struct linux_dirent64*)(entries + at);
      pid_t tid = (pid_t)atoi(entry->d_name);
      if (tid > 0) {
        if (n < max) tids[n] = tid;
        n++;
      }
      at += entry->d_reclen;
    }
  }
  close(fd);
  return n;
}

bool adc_read_proc_text(const char* path, char* text, size_t size) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  ssize_t length = read(fd, text, size - 1);
  close(fd);
  if (length <= 0) return false;
  text[length] = '\0';
  return true;
}

/* The state letter of /proc/self/task/<tid>/stat, which follows the
 * command name in parentheses (a name may hold parentheses itself). */
static char state_of(const char* stat) {
  const char* close = strrchr(stat, ')');
  return close != NULL && close[1] == ' ' ? close[2] : '?';
}

bool adc_see_thread(pid_t tid, struct adc_thread_seen* seen) {
  char path[64], text[512];
  snprintf(path, sizeof(path), "/proc/self/task/%d/schedstat", (int)tid);
  unsigned long long waited_ns;
  if (!adc_read_proc_text(path, text, sizeof(text)) ||
      sscanf(text, "%llu %llu %llu", &seen->run_ns, &waited_ns, &seen->scheduled) != 3) {
    return false;
  }
  snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)tid);
  if (!adc_read_proc_text(path, text, sizeof(text))) return false;
  seen->state = state_of(text);
  return true;
}

bool adc_thread_stayed_asleep(const struct adc_thread_seen* before, const struct adc_thread_seen* after) {
  return before->state == 'S' && after->state == 'S' && before->run_ns == after->run_ns &&
         before->scheduled == after->scheduled;
}

bool adc_thread_syscall_line(pid_t tid, char* line, size_t size) {
  char path[64];
  snprintf(path, sizeof(path), "/proc/self/task/%d/syscall", (int)tid);
  return adc_read_proc_text(path, line, size);
}

void adc_thread_name(pid_t tid, char* name, size_t size) {
  char path[64];
  snprintf(path, sizeof(path), "/proc/self/task/%d/comm", (int)tid);
  if (!adc_read_proc_text(path, name, size)) snprintf(name, size, "?");
  name[strcspn(name, "\n")] = '\0';
}
