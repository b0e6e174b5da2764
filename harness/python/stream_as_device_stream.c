#include "stream_as_device_stream.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* The device stream's private_data. */
struct held_stream {
  struct ArrowArrayStream* library;        /* the library's stream, alone on its page */
  const struct ArrowDeviceArrayStream* at; /* where the device stream was at the last call */
  void** left_pages; /* pages the library's stream moved out of, inaccessible until the end */
  size_t n_left_pages;
};

static size_t page_size(void) {
  return (size_t)sysconf(_SC_PAGESIZE);
}

static struct ArrowArrayStream* new_page(void) {
  void* page = mmap(NULL, page_size(), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return page == MAP_FAILED ? NULL : page;
}

/* Moves the library's stream after the device stream where that moved
 * (spec: "Moving an array": a bitwise copy, the source marked released).
 * Where memory runs out it stays where it is. */
static struct held_stream* follow(struct ArrowDeviceArrayStream* self) {
  struct held_stream* held = self->private_data;
  if (self == held->at) return held;
  held->at = self;
  struct ArrowArrayStream* moved = new_page();
  void** left = realloc(held->left_pages, (held->n_left_pages + 1) * sizeof(*left));
  if (moved == NULL || left == NULL) {
    if (moved != NULL) munmap(moved, page_size());
    if (left != NULL) held->left_pages = left;
    return held;
  }
  memcpy(moved, held->library, sizeof(*moved));
  held->library->release = NULL;
  mprotect(held->library, page_size(), PROT_NONE);
  left[held->n_left_pages++] = held->library;
  held->left_pages = left;
  held->library = moved;
  return held;
}

static void free_held(struct held_stream* held) {
  for (size_t i = 0; i < held->n_left_pages; i++) munmap(held->left_pages[i], page_size());
  free(held->left_pages);
  munmap(held->library, page_size());
  free(held);
}

static int get_schema(struct ArrowDeviceArrayStream* self, struct ArrowSchema* out) {
  struct ArrowArrayStream* library = follow(self)->library;
  return library->get_schema(library, out);
}

static int get_next(struct ArrowDeviceArrayStream* self, struct ArrowDeviceArray* out) {
  struct ArrowArrayStream* library = follow(self)->library;
  int code = library->get_next(library, &out->array);
  if (code == 0) {
    /* What the interface defines of CPU-only data ("Device Support"). */
    out->device_id = -1;
    out->device_type = ARROW_DEVICE_CPU;
    out->sync_event = NULL;
    memset(out->reserved, 0, sizeof(out->reserved));
  }
  return code;
}

static const char* get_last_error(struct ArrowDeviceArrayStream* self) {
  struct ArrowArrayStream* library = follow(self)->library;
  return library->get_last_error(library);
}

/* Releases the library's stream; marked released only where the library
 * marked its own, so that a release that does not mark is seen. */
static void release(struct ArrowDeviceArrayStream* self) {
  struct held_stream* held = follow(self);
  struct ArrowArrayStream* library = held->library;
  if (library->release != NULL) library->release(library);
  if (library->release != NULL) return;
  free_held(held);
  self->release = NULL;
}

int adc_python_stream_as_device_stream(struct ArrowArrayStream* stream, struct ArrowDeviceArrayStream* out) {
  struct held_stream* held = calloc(1, sizeof(*held));
  struct ArrowArrayStream* library = new_page();
  if (held == NULL || library == NULL) {
    free(held);
    if (library != NULL) munmap(library, page_size());
    if (stream->release != NULL) stream->release(stream);
    return -1;
  }
  memcpy(library, stream, sizeof(*library));
  stream->release = NULL;
  held->library = library;
  held->at = out;
  memset(out, 0, sizeof(*out));
  out->device_type = ARROW_DEVICE_CPU;
  out->get_schema = library->get_schema != NULL ? get_schema : NULL;
  out->get_next = library->get_next != NULL ? get_next : NULL;
  out->get_last_error = library->get_last_error != NULL ? get_last_error : NULL;
  out->release = library->release != NULL ? release : NULL;
  out->private_data = held;
  return 0;
}
