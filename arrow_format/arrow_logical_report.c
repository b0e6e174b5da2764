/* The report of a logical comparison's difference (arrow_logical_tree.h):
 * its path, kept as steps on the way down and written out only once a
 * difference is found, so that a row that compares equal costs a few
 * stores and no formatting. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include "arrow_format/arrow_logical_tree.h"

int logical_push(struct logical_report* r, const char* what, const char* name, int64_t index) {
  int mark = r->depth;
  if (r->depth < LOGICAL_MAX_STEPS) r->steps[r->depth] = (struct logical_step){what, name, index, false};
  r->depth++;
  return mark;
}

int logical_push_prefix(struct logical_report* r, const char* what, int64_t index) {
  int mark = logical_push(r, what, NULL, index);
  if (mark < LOGICAL_MAX_STEPS) r->steps[mark].prefix = true;
  return mark;
}

void logical_pop(struct logical_report* r, int mark) {
  r->depth = mark;
}

void logical_set_index(struct logical_report* r, int mark, int64_t index) {
  if (mark < LOGICAL_MAX_STEPS) r->steps[mark].index = index;
}

static void write_detail(struct logical_report* r, const char* fmt, va_list ap) {
  vsnprintf(r->detail, sizeof(r->detail), fmt, ap);
}

int logical_fail(struct logical_report* r, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  write_detail(r, fmt, ap);
  va_end(ap);
  r->has_row = false;
  return -1;
}

int logical_fail_row(struct logical_report* r, const char* subject, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  write_detail(r, fmt, ap);
  va_end(ap);
  r->has_row = true;
  r->subject = subject;
  r->row = -1;
  return -1;
}

void logical_at_row(struct logical_report* r, int64_t row) {
  r->row = row;
}

/* snprintf's count, kept within the buffer. */
static size_t advance(size_t at, int n, size_t size) {
  if (n < 0) return at;
  return at + (size_t)n < size ? at + (size_t)n : size;
}

int logical_write_path(const struct logical_report* r, char* out, size_t size) {
  size_t at = 0;
  if (size > 0) out[0] = '\0';
  int kept = r->depth < LOGICAL_MAX_STEPS ? r->depth : LOGICAL_MAX_STEPS;
  for (int i = 0; i < kept && at < size; i++) {
    const struct logical_step* step = &r->steps[i];
    const char* separator = i == 0 ? "" : r->steps[i - 1].prefix ? ": " : " > ";
    at = advance(at, snprintf(out + at, size - at, "%s%s", separator, step->what), size);
    if (step->name != NULL && at < size)
      at = advance(at, snprintf(out + at, size - at, " '%s'", step->name), size);
    if (step->index >= 0 && at < size)
      at = advance(at, snprintf(out + at, size - at, " %" PRId64, step->index), size);
  }
  return (int)at;
}

void logical_write(const struct logical_report* r, char* out, size_t size) {
  if (size == 0) return;
  size_t at = (size_t)logical_write_path(r, out, size);
  if (at > 0 && at < size) at = advance(at, snprintf(out + at, size - at, ": "), size);
  if (at >= size) return;
  if (r->has_row) {
    snprintf(out + at, size - at, "%srow %" PRId64 "%s", r->subject, r->row, r->detail);
  } else {
    snprintf(out + at, size - at, "%s", r->detail);
  }
}
