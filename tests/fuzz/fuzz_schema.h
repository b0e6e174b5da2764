/* An ArrowSchema tree decoded from the fuzzer's bytes.
 *
 * Each node mostly imitates the fixture's field at its place (format, name,
 * flags, children, dictionary), and the bytes decide where it departs from
 * it: a format from a list that covers the fixtures' types and others
 * (garbage included), a NULL or odd name, other flags, a metadata map,
 * 0 to 3 children, NULL children, a missing or extra dictionary, a NULL
 * release.  Every string is NUL-terminated and every pointer points to what
 * its member says, so the tree is memory-safe: whatever a reader of it
 * trips over is the reader's bug. */
#ifndef ADC_FUZZ_SCHEMA_H
#define ADC_FUZZ_SCHEMA_H

#include "arrow_format/arrow_json.h"
#include "fuzz_bytes.h"

/* The schema of a record batch of `file`'s fields, as a producer might
 * export it; every block lives in `arena`. */
struct ArrowSchema* fuzz_schema_for_file(struct fuzz_bytes* in, struct fuzz_arena* arena,
                                         const struct arrow_json_file* file);

#endif /* ADC_FUZZ_SCHEMA_H */
