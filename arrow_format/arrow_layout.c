/* The layout table and the type table (arrow_layout.h).  The buffers follow
 * the C Data Interface (CDataInterface.rst, "Data type description --
 * format strings" and the columnar format it points to); the JSON names
 * and parameters follow Integration.rst. */
#include "arrow_format/arrow_layout.h"

#define ROLES(...)                                                                                    \
  .n_roles = (int)(sizeof((enum arrow_buffer_role[]){__VA_ARGS__}) / sizeof(enum arrow_buffer_role)), \
  .roles = {__VA_ARGS__}

const struct arrow_layout arrow_layouts[ARROW_LAYOUT_COUNT] = {
    /* spec (Columnar.rst, "Null Layout"): no buffers at all. */
    [ARROW_LAYOUT_NULL] = {ARROW_LAYOUT_NULL, "null", .n_roles = 0, .n_children = 0},
    [ARROW_LAYOUT_BOOL] = {ARROW_LAYOUT_BOOL, "boolean", ROLES(ARROW_BUFFER_VALIDITY, ARROW_BUFFER_BITS),
                           .n_children = 0},
    [ARROW_LAYOUT_FIXED_WIDTH] = {ARROW_LAYOUT_FIXED_WIDTH, "fixed-width",
                                  ROLES(ARROW_BUFFER_VALIDITY, ARROW_BUFFER_VALUES), .n_children = 0},
    [ARROW_LAYOUT_BINARY] = {ARROW_LAYOUT_BINARY, "variable-size binary",
                             ROLES(ARROW_BUFFER_VALIDITY, ARROW_BUFFER_OFFSETS, ARROW_BUFFER_DATA),
                             .offset_bytes = 4, .n_children = 0},
    [ARROW_LAYOUT_LARGE_BINARY] = {ARROW_LAYOUT_LARGE_BINARY, "large variable-size binary",
                                   ROLES(ARROW_BUFFER_VALIDITY, ARROW_BUFFER_OFFSETS, ARROW_BUFFER_DATA),
                                   .offset_bytes = 8, .n_children = 0},
    /* spec (CDataInterface.rst, "Binary view arrays"): the views, the
     * variadic data buffers, then a buffer of their int64 sizes. */
    [ARROW_LAYOUT_BINARY_VIEW] = {ARROW_LAYOUT_BINARY_VIEW, "binary view",
                                  ROLES(ARROW_BUFFER_VALIDITY, ARROW_BUFFER_VIEWS, ARROW_BUFFER_VARIADIC),
                                  .n_children = 0},
    [ARROW_LAYOUT_LIST] = {ARROW_LAYOUT_LIST, "variable-size list",
                           ROLES(ARROW_BUFFER_VALIDITY, ARROW_BUFFER_OFFSETS), .offset_bytes = 4,
                           .n_children = 1},
    [ARROW_LAYOUT_LARGE_LIST] = {ARROW_LAYOUT_LARGE_LIST, "large variable-size list",
                                 ROLES(ARROW_BUFFER_VALIDITY, ARROW_BUFFER_OFFSETS), .offset_bytes = 8,
                                 .n_children = 1},
    [ARROW_LAYOUT_LIST_VIEW] = {ARROW_LAYOUT_LIST_VIEW, "list view",
                                ROLES(ARROW_BUFFER_VALIDITY, ARROW_BUFFER_OFFSETS, ARROW_BUFFER_SIZES),
                                .offset_bytes = 4, .n_children = 1},
    [ARROW_LAYOUT_LARGE_LIST_VIEW] = {ARROW_LAYOUT_LARGE_LIST_VIEW, "large list view",
                                      ROLES(ARROW_BUFFER_VALIDITY, ARROW_BUFFER_OFFSETS, ARROW_BUFFER_SIZES),
                                      .offset_bytes = 8, .n_children = 1},
    [ARROW_LAYOUT_FIXED_SIZE_LIST] = {ARROW_LAYOUT_FIXED_SIZE_LIST, "fixed-size list",
                                      ROLES(ARROW_BUFFER_VALIDITY), .n_children = 1},
    [ARROW_LAYOUT_STRUCT] = {ARROW_LAYOUT_STRUCT, "struct", ROLES(ARROW_BUFFER_VALIDITY), .n_children = -1},
    /* A map is a list of its entries struct (Columnar.rst, "Map"). */
    [ARROW_LAYOUT_MAP] = {ARROW_LAYOUT_MAP, "map", ROLES(ARROW_BUFFER_VALIDITY, ARROW_BUFFER_OFFSETS),
                          .offset_bytes = 4, .n_children = 1},
    /* spec (Columnar.rst, "Union Layout"): no validity bitmap. */
    [ARROW_LAYOUT_SPARSE_UNION] = {ARROW_LAYOUT_SPARSE_UNION, "sparse union", ROLES(ARROW_BUFFER_TYPE_IDS),
                                   .n_children = -1},
    [ARROW_LAYOUT_DENSE_UNION] = {ARROW_LAYOUT_DENSE_UNION, "dense union",
                                  ROLES(ARROW_BUFFER_TYPE_IDS, ARROW_BUFFER_OFFSETS), .offset_bytes = 4,
                                  .n_children = -1},
    /* spec (Columnar.rst, "Run-End Encoded Layout"): no buffers; the run
     * ends and the values are its two children. */
    [ARROW_LAYOUT_RUN_END_ENCODED] = {ARROW_LAYOUT_RUN_END_ENCODED, "run-end encoded", .n_roles = 0,
                                      .n_children = 2},
};

/* Shorthands for the rows below. */
#define INT_ROW(width, sign, fmt)                                                          \
  {                                                                                        \
    ARROW_JSON_INT, "int", {{"bitWidth", #width}, {"isSigned", #sign}}, {NULL, NULL}, fmt, \
        ARROW_LAYOUT_FIXED_WIDTH, (width) / 8, width, sign, ARROW_VALUES_INT               \
  }
#define UNIT_ROW(kind, name, unit, fmt, bytes)                                                         \
  {                                                                                                    \
    kind, name, {{"unit", "\"" unit "\""}, {NULL, NULL}}, {NULL, NULL}, fmt, ARROW_LAYOUT_FIXED_WIDTH, \
        bytes, (bytes)*8, true, ARROW_VALUES_INT                                                       \
  }
#define PLAIN_ROW(kind, name, fmt, layout, values) \
  { kind, name, {{NULL, NULL}, {NULL, NULL}}, {NULL, NULL}, fmt, layout, 0, 0, false, values }

const struct arrow_type_row arrow_type_rows[] = {
    PLAIN_ROW(ARROW_JSON_NULL, "null", "n", ARROW_LAYOUT_NULL, ARROW_VALUES_NONE),
    PLAIN_ROW(ARROW_JSON_BOOL, "bool", "b", ARROW_LAYOUT_BOOL, ARROW_VALUES_BOOL),
    INT_ROW(8, true, "c"),
    INT_ROW(8, false, "C"),
    INT_ROW(16, true, "s"),
    INT_ROW(16, false, "S"),
    INT_ROW(32, true, "i"),
    INT_ROW(32, false, "I"),
    INT_ROW(64, true, "l"),
    INT_ROW(64, false, "L"),
    {ARROW_JSON_FLOAT,
     "floatingpoint",
     {{"precision", "\"HALF\""}, {NULL, NULL}},
     {NULL, NULL},
     "e",
     ARROW_LAYOUT_FIXED_WIDTH,
     2,
     16,
     true,
     ARROW_VALUES_FLOAT},
    {ARROW_JSON_FLOAT,
     "floatingpoint",
     {{"precision", "\"SINGLE\""}, {NULL, NULL}},
     {NULL, NULL},
     "f",
     ARROW_LAYOUT_FIXED_WIDTH,
     4,
     32,
     true,
     ARROW_VALUES_FLOAT},
    {ARROW_JSON_FLOAT,
     "floatingpoint",
     {{"precision", "\"DOUBLE\""}, {NULL, NULL}},
     {NULL, NULL},
     "g",
     ARROW_LAYOUT_FIXED_WIDTH,
     8,
     64,
     true,
     ARROW_VALUES_FLOAT},
    /* spec: "d:19,10" decimal128 [precision 19, scale 10]; "d:19,10,NNN"
     * with bitwidth NNN.  The JSON's bitWidth defaults to 128. */
    {ARROW_JSON_DECIMAL,
     "decimal",
     {{"bitWidth", "32"}, {NULL, NULL}},
     {"128", NULL},
     "d:{precision},{scale},32",
     ARROW_LAYOUT_FIXED_WIDTH,
     4,
     32,
     true,
     ARROW_VALUES_DECIMAL},
    {ARROW_JSON_DECIMAL,
     "decimal",
     {{"bitWidth", "64"}, {NULL, NULL}},
     {"128", NULL},
     "d:{precision},{scale},64",
     ARROW_LAYOUT_FIXED_WIDTH,
     8,
     64,
     true,
     ARROW_VALUES_DECIMAL},
    {ARROW_JSON_DECIMAL,
     "decimal",
     {{"bitWidth", "128"}, {NULL, NULL}},
     {"128", NULL},
     "d:{precision},{scale}",
     ARROW_LAYOUT_FIXED_WIDTH,
     16,
     128,
     true,
     ARROW_VALUES_DECIMAL},
    {ARROW_JSON_DECIMAL,
     "decimal",
     {{"bitWidth", "256"}, {NULL, NULL}},
     {"128", NULL},
     "d:{precision},{scale},256",
     ARROW_LAYOUT_FIXED_WIDTH,
     32,
     256,
     true,
     ARROW_VALUES_DECIMAL},
    UNIT_ROW(ARROW_JSON_DATE, "date", "DAY", "tdD", 4),
    UNIT_ROW(ARROW_JSON_DATE, "date", "MILLISECOND", "tdm", 8),
    UNIT_ROW(ARROW_JSON_TIME, "time", "SECOND", "tts", 4),
    UNIT_ROW(ARROW_JSON_TIME, "time", "MILLISECOND", "ttm", 4),
    UNIT_ROW(ARROW_JSON_TIME, "time", "MICROSECOND", "ttu", 8),
    UNIT_ROW(ARROW_JSON_TIME, "time", "NANOSECOND", "ttn", 8),
    UNIT_ROW(ARROW_JSON_TIMESTAMP, "timestamp", "SECOND", "tss:{timezone?}", 8),
    UNIT_ROW(ARROW_JSON_TIMESTAMP, "timestamp", "MILLISECOND", "tsm:{timezone?}", 8),
    UNIT_ROW(ARROW_JSON_TIMESTAMP, "timestamp", "MICROSECOND", "tsu:{timezone?}", 8),
    UNIT_ROW(ARROW_JSON_TIMESTAMP, "timestamp", "NANOSECOND", "tsn:{timezone?}", 8),
    UNIT_ROW(ARROW_JSON_DURATION, "duration", "SECOND", "tDs", 8),
    UNIT_ROW(ARROW_JSON_DURATION, "duration", "MILLISECOND", "tDm", 8),
    UNIT_ROW(ARROW_JSON_DURATION, "duration", "MICROSECOND", "tDu", 8),
    UNIT_ROW(ARROW_JSON_DURATION, "duration", "NANOSECOND", "tDn", 8),
    UNIT_ROW(ARROW_JSON_INTERVAL, "interval", "YEAR_MONTH", "tiM", 4),
    {ARROW_JSON_INTERVAL,
     "interval",
     {{"unit", "\"DAY_TIME\""}, {NULL, NULL}},
     {NULL, NULL},
     "tiD",
     ARROW_LAYOUT_FIXED_WIDTH,
     8,
     0,
     true,
     ARROW_VALUES_DAY_TIME},
    {ARROW_JSON_INTERVAL,
     "interval",
     {{"unit", "\"MONTH_DAY_NANO\""}, {NULL, NULL}},
     {NULL, NULL},
     "tin",
     ARROW_LAYOUT_FIXED_WIDTH,
     16,
     0,
     true,
     ARROW_VALUES_MONTH_DAY_NANO},
    PLAIN_ROW(ARROW_JSON_BINARY, "binary", "z", ARROW_LAYOUT_BINARY, ARROW_VALUES_HEX),
    PLAIN_ROW(ARROW_JSON_LARGE_BINARY, "largebinary", "Z", ARROW_LAYOUT_LARGE_BINARY, ARROW_VALUES_HEX),
    PLAIN_ROW(ARROW_JSON_UTF8, "utf8", "u", ARROW_LAYOUT_BINARY, ARROW_VALUES_STRING),
    PLAIN_ROW(ARROW_JSON_LARGE_UTF8, "largeutf8", "U", ARROW_LAYOUT_LARGE_BINARY, ARROW_VALUES_STRING),
    {ARROW_JSON_FIXED_SIZE_BINARY,
     "fixedsizebinary",
     {{NULL, NULL}, {NULL, NULL}},
     {NULL, NULL},
     "w:{byteWidth}",
     ARROW_LAYOUT_FIXED_WIDTH,
     -1,
     0,
     false,
     ARROW_VALUES_HEX},
    PLAIN_ROW(ARROW_JSON_BINARY_VIEW, "binaryview", "vz", ARROW_LAYOUT_BINARY_VIEW, ARROW_VALUES_HEX),
    PLAIN_ROW(ARROW_JSON_UTF8_VIEW, "utf8view", "vu", ARROW_LAYOUT_BINARY_VIEW, ARROW_VALUES_STRING),
    PLAIN_ROW(ARROW_JSON_LIST, "list", "+l", ARROW_LAYOUT_LIST, ARROW_VALUES_NONE),
    PLAIN_ROW(ARROW_JSON_LARGE_LIST, "largelist", "+L", ARROW_LAYOUT_LARGE_LIST, ARROW_VALUES_NONE),
    PLAIN_ROW(ARROW_JSON_FIXED_SIZE_LIST, "fixedsizelist", "+w:{listSize}", ARROW_LAYOUT_FIXED_SIZE_LIST,
              ARROW_VALUES_NONE),
    PLAIN_ROW(ARROW_JSON_LIST_VIEW, "listview", "+vl", ARROW_LAYOUT_LIST_VIEW, ARROW_VALUES_NONE),
    PLAIN_ROW(ARROW_JSON_LARGE_LIST_VIEW, "largelistview", "+vL", ARROW_LAYOUT_LARGE_LIST_VIEW,
              ARROW_VALUES_NONE),
    PLAIN_ROW(ARROW_JSON_STRUCT, "struct", "+s", ARROW_LAYOUT_STRUCT, ARROW_VALUES_NONE),
    PLAIN_ROW(ARROW_JSON_MAP, "map", "+m", ARROW_LAYOUT_MAP, ARROW_VALUES_NONE),
    {ARROW_JSON_UNION,
     "union",
     {{"mode", "\"SPARSE\""}, {NULL, NULL}},
     {NULL, NULL},
     "+us:{typeIds}",
     ARROW_LAYOUT_SPARSE_UNION,
     0,
     0,
     false,
     ARROW_VALUES_NONE},
    {ARROW_JSON_UNION,
     "union",
     {{"mode", "\"DENSE\""}, {NULL, NULL}},
     {NULL, NULL},
     "+ud:{typeIds}",
     ARROW_LAYOUT_DENSE_UNION,
     0,
     0,
     false,
     ARROW_VALUES_NONE},
    PLAIN_ROW(ARROW_JSON_RUN_END_ENCODED, "runendencoded", "+r", ARROW_LAYOUT_RUN_END_ENCODED,
              ARROW_VALUES_NONE),
};

const size_t arrow_type_row_count = sizeof(arrow_type_rows) / sizeof(arrow_type_rows[0]);

const struct arrow_layout* arrow_layout_of(enum arrow_layout_id id) {
  return &arrow_layouts[id];
}

bool arrow_layout_has_validity(enum arrow_layout_id id) {
  const struct arrow_layout* layout = &arrow_layouts[id];
  return layout->n_roles > 0 && layout->roles[0] == ARROW_BUFFER_VALIDITY;
}

int64_t arrow_layout_buffer_count(enum arrow_layout_id id, int64_t n_variadic) {
  const struct arrow_layout* layout = &arrow_layouts[id];
  bool variadic = layout->n_roles > 0 && layout->roles[layout->n_roles - 1] == ARROW_BUFFER_VARIADIC;
  /* The variadic role stands for its buffers and the buffer of their sizes. */
  return variadic ? layout->n_roles - 1 + n_variadic + 1 : layout->n_roles;
}

enum arrow_buffer_role arrow_layout_buffer_role(enum arrow_layout_id id, int64_t index, int64_t n_buffers) {
  const struct arrow_layout* layout = &arrow_layouts[id];
  (void)n_buffers;
  if (index < layout->n_roles) return layout->roles[index];
  return layout->roles[layout->n_roles - 1]; /* the variadic buffers and their sizes */
}
