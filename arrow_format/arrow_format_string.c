/* Reading a format string back into its type (arrow_format_string.h): each
 * row's template of the type table is matched against the string, its
 * literal characters as they are and each "{parameter}" as the value it
 * stands for. */
#include "arrow_format/arrow_format_string.h"

#include <stdio.h>
#include <string.h>

/* A decimal integer (an optional '-', then digits) from `*at` up to `end`,
 * within int32; advances `*at`.  Returns whether there was one. */
static bool read_int32(const char** at, const char* end, int32_t* out) {
  const char* c = *at;
  bool negative = c < end && *c == '-';
  if (negative) c++;
  if (c == end || *c < '0' || *c > '9') return false;
  int64_t value = 0;
  for (; c < end && *c >= '0' && *c <= '9'; c++) {
    value = value * 10 + (*c - '0');
    if (value > INT32_MAX) return false;
  }
  *out = (int32_t)(negative ? -value : value);
  *at = c;
  return true;
}

/* spec: "+ud:I,J,...": the type ids, comma-separated, to the end. */
static bool read_type_ids(const char** at, const char* end, struct arrow_format_type* out) {
  out->n_type_ids = 0;
  while (*at < end) {
    if (out->n_type_ids > 0 && *(*at)++ != ',') return false;
    int32_t id;
    if (!read_int32(at, end, &id) || id < 0 || id >= ARROW_FORMAT_MAX_TYPE_IDS) return false;
    for (int i = 0; i < out->n_type_ids; i++) {
      if (out->type_ids[i] == id) return false;
    }
    out->type_ids[out->n_type_ids++] = (int8_t)id;
  }
  return true;
}

/* Reads parameter `name` (`length` characters) of a template at `*at`. */
static bool read_parameter(const char* name, size_t length, const char** at, const char* end,
                           struct arrow_format_type* out) {
#define IS(text) (length == sizeof(text) - 1 && memcmp(name, text, length) == 0)
  int32_t value;
  if (IS("timezone?")) {
    /* spec: "tsu:timezone"; the zone is the rest of the string, maybe empty. */
    out->timezone = *at;
    out->timezone_size = (size_t)(end - *at);
    *at = end;
    return true;
  }
  if (IS("typeIds")) return read_type_ids(at, end, out);
  if (!read_int32(at, end, &value)) return false;
  if (IS("precision")) {
    out->precision = value;
  } else if (IS("scale")) {
    out->scale = value;
  } else if (IS("byteWidth") && value >= 0) {
    out->value_bytes = value;
  } else if (IS("listSize") && value >= 0) {
    out->list_size = value;
  } else {
    return false;
  }
  return true;
#undef IS
}

/* Whether `format` (up to `end`) fills `row`'s template; `out` holds the
 * parameters read (partly filled when it does not). */
static bool fills_template(const struct arrow_type_row* row, const char* format, const char* end,
                           struct arrow_format_type* out) {
  const char* at = format;
  for (const char* t = row->format; *t != '\0'; t++) {
    if (*t != '{') {
      if (at == end || *at != *t) return false;
      at++;
      continue;
    }
    const char* close = strchr(t, '}');
    if (!read_parameter(t + 1, (size_t)(close - t - 1), &at, end, out)) return false;
    t = close;
  }
  return at == end;
}

static int parse_span(const char* format, const char* end, struct arrow_format_type* out) {
  for (size_t i = 0; i < arrow_type_row_count; i++) {
    const struct arrow_type_row* row = &arrow_type_rows[i];
    memset(out, 0, sizeof(*out));
    out->value_bytes = row->value_bytes;
    if (!fills_template(row, format, end, out)) continue;
    out->row = row;
    out->layout = row->layout;
    out->bit_width = row->bit_width;
    out->is_signed = row->is_signed;
    return 0;
  }
  return -1;
}

int arrow_format_parse(const char* format, struct arrow_format_type* out) {
  if (format == NULL) {
    memset(out, 0, sizeof(*out));
    return -1;
  }
  const char* end = format + strlen(format);
  int status = parse_span(format, end, out);
  /* spec: "d:19,10,NNN": decimal bitwidth NNN, and "d:19,10" is 128 bits:
   * an explicit 128 is the same type, written by the table without it. */
  static const char explicit_128[] = ",128";
  size_t suffix = sizeof(explicit_128) - 1;
  if (status != 0 && strncmp(format, "d:", 2) == 0 && (size_t)(end - format) > suffix &&
      strcmp(end - suffix, explicit_128) == 0) {
    status = parse_span(format, end - suffix, out);
    if (status == 0 && out->value_bytes != 16) status = -1;
  }
  out->format = format;
  return status;
}

bool arrow_format_same_type(const struct arrow_format_type* a, const struct arrow_format_type* b) {
  return a->row == b->row && a->value_bytes == b->value_bytes && a->precision == b->precision &&
         a->scale == b->scale && a->list_size == b->list_size && a->timezone_size == b->timezone_size &&
         (a->timezone_size == 0 || memcmp(a->timezone, b->timezone, a->timezone_size) == 0) &&
         a->n_type_ids == b->n_type_ids && memcmp(a->type_ids, b->type_ids, (size_t)a->n_type_ids) == 0;
}

bool arrow_format_is_integer(const struct arrow_format_type* type) {
  return type->row != NULL && type->row->kind == ARROW_JSON_INT;
}

int arrow_format_describe(const struct arrow_format_type* type, char* out, size_t size) {
  const char* format = type->format != NULL ? type->format : "(null)";
  if (type->row == NULL) return snprintf(out, size, "an unknown type (%s)", format);
  if (type->row->kind == ARROW_JSON_INT) {
    return snprintf(out, size, "%sint%d (%s)", type->is_signed ? "" : "u", type->bit_width, format);
  }
  if (type->row->kind == ARROW_JSON_FLOAT)
    return snprintf(out, size, "float%d (%s)", type->bit_width, format);
  return snprintf(out, size, "%s (%s)", type->row->json_name, format);
}
