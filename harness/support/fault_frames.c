#include "support/fault_frames.h"

#include <elf.h>
#include <execinfo.h>
#include <fcntl.h>
#include <link.h>
#include <stdbool.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>

#include "support/system_libraries.h"

/* Frames the unwinder may give before the interrupted thread's: the
 * handler's own and those it was called through, the kernel's return
 * trampoline. */
#define UNWOUND_FRAMES (ADC_FAULT_DEPTH + 24)

void adc_fault_frames_prepare(void) {
  void* frames[4];
  (void)backtrace(frames, 4);
}

/* The address the signal interrupted, from the handler's context; 0 where
 * this architecture's context is not read here. */
static uintptr_t interrupted_address(const void* ucontext) {
  const ucontext_t* context = ucontext;
#if defined(__x86_64__)
  return (uintptr_t)context->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
  return (uintptr_t)context->uc_mcontext.pc;
#else
  (void)context;
  return 0;
#endif
}

/* ---- /proc/self/maps, a line at a time, with no malloc and no stdio ---- */

/* A line holds two addresses, permissions, an offset, a device, an inode
 * and a path of at most PATH_MAX bytes. */
#define MAPS_BUFFER 8192

struct maps_reader {
  int fd;
  char buffer[MAPS_BUFFER];
  size_t start, end; /* the bytes read and not yet taken */
  bool skipping;     /* the rest of a line longer than the buffer */
};

/* The next line, NUL-terminated in place; NULL at the end.  A line longer
 * than the buffer is skipped. */
static char* next_line(struct maps_reader* reader) {
  for (;;) {
    char* newline = memchr(reader->buffer + reader->start, '\n', reader->end - reader->start);
    if (newline != NULL) {
      char* line = reader->buffer + reader->start;
      *newline = '\0';
      reader->start = (size_t)(newline - reader->buffer) + 1;
      if (!reader->skipping) return line;
      reader->skipping = false;
      continue;
    }
    if (reader->start == 0 && reader->end == sizeof(reader->buffer)) {
      reader->end = 0;
      reader->skipping = true;
    }
    memmove(reader->buffer, reader->buffer + reader->start, reader->end - reader->start);
    reader->end -= reader->start;
    reader->start = 0;
    ssize_t n = read(reader->fd, reader->buffer + reader->end, sizeof(reader->buffer) - reader->end);
    if (n <= 0) return NULL;
    reader->end += (size_t)n;
  }
}

static uintptr_t hex_number(const char** at) {
  uintptr_t value = 0;
  for (const char* p = *at;; p++) {
    char c = *p;
    int digit = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
    if (digit < 0) {
      *at = p;
      return value;
    }
    value = value * 16 + (uintptr_t)digit;
  }
}

static const char* skip_field(const char* p) {
  while (*p != ' ' && *p != '\0') p++;
  while (*p == ' ') p++;
  return p;
}

/* One line of the maps: "start-end perms offset dev inode   path". */
struct mapping {
  uintptr_t start, end, file_offset;
  bool readable;
  const char* path; /* "" for anonymous memory */
};

static bool parse_mapping(const char* line, struct mapping* out) {
  const char* p = line;
  out->start = hex_number(&p);
  if (*p++ != '-') return false;
  out->end = hex_number(&p);
  if (*p++ != ' ') return false;
  out->readable = *p == 'r';
  p = skip_field(p);
  out->file_offset = hex_number(&p);
  p = skip_field(p); /* the offset's end */
  p = skip_field(p); /* the device */
  p = skip_field(p); /* the inode */
  out->path = p;
  return true;
}

/* Whether the ELF file mapped at `base` is an executable that is not
 * position-independent, whose symbols hold absolute addresses. */
static bool absolute_executable(const struct mapping* first) {
  const ElfW(Ehdr)* header = (const ElfW(Ehdr)*)first->start;
  if (!first->readable || first->end - first->start < sizeof(*header)) return false;
  return memcmp(header->e_ident, ELFMAG, SELFMAG) == 0 && header->e_type == ET_EXEC;
}

static void copy_path(char* to, const char* path) {
  size_t n = 0;
  while (path[n] != '\0' && n < ADC_FAULT_OBJECT_SIZE - 1) {
    to[n] = path[n];
    n++;
  }
  to[n] = '\0';
}

/* The file and offset of each frame's address (`addresses`), from the
 * maps: an object's load base is the start of its mapping at offset 0,
 * the line before its others. */
static void place_frames(const uintptr_t* addresses, struct adc_fault_frame* frames, size_t n) {
  static struct maps_reader reader; /* large: off the alternate stack */
  static char base_path[ADC_FAULT_OBJECT_SIZE];
  uintptr_t base = 0;
  bool base_absolute = false;
  base_path[0] = '\0';
  for (size_t i = 0; i < n; i++) {
    frames[i].offset = addresses[i];
    frames[i].object[0] = '\0';
  }
  reader.fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
  if (reader.fd < 0) return;
  reader.start = reader.end = 0;
  reader.skipping = false;
  char* line;
  while ((line = next_line(&reader)) != NULL) {
    struct mapping mapping;
    if (!parse_mapping(line, &mapping)) continue;
    if (mapping.file_offset == 0 && mapping.path[0] == '/') {
      copy_path(base_path, mapping.path);
      base = mapping.start;
      base_absolute = absolute_executable(&mapping);
    }
    for (size_t i = 0; i < n; i++) {
      if (addresses[i] < mapping.start || addresses[i] >= mapping.end || mapping.path[0] == '\0') continue;
      copy_path(frames[i].object, mapping.path);
      if (strcmp(frames[i].object, base_path) == 0) {
        frames[i].offset = base_absolute ? addresses[i] : addresses[i] - base;
      } else {
        frames[i].offset = addresses[i] - mapping.start + mapping.file_offset;
      }
    }
  }
  close(reader.fd);
}

size_t adc_fault_frames_pick(const struct adc_fault_frame* thread, size_t n, struct adc_fault_frame* frames,
                             size_t capacity) {
  size_t deciding = 0;
  while (deciding < n && thread[deciding].object[0] != '\0' && adc_is_system_library(thread[deciding].object))
    deciding++;
  size_t kept = 0;
  size_t next = 0;
  for (; next < n && kept < capacity; next++) {
    if (kept == 2 && deciding >= capacity && deciding < n && next < deciding - 1) next = deciding - 1;
    frames[kept++] = thread[next];
  }
  return kept;
}

size_t adc_fault_frames_take(const void* ucontext, struct adc_fault_frame* frames, size_t capacity) {
  static void* unwound[UNWOUND_FRAMES];
  static uintptr_t addresses[ADC_FAULT_DEPTH];
  static struct adc_fault_frame thread[ADC_FAULT_DEPTH];
  int n_unwound = backtrace(unwound, UNWOUND_FRAMES);
  uintptr_t interrupted = interrupted_address(ucontext);
  /* The unwinder gives the interrupted instruction's own address for the
   * frame the kernel's trampoline returns to: the first of the thread's. */
  int first = 0;
  while (first < n_unwound && (uintptr_t)unwound[first] != interrupted) first++;
  size_t n = 0;
  if (first == n_unwound) {
    /* Not found (an unwinder that stopped at the trampoline): the
     * interrupted instruction alone says where. */
    if (interrupted != 0) addresses[n++] = interrupted;
  } else {
    for (int i = first; i < n_unwound && n < ADC_FAULT_DEPTH; i++) addresses[n++] = (uintptr_t)unwound[i];
  }
  place_frames(addresses, thread, n);
  for (size_t i = 0; i < n; i++) thread[i].depth = (unsigned)i;
  return adc_fault_frames_pick(thread, n, frames, capacity < ADC_FAULT_FRAMES ? capacity : ADC_FAULT_FRAMES);
}
