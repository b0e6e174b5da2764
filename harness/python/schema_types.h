/* Whether two schemas a library exported have the same physical types:
 * the same format string at every node, the same number of children, a
 * dictionary at the same nodes.  The harness reads a Python library's
 * batches by the schema its ExportSchemaFromJson gives (the library keeps
 * its own model of the data: rule_api/library.h), so the shim declines a
 * batch whose own schema (its pair's, its stream's) says other types:
 * read by the wrong types, a batch's buffers would be read past their
 * end. */
#ifndef ADC_SCHEMA_TYPES_H
#define ADC_SCHEMA_TYPES_H

#include <stdbool.h>
#include <stddef.h>

#include "adc/arrow_c_abi.h"

/* True when they are the same; else false with where they differ first in
 * `difference` ("column 's': 'vu' where the schema has 'u'"). */
bool adc_same_schema_types(const struct ArrowSchema* batch, const struct ArrowSchema* schema,
                           char* difference, size_t size);

#endif /* ADC_SCHEMA_TYPES_H */
