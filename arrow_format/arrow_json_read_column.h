/* The column half of the fixture reader (arrow_json_read_column.c), which
 * the schema half calls for each field of a batch. */
#ifndef ARROW_JSON_READ_COLUMN_H
#define ARROW_JSON_READ_COLUMN_H

#include "arrow_format/arrow_json_reader.h"

/* Reads the data of `field` (laid out as `type`: its indices' type when it
 * is dictionary-encoded) from `json` into `out`.  `expected_length` is the
 * count its parent imposes, or -1. */
int reader_column(struct reader* r, const cJSON* json, const struct arrow_json_field* field,
                  const struct arrow_json_type* type, const char* parent, int64_t expected_length,
                  struct arrow_json_column* out);

#endif /* ARROW_JSON_READ_COLUMN_H */
